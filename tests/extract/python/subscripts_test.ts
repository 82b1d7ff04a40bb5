import assert from "node:assert/strict";
import { pythonExtractor } from "../../../src/extract/python/mod.ts";
import { portLines } from "../_fixtures.ts";

Deno.test("pythonExtractor reads a URL kept under a constant key of app.config", async () => {
  const { ports } = await pythonExtractor.extract([{
    path: "web/app.py",
    text: `import os
import requests
from flask import Flask

def create_app():
    app = Flask(__name__)

    @app.route("/home")
    def home():
        requests.get(url=app.config["USERS_URI"] + "/me")
        requests.post(url=app.config["ORDERS_URI"])
        requests.get(url=app.config["TWICE"])
        requests.get(url=app.config["NEVER_SET"])
        return "ok"

    app.config["USERS_URI"] = "http://{}/users".format(os.environ.get("USERS_ADDR"))
    app.config["ORDERS_URI"] = "http://orders:8080/orders"
    app.config["TWICE"] = "http://a/one"
    app.config["TWICE"] = "http://a/two"
    return app
`,
  }]);
  assert.deepEqual(
    portLines(ports).filter((line) => line.startsWith("client")),
    [
      "client GET /users/me web/app.py:10",
      "client POST /orders web/app.py:11",
    ],
  );
});
