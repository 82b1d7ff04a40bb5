import assert from "node:assert/strict";
import { pythonExtractor } from "../../../src/extract/python/mod.ts";
import { portSummary as summary } from "../_fixtures.ts";

Deno.test("bottlePorts reads default-app decorators, Bottle app routes and mount prefixes", async () => {
  const { ports } = await pythonExtractor.extract([{
    path: "app.py",
    text: `import bottle
from bottle import Bottle, route, post
import requests

app = Bottle()
admin = Bottle()

@route("/ping")
def ping():
    return "ok"

@bottle.route("/sync", method=["PUT", "PATCH"])
def sync():
    return ""

@post("/hooks/<hook_id:int>")
def hook(hook_id):
    return ""

@admin.route("/stats", method="DELETE")
def stats():
    return ""

def health():
    return ""

app.route("/health", method="GET", callback=health)
app.mount("/admin", admin)

def fetch():
    return requests.post("http://svc/not-a-server-route")
`,
  }]);
  assert.deepEqual(summary(ports.filter((p) => p.ref.role === "server")), [
    "app.py:12 server PATCH /sync 1",
    "app.py:12 server PUT /sync 1",
    "app.py:16 server POST /hooks/{} 1",
    "app.py:20 server DELETE /admin/stats 0.95",
    "app.py:27 server GET /health 1",
    "app.py:8 server GET /ping 1",
  ]);
});
