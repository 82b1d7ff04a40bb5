import assert from "node:assert/strict";
import { pythonExtractor } from "../../../src/extract/python/mod.ts";
import { portSummary as summary } from "../_fixtures.ts";

Deno.test("djangoPorts composes include() of a named route list, a (patterns, app_name) tuple and keyword routes", async () => {
  const { ports } = await pythonExtractor.extract([{
    path: "site/urls.py",
    text: `from django.urls import include, path, re_path
from pathlib import Path
from . import views

billing_patterns = [
    path("invoices/<int:pk>/", views.invoice),
]

audit_patterns = [
    path(route="entries/", view=views.entries),
]

urlpatterns = [
    path("billing/", include(billing_patterns)),
    path("audit/", include((audit_patterns, "audit"), namespace="audit")),
    re_path(r"^docs/(?P<slug>[\\w-]+(/[\\w-]+)*)_(?P<rev>\\d+)/$", views.doc),
]

NOT_ROUTES = [Path("static/")]
`,
  }]);
  assert.deepEqual(summary(ports), [
    "site/urls.py:10 server ANY /audit/entries 0.95",
    "site/urls.py:16 server ANY /docs/{}_{} 0.8",
    "site/urls.py:6 server ANY /billing/invoices/{} 0.95",
  ]);
});

Deno.test("djangoPorts gives the methods a view answers: method decorators, request.method branches and class-based view verbs", async () => {
  const { ports } = await pythonExtractor.extract([
    {
      path: "shop/views.py",
      text: `from django.views import View
from django.views.decorators.http import require_http_methods, require_POST
from rest_framework.decorators import api_view

@require_http_methods(["GET", "DELETE"])
def cart(request):
    return None

@require_POST
def checkout(request):
    return None

@api_view(["PUT"])
def stock(request):
    return None

def contact(request):
    if request.method == "POST":
        return None
    return None

def anything(request):
    return None

class Orders(View):
    def get(self, request):
        return None
    def patch(self, request):
        return None
    def query(self, params):
        return params
`,
    },
    {
      path: "shop/urls.py",
      text: `from django.urls import path
from . import views

urlpatterns = [
    path("cart/", views.cart),
    path("checkout/", views.checkout),
    path("stock/", views.stock),
    path("contact/", views.contact),
    path("anything/", views.anything),
    path("orders/", views.Orders.as_view()),
]
`,
    },
  ]);
  assert.deepEqual(summary(ports), [
    "shop/urls.py:10 server GET /orders 1",
    "shop/urls.py:10 server PATCH /orders 1",
    "shop/urls.py:5 server DELETE /cart 1",
    "shop/urls.py:5 server GET /cart 1",
    "shop/urls.py:6 server POST /checkout 1",
    "shop/urls.py:7 server PUT /stock 1",
    "shop/urls.py:8 server GET /contact 1",
    "shop/urls.py:8 server POST /contact 1",
    "shop/urls.py:9 server ANY /anything 1",
  ]);
});
