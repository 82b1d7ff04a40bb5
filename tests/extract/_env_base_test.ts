import assert from "node:assert/strict";
import { scan } from "../../src/extract/scan.ts";
import { buildReport } from "../../src/extract/report.ts";
import { makeTree } from "./_temp_tree.ts";

Deno.test("scan() joins the path of a base URL the deployment sets to the calls built on it", async () => {
  const root = await makeTree({
    "docker-compose.yml": `services:
  web:
    build: ./web
    environment:
      USERS_URI: http://users:8080/api
  users:
    build: ./users
`,
    "web/client.py": `import os
import requests

def user(user_id):
    return requests.get(os.environ["USERS_URI"] + "/users/" + str(user_id))

def health():
    return requests.get(os.environ["UNSET_URI"] + "/health")
`,
    "users/main.py": `from fastapi import FastAPI
app = FastAPI()

@app.get("/api/users/{user_id}")
def read(user_id: int):
    return {}
`,
  });
  const result = await scan([root]);
  const clients = result.ports.filter((p) => p.port.ref.role === "client")
    .map((p) => `${p.port.ref.key} ${p.port.ref.confidence}`).sort();
  assert.deepEqual(clients, ["GET /api/users/{} 0.8", "GET /health 0.8"]);
  assert.deepEqual(
    buildReport(result.graph).links.map((l) =>
      `${l.consumer.filePath} ${l.consumer.key} -> ${l.provider.filePath}`
    ),
    ["web/client.py GET /api/users/{} -> users/main.py"],
  );
});
