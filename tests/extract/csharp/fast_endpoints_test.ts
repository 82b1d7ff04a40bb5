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

Deno.test("csharpExtractor puts FastEndpoints endpoints under their groups", async () => {
  const groups = `using FastEndpoints;
public class Admin : Group {
  public Admin() { Configure("admin", ep => ep.Description(x => x.WithTags("admin"))); }
}
public class Sales : SubGroup<Admin> {
  public Sales() { Configure("sales", ep => { }); }
}
`;
  const endpoints = `using FastEndpoints;
public class ListUsers : EndpointWithoutRequest {
  public override void Configure() {
    Get("/users");
    Group<Admin>();
  }
}
public class Totals : EndpointWithoutRequest {
  public override void Configure() {
    Get("totals");
    Group<Sales>();
  }
}
public class Orphan : EndpointWithoutRequest {
  public override void Configure() {
    Get("/orphan");
    Group<Missing>();
  }
}
`;
  const { ports } = await csharpExtractor.extract([
    { path: "Endpoints.cs", text: endpoints },
    { path: "Groups.cs", text: groups },
    { path: "Program.cs", text: PROGRAM },
  ]);
  assert.deepEqual(summarize(ports), [
    "Endpoints.cs:4 server GET /api/admin/users",
    "Endpoints.cs:10 server GET /api/admin/sales/totals",
    "Endpoints.cs:16 server GET /api/orphan",
  ]);
  assert.equal(ports[0]!.ref.confidence, 0.95);
  assert.equal(ports[2]!.ref.confidence, 0.8);
});
