import assert from "node:assert/strict";
import { csharpExtractor } from "../../../src/extract/csharp/mod.ts";
import { summarize } from "../_fixtures.ts";

const SERVER = `using System.Net;
class Server {
  static void Serve(HttpListenerContext ctx) {
    var req = ctx.Request;
    var verb = req.HttpMethod;
    var route = (req.Url?.LocalPath ?? "/").ToLowerInvariant();
    if (verb == "GET" && route == "/orders") { }
    else if (route.Equals("/orders") && "post".Equals(verb, StringComparison.OrdinalIgnoreCase)) { }
    if (verb == "DELETE") {
      if (route == "/cache") { }
    }
    switch (route) {
      case "/metrics":
        break;
    }
    switch ((verb, route)) {
      case ("PUT", "/orders/current"):
        break;
    }
    var name = "x";
    if (name == "/not-a-route") { }
    if (route == "relative") { }
  }
}
`;

Deno.test("csharpExtractor reads the paths and methods an HttpListener handler dispatches on", async () => {
  const { ports } = await csharpExtractor.extract([
    { path: "Server.cs", text: SERVER },
  ]);
  assert.deepEqual(summarize(ports), [
    "Server.cs:7 server GET /orders",
    "Server.cs:8 server POST /orders",
    "Server.cs:10 server DELETE /cache",
    "Server.cs:13 server ANY /metrics",
    "Server.cs:17 server PUT /orders/current",
  ]);
  // The same comparisons without HttpListener in the file: no server.
  const other = await csharpExtractor.extract([{
    path: "Server.cs",
    text: SERVER.replace("HttpListenerContext", "Context"),
  }]);
  assert.deepEqual(other.ports, []);
});
