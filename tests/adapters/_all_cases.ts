// Every adapter case, for scripts/smoke_npm.ts to bundle for Node and Bun.
import type { Case } from "./_case.ts";
import { expressCases } from "./_express_cases.ts";
import { honoCases } from "./_hono_cases.ts";
import { nodeCases } from "./_node_cases.ts";

export const cases: Case[] = [...nodeCases, ...honoCases, ...expressCases];
