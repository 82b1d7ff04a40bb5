import assert from "node:assert/strict";
import { csharpExtractor } from "../../../src/extract/csharp/mod.ts";
import { summarize } from "../_fixtures.ts";

const DTOS = `using ServiceStack;
[Route("/books", "GET,POST")]
[Route("/books/{Id}")]
public class Book : IReturn<BookResponse> { public int Id { get; set; } }
[Route("notes", "GET")]
public class Note {}
`;

const HOST = `using ServiceStack;
public class AppHost : AppHostBase {
  public override void Configure(Container container) {
    Routes
      .Add<Author>("/authors")
      .Add<Author>("/authors/{Name}", "DELETE");
    Cache.Add<Author>("/not-a-route");
  }
}
`;

const MVC = `using ServiceStack;
using Microsoft.AspNetCore.Mvc;
[Route("api/[controller]")]
public class ShelvesController : Controller {
  [HttpGet]
  public IActionResult Get() => Ok();
}
`;

Deno.test("csharpExtractor reads ServiceStack request DTO routes and Routes.Add", async () => {
  const { ports } = await csharpExtractor.extract([
    { path: "AppHost.cs", text: HOST },
    { path: "Dtos.cs", text: DTOS },
    { path: "ShelvesController.cs", text: MVC },
  ]);
  assert.deepEqual(summarize(ports), [
    "AppHost.cs:4 server ANY /authors",
    "AppHost.cs:4 server DELETE /authors/{}",
    "Dtos.cs:2 server GET /books",
    "Dtos.cs:2 server POST /books",
    "Dtos.cs:3 server ANY /books/{}",
    // the controller stays a controller
    "ShelvesController.cs:5 server GET /api/Shelves",
  ]);
  // Without ServiceStack, a [Route] class is no DTO.
  const plain = await csharpExtractor.extract([{
    path: "Dtos.cs",
    text: DTOS.replace("using ServiceStack;", ""),
  }]);
  assert.deepEqual(plain.ports, []);
  // A global using in another file of the scan counts.
  const global = await csharpExtractor.extract([
    { path: "Dtos.cs", text: DTOS.replace("using ServiceStack;", "") },
    { path: "GlobalUsings.cs", text: "global using ServiceStack;\n" },
  ]);
  assert.equal(global.ports.length, 3);
});
