import assert from "node:assert/strict";
import { pythonExtractor } from "../../../src/extract/python/mod.ts";
import { portSummary as summary } from "../_fixtures.ts";

Deno.test("pyramidPorts joins add_route patterns to view_config, view_defaults and add_view views by route name", async () => {
  const { ports } = await pythonExtractor.extract([{
    path: "app.py",
    text: `from pyramid.config import Configurator
from pyramid.view import view_config, view_defaults

@view_config(route_name="invoice", request_method=("GET", "HEAD"))
def invoice(request):
    return {}

@view_defaults(route_name="carts")
class Carts:
    def __init__(self, request):
        self.request = request

    @view_config(request_method="PUT")
    def replace(self):
        return {}

def health(request):
    return {}

def main():
    config = Configurator()
    config.add_route("invoice", "/invoices/{invoice_id:\\d+}")
    config.add_route("carts", "/carts/{cart_id}")
    config.add_route("health", "/health")
    config.add_route("unserved", "/not-a-route")
    config.add_view(health, route_name="health")
    config.add_static_view(name="static", path="pkg:static")
    config.add_static_view(name="https://cdn.example.com/", path="pkg:cdn")
    config.scan()
`,
  }]);
  assert.deepEqual(summary(ports), [
    "app.py:22 server GET /invoices/{} 1",
    "app.py:22 server HEAD /invoices/{} 1",
    "app.py:23 server PUT /carts/{} 1",
    "app.py:24 server ANY /health 1",
    "app.py:27 server GET /static/{} 1",
  ]);
});
