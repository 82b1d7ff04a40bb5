import assert from "node:assert/strict";
import fc from "fast-check";
import { elixirExtractor, tokenizeElixir } from "../../src/extract/elixir.ts";
import { loadFixture, only, portAt, summarize } from "./_fixtures.ts";

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
