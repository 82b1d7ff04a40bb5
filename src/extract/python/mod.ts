// Python HTTP servers (FastAPI, Flask, Django, Django REST framework
// routers, Flask-RESTful and Flask-RESTX resources, Flask-AppBuilder, Quart,
// Sanic, Bottle, Robyn, Django Ninja, Tornado, Starlette, Litestar, aiohttp,
// Falcon, Masonite, Pyramid, CherryPy, http.server) and clients (requests,
// httpx, aiohttp). Routes declared in test files are left out.
// Routers are followed across modules: FastAPI `include_router` and Flask
// `register_blueprint` prefixes compose with the router's own prefix, Django
// `include()` prefixes compose along the URLconf tree (also over DRF
// `router.urls`).
import type {
  ExtractDiagnostic,
  ExtractResult,
  LanguageExtractor,
  SourceFile,
} from "../extractor.ts";
import type { ExtractedPort } from "../types.ts";
import { PyProject } from "./project.ts";
import { isTestPath } from "../_test_paths.ts";
import { PyRouters } from "./routers.ts";
import { clientPorts } from "./clients.ts";
import { PyFlow } from "./flow.ts";
import { djangoPorts } from "./django.ts";
import { drfPorts } from "./drf.ts";
import { flaskRestfulPorts } from "./flask_restful.ts";
import { tornadoPorts } from "./tornado.ts";
import { flaskRestxPorts } from "./flask_restx.ts";
import { masonitePorts } from "./masonite.ts";
import { aiohttpPorts } from "./aiohttp.ts";
import { starlettePorts } from "./starlette.ts";
import { litestarPorts } from "./litestar.ts";
import { bottlePorts } from "./bottle.ts";
import { falconPorts } from "./falcon.ts";
import { pyramidPorts } from "./pyramid.ts";
import { cherrypyPorts } from "./cherrypy.ts";
import { httpServerPorts } from "./http_server.ts";
import { flaskAppBuilderPorts } from "./flask_appbuilder.ts";

/**
 * Finds HTTP routes (FastAPI, Flask, Django, Django REST framework
 * routers, Flask-RESTful and Flask-RESTX resources, Flask-AppBuilder,
 * Quart, Sanic, Bottle, Robyn, Django Ninja, Tornado, Starlette, Litestar,
 * aiohttp, Falcon, Masonite, Pyramid, CherryPy, http.server; not in test
 * files) and HTTP calls (requests, httpx, aiohttp) in Python files.
 *
 * @example Usage
 * ```ts
 * import { pythonExtractor } from "@portcullis/portcullis/extract";
 * import assert from "node:assert/strict";
 *
 * const { ports } = await pythonExtractor.extract([{
 *   path: "main.py",
 *   text: 'from fastapi import FastAPI\napp = FastAPI()\n\n@app.get("/health")\ndef health():\n    return {}\n',
 * }]);
 * assert.equal(ports[0]?.ref.key, "GET /health");
 * ```
 */
export const pythonExtractor: LanguageExtractor = {
  name: "python",
  accepts(path: string): boolean {
    return path.endsWith(".py") && !/_pb2(_grpc)?\.py$/.test(path);
  },
  extract: extractPython,
};

async function extractPython(
  files: readonly SourceFile[],
): Promise<ExtractResult> {
  const diagnostics: ExtractDiagnostic[] = [];
  const project = await PyProject.load(files, diagnostics, true);
  try {
    const ports: ExtractedPort[] = [];
    const flow = new PyFlow(project);
    const routers = new PyRouters(project, flow);
    for (const module of project.list) {
      for (const call of module.calls) {
        const routes = routers.routePorts(module, call) ??
          routers.staticPorts(module, call);
        ports.push(...(routes ?? clientPorts(module, call, project, flow)));
      }
    }
    const django = djangoPorts(project);
    ports.push(...django.ports);
    ports.push(...drfPorts(project, django.urls));
    ports.push(...flaskRestfulPorts(project, (e) => routers.flaskPrefixes(e)));
    ports.push(...flaskRestxPorts(project, (e) => routers.flaskPrefixes(e)));
    ports.push(...tornadoPorts(project));
    ports.push(...masonitePorts(project));
    ports.push(...aiohttpPorts(project, flow));
    ports.push(...starlettePorts(project));
    ports.push(...litestarPorts(project));
    ports.push(...bottlePorts(project));
    ports.push(...falconPorts(project));
    ports.push(...pyramidPorts(project));
    ports.push(...cherrypyPorts(project));
    ports.push(...httpServerPorts(project));
    ports.push(...flaskAppBuilderPorts(project));
    // routes declared in test code are test scaffolding, not the service's
    return {
      ports: ports.filter((p) =>
        p.ref.role !== "server" || !isPythonTestPath(p.filePath)
      ),
      diagnostics,
    };
  } finally {
    project.delete();
  }
}

/** Python test files the scan's test rule does not name: `test.py`, `*_tests.py`. */
const PYTHON_TEST_FILE = /(?:^|\/)(?:test|[^/]*_tests)\.py$/;

/**
 * Whether a path is Python test code: test code by the scan's rule
 * (`tests.py`, `test_*.py`, `*_test.py`, `conftest.py`, a file under a
 * `test` or `tests` directory), or `test.py`, `*_tests.py`.
 */
function isPythonTestPath(path: string): boolean {
  return isTestPath(path) || PYTHON_TEST_FILE.test(path);
}

export { pythonGrpc } from "./grpc.ts";
export { pythonTemporal } from "./temporal.ts";
export { pythonQueueExports, pythonQueuePorts } from "./queue.ts";
export { PyProject } from "./project.ts";
