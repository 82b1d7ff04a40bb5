import assert from "node:assert/strict";
import { csharpExtractor } from "../../../src/extract/csharp/mod.ts";
import { firstBranches } from "../../../src/extract/csharp/preprocessor.ts";

Deno.test("firstBranches keeps the first branch of each #if, blanks the rest, keeps lines and columns", () => {
  const text = [
    "class A {",
    "#if !ACTORS",
    "  void Plain() {}",
    "#elif DEBUG",
    "  void Debug() {}",
    "#else",
    "  void Actor() {}",
    "  #if NESTED",
    "  void Nested() {}",
    "  #endif",
    "#endif",
    "  void After() {}",
    "}",
  ].join("\r\n");
  const out = firstBranches(text);
  assert.equal(out.length, text.length);
  assert.deepEqual(out.split("\r\n").map((l) => l.trim()), [
    "class A {",
    "",
    "void Plain() {}",
    "",
    "",
    "",
    "",
    "",
    "",
    "",
    "",
    "void After() {}",
    "}",
  ]);
  // no directive: the text itself; an unbalanced #endif does no harm
  assert.equal(firstBranches("class B {}"), "class B {}");
  assert.equal(firstBranches("#endif\n#if X\nint a;\n").trim(), "int a;");
});

Deno.test("csharpExtractor reads the actions inside #if blocks, once, at their lines", async () => {
  const { ports, diagnostics } = await csharpExtractor.extract([{
    path: "Controllers/TrafficController.cs",
    text: `using Microsoft.AspNetCore.Mvc;
[ApiController]
[Route("")]
public class TrafficController : ControllerBase
{
#if !USE_ACTORMODEL
    [HttpPost("entrycam")]
    public IActionResult Entry(Msg msg) => Ok();
#else
    [HttpPost("entrycam")]
    public IActionResult EntryActor(Msg msg) => Ok();
    [HttpPost("actors-only")]
    public IActionResult ActorsOnly() => Ok();
#endif
    [HttpGet("health")]
    public IActionResult Health() => Ok();
}
`,
  }]);
  assert.deepEqual(diagnostics, []);
  assert.deepEqual(
    ports.map((p) => `${p.ref.key} :${p.ref.line} ${p.owner.name}`),
    ["POST /entrycam :7 Entry", "GET /health :15 Health"],
  );
});
