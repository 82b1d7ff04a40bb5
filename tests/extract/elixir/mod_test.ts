import assert from "node:assert/strict";
import fc from "fast-check";
import {
  elixirExtractor,
  tokenizeElixir,
} from "../../../src/extract/elixir/mod.ts";
import {
  loadFixture,
  only,
  portAt,
  portSummary,
  summarize,
} from "../_fixtures.ts";

Deno.test("elixirExtractor composes Phoenix scopes, resources and module attributes", async () => {
  const files = only(await loadFixture("elixir"), "lib/shop_web/");
  const { ports, diagnostics } = await elixirExtractor.extract(files);
  assert.deepEqual(diagnostics, []);
  const file = "lib/shop_web/router.ex";
  assert.deepEqual(summarize(ports), [
    `${file}:14 server GET /`,
    `${file}:15 server GET /dashboard`,
    `${file}:22 server GET /api/v1/users/{}`,
    `${file}:23 server POST /api/v1/users`,
    `${file}:25 server GET /api/v1/posts`,
    `${file}:25 server GET /api/v1/posts/{}`,
    `${file}:26 server GET /api/v1/posts/{}/comments`,
    `${file}:26 server GET /api/v1/posts/{}/comments/{}`,
    `${file}:26 server POST /api/v1/posts/{}/comments`,
    `${file}:29 server GET /api/v1/profile`,
    `${file}:30 server ANY /api/v1/webhooks/{}`,
    `${file}:37 server GET /dev/health`,
  ]);
  const show = portAt(ports, "router.ex", 22)!;
  assert.equal(show.ref.col, 7);
  assert.equal(show.ref.confidence, 0.95);
  assert.equal(show.owner.qualifiedName, `${file}::ShopWeb.Router`);
  assert.equal(portAt(ports, "router.ex", 14)!.ref.confidence, 1);
});

Deno.test("elixirExtractor ignores modules that are not routers", async () => {
  const files = only(await loadFixture("elixir"), "lib/shop/");
  assert.equal(files.length, 1);
  const { ports } = await elixirExtractor.extract(files);
  assert.deepEqual(ports, []);
});

Deno.test("tokenizeElixir() handles strings, interpolation, comments and sigils", () => {
  const tokens = tokenizeElixir(
    'get "/a/#{x}", C, :show # get "/no"\n~p"/b" :"x y" only: [:a]\n',
  );
  assert.deepEqual(
    tokens.filter((t) => t.type !== "punct").map((t) => [t.type, t.text]),
    [
      ["word", "get"],
      ["string", "/a/{}"],
      ["word", "C"],
      ["atom", "show"],
      ["newline", "\n"],
      ["atom", "x y"],
      ["key", "only"],
      ["atom", "a"],
      ["newline", "\n"],
    ],
  );
  assert.equal(tokens[1]!.interpolated, true);
  assert.equal(tokens[1]!.col, 5);
});

