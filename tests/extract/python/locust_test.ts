import assert from "node:assert/strict";
import { pythonExtractor } from "../../../src/extract/python/mod.ts";
import { portLines } from "../_fixtures.ts";

Deno.test("pythonExtractor reads the calls of Locust users and task sets", async () => {
  const { ports } = await pythonExtractor.extract([{
    path: "load/locustfile.py",
    text: `from locust import HttpUser, TaskSet, task
import locust as lc

class Browse(TaskSet):
    @task
    def home(self):
        self.client.get("/")
        with self.client.post("/basket/" + str(7), json={}) as r:
            pass

class Shopper(HttpUser):
    tasks = [Browse]

    @task
    def login(self):
        self.client.post("/session", data={"user": "u"})

class Fast(lc.FastHttpUser):
    def stock(self):
        self.client.get("/stock/items")

class NotLocust:
    def go(self):
        self.client.get("/nope")
`,
  }]);
  assert.deepEqual(portLines(ports), [
    "client GET / load/locustfile.py:7",
    "client GET /stock/items load/locustfile.py:20",
    "client POST /basket/{} load/locustfile.py:8",
    "client POST /session load/locustfile.py:16",
  ]);
  assert.ok(ports.every((p) => p.ref.detail["framework"] === "locust"));
});
