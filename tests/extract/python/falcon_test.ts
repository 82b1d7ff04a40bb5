import assert from "node:assert/strict";
import { pythonExtractor } from "../../../src/extract/python/mod.ts";
import { portSummary as summary } from "../_fixtures.ts";

Deno.test("falconPorts reads add_route responders, suffixed responders and static routes", async () => {
  const { ports } = await pythonExtractor.extract([{
    path: "app.py",
    text: `import falcon

class Books:
    def on_get(self, req, resp, book_id):
        pass
    def on_delete(self, req, resp, book_id):
        pass
    def on_get_cover(self, req, resp, book_id):
        pass
    def on_message(self, req, resp):
        pass

class Router:
    def add_route(self, path, resource):
        pass

books = Books()
app = falcon.App()
app.add_route("/books/{book_id:int}", books)
app.add_route("/books/{book_id:int}/cover", Books(), suffix="cover")
app.add_static_route("/media", "/srv/media")
Router().add_route("/not-a-route", books)
other = Router()
other.add_route("/nor-this", books)
`,
  }]);
  assert.deepEqual(summary(ports), [
    "app.py:19 server DELETE /books/{} 1",
    "app.py:19 server GET /books/{} 1",
    "app.py:20 server GET /books/{}/cover 1",
    "app.py:21 server GET /media/{} 1",
  ]);
});
