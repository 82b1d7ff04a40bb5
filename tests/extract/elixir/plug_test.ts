import assert from "node:assert/strict";
import { elixirExtractor } from "../../../src/extract/elixir/mod.ts";
import { portAt, summarize } from "../_fixtures.ts";

const ROUTER = [
  "defmodule Shop.Router do",
  "  use Plug.Router",
  "  plug :match",
  "  plug :dispatch",
  '  get "/hello" do',
  '    send_resp(conn, 200, "hi")',
  "  end",
  '  post "/users", do: send_resp(conn, 201, "")',
  '  match "/hook", via: [:post, :put] do',
  '    send_resp(conn, 200, "")',
  "  end",
  '  match "/any" do',
  '    send_resp(conn, 200, "")',
  "  end",
  '  query "/reports" do',
  '    send_resp(conn, 200, "")',
  "  end",
  '  forward "/api", to: Shop.ApiRouter',
  '  forward "/gql", to: Absinthe.Plug, schema: Shop.Schema',
  "  match _ do",
  '    send_resp(conn, 404, "")',
  "  end",
  "end",
].join("\n");

const API = [
  "defmodule Shop.ApiRouter do",
  "  use Plug.Router",
  '  get "/items/:id" do',
  '    send_resp(conn, 200, "")',
  "  end",
  "end",
].join("\n");

Deno.test("elixirExtractor reads Plug.Router routes and forwards", async () => {
  const { ports, diagnostics } = await elixirExtractor.extract([
    { path: "lib/shop/router.ex", text: ROUTER },
    { path: "lib/shop/api_router.ex", text: API },
  ]);
  assert.deepEqual(diagnostics, []);
  assert.deepEqual(summarize(ports), [
    "lib/shop/api_router.ex:3 server GET /api/items/{}",
    "lib/shop/router.ex:5 server GET /hello",
    "lib/shop/router.ex:8 server POST /users",
    "lib/shop/router.ex:9 server POST /hook",
    "lib/shop/router.ex:9 server PUT /hook",
    "lib/shop/router.ex:12 server ANY /any",
    "lib/shop/router.ex:15 server QUERY /reports",
    "lib/shop/router.ex:19 server ANY /gql",
    "lib/shop/router.ex:19 server ANY /gql/{}",
  ]);
  assert.equal(portAt(ports, "router.ex", 5)!.ref.detail.framework, "plug");
  assert.equal(portAt(ports, "api_router.ex", 3)!.ref.detail.forward, "/api");
});

Deno.test("elixirExtractor serves a Plug router a Bandit child plugs at the root too", async () => {
  const app = [
    "defmodule Shop.Application do",
    "  use Application",
    "  def start(_type, _args) do",
    "    children = [{Bandit, plug: Shop.ApiRouter, port: 4000}]",
    "    Supervisor.start_link(children, strategy: :one_for_one)",
    "  end",
    "end",
  ].join("\n");
  const { ports } = await elixirExtractor.extract([
    { path: "lib/shop/router.ex", text: ROUTER },
    { path: "lib/shop/api_router.ex", text: API },
    { path: "lib/shop/application.ex", text: app },
  ]);
  assert.deepEqual(
    summarize(ports).filter((p) => p.includes("api_router")),
    [
      "lib/shop/api_router.ex:3 server GET /api/items/{}",
      "lib/shop/api_router.ex:3 server GET /items/{}",
    ],
  );
});

Deno.test("elixirExtractor skips ExUnit test scripts and modules that are not routers", async () => {
  const test = [
    "defmodule Shop.RouterTest do",
    "  use ExUnit.Case",
    "  defmodule TestRouter do",
    "    use Plug.Router",
    '    get "/only-in-tests" do',
    '      send_resp(conn, 200, "")',
    "    end",
    "  end",
    "end",
  ].join("\n");
  const notRouter = [
    "defmodule Shop.Client do",
    '  def get("/x"), do: :ok',
    '  query "/not-a-route" do',
    "  end",
    "end",
  ].join("\n");
  const { ports } = await elixirExtractor.extract([
    { path: "test/shop/router_test.exs", text: test },
    { path: "lib/shop/client.ex", text: notRouter },
  ]);
  assert.deepEqual(ports, []);
});
