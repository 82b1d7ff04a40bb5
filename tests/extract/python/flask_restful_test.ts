import assert from "node:assert/strict";
import { pythonExtractor } from "../../../src/extract/python/mod.ts";
import { portSummary as summary } from "../_fixtures.ts";

Deno.test("flaskRestfulPorts follows an Api subclass method that forwards to add_resource", async () => {
  const { ports } = await pythonExtractor.extract([{
    path: "api.py",
    text: `from flask import Flask
from flask_restful import Api, Resource

class TenantApi(Api):
    def add_tenant_resource(self, resource, *urls, **kwargs):
        return self.add_resource(resource, *urls, **kwargs)

    def describe(self, resource, *urls):
        return (resource, urls)

class Invoices(Resource):
    def get(self):
        return []

    def post(self):
        return {}

app = Flask(__name__)
api = TenantApi(app)
api.add_tenant_resource(Invoices, "/invoices", "/bills", endpoint="invoices")
api.describe(Invoices, "/not-a-route")
`,
  }]);
  assert.deepEqual(summary(ports), [
    "api.py:20 server GET /bills 1",
    "api.py:20 server GET /invoices 1",
    "api.py:20 server POST /bills 1",
    "api.py:20 server POST /invoices 1",
  ]);
});
