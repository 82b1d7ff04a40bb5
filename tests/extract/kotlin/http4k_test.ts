import assert from "node:assert/strict";
import { kotlinExtractor } from "../../../src/extract/kotlin/mod.ts";
import { portSummary } from "../_fixtures.ts";

Deno.test("kotlinExtractor reads http4k routes, nested routers and grouped verbs", async () => {
  const text = `import org.http4k.core.*
import org.http4k.core.Method.*
import org.http4k.routing.*

object Paths { const val BOOKS = "/books" }

val app = routes(
  "/ping" bind GET to { _: Request -> Response(Status.OK) },
  Paths.BOOKS bind Method.POST to { req: Request -> Response(Status.CREATED) },
  "/admin" bind routes(
    "/users/{id}" bind DELETE to { _: Request -> Response(Status.OK) },
    "/reports/{id}" bind routes(
      GET to { _: Request -> Response(Status.OK) },
      PUT to { _: Request -> Response(Status.OK) }
    )
  )
)

val headers = mapOf(GET to "read", POST to "write")
val pair = "/not-a-route" to GET
`;
  const { ports } = await kotlinExtractor.extract([{ path: "App.kt", text }]);
  assert.deepEqual(portSummary(ports), [
    "App.kt:11 server DELETE /admin/users/{} 0.95",
    "App.kt:13 server GET /admin/reports/{} 0.95",
    "App.kt:14 server PUT /admin/reports/{} 0.95",
    "App.kt:8 server GET /ping 1",
    "App.kt:9 server POST /books 0.95",
  ]);
});
