import assert from "node:assert/strict";
import { pythonExtractor } from "../../../src/extract/python/mod.ts";
import { portSummary as summary } from "../_fixtures.ts";

async function serverKeys(
  files: Record<string, string>,
): Promise<string[]> {
  const { ports } = await pythonExtractor.extract(
    Object.entries(files).map(([path, text]) => ({ path, text })),
  );
  return summary(ports.filter((p) => p.ref.role === "server"));
}

Deno.test("PyRouters reads Quart routes, websockets, blueprints and class-based views", async () => {
  assert.deepEqual(
    await serverKeys({
      "app.py": `from quart import Quart, Blueprint
from quart.views import MethodView, View

app = Quart(__name__)
shop = Blueprint("shop", __name__, url_prefix="/shop")

@app.route("/carts", methods=["GET", "PUT"])
async def carts():
    return ""

@app.websocket("/live")
async def live():
    pass

@shop.patch("/orders/<int:order_id>")
async def patch_order(order_id):
    return ""

class Invoice(MethodView):
    async def get(self):
        return ""
    async def delete(self):
        return ""

class Export(View):
    methods = ["POST"]
    async def dispatch_request(self):
        return ""

app.add_url_rule("/invoices", view_func=Invoice.as_view("invoices"))
app.add_url_rule("/exports", view_func=Export.as_view("exports"))
app.register_blueprint(shop, url_prefix="/store")

class NotAnApp:
    def route(self, rule):
        return lambda f: f

other = NotAnApp()

@other.route("/not-a-route")
def nope():
    return ""
`,
    }),
    [
      "app.py:11 server GET /live 1",
      "app.py:15 server PATCH /store/orders/{} 0.95",
      "app.py:30 server DELETE /invoices 1",
      "app.py:30 server GET /invoices 1",
      "app.py:31 server POST /exports 1",
      "app.py:7 server GET /carts 1",
      "app.py:7 server PUT /carts 1",
    ],
  );
});

Deno.test("PyRouters reads Sanic routes, blueprint groups, versions and static files", async () => {
  assert.deepEqual(
    await serverKeys({
      "server.py": `from sanic import Sanic, Blueprint
from sanic.views import HTTPMethodView

app = Sanic("shop")
users = Blueprint("users", url_prefix="/users")
stats = Blueprint("stats", url_prefix="/stats")
orders = Blueprint("orders", url_prefix="/orders")

@users.get("/<user_id:int>")
async def get_user(request, user_id):
    return None

@stats.route("/daily", methods=["GET", "POST"], version=3)
async def daily(request):
    return None

@orders.post("/")
async def create_order(request):
    return None

class Tags(HTTPMethodView):
    async def put(self, request, tag):
        return None

async def feed(request, ws):
    pass

app.add_route(Tags.as_view(), "/tags/<tag>")
app.add_websocket_route(feed, "/feed")
app.static("/media", "./media")
group = Blueprint.group(users, stats, url_prefix="/admin", version=2)
app.blueprint(group)
app.blueprint(orders, url_prefix="/checkout")
app.static_folder("/not-static")
`,
    }),
    [
      "server.py:13 server GET /v3/admin/stats/daily 0.95",
      "server.py:13 server POST /v3/admin/stats/daily 0.95",
      "server.py:17 server POST /checkout 0.95",
      "server.py:28 server PUT /tags/{} 1",
      "server.py:29 server GET /feed 1",
      "server.py:30 server GET /media/{} 1",
      "server.py:9 server GET /v2/admin/users/{} 0.95",
    ],
  );
});

