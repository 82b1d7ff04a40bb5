import assert from "node:assert/strict";
import { pythonExtractor } from "../../../src/extract/python/mod.ts";
import { portSummary as summary } from "../_fixtures.ts";

Deno.test("pythonExtractor follows a client wrapper's path parameter to the calls in other modules", async () => {
  const { ports } = await pythonExtractor.extract([
    {
      path: "app/http.py",
      text: [
        "import httpx",
        'BASE = "http://orders-svc"',
        "def post(path, body=None):",
        "    return httpx.post(BASE + path, json=body)",
      ].join("\n"),
    },
    {
      path: "app/orders.py",
      text: [
        "from app.http import post",
        "def place(order):",
        '    return post("/orders", order)',
        "def cancel(order_id):",
        '    return post(f"/orders/{order_id}/cancel")',
      ].join("\n"),
    },
  ]);
  assert.deepEqual(summary(ports), [
    "app/orders.py:3 client POST /orders 0.95",
    "app/orders.py:5 client POST /orders/{}/cancel 0.8",
  ]);
});

Deno.test("pythonExtractor includes the router a function of another module returns under an imported constant", async () => {
  const { ports } = await pythonExtractor.extract([
    { path: "app/paths.py", text: 'API_PREFIX = "/api/v1"\n' },
    {
      path: "app/main.py",
      text: [
        "from fastapi import FastAPI",
        "from app.paths import API_PREFIX",
        "from app.users import build_router",
        "app = FastAPI()",
        "app.include_router(build_router(), prefix=API_PREFIX)",
      ].join("\n"),
    },
    {
      path: "app/users.py",
      text: [
        "from fastapi import APIRouter",
        "def build_router():",
        '    router = APIRouter(prefix="/users")',
        '    @router.get("/{user_id}")',
        "    def show(user_id: int):",
        "        return {}",
        "    return router",
      ].join("\n"),
    },
  ]);
  assert.deepEqual(summary(ports), [
    "app/users.py:4 server GET /api/v1/users/{} 0.95",
  ]);
});

Deno.test("pythonExtractor gives a route registrar's prefix parameter the value each caller passes", async () => {
  const { ports } = await pythonExtractor.extract([
    {
      path: "app/routes.py",
      text: [
        "from fastapi import APIRouter, FastAPI",
        "from app.health import health",
        "def register(app: FastAPI, prefix: str):",
        "    router = APIRouter()",
        '    router.add_api_route(prefix + "/health", health, methods=["GET"])',
        "    app.include_router(router)",
      ].join("\n"),
    },
    {
      path: "app/main.py",
      text: [
        "from fastapi import FastAPI",
        "from app.routes import register",
        "app = FastAPI()",
        'register(app, "/internal")',
      ].join("\n"),
    },
  ]);
  assert.deepEqual(summary(ports), [
    "app/routes.py:5 server GET /internal/health 0.95",
  ]);
});
