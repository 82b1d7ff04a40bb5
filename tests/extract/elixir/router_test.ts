import assert from "node:assert/strict";
import fc from "fast-check";
import { elixirExtractor } from "../../../src/extract/elixir/mod.ts";
import { summarize } from "../_fixtures.ts";

async function routes(body: string[]): Promise<string[]> {
  const text = [
    "defmodule AppWeb.Router do",
    "  use Phoenix.Router",
    ...body,
    "end",
  ].join("\n");
  const { ports } = await elixirExtractor.extract([
    { path: "lib/app_web/router.ex", text },
  ]);
  return summarize(ports);
}

Deno.test("elixirExtractor reads a router macro's routes where it is called", async () => {
  assert.deepEqual(
    await routes([
      "  defmacro admin_routes(options \\\\ []) do",
      '    scoped = Keyword.get(options, :scope, "/admin")',
      "    quote do",
      "      scope unquote(scoped), AppWeb do",
      '        get "/dashboard", AdminController, :show',
      "      end",
      "    end",
      "  end",
      "  defmacro unused_routes do",
      "    quote do",
      '      get "/ghost", AdminController, :show',
      "    end",
      "  end",
      '  admin_routes(scope: "/staff")',
      "  admin_routes()",
      '  scope "/api" do',
      '    admin_routes scope: "/ops"',
      "  end",
      '  get "/after", PageController, :index',
    ]),
    [
      "lib/app_web/router.ex:7 server GET /admin/dashboard",
      "lib/app_web/router.ex:7 server GET /api/ops/dashboard",
      "lib/app_web/router.ex:7 server GET /staff/dashboard",
      "lib/app_web/router.ex:21 server GET /after",
    ],
  );
});

Deno.test("elixirExtractor reads a macro that calls itself once", async () => {
  assert.deepEqual(
    await routes([
      "  defmacro loop_routes do",
      "    quote do",
      '      get "/loop", C, :a',
      "      loop_routes()",
      "    end",
      "  end",
      "  loop_routes()",
    ]),
    ["lib/app_web/router.ex:5 server GET /loop"],
  );
});

Deno.test("elixirExtractor reads LiveDashboard's pages", async () => {
  assert.deepEqual(
    await routes([
      '  scope "/dev" do',
      '    live_dashboard "/dashboard", metrics: AppWeb.Telemetry',
      "  end",
    ]),
    [
      "lib/app_web/router.ex:4 server GET /dev/dashboard",
      "lib/app_web/router.ex:4 server GET /dev/dashboard/{}",
      "lib/app_web/router.ex:4 server GET /dev/dashboard/{}/{}",
    ],
  );
});

Deno.test("elixirExtractor bounds the reading of macros that call each other twice", async () => {
  const body: string[] = [];
  for (let k = 0; k < 40; k++) {
    body.push(
      `  defmacro m${k} do`,
      "    quote do",
      k === 0
        ? '      get "/leaf", C, :a'
        : `      m${k - 1}()\n      m${k - 1}()`,
      "    end",
      "  end",
    );
  }
  body.push("  m39()");
  const started = performance.now();
  const found = await routes(body);
  assert.ok(performance.now() - started < 5000);
  assert.ok(found.length > 0 && found.every((r) => r.endsWith("GET /leaf")));
});

Deno.test("elixirExtractor never throws on malformed Plug routers and macros", async () => {
  await fc.assert(
    fc.asyncProperty(
      fc.array(
        fc.constantFrom(
          "use Plug.Router\n",
          "use Phoenix.Router\n",
          "defmacro m(opts) do\n",
          "quote do\n",
          'x = Keyword.get(opts, :scope, "/a")\n',
          "scope unquote(x) do\n",
          "unquote(",
          ")",
          "m()\n",
          'm(scope: "/b")\n',
          'get "/x" do\n',
          'match "/y", via: [:post] do\n',
          'query "/q" do\n',
          'forward "/f", to: R\n',
          'live_dashboard "/d"\n',
          "end\n",
          "\n",
        ),
        { maxLength: 40 },
      ),
      async (parts) => {
        const { ports } = await elixirExtractor.extract([
          { path: "lib/r.ex", text: parts.join("") },
        ]);
        for (const p of ports) assert.ok(p.ref.line >= 1);
      },
    ),
    { numRuns: 80 },
  );
});