Deno.test("PyRouters reads FastAPI websockets, static mounts and Flask class views and static_url_path", async () => {
  assert.deepEqual(
    await serverKeys({
      "main.py": `from fastapi import FastAPI, APIRouter, WebSocket
from fastapi.staticfiles import StaticFiles

app = FastAPI()
router = APIRouter(prefix="/rt")

@router.websocket("/rooms/{room}")
async def room(websocket: WebSocket, room: str):
    pass

async def echo(websocket: WebSocket):
    pass

router.add_api_websocket_route("/echo", echo)
app.include_router(router)
app.mount("/static", StaticFiles(directory="static"))
app.mount("/sub", FastAPI())
`,
      "web.py": `import flask
from flask.views import MethodView

site = flask.Flask(__name__, static_url_path="/files")

class Items(MethodView):
    def get(self):
        return ""
    def post(self):
        return ""

items = Items.as_view("items")
site.add_url_rule("/items", view_func=items)
`,
    }),
    [
      "main.py:14 server GET /rt/echo 0.95",
      "main.py:16 server GET /static/{} 1",
      "main.py:7 server GET /rt/rooms/{} 0.95",
      "web.py:13 server GET /items 1",
      "web.py:13 server POST /items 1",
      "web.py:4 server GET /files/{} 1",
    ],
  );
});

Deno.test("pythonExtractor reports no routes declared in test files", async () => {
  const app = `from flask import Flask
app = Flask(__name__)

@app.get("/probe")
def probe():
    return ""
`;
  assert.deepEqual(
    await serverKeys({
      "service/app.py": app,
      "service/tests.py": app,
      "service/test_app.py": app,
      "service/app_test.py": app,
      "tests/helpers.py": app,
      "service/test/main.py": app,
      "service/contest.py": app,
      "service/testing.py": app,
    }),
    [
      "service/app.py:4 server GET /probe 1",
      "service/contest.py:4 server GET /probe 1",
      "service/testing.py:4 server GET /probe 1",
    ],
  );
});

Deno.test("PyRouters reads Django Ninja APIs, routers added by value or dotted name, and the Django path they are served under", async () => {
  assert.deepEqual(
    await serverKeys({
      "site/urls.py": `from django.urls import path
from .api import api

urlpatterns = [path("v2/", api.urls)]
`,
      "site/api.py": `from ninja import NinjaAPI
from shop.api import router as shop_router

api = NinjaAPI()

@api.get("/orders/{int:order_id}")
def order(request, order_id: int):
    return {}

@api.api_operation(["PUT", "PATCH"], "/carts")
def carts(request):
    return {}

api.add_router("/shop/", shop_router)
api.add_router("/billing/", "billing.api.router")
`,
      "shop/api.py": `from ninja import Router
router = Router()

@router.post("/items")
def add_item(request):
    return {}
`,
      "billing/api.py": `from ninja import Router
router = Router()
helper = {"get": lambda path: path}

@router.get("/invoices")
def invoices(request):
    return []

helper["get"]("/not-a-route")
`,
    }),
    [
      "billing/api.py:5 server GET /v2/billing/invoices 0.95",
      "shop/api.py:4 server POST /v2/shop/items 0.95",
      "site/api.py:10 server PATCH /v2/carts 0.95",
      "site/api.py:10 server PUT /v2/carts 0.95",
      "site/api.py:6 server GET /v2/orders/{} 0.95",
    ],
  );
});

Deno.test("PyRouters reads Robyn apps and SubRouters whose prefixes compose through include_router", async () => {
  assert.deepEqual(
    await serverKeys({
      "app.py": `from robyn import Robyn, SubRouter

app = Robyn(__file__)
api = SubRouter(__file__, "/api")
admin = SubRouter(__file__, prefix="/admin")

@app.get("/users/:user_id")
async def user(request):
    return {}

@admin.delete("/sessions/:sid")
async def end_session(request):
    return {}

@api.websocket("/feed")
async def feed(ws):
    pass

api.include_router(admin)
app.include_router(api)

class Fake:
    def get(self, path):
        return lambda f: f

fake = Fake()

@fake.get("/not-a-route")
def nope():
    pass
`,
    }),
    [
      "app.py:11 server DELETE /api/admin/sessions/{} 0.95",
      "app.py:15 server GET /api/feed 0.95",
      "app.py:7 server GET /users/{} 1",
    ],
  );
});
