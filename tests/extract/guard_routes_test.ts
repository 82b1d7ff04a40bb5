import assert from "node:assert/strict";
import { describeGuardedRoutes } from "../../src/extract/guard_routes.ts";
import { addBoundary } from "../../src/boundary/add_boundary.ts";
import { BoundaryGraph } from "../../src/boundary/graph.ts";
import { linkGraph } from "../../src/boundary/link.ts";

Deno.test("describeGuardedRoutes() gives server ports keyed like extracted calls, with the permission", () => {
  const ports = describeGuardedRoutes([
    {
      method: "get",
      pattern: "/posts/:id",
      object: "post",
      action: "read",
      line: 12,
      col: 3,
    },
    {
      method: "ANY",
      pattern: { pathname: "/admin/*" },
      object: "admin",
      action: "manage",
    },
  ]);
  assert.deepEqual(ports, [
    {
      mechanism: "http",
      role: "server",
      key: "GET /posts/{}",
      line: 12,
      col: 3,
      confidence: 1,
      detail: {
        method: "GET",
        path: "/posts/:id",
        framework: "portcullis",
        object: "post",
        action: "read",
        permission: "post:read",
      },
    },
    {
      mechanism: "http",
      role: "server",
      key: "ANY /admin/{}",
      line: 1,
      col: 1,
      confidence: 1,
      detail: {
        method: "ANY",
        path: "/admin/*",
        framework: "portcullis",
        object: "admin",
        action: "manage",
        permission: "admin:manage",
      },
    },
  ]);
});

Deno.test("describeGuardedRoutes() ports link to a client call and show the permission it needs", () => {
  const graph = new BoundaryGraph();
  graph.addNode({
    id: "api",
    kind: "module",
    qualifiedName: "server.ts",
    name: "server.ts",
  });
  graph.addNode({
    id: "ui",
    kind: "function",
    qualifiedName: "ui.ts::load",
    name: "load",
  });
  for (
    const port of describeGuardedRoutes([{
      method: "GET",
      pattern: "/posts/:id",
      object: "post",
      action: "read",
    }])
  ) {
    addBoundary(graph, "api", port);
  }
  addBoundary(graph, "ui", {
    mechanism: "http",
    role: "client",
    key: "GET /posts/{}",
    line: 1,
    col: 1,
    confidence: 1,
    detail: {},
  });
  assert.equal(linkGraph(graph).relationsAdded, 1);
  assert.equal(
    graph.outgoing("api", "exposes")[0]?.metadata.permission,
    "post:read",
  );
});

Deno.test("describeGuardedRoutes() throws on a relative pattern, an empty object or a bad method", () => {
  assert.throws(
    () =>
      describeGuardedRoutes([{
        method: "GET",
        pattern: "posts",
        object: "post",
        action: "read",
      }]),
    {
      name: "TypeError",
      message:
        /^Cannot describe guarded route 0: pattern must start with "\/"$/,
    },
  );
  assert.throws(
    () =>
      describeGuardedRoutes([{
        method: "GET",
        pattern: "/p",
        object: "",
        action: "read",
      }]),
    { name: "TypeError", message: /object must be a non-empty string/ },
  );
  assert.throws(
    () =>
      describeGuardedRoutes([{
        method: "GE T",
        pattern: "/p",
        object: "post",
        action: "read",
      }]),
    { name: "SyntaxError" },
  );
});

Deno.test("describeGuardedRoutes() uses the framework option", () => {
  const [port] = describeGuardedRoutes(
    [{ method: "POST", pattern: "/posts", object: "post", action: "write" }],
    { framework: "hono" },
  );
  assert.equal(port?.detail.framework, "hono");
});
