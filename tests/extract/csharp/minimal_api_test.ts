import assert from "node:assert/strict";
import { csharpExtractor } from "../../../src/extract/csharp/mod.ts";
import { summarize } from "../_fixtures.ts";

Deno.test("csharpExtractor prefixes Carter modules with their base path", async () => {
  const text = `using Carter;
public class BooksModule : CarterModule {
  public BooksModule() : base("/books") {}
  public override void AddRoutes(IEndpointRouteBuilder app) {
    app.MapGet("/", () => "all");
    app.MapPut<Book>("/{id}", (int id, Book b) => b);
  }
}
public class PlainModule : ICarterModule {
  public void AddRoutes(IEndpointRouteBuilder app) {
    app.MapGet("/plain", () => "x");
  }
}
`;
  const { ports } = await csharpExtractor.extract([{ path: "M.cs", text }]);
  assert.deepEqual(summarize(ports), [
    "M.cs:5 server GET /books",
    "M.cs:6 server PUT /books/{}",
    "M.cs:11 server GET /plain",
  ]);
});
