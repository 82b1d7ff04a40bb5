import assert from "node:assert/strict";
import fc from "fast-check";
import { pythonExtractor } from "../../../src/extract/python/mod.ts";
import type { SourceFile } from "../../../src/extract/extractor.ts";
import { loadFixture, portSummary as summary } from "../_fixtures.ts";

function load(dir: string): Promise<SourceFile[]> {
  return loadFixture(`python/${dir}`, pythonExtractor.accepts);
}

Deno.test("pythonExtractor composes FastAPI include_router prefixes and settings constants across modules", async () => {
  const { ports, diagnostics } = await pythonExtractor.extract(
    await load("fastapi_app"),
  );
  assert.deepEqual(diagnostics, []);
  assert.deepEqual(summary(ports), [
    "app/api/routes/items.py:11 server PATCH /api/v1/items/{} 0.95",
    "app/api/routes/items.py:11 server PUT /api/v1/items/{} 0.95",
    "app/api/routes/items.py:6 server GET /api/v1/items/{} 0.95",
    "app/api/routes/users.py:11 server GET /api/v1/users/{} 0.95",
    "app/api/routes/users.py:16 server POST /api/v1/users 0.95",
    "app/api/routes/users.py:6 server GET /api/v1/users 0.95",
    "app/main.py:9 server GET /health 1",
  ]);
  const read = ports.find((p) => p.ref.key === "GET /api/v1/users/{}");
  assert.equal(read?.owner.qualifiedName, "app/api/routes/users.py::read_user");
  assert.equal(read?.ref.col, 1);
  assert.equal(read?.ref.mechanism, "http");
  assert.equal(read?.ref.detail.framework, "fastapi");
});

Deno.test("pythonExtractor reads Flask routes, methods and blueprint prefixes set at registration", async () => {
  const { ports } = await pythonExtractor.extract(await load("flask_app"));
  assert.deepEqual(summary(ports), [
    "admin.py:6 server GET /admin/stats 0.95",
    "app.py:14 server GET /ping 1",
    "blueprints/orders.py:11 server GET /api/orders/{} 0.95",
    "blueprints/orders.py:20 server DELETE /api/orders/{}/cancel 0.95",
    "blueprints/orders.py:6 server GET /api/orders 0.95",
    "blueprints/orders.py:6 server POST /api/orders 0.95",
  ]);
  const ping = ports.find((p) => p.ref.key === "GET /ping");
  assert.equal(ping?.owner.qualifiedName, "app.py::create_app.ping");
});

Deno.test("pythonExtractor follows Django include() prefixes, re_path groups and inline includes", async () => {
  const { ports } = await pythonExtractor.extract(await load("django_site"));
  assert.deepEqual(summary(ports), [
    "mysite/urls.py:6 server ANY /health 1",
    "shop/urls.py:6 server ANY /api/products/{} 0.95",
    "shop/urls.py:7 server ANY /api/orders/{} 0.95",
    "shop/urls.py:9 server ANY /api/v2/carts/{} 0.95",
  ]);
});

Deno.test("pythonExtractor finds requests, httpx and aiohttp calls with base URLs, defaults and formatting", async () => {
  const { ports } = await pythonExtractor.extract(await load("clients"));
  assert.deepEqual(summary(ports), [
    "client.py:12 client GET /api/v1/users 0.95",
    "client.py:16 client GET /orders/{} 0.8",
    "client.py:21 client DELETE /api/v1/items/{} 0.8",
    "client.py:26 client PUT /api/v1/items/{} 0.8",
    "client.py:30 client GET /ping 1",
    "client.py:39 client POST /api/v1/users 0.95",
  ]);
  const billing = ports.find((p) => p.ref.line === 39);
  assert.equal(billing?.owner.qualifiedName, "client.py::Billing.create_user");
  assert.equal(billing?.ref.detail.framework, "httpx");
});

Deno.test("pythonExtractor ignores look-alikes: custom routers, dict and SQLAlchemy get, logging, shadowing parameters", async () => {
  const { ports } = await pythonExtractor.extract(await load("negative"));
  assert.deepEqual(summary(ports), []);
});

Deno.test("pythonExtractor accepts .py files except generated protobuf modules", () => {
  assert.equal(pythonExtractor.accepts("app/main.py"), true);
  assert.equal(pythonExtractor.accepts("app/main.pyc"), false);
  assert.equal(pythonExtractor.accepts("gen/orders_pb2_grpc.py"), false);
  assert.equal(pythonExtractor.accepts("main.go"), false);
});

