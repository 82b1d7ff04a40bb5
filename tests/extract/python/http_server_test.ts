import assert from "node:assert/strict";
import { pythonExtractor } from "../../../src/extract/python/mod.ts";
import { portSummary as summary } from "../_fixtures.ts";

Deno.test("httpServerPorts reads the paths do_<VERB> methods compare the request path with", async () => {
  const { ports } = await pythonExtractor.extract([{
    path: "server.py",
    text: `from http.server import BaseHTTPRequestHandler
from urllib.parse import urlparse

class Handler(BaseHTTPRequestHandler):
    def do_GET(self):
        parsed = urlparse(self.path)
        if parsed.path == "/status":
            pass
        elif "/metrics" == self.path:
            pass
        elif self.headers.get("X-Mode") == "/not-a-path-compare":
            pass

    def do_PUT(self):
        if self.path != "/not-equal":
            pass
        if self.path == "/config":
            pass

class Other:
    def do_GET(self):
        if self.path == "/not-a-handler":
            pass
`,
  }]);
  assert.deepEqual(summary(ports), [
    "server.py:17 server PUT /config 1",
    "server.py:7 server GET /status 1",
    "server.py:9 server GET /metrics 1",
  ]);
});
