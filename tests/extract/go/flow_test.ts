import assert from "node:assert/strict";
import { goExtractor } from "../../../src/extract/go/mod.ts";
import { portSummary as summary } from "../_fixtures.ts";

Deno.test("goExtractor follows a client wrapper's path parameter to the calls that supply it", async () => {
  const { ports } = await goExtractor.extract([
    {
      path: "client/client.go",
      text: [
        "package client",
        'import "net/http"',
        'const base = "http://orders-svc"',
        "func Post(path string) (*http.Response, error) {",
        '\treturn http.Post(base+path, "application/json", nil)',
        "}",
      ].join("\n"),
    },
    {
      path: "orders/orders.go",
      text: [
        "package orders",
        'import "example.com/app/client"',
        'func Place() { client.Post("/orders") }',
        'func Cancel(id string) { client.Post("/orders/" + id + "/cancel") }',
      ].join("\n"),
    },
  ]);
  assert.deepEqual(summary(ports), [
    "orders/orders.go:3 client POST /orders 0.95",
    "orders/orders.go:4 client POST /orders/{}/cancel 0.8",
  ]);
});

Deno.test("goExtractor mounts the router a method returns under a constant of another package", async () => {
  const { ports } = await goExtractor.extract([
    {
      path: "paths/paths.go",
      text: 'package paths\nconst Todos = "/todos"\n',
    },
    {
      path: "main.go",
      text: [
        "package main",
        "import (",
        '\t"github.com/go-chi/chi/v5"',
        '\t"example.com/app/paths"',
        ")",
        "func main() {",
        "\tr := chi.NewRouter()",
        "\tr.Mount(paths.Todos, todosResource{}.Routes())",
        "}",
      ].join("\n"),
    },
    {
      path: "todos.go",
      text: [
        "package main",
        'import "github.com/go-chi/chi/v5"',
        "type todosResource struct{}",
        "func (rs todosResource) Routes() chi.Router {",
        "\tr := chi.NewRouter()",
        '\tr.Get("/{id}", rs.Get)',
        "\treturn r",
        "}",
      ].join("\n"),
    },
  ]);
  assert.deepEqual(summary(ports), ["todos.go:6 server GET /todos/{} 0.95"]);
});

Deno.test("goExtractor gives a route registrar's group parameter the routers its callers pass", async () => {
  const { ports } = await goExtractor.extract([
    {
      path: "main.go",
      text: [
        "package main",
        'import "github.com/gin-gonic/gin"',
        "func main() {",
        "\tr := gin.Default()",
        '\tregisterUsers(r.Group("/api/v1"))',
        "}",
        "func registerUsers(g *gin.RouterGroup) {",
        '\tg.GET("/users/:id", show)',
        "}",
      ].join("\n"),
    },
  ]);
  assert.deepEqual(summary(ports), [
    "main.go:8 server GET /api/v1/users/{} 0.95",
  ]);
});
