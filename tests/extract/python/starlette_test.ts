import assert from "node:assert/strict";
import { pythonExtractor } from "../../../src/extract/python/mod.ts";
import { portSummary as summary } from "../_fixtures.ts";

Deno.test("starlettePorts walks Route/Mount trees, mounted routers, endpoint classes and added routes", async () => {
  const { ports } = await pythonExtractor.extract([{
    path: "app.py",
    text: `from starlette.applications import Starlette
from starlette.endpoints import HTTPEndpoint
from starlette.routing import Mount, Route, Router, WebSocketRoute
from starlette.staticfiles import StaticFiles

async def handler(request):
    return None

class Orders(HTTPEndpoint):
    async def get(self, request):
        return None
    async def put(self, request):
        return None

jobs = Router()
jobs.add_route("/runs/{run_id:int}", handler, methods=["DELETE"])

inner = [Route("/orders/{order_id:int}", Orders)]

app = Starlette(routes=[
    Route("/", handler),
    Route("/submit", handler, methods=["POST"]),
    WebSocketRoute("/live", handler),
    Mount("/v1", routes=inner),
    Mount("/jobs", app=jobs),
    Mount("/static", app=StaticFiles(directory="static")),
])

NOT_ROUTES = [("/not-a-route", handler)]
`,
  }]);
  assert.deepEqual(summary(ports), [
    "app.py:16 server DELETE /jobs/runs/{} 0.95",
    "app.py:18 server GET /v1/orders/{} 0.95",
    "app.py:18 server PUT /v1/orders/{} 0.95",
    "app.py:21 server GET / 1",
    "app.py:22 server POST /submit 1",
    "app.py:23 server GET /live 1",
    "app.py:26 server GET /static/{} 1",
  ]);
});
