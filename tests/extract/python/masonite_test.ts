import assert from "node:assert/strict";
import { pythonExtractor } from "../../../src/extract/python/mod.ts";
import { portSummary as summary } from "../_fixtures.ts";

Deno.test("masonitePorts reads Route verbs, match, resource/api actions and nested group prefixes", async () => {
  const { ports } = await pythonExtractor.extract([{
    path: "routes/web.py",
    text: `from masonite.routes import Route

class Router:
    def get(self, url, action):
        return None

local = Router()

ROUTES = [
    Route.get("/invoices/@invoice_id:integer", "InvoiceController@show"),
    Route.match(["post", "put"], "/sync/?since", "SyncController@run"),
    Route.group([
        Route.delete("/cache", "CacheController@clear"),
        Route.group([
            Route.view("/help", "help"),
        ], prefix="/docs"),
    ], prefix="/admin"),
    *Route.api("tags", "TagController"),
    local.get("/not-a-route", "X@y"),
]
`,
  }]);
  assert.deepEqual(summary(ports), [
    "routes/web.py:10 server GET /invoices/{} 1",
    "routes/web.py:11 server POST /sync/{} 1",
    "routes/web.py:11 server PUT /sync/{} 1",
    "routes/web.py:13 server DELETE /admin/cache 0.95",
    "routes/web.py:15 server GET /admin/docs/help 0.95",
    "routes/web.py:18 server DELETE /tags/{} 1",
    "routes/web.py:18 server GET /tags 1",
    "routes/web.py:18 server GET /tags/{} 1",
    "routes/web.py:18 server PATCH /tags/{} 1",
    "routes/web.py:18 server POST /tags 1",
    "routes/web.py:18 server PUT /tags/{} 1",
  ]);
});
