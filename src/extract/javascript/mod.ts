// The JavaScript / TypeScript extractor: HTTP servers (Express, Koa,
// Fastify, Hono, NestJS, Next.js, URLPattern and Bun.serve routes, this
// library's guarded routes; restify, hapi, Oak, Elysia, AdonisJS, Sails,
// Feathers, LoopBack, tRPC; file routes of Remix, SvelteKit, Nitro/Nuxt,
// Fresh and Astro endpoints) and HTTP clients (fetch, axios, ky, generated
// clients). Parses each file once, keeps plain facts, then composes router
// prefixes, client base URLs and constants across the files of a root.
import type {
  ExtractDiagnostic,
  ExtractResult,
  LanguageExtractor,
  SourceFile,
} from "../extractor.ts";
import type { ExtractedPort } from "../types.ts";
import { jsGrammarOf, JsProject } from "./project.ts";
import { Servers } from "./servers.ts";
import { Clients } from "./clients.ts";
import { sailsBlueprints } from "./sails.ts";
import { appRoutes } from "./route_modules.ts";
import { nextReexported } from "./nextjs.ts";
import { trpcRoutes } from "./trpc.ts";
import { feathersRoutes } from "./feathers.ts";

export { jsGrammarOf, JsProject } from "./project.ts";

/**
 * Extracts HTTP ports from JavaScript and TypeScript: servers (Express,
 * Koa, Fastify, Hono, NestJS, Next.js routes, URLPattern and `Bun.serve`
 * routes, `guard.requirePermission(...)` handlers, restify, hapi, Oak,
 * Elysia, AdonisJS, Sails, Feathers, LoopBack, tRPC procedures, and the
 * file routes of Remix, SvelteKit, Nitro/Nuxt, Fresh and Astro endpoints) and clients (fetch,
 * axios, ky, generated clients passing `{ url, method }`).
 *
 * @example
 * ```ts
 * import { javascriptExtractor } from "@portcullis/portcullis/extract";
 * import assert from "node:assert/strict";
 *
 * const { ports } = await javascriptExtractor.extract([{
 *   path: "server.ts",
 *   text: 'import express from "express";\n' +
 *     "const app = express();\n" +
 *     'app.get("/users/:id", (req, res) => res.json({}));\n',
 * }]);
 * assert.equal(ports[0]?.ref.key, "GET /users/{}");
 * ```
 */
export const javascriptExtractor: LanguageExtractor = {
  name: "javascript",
  accepts(path: string): boolean {
    return jsGrammarOf(path) !== undefined;
  },
  async extract(files: readonly SourceFile[]): Promise<ExtractResult> {
    const diagnostics: ExtractDiagnostic[] = [];
    const project = await JsProject.load(files, diagnostics);
    const servers = new Servers(project, diagnostics);
    const clients = new Clients(project, diagnostics);
    const ports: ExtractedPort[] = [];
    for (const file of project.files) {
      for (const route of file.routes) servers.routePorts(file, route, ports);
      for (const client of file.clients) {
        clients.clientPort(file, client, ports);
      }
      for (const call of file.helperCalls) {
        clients.helperPorts(file, call, ports);
      }
    }
    const conventional = [
      ...sailsBlueprints(project.files),
      ...appRoutes(project.files),
      ...nextReexported(project),
      ...trpcRoutes(project),
      ...feathersRoutes(project),
    ];
    for (const [file, route] of conventional) {
      servers.routePorts(file, route, ports);
    }
    return { ports, diagnostics };
  },
};

export { jsGrpc } from "./grpc.ts";
export { jsTemporal } from "./temporal.ts";
export { jsQueueExports, jsQueuePorts } from "./queue.ts";