Deno.test("elixirExtractor never throws on arbitrary input", async () => {
  await fc.assert(
    fc.asyncProperty(
      fc.array(
        fc.constantFrom(
          "scope ",
          '"/a"',
          " do\n",
          "end\n",
          "fn ",
          "get ",
          ", ",
          "C",
          ":x",
          "[",
          "]",
          "(",
          ")",
          '"#{',
          "}",
          "#",
          "\n",
          '~p"',
          '"""',
          "resources ",
          "only: ",
          "use Phoenix.Router\n",
          "'",
          "\\",
        ),
        { maxLength: 60 },
      ),
      async (parts) => {
        const text = parts.join("");
        const { ports } = await elixirExtractor.extract([{
          path: "r.ex",
          text,
        }]);
        for (const p of ports) assert.match(p.ref.key, /^[A-Z]+ \//);
      },
    ),
  );
});

Deno.test("elixirExtractor mounts forwarded routers under the forward path and plugs as ANY ports at and below the path", async () => {
  const files = await loadFixture("elixir_forward");
  const { ports, diagnostics } = await elixirExtractor.extract(files);
  assert.deepEqual(diagnostics, []);
  const admin = "lib/app_web/admin_router.ex";
  const main = "lib/app_web/router.ex";
  assert.deepEqual(portSummary(ports), [
    // also plugged directly by AppWeb.AdminEndpoint: served at its root too
    `${admin}:4 server GET / 1`,
    `${admin}:4 server GET /admin 0.95`,
    `${admin}:5 server DELETE /admin/users/{} 0.95`,
    `${admin}:5 server DELETE /users/{} 0.95`,
    `${admin}:5 server GET /admin/users 0.95`,
    `${admin}:5 server GET /users 0.95`,
    `${admin}:6 server ANY /admin/jobs 0.6`,
    `${admin}:6 server ANY /admin/jobs/{} 0.6`,
    `${admin}:6 server ANY /jobs 0.6`,
    `${admin}:6 server ANY /jobs/{} 0.6`,
    // only forwarded to: never at the root
    "lib/app_web/api_v2_router.ex:5 server GET /api/v2/orders/{} 0.95",
    `${main}:11 server GET / 1`,
    `${main}:16 server ANY /api/graphql 0.6`,
    `${main}:16 server ANY /api/graphql/{} 0.6`,
    `${main}:20 server GET /status/ping 0.95`,
  ]);
  const graphql = ports.find((p) => p.ref.key === "ANY /api/graphql/{}")!;
  assert.equal(graphql.ref.col, 5);
  assert.deepEqual(graphql.ref.detail, {
    method: "ANY",
    path: "/api/graphql/*path",
    framework: "phoenix",
    forward: "/api/graphql",
    plug: "Absinthe.Plug",
  });
  const order = portAt(ports, "api_v2_router.ex", 5)!;
  assert.equal(
    order.owner.qualifiedName,
    "lib/app_web/api_v2_router.ex::AppWeb.ApiV2Router",
  );
  assert.equal(order.ref.detail["mountedAt"], `${main}:17`);
  assert.equal(order.ref.detail["path"], "/api/v2/orders/:id");
});

Deno.test("elixirExtractor reports a forwarded router at the root when nothing in the scan forwards to it", async () => {
  const files = (await loadFixture("elixir_forward")).filter((f) =>
    f.path.endsWith("api_v2_router.ex")
  );
  const { ports } = await elixirExtractor.extract(files);
  assert.deepEqual(portSummary(ports), [
    "lib/app_web/api_v2_router.ex:5 server GET /orders/{} 0.95",
  ]);
});

Deno.test("elixirExtractor ignores forward calls outside router modules", async () => {
  const files = (await loadFixture("elixir_forward")).filter((f) =>
    f.path.startsWith("lib/app/")
  );
  assert.equal(files.length, 1);
  assert.ok(files[0]!.text.includes("Phoenix.Router"));
  const { ports } = await elixirExtractor.extract(files);
  assert.deepEqual(ports, []);
});

Deno.test("elixirExtractor follows do: one-liners, nested and with a route in parentheses", async () => {
  const text = `defmodule R do
  use Phoenix.Router
  scope "/a", X, do: scope("/b", do: post "/c", C, :create)
  scope "/d", do: get("/e", C, :show)
  def helper(conn), do: get(conn, "/not-a-route")
  get "/f", C, :f
end`;
  const { ports } = await elixirExtractor.extract([{ path: "r.ex", text }]);
  assert.deepEqual(summarize(ports), [
    "r.ex:3 server POST /a/b/c",
    "r.ex:4 server GET /d/e",
    "r.ex:6 server GET /f",
  ]);
});

Deno.test("elixirExtractor resolves forward plugs through scope aliases and alias directives, and does not follow a cycle", async () => {
  const files = [{
    path: "lib/web/router.ex",
    text: `defmodule Web.Router do
  use Phoenix.Router
  alias Web.Internal.OpsRouter, as: Ops
  scope "/", Web do
    forward "/loop", LoopRouter
  end
  forward "/ops", Ops
end

defmodule Web.LoopRouter do
  use Phoenix.Router
  get "/x", C, :x
  forward "/again", Web.LoopRouter
end

defmodule Web.Internal.OpsRouter do
  use Phoenix.Router
  get "/health", C, :health
end
`,
  }];
  const { ports } = await elixirExtractor.extract(files);
  assert.deepEqual(summarize(ports), [
    "lib/web/router.ex:12 server GET /loop/x",
    "lib/web/router.ex:18 server GET /ops/health",
  ]);
});