Deno.test("pythonExtractor warns about syntax errors and still reads the rest of the file", async () => {
  const { ports, diagnostics } = await pythonExtractor.extract([{
    path: "broken.py",
    text: [
      "from fastapi import FastAPI",
      "app = FastAPI()",
      "",
      '@app.get("/ok")',
      "def ok():",
      "    return 1",
      "",
      "def broken(:",
      "    pass",
      "",
    ].join("\n"),
  }]);
  assert.deepEqual(summary(ports), ["broken.py:4 server GET /ok 1"]);
  assert.equal(diagnostics.length, 1);
  assert.equal(diagnostics[0]?.severity, "warning");
  assert.match(
    diagnostics[0]?.message ?? "",
    /^Cannot fully parse: .* at 8:\d+$/,
  );
});

Deno.test("pythonExtractor never throws on arbitrary source text", async () => {
  const token = fc.constantFrom(
    "app",
    "router",
    ".",
    "(",
    ")",
    "@",
    "get",
    "include_router",
    "prefix=",
    '"/x"',
    "f'{a}/b'",
    "%",
    "+",
    "import",
    "from",
    "fastapi",
    "requests",
    "\n",
    "    ",
    "def",
    ":",
    "=",
    "APIRouter",
    "with",
    "as",
    ",",
  );
  await fc.assert(
    fc.asyncProperty(fc.array(token, { maxLength: 60 }), async (tokens) => {
      const result = await pythonExtractor.extract([
        { path: "a.py", text: tokens.join(" ") },
        { path: "b.py", text: "from a import app, router\n" + tokens.join("") },
      ]);
      for (const port of result.ports) assert.match(port.ref.key, /^[A-Z]+ \//);
    }),
    { numRuns: 60 },
  );
});

Deno.test("pythonExtractor reads Django REST framework routers: viewset actions, @action routes, API root, URLconf prefixes", async () => {
  const files = await loadFixture("python_drf", pythonExtractor.accepts);
  const { ports, diagnostics } = await pythonExtractor.extract(
    files.filter((f) => !f.path.startsWith("negative/")),
  );
  assert.deepEqual(diagnostics, []);
  assert.deepEqual(summary(ports), [
    "accounts/urls.py:10 server GET /api/v1/audit 0.95",
    "accounts/urls.py:10 server GET /api/v1/audit/{} 0.95",
    "accounts/urls.py:11 server ANY /api/v1/legacy 0.6",
    "accounts/urls.py:11 server ANY /api/v1/legacy/{} 0.6",
    "accounts/urls.py:7 server GET /api/v1 0.95",
    "accounts/urls.py:8 server DELETE /api/v1/users/{} 0.95",
    "accounts/urls.py:8 server DELETE /api/v1/users/{}/set-password 0.95",
    "accounts/urls.py:8 server GET /api/v1/users 0.95",
    "accounts/urls.py:8 server GET /api/v1/users/recent 0.95",
    "accounts/urls.py:8 server GET /api/v1/users/{} 0.95",
    "accounts/urls.py:8 server PATCH /api/v1/users/{} 0.95",
    "accounts/urls.py:8 server POST /api/v1/users 0.95",
    "accounts/urls.py:8 server POST /api/v1/users/{}/set-password 0.95",
    "accounts/urls.py:8 server PUT /api/v1/users/{} 0.95",
    "accounts/urls.py:9 server DELETE /api/v1/groups/{} 0.95",
    "accounts/urls.py:9 server DELETE /api/v1/groups/{}/join 0.95",
    "accounts/urls.py:9 server GET /api/v1/groups 0.95",
    "accounts/urls.py:9 server GET /api/v1/groups/{} 0.95",
    "accounts/urls.py:9 server POST /api/v1/groups 0.95",
    "accounts/urls.py:9 server POST /api/v1/groups/{}/join 0.95",
    "blog/urls.py:6 server GET /blog/posts 0.95",
    "blog/urls.py:6 server GET /blog/posts/{} 0.95",
    "blog/urls.py:7 server ANY /blog/tags 0.6",
    "blog/urls.py:7 server ANY /blog/tags/{} 0.6",
  ]);
  const detail = ports.find((p) => p.ref.key === "GET /api/v1/users/{}");
  assert.equal(detail?.ref.col, 1);
  assert.equal(detail?.ref.detail.framework, "django-rest-framework");
  assert.equal(detail?.ref.detail.path, "/api/v1/users/{username}/");
  assert.equal(detail?.owner.qualifiedName, "accounts/views.py::UserViewSet");
  const audit = ports.find((p) => p.ref.key === "GET /api/v1/audit");
  assert.equal(
    audit?.owner.qualifiedName,
    "accounts/views.py::AuditViewSet.list",
  );
  const join = ports.find((p) => p.ref.key === "DELETE /api/v1/groups/{}/join");
  assert.equal(
    join?.owner.qualifiedName,
    "accounts/views.py::GroupViewSet.join",
  );
  const root = ports.find((p) => p.ref.key === "GET /api/v1");
  assert.deepEqual([root?.ref.line, root?.ref.col], [7, 10]);
  // SimpleRouter(trailing_slash=False) routes have no trailing slash
  const post = ports.find((p) => p.ref.key === "GET /blog/posts/{}");
  assert.equal(post?.ref.detail.path, "/blog/posts/{pk}");
});

Deno.test("pythonExtractor ignores register() and .urls look-alikes: admin.site, custom registries, routers of other packages", async () => {
  const files = await loadFixture("python_drf", pythonExtractor.accepts);
  const { ports } = await pythonExtractor.extract(
    files.filter((f) => f.path.startsWith("negative/")),
  );
  assert.deepEqual(summary(ports), []);
});

Deno.test("pythonExtractor mounts DRF router.urls however urlpatterns is built", async () => {
  const views = {
    path: "api/views.py",
    text: [
      "from rest_framework import mixins, viewsets",
      "",
      "class NoteViewSet(mixins.ListModelMixin, viewsets.GenericViewSet):",
      "    pass",
      "",
    ].join("\n"),
  };
  const urlconf = (lines: string[]) => ({
    path: "api/urls.py",
    text: [
      "from django.urls import include, path, re_path",
      "from rest_framework.routers import SimpleRouter",
      "from rest_framework.urlpatterns import format_suffix_patterns",
      "from api.views import NoteViewSet",
      "",
      "router = SimpleRouter()",
      'router.register(r"notes", NoteViewSet)',
      ...lines,
      "",
    ].join("\n"),
  });
  const cases: Array<[string[], string[]]> = [
    [["urlpatterns = router.urls"], ["api/urls.py:7 server GET /notes 0.95"]],
    [
      ['urlpatterns = [path("health/", NoteViewSet)] + router.urls'],
      [
        "api/urls.py:7 server GET /notes 0.95",
        "api/urls.py:8 server ANY /health 1",
      ],
    ],
    [
      ["urlpatterns = []", "urlpatterns.extend(router.urls)"],
      ["api/urls.py:7 server GET /notes 0.95"],
    ],
    [
      ['urlpatterns = [re_path(r"^v2/", include((router.urls, "api")))]'],
      ["api/urls.py:7 server GET /v2/notes 0.95"],
    ],
    [
      ["urlpatterns = format_suffix_patterns(router.urls)"],
      ["api/urls.py:7 server GET /notes 0.95"],
    ],
    // mounted nowhere the extractor can see: at the root, weakly
    [["urlpatterns = build(router)"], ["api/urls.py:7 server GET /notes 0.6"]],
  ];
  for (const [lines, expected] of cases) {
    const { ports } = await pythonExtractor.extract([views, urlconf(lines)]);
    assert.deepEqual(summary(ports), expected, lines.join("\n"));
  }
});

Deno.test("pythonExtractor reads Flask-RESTful resources: verb methods, several URLs, Api and blueprint prefixes", async () => {
  const files = await loadFixture(
    "python_flask_restful",
    pythonExtractor.accepts,
  );
  const { ports, diagnostics } = await pythonExtractor.extract(
    files.filter((f) => !f.path.startsWith("negative/")),
  );
  assert.deepEqual(diagnostics, []);
  assert.deepEqual(summary(ports), [
    "service/admin.py:11 server GET /admin/settings 0.95",
    "service/admin.py:11 server PUT /admin/settings 0.95",
    "service/admin.py:20 server DELETE /admin/audit/{} 0.95",
    "service/admin.py:20 server GET /admin/audit/{} 0.95",
    "service/admin.py:21 server ANY /admin/reports 0.6",
    "service/app.py:13 server GET /v1/users 0.95",
    "service/app.py:13 server POST /v1/users 0.95",
    "service/app.py:14 server DELETE /v1/u/{} 0.95",
    "service/app.py:14 server DELETE /v1/users/{} 0.95",
    "service/app.py:14 server GET /v1/u/{} 0.95",
    "service/app.py:14 server GET /v1/users/{} 0.95",
    "service/app.py:14 server PATCH /v1/u/{} 0.95",
    "service/app.py:14 server PATCH /v1/users/{} 0.95",
    // init_app(app) with an app passed in as a parameter: prefix unresolved
    "service/ext.py:6 server GET /people 0.8",
    "service/ext.py:6 server POST /people 0.8",
  ]);
  const patch = ports.find((p) => p.ref.key === "PATCH /v1/users/{}");
  assert.equal(patch?.ref.col, 5);
  assert.equal(patch?.ref.detail.framework, "flask-restful");
  assert.equal(patch?.ref.detail.path, "/v1/users/{user_id}");
  assert.equal(
    patch?.owner.qualifiedName,
    "service/resources/users.py::UserResource.patch",
  );
  const inherited = ports.find((p) => p.ref.key === "GET /admin/audit/{}");
  assert.equal(
    inherited?.owner.qualifiedName,
    "service/resources/base.py::ReadOnlyResource.get",
  );
});

Deno.test("pythonExtractor ignores Api and Resource classes of other packages", async () => {
  const files = await loadFixture(
    "python_flask_restful",
    pythonExtractor.accepts,
  );
  const { ports } = await pythonExtractor.extract(
    files.filter((f) => f.path.startsWith("negative/")),
  );
  assert.deepEqual(summary(ports), []);
});

Deno.test("pythonExtractor gives literal Flask-RESTful routes full confidence and applies a blueprint's own url_prefix", async () => {
  const { ports } = await pythonExtractor.extract([{
    path: "app.py",
    text: [
      "from flask import Blueprint, Flask",
      "import flask_restful as restful",
      "",
      "app = Flask(__name__)",
      "api = restful.Api(app)",
      "bp = Blueprint('v2', __name__, url_prefix='/v2')",
      "v2 = restful.Api(bp, prefix='/api')",
      "",
      "class Ping(restful.Resource):",
      "    def head(self):",
      "        return ''",
      "",
      "api.add_resource(Ping, '/ping')",
      "v2.add_resource(Ping, '/ping')",
      "",
    ].join("\n"),
  }]);
  assert.deepEqual(summary(ports), [
    "app.py:13 server HEAD /ping 1",
    "app.py:14 server HEAD /v2/api/ping 0.95",
  ]);
});

Deno.test("pythonExtractor follows project subclasses of DRF routers and Flask-RESTful Api", async () => {
  const { ports } = await pythonExtractor.extract([{
    path: "routing.py",
    text: [
      "from rest_framework import routers, viewsets",
      "from flask import Flask",
      "from flask_restful import Api, Resource",
      "",
      "class VersionedRouter(routers.SimpleRouter):",
      "    pass",
      "",
      "class JsonApi(Api):",
      "    pass",
      "",
      "class Things(viewsets.ReadOnlyModelViewSet):",
      "    pass",
      "",
      "class Health(Resource):",
      "    def get(self):",
      "        return {}",
      "",
      "router = VersionedRouter()",
      "router.register('things', Things)",
      "urlpatterns = router.urls",
      "app = Flask(__name__)",
      "api = JsonApi(app)",
      "api.add_resource(Health, '/health')",
      "",
    ].join("\n"),
  }]);
  assert.deepEqual(summary(ports), [
    "routing.py:19 server GET /things 0.95",
    "routing.py:19 server GET /things/{} 0.95",
    "routing.py:23 server GET /health 1",
  ]);
});

Deno.test("pythonExtractor never throws on DRF and Flask-RESTful look-alike source text", async () => {
  const token = fc.constantFrom(
    "from rest_framework import routers, viewsets\n",
    "from flask_restful import Api, Resource\n",
    "router = routers.DefaultRouter()\n",
    "api = Api(app)\n",
    "router",
    "api",
    ".register(",
    ".add_resource(",
    ".urls",
    "urlpatterns",
    "+=",
    "=",
    "include(",
    "path(",
    "class V(viewsets.ModelViewSet):\n",
    "class R(Resource, V):\n",
    "@action(detail=True, methods=[",
    "@api.resource(",
    "def get(self):\n",
    "    ",
    "'users'",
    "'/u/<int:id>'",
    "V",
    "R",
    ",",
    ")",
    "]",
    "\n",
  );
  await fc.assert(
    fc.asyncProperty(fc.array(token, { maxLength: 60 }), async (tokens) => {
      const result = await pythonExtractor.extract([
        { path: "urls.py", text: tokens.join("") },
        { path: "views.py", text: "from urls import *\n" + tokens.join(" ") },
      ]);
      for (const port of result.ports) {
        assert.match(port.ref.key, /^[A-Z]+ \//);
        assert.ok(port.ref.confidence > 0 && port.ref.confidence <= 1);
        assert.ok(port.ref.line >= 1 && port.ref.col >= 1);
      }
    }),
    { numRuns: 100 },
  );
});
