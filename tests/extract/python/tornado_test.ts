import assert from "node:assert/strict";
import { pythonExtractor } from "../../../src/extract/python/mod.ts";
import { portSummary as summary } from "../_fixtures.ts";

Deno.test("tornadoPorts reads Application URL specs, add_handlers, Application subclasses and handler lists", async () => {
  const { ports } = await pythonExtractor.extract([
    {
      path: "handlers.py",
      text: `import tornado.web
import tornado.websocket

class Base(tornado.web.RequestHandler):
    def prepare(self):
        pass

class Orders(Base):
    def get(self, order_id):
        pass
    def delete(self, order_id):
        pass
    def query(self, filters):
        return filters

class Feed(tornado.websocket.WebSocketHandler):
    def on_message(self, message):
        pass

default_handlers = [
    (r"/jobs/(?P<job>[^/]+)", Orders),
    ("processed %d items", len),
]
`,
    },
    {
      path: "app.py",
      text: `import tornado.web
from tornado.web import url
from handlers import Orders, Feed

routes = [
    (r"/orders/([0-9]+)", Orders),
    (r"/archive(?:/(\d+))?", Orders),
    url(r"/feed", Feed, name="feed"),
]
app = tornado.web.Application(routes)
app.add_handlers(r".*", [(r"/admin/orders/(\\d+)", Orders)])

class Server(tornado.web.Application):
    def __init__(self):
        super().__init__([(r"/live", Feed)], debug=True)

class NotAnApp:
    def __init__(self):
        self.routes = [(r"/not-a-route", Orders)]

not_an_app = NotAnApp()
not_an_app.add_handlers(r".*", [(r"/not-either", Orders)])
`,
    },
  ]);
  assert.deepEqual(summary(ports), [
    "app.py:11 server DELETE /admin/orders/{} 0.8",
    "app.py:11 server GET /admin/orders/{} 0.8",
    "app.py:15 server GET /live 1",
    "app.py:6 server DELETE /orders/{} 0.8",
    "app.py:6 server GET /orders/{} 0.8",
    "app.py:7 server DELETE /archive 1",
    "app.py:7 server GET /archive 1",
    "app.py:8 server GET /feed 1",
    "handlers.py:21 server DELETE /jobs/{} 1",
    "handlers.py:21 server GET /jobs/{} 1",
  ]);
});
