import assert from "node:assert/strict";
import { pythonExtractor } from "../../../src/extract/python/mod.ts";
import { portSummary as summary } from "../_fixtures.ts";

Deno.test("cherrypyPorts walks mounted object trees: exposed methods, child objects and exposed verb classes", async () => {
  const { ports } = await pythonExtractor.extract([{
    path: "app.py",
    text: `import cherrypy

@cherrypy.expose
class Tokens(object):
    def POST(self, scope):
        return ""
    def helper(self):
        return ""

class Orders(object):
    def __init__(self):
        self.tokens = Tokens()

    @cherrypy.expose
    def index(self):
        return ""

    @cherrypy.expose
    def show(self, order_id, verbose=False):
        return ""

    def internal(self, x):
        return ""

class Root(object):
    orders = Orders()

    @cherrypy.expose
    def default(self, *args):
        return ""

class Unmounted(object):
    @cherrypy.expose
    def nothing(self):
        return ""

cherrypy.tree.mount(Root(), "/shop")
`,
  }]);
  assert.deepEqual(summary(ports), [
    "app.py:15 server ANY /shop/orders 1",
    "app.py:19 server ANY /shop/orders/show/{} 1",
    "app.py:29 server ANY /shop/{} 1",
    "app.py:5 server POST /shop/orders/tokens/{} 1",
  ]);
});
