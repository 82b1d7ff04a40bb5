import assert from "node:assert/strict";
import { elixirExtractor } from "../../../src/extract/elixir/mod.ts";

Deno.test("elixirExtractor reads Phoenix.PubSub and endpoint broadcasts and subscriptions as topics", async () => {
  const { ports, diagnostics } = await elixirExtractor.extract([
    {
      path: "lib/shop/orders.ex",
      text: `defmodule Shop.Orders do
  alias Phoenix.PubSub

  def place(order) do
    Phoenix.PubSub.broadcast(Shop.PubSub, "orders", {:placed, order})
    PubSub.broadcast_from!(Shop.PubSub, self(), "orders:#{order.id}", :updated)
    ShopWeb.Endpoint.broadcast("room:lobby", "new_msg", %{})
  end
end
`,
    },
    {
      path: "lib/shop/mailer.ex",
      text: `defmodule Shop.Mailer do
  def init(_) do
    Phoenix.PubSub.subscribe(Shop.PubSub, "orders")
    MyCache.broadcast("not-a-topic")
    Phoenix.PubSub.subscribe(Shop.PubSub, topic)
  end
end
`,
    },
  ]);
  assert.deepEqual(diagnostics, []);
  assert.deepEqual(
    ports.map((p) =>
      `${p.filePath}:${p.ref.line} ${p.ref.role} ${p.ref.key} ${p.ref.confidence} ${p.owner.name}`
    ).sort(),
    [
      "lib/shop/mailer.ex:3 server orders 1 Shop.Mailer",
      "lib/shop/orders.ex:5 client orders 1 Shop.Orders",
      "lib/shop/orders.ex:6 client orders:{} 0.8 Shop.Orders",
      "lib/shop/orders.ex:7 client room:lobby 1 Shop.Orders",
    ],
  );
});
