// Route literals a hostile repository controls: the patterns that rewrite
// paths get their worst case (a long run of openings with no closing brace)
// and finish in one pass.
import assert from "node:assert/strict";
import { javaExtractor } from "../../../src/extract/java/mod.ts";

const RUN = 200_000;

Deno.test("javaExtractor reads a Javalin crud path of 200,000 unclosed braces in one pass", async () => {
  const text = `import io.javalin.Javalin;
import static io.javalin.apibuilder.ApiBuilder.*;
public class App {
  public static void main(String[] args) {
    Javalin app = Javalin.create(config -> {
      config.router.apiBuilder(() -> {
        path("/a${"{".repeat(RUN)}", () -> crud(new Members()));
        path("/ok/{id}", () -> crud(new Members()));
      });
    });
  }
}`;
  const { ports } = await javaExtractor.extract([{ path: "App.java", text }]);
  const keys = ports.map((p) => p.ref.key).filter((k) => k.length < 100);
  assert.ok(keys.includes("GET /ok"), keys.join(", "));
  assert.ok(keys.includes("PATCH /ok/{}"), keys.join(", "));
});

Deno.test("javaExtractor strips Micronaut query templates from a path of 200,000 unclosed ones in one pass", async () => {
  const text = `package shop;
import io.micronaut.http.annotation.*;
@Controller("/books")
public class Books {
  @Get("/x${"{?".repeat(RUN)}")
  public String many() { return ""; }
  @Get("/search{?q,page}")
  public String search() { return ""; }
}`;
  const { ports } = await javaExtractor.extract([{ path: "Books.java", text }]);
  const keys = ports.map((p) => p.ref.key).filter((k) => k.length < 100);
  assert.ok(keys.includes("GET /books/search"), keys.join(", "));
});
