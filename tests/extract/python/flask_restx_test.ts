import assert from "node:assert/strict";
import { pythonExtractor } from "../../../src/extract/python/mod.ts";
import { portSummary as summary } from "../_fixtures.ts";

const resources = (name: string) =>
  `from flask_restx import Namespace, Resource

ns = Namespace("${name}")
paths = Namespace("paths", path="/p")

@ns.route("/<int:item_id>")
class Item(Resource):
    def get(self, item_id):
        return {}
    def delete(self, item_id):
        return {}

@paths.route("/status", "/health")
class Status(Resource):
    def get(self):
        return {}

class Plain:
    def route(self, url):
        return lambda c: c

plain = Plain()

@plain.route("/not-a-route")
class Other(Resource):
    def get(self):
        return {}
`;

Deno.test("flaskRestxPorts composes namespace, Api and blueprint paths, and imports the sibling module of each service", async () => {
  const { ports } = await pythonExtractor.extract([
    {
      path: "svc_a/app.py",
      text: `from flask import Flask, Blueprint
from flask_restx import Api
from resources import ns, paths

app = Flask(__name__)
bp = Blueprint("api", __name__, url_prefix="/a")
api = Api(bp, prefix="/v1")
api.add_namespace(ns, "/things")
api.add_namespace(paths)
app.register_blueprint(bp)
`,
    },
    { path: "svc_a/resources.py", text: resources("things") },
    {
      path: "svc_b/app.py",
      text: `from flask import Flask
from flask_restx import Api
from resources import ns

app = Flask(__name__)
api = Api(app)
api.add_namespace(ns)
`,
    },
    { path: "svc_b/resources.py", text: resources("widgets") },
  ]);
  assert.deepEqual(summary(ports), [
    "svc_a/resources.py:13 server GET /a/v1/p/health 0.95",
    "svc_a/resources.py:13 server GET /a/v1/p/status 0.95",
    "svc_a/resources.py:6 server DELETE /a/v1/things/{} 0.95",
    "svc_a/resources.py:6 server GET /a/v1/things/{} 0.95",
    "svc_b/resources.py:13 server GET /p/health 0.6",
    "svc_b/resources.py:13 server GET /p/status 0.6",
    "svc_b/resources.py:6 server DELETE /widgets/{} 0.95",
    "svc_b/resources.py:6 server GET /widgets/{} 0.95",
  ]);
});
