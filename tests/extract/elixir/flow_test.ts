import assert from "node:assert/strict";
import { elixirExtractor } from "../../../src/extract/elixir/mod.ts";
import { portSummary as summary } from "../_fixtures.ts";

Deno.test("elixirExtractor serves a router of another file under the forward and the attribute prefix that mount it", async () => {
  const { ports } = await elixirExtractor.extract([
    {
      path: "lib/my_app_web/router.ex",
      text: [
        "defmodule MyAppWeb.Router do",
        "  use Phoenix.Router",
        '  @api_prefix "/api/v1"',
        "  scope @api_prefix, MyAppWeb do",
        '    get "/users/:id", UserController, :show',
        '    forward "/admin", AdminRouter',
        "  end",
        "end",
      ].join("\n"),
    },
    {
      path: "lib/my_app_web/admin_router.ex",
      text: [
        "defmodule MyAppWeb.AdminRouter do",
        "  use Phoenix.Router",
        '  get "/stats", StatsController, :index',
        "end",
      ].join("\n"),
    },
  ]);
  assert.deepEqual(summary(ports), [
    "lib/my_app_web/admin_router.ex:3 server GET /api/v1/admin/stats 0.95",
    "lib/my_app_web/router.ex:5 server GET /api/v1/users/{} 0.95",
  ]);
});
