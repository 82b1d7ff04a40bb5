import assert from "node:assert/strict";
import { pythonExtractor } from "../../../src/extract/python/mod.ts";
import { portSummary as summary } from "../_fixtures.ts";

Deno.test("litestarPorts composes controller, router and app paths of decorated handlers", async () => {
  const { ports } = await pythonExtractor.extract([{
    path: "app.py",
    text:
      `from litestar import Controller, Litestar, Router, get, post, route, websocket

def get_thing(path):
    return path

@get(["/", "/home"])
async def home() -> dict:
    return {}

@route("/sync", http_method=["PUT", "PATCH"])
async def sync() -> None:
    pass

@websocket("/live/{room:str}")
async def live(socket) -> None:
    pass

class Invoices(Controller):
    path = "/invoices"

    @get("/{invoice_id:int}")
    async def read(self, invoice_id: int) -> dict:
        return {}

    @post()
    async def create(self) -> dict:
        get_thing("/not-a-route")
        return {}

@get("/orphan")
async def orphan() -> dict:
    return {}

billing = Router(path="/billing", route_handlers=[Invoices, sync])
app = Litestar(route_handlers=[home, live, billing])
`,
  }]);
  assert.deepEqual(summary(ports), [
    "app.py:10 server PATCH /billing/sync 0.95",
    "app.py:10 server PUT /billing/sync 0.95",
    "app.py:14 server GET /live/{} 1",
    "app.py:21 server GET /billing/invoices/{} 0.95",
    "app.py:25 server POST /billing/invoices 0.95",
    "app.py:30 server GET /orphan 1",
    "app.py:6 server GET / 1",
    "app.py:6 server GET /home 1",
  ]);
});
