// A CommonJS TypeScript consumer: `import` compiles to require(), which
// TypeScript allows for ESM packages under module "nodenext" (5.8+).
import { PermissionGuard } from "portcullis";
import { serve } from "portcullis/node";
import { BoundaryGraph } from "portcullis-boundary";
import { scan } from "portcullis-scan";

export const parts: unknown[] = [PermissionGuard, serve, BoundaryGraph, scan];
