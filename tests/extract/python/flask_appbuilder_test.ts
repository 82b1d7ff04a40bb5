import assert from "node:assert/strict";
import { pythonExtractor } from "../../../src/extract/python/mod.ts";
import { portSummary as summary } from "../_fixtures.ts";

Deno.test("flaskAppBuilderPorts reads exposed methods under route_base, view and API defaults", async () => {
  const { ports } = await pythonExtractor.extract([{
    path: "views.py",
    text: `from flask_appbuilder import BaseView, expose
from flask_appbuilder.api import BaseApi

def expose_later(url):
    return lambda f: f

class ReportView(BaseView):
    @expose("/daily/<int:day>")
    def daily(self, day):
        return ""

class Tagged(BaseView):
    route_base = "/labels"

    @expose("/", methods=["GET", "POST"])
    def index(self):
        return ""

    @expose_later("/not-a-route")
    def later(self):
        return ""

class UsersApi(BaseApi):
    resource_name = "people"
    version = "v2"

    @expose("/<pk>", methods=("DELETE",))
    def remove(self, pk):
        return ""

class Plain:
    @expose("/nor-this")
    def nope(self):
        return ""
`,
  }]);
  assert.deepEqual(summary(ports), [
    "views.py:15 server GET /labels 1",
    "views.py:15 server POST /labels 1",
    "views.py:27 server DELETE /api/v2/people/{} 1",
    "views.py:8 server GET /reportview/daily/{} 1",
  ]);
});
