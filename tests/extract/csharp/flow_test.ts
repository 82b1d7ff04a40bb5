import assert from "node:assert/strict";
import { csharpExtractor } from "../../../src/extract/csharp/mod.ts";
import { portSummary as summary } from "../_fixtures.ts";

Deno.test("csharpExtractor gives a client wrapper's URL at each call site that supplies it", async () => {
  const { ports } = await csharpExtractor.extract([
    {
      path: "Clients/ApiClient.cs",
      text: [
        "public class ApiClient {",
        "  private readonly HttpClient _http;",
        '  private const string Base = "http://users-svc";',
        "  public ApiClient(HttpClient http) { _http = http; }",
        "  public Task<string> Get(string path) => _http.GetStringAsync(Base + path);",
        "}",
      ].join("\n"),
    },
    {
      path: "Services/UserService.cs",
      text: [
        "public class UserService {",
        "  private readonly ApiClient _api;",
        '  public Task<string> One(int id) => _api.Get($"/users/{id}");',
        '  public Task<string> All() => _api.Get("/users");',
        "}",
      ].join("\n"),
    },
  ]);
  assert.deepEqual(summary(ports), [
    "Services/UserService.cs:3 client GET /users/{} 0.8",
    "Services/UserService.cs:4 client GET /users 0.95",
  ]);
  assert.deepEqual(ports.map((p) => p.owner.name).sort(), ["All", "One"]);
});

Deno.test("csharpExtractor prefixes a controller with a constant built from another file's constants", async () => {
  const { ports } = await csharpExtractor.extract([
    {
      path: "ApiRoutes.cs",
      text: [
        "public static class ApiRoutes {",
        '  public const string Base = "/api/v1";',
        '  public const string Users = Base + "/users";',
        "}",
      ].join("\n"),
    },
    {
      path: "Controllers/UsersController.cs",
      text: [
        "[ApiController]",
        "[Route(ApiRoutes.Users)]",
        "public class UsersController : ControllerBase {",
        '  [HttpGet("{id}")] public IActionResult Get(int id) => Ok();',
        "}",
      ].join("\n"),
    },
  ]);
  assert.deepEqual(summary(ports), [
    "Controllers/UsersController.cs:4 server GET /api/v1/users/{} 0.95",
  ]);
});

Deno.test("csharpExtractor maps the routes of a method under the group each caller passes it", async () => {
  const { ports } = await csharpExtractor.extract([
    {
      path: "Program.cs",
      text: [
        "var app = WebApplication.Create(args);",
        'TodoEndpoints.Map(app.MapGroup("/admin"));',
        'var v2 = app.MapGroup("/v2");',
        "TodoEndpoints.Map(v2);",
      ].join("\n"),
    },
    {
      path: "TodoEndpoints.cs",
      text: [
        "public static class TodoEndpoints {",
        "  public static void Map(RouteGroupBuilder group) {",
        '    group.MapDelete("/todos/{id}", (int id) => Results.Ok());',
        "  }",
        "}",
      ].join("\n"),
    },
  ]);
  assert.deepEqual(summary(ports), [
    "TodoEndpoints.cs:3 server DELETE /admin/todos/{} 0.95",
    "TodoEndpoints.cs:3 server DELETE /v2/todos/{} 0.95",
  ]);
});
