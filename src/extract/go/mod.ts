// Go HTTP servers (net/http incl. Go 1.22 method patterns, gorilla/mux,
// gin, echo, chi, fiber, hertz, iris, httprouter, goyave, go-zero,
// go-restful, beego, huma), clients (net/http, Go kit) and Dapr service
// invocation (Go SDK). Routes on routers count only on receivers that are
// router values of those packages: the type of every receiver is traced to
// a constructor, a parameter or field type, or a group/subrouter of another
// router, so `url.Values.Get` or a map lookup never matches.
import { httpBoundaryKey } from "../../boundary/http_path.ts";
import type {
  ExtractDiagnostic,
  ExtractResult,
  LanguageExtractor,
  SourceFile,
} from "../extractor.ts";
import { GoProject } from "./project.ts";
import {
  CONFIDENCE,
  isEmpty,
  joinPaths,
  routePath,
  type Value,
} from "../_value/mod.ts";
import { ownerOf, positionOf } from "../_syntax/compact_tree.ts";
import type { ExtractedPort } from "../types.ts";
import { clientPorts } from "./clients.ts";
import { goKitClientPorts } from "./gokit.ts";
import { daprInvocationPorts } from "./dapr.ts";
import { goZeroRoutes } from "./gozero.ts";
import { goRestfulRoutes } from "./restful.ts";
import { beegoRoutes } from "./beego.ts";
import { humaRoutes } from "./huma.ts";
import { optionQueuePorts } from "./queue_options.ts";
import { GoFlow } from "./flow.ts";
import { type PendingRoute, Routers } from "./routers.ts";
import { routeOf } from "./routes.ts";
import { gfBindRoutes } from "./gf_meta.ts";
import { isGoTestFile } from "./test_files.ts";

/**
 * Finds HTTP routes (net/http, gorilla/mux, gin, echo, chi, fiber, hertz,
 * iris, httprouter, goyave, go-zero, go-restful, beego, huma), HTTP calls
 * (net/http, Go kit) and Dapr service invocation in Go files (test files
 * left out).
 *
 * @example Usage
 * ```ts
 * import { goExtractor } from "@portcullis/portcullis/extract";
 * import assert from "node:assert/strict";
 *
 * const { ports } = await goExtractor.extract([{
 *   path: "main.go",
 *   text: 'package main\n\nimport "net/http"\n\nfunc main() {\n\thttp.HandleFunc("GET /health", nil)\n}\n',
 * }]);
 * assert.equal(ports[0]?.ref.key, "GET /health");
 * ```
 */
export const goExtractor: LanguageExtractor = {
  name: "go",
  accepts(path: string): boolean {
    return path.endsWith(".go") && !path.endsWith(".pb.go") &&
      !isGoTestFile(path);
  },
  extract: extractGo,
};

async function extractGo(files: readonly SourceFile[]): Promise<ExtractResult> {
  const diagnostics: ExtractDiagnostic[] = [];
  const project = await GoProject.load(files, diagnostics, true);
  try {
    const routers = new Routers(project);
    const flow = new GoFlow(project);
    const pending: PendingRoute[] = [];
    const ports: ExtractedPort[] = [];
    for (const file of project.files) {
      for (const call of project.callsIn(file)) {
        const route = routeOf(call, project, routers);
        if (route) {
          pending.push(route);
          continue;
        }
        pending.push(...gfBindRoutes(call, project, routers));
        ports.push(...clientPorts(call, project, flow));
        ports.push(...goKitClientPorts(call, project, flow));
        ports.push(...daprInvocationPorts(call, project));
        ports.push(...goZeroRoutes(call, project));
        ports.push(...goRestfulRoutes(call, project));
        ports.push(...beegoRoutes(call, project));
        ports.push(...humaRoutes(call, project));
      }
    }
    ports.push(...optionQueuePorts(project));
    for (const route of pending) {
      const file = project.fileOf(route.call);
      if (!file) continue;
      const { line, col } = positionOf(route.call);
      const seen = new Set<string>();
      // a wrapper's route path comes from its callers
      const paths = flow.expand(route.call, route.path).map((f) => f.value);
      for (const ref of route.refs) {
        for (
          const [prefix, path] of routers.prefixes(ref.root).flatMap((p) =>
            paths.map((q): [Value, Value] => [p, q])
          )
        ) {
          const base = joinPaths(prefix, ref.rel);
          const full = joinPaths(base, path);
          const result = routePath(full, !isEmpty(base));
          const confidence = Math.min(
            result.confidence,
            route.confidence,
            ref.weak ? CONFIDENCE.partial : CONFIDENCE.literal,
          );
          for (const method of route.methods) {
            const key = httpBoundaryKey(method, result.path);
            if (seen.has(key)) continue;
            seen.add(key);
            ports.push({
              ref: {
                mechanism: "http",
                role: "server",
                key,
                line,
                col,
                confidence,
                detail: {
                  method,
                  path: result.path,
                  raw: route.raw,
                  framework: route.framework,
                },
              },
              owner: ownerOf(route.call, file.file.path, "go"),
              filePath: file.file.path,
            });
          }
        }
      }
    }
    return { ports, diagnostics };
  } finally {
    project.delete();
  }
}

export { goGrpc } from "./grpc.ts";
export { goTemporal } from "./temporal.ts";
export { goQueuePorts } from "./queue.ts";
