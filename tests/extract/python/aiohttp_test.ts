import assert from "node:assert/strict";
import { pythonExtractor } from "../../../src/extract/python/mod.ts";
import { portSummary as summary } from "../_fixtures.ts";

Deno.test("aiohttpPorts reads router methods, route defs, RouteTableDef decorators and subapp prefixes through setup functions", async () => {
  const { ports } = await pythonExtractor.extract([{
    path: "server.py",
    text: `from aiohttp import web, ClientSession

table = web.RouteTableDef()

@table.get("/ping")
async def ping(request):
    return web.Response()

@table.view("/carts/{cart_id}")
class Carts(web.View):
    async def get(self):
        return web.Response()
    async def delete(self):
        return web.Response()

async def handler(request):
    return web.Response()

billing = [web.post("/invoices", handler), web.route("*", "/hooks", handler)]

def setup(app):
    app.router.add_get("/users/{user_id}", handler)
    add = app.router.add_route
    add("PATCH", "/users/{user_id}", handler)
    app.router.add_static("/media/", path="media")

def main():
    app = web.Application()
    admin = web.Application()
    setup(admin)
    admin.add_routes(billing)
    app.add_subapp("/admin", admin)
    app.add_routes(table)

class Registry:
    def add_get(self, path, handler):
        pass

registry = Registry()
registry.add_get("/not-a-route", handler)
setup(registry)

async def call_out():
    async with ClientSession() as session:
        await session.get("http://svc/not-a-route")
`,
  }]);
  assert.deepEqual(summary(ports.filter((p) => p.ref.role === "server")), [
    "server.py:19 server ANY /admin/hooks 0.95",
    "server.py:19 server POST /admin/invoices 0.95",
    "server.py:22 server GET /admin/users/{} 0.95",
    "server.py:24 server PATCH /admin/users/{} 0.95",
    "server.py:25 server GET /admin/media/{} 0.95",
    "server.py:5 server GET /ping 1",
    "server.py:9 server DELETE /carts/{} 1",
    "server.py:9 server GET /carts/{} 1",
  ]);
});
