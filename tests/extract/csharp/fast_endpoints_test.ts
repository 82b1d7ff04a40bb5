import assert from "node:assert/strict";
import { csharpExtractor } from "../../../src/extract/csharp/mod.ts";
import { summarize } from "../_fixtures.ts";

const PROGRAM = `using FastEndpoints;
var app = builder.Build();
app.UseFastEndpoints(c => { c.Endpoints.RoutePrefix = "api"; });
`;

const ENDPOINTS = `using FastEndpoints;
public class ShowOrder : Endpoint<OrderRequest, OrderResponse> {
  public override void Configure() {
    Get("/orders/{Id}");
    AllowAnonymous();
  }
}
public class Health : EndpointWithoutRequest {
  public override void Configure() {
    Verbs(Http.GET, Http.HEAD);
    Routes("/health", "live");
  }
}
// Not an endpoint: a Configure with a Get of another kind.
public class Settings : Options {
  public override void Configure() { Get("/nope"); }
}
public class Cache {
  public void Configure() { Post("/nope"); }
}
`;

Deno.test("csharpExtractor reads FastEndpoints endpoints under the global route prefix", async () => {
  const { ports } = await csharpExtractor.extract([
    { path: "Endpoints.cs", text: ENDPOINTS },
    { path: "Program.cs", text: PROGRAM },
  ]);
  assert.deepEqual(summarize(ports), [
    "Endpoints.cs:4 server GET /api/orders/{}",
    "Endpoints.cs:10 server GET /api/health",
    "Endpoints.cs:10 server GET /api/live",
    "Endpoints.cs:10 server HEAD /api/health",
    "Endpoints.cs:10 server HEAD /api/live",
  ]);
  // Without the prefix setting, the templates as written.
  const alone = await csharpExtractor.extract([
    { path: "Endpoints.cs", text: ENDPOINTS },
  ]);
  assert.deepEqual(
    summarize(alone.ports).slice(0, 2),
    [
      "Endpoints.cs:4 server GET /orders/{}",
      "Endpoints.cs:10 server GET /health",
    ],
  );
  // An Endpoint class of a scan that never names FastEndpoints is not one.
  const other = await csharpExtractor.extract([{
    path: "Other.cs",
    text: ENDPOINTS.replace("using FastEndpoints;", ""),
  }]);
  assert.deepEqual(other.ports, []);
});
