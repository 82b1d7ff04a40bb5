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

Deno.test("pythonExtractor reads a Locust helper's calls through the user it is given, only in Locust files", async () => {
  const { ports } = await pythonExtractor.extract([
    {
      path: "load/locustfile.py",
      text: `from locust import HttpUser, task

def signup(user, name):
    with user.client.post("/signup", data={"name": name}) as r:
        return r.ok

class Visitor(HttpUser):
    @task
    def join(self):
        signup(self, "ann")
`,
    },
    {
      // not a Locust file: a parameter's client is anything
      path: "app/sync.py",
      text: `def push(service, item):
    service.client.post("/items", json=item)
`,
    },
  ]);
  assert.deepEqual(portLines(ports), [
    "client POST /signup load/locustfile.py:4",
  ]);
});
