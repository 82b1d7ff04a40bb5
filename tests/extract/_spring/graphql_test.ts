import assert from "node:assert/strict";
import { javaExtractor } from "../../../src/extract/java/mod.ts";
import { kotlinExtractor } from "../../../src/extract/kotlin/mod.ts";
import { portSummary } from "../_fixtures.ts";

Deno.test("Spring GraphQL resolvers are reached through POST on the GraphQL path", async () => {
  const kotlin = `import org.springframework.graphql.data.method.annotation.*
import org.springframework.stereotype.Controller
@Controller
class BookGraph {
  @QueryMapping
  fun bookById(@Argument id: String): Book? = null
  @MutationMapping
  fun addBook(@Argument title: String): Book? = null
  fun helper(): String = ""
}`;
  const settings =
    "server.servlet.context-path=/app\nspring.graphql.http.path=/gql\n";
  const { ports } = await kotlinExtractor.extract([
    { path: "src/main/kotlin/BookGraph.kt", text: kotlin },
    { path: "src/main/resources/application.properties", text: settings },
  ]);
  assert.deepEqual(portSummary(ports), [
    "src/main/kotlin/BookGraph.kt:5 server POST /app/gql 0.95",
    "src/main/kotlin/BookGraph.kt:7 server POST /app/gql 0.95",
  ]);
  const java = `import org.springframework.graphql.data.method.annotation.*;
@Controller
class AuthorGraph {
  @SchemaMapping(typeName = "Book")
  Author author(Book book) { return null; }
  @GetMapping("/authors")
  String list() { return ""; }
}`;
  const { ports: javaPorts } = await javaExtractor.extract([
    { path: "AuthorGraph.java", text: java },
  ]);
  assert.deepEqual(portSummary(javaPorts), [
    "AuthorGraph.java:4 server POST /graphql 1",
    "AuthorGraph.java:6 server GET /authors 1",
  ]);
});
