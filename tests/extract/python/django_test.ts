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
