import assert from "node:assert/strict";
import { queueExtractor } from "../../../src/extract/queue/mod.ts";
import type { SourceFile } from "../../../src/extract/extractor.ts";

async function ports(files: SourceFile[]): Promise<string[]> {
  const result = await queueExtractor.extract(files);
  assert.deepEqual(result.diagnostics, []);
  return result.ports.map((p) =>
    `${p.filePath}:${p.ref.line} ${p.ref.role} ${p.ref.key} ${
      p.ref.detail["library"]
    }`
  ).sort();
}

Deno.test("queueExtractor reads Azure Service Bus senders, processors and receivers in C#", async () => {
  assert.deepEqual(
    await ports([{
      path: "Orders/Bus.cs",
      text: `using Azure.Messaging.ServiceBus;
public class Bus
{
    const string Queue = "orders";
    public async Task Run(ServiceBusClient client)
    {
        var sender = client.CreateSender(Queue);
        await sender.SendMessageAsync(new ServiceBusMessage("x"));
        var processor = client.CreateProcessor("payments", "audit");
        var receiver = client.CreateReceiver("refunds");
        var options = client.CreateProcessor(new ServiceBusProcessorOptions());
    }
}
`,
    }]),
    [
      "Orders/Bus.cs:10 server refunds azure-servicebus",
      "Orders/Bus.cs:7 client orders azure-servicebus",
      "Orders/Bus.cs:9 server payments azure-servicebus",
    ],
  );
});

Deno.test("queueExtractor reads MassTransit consumers and publishers by message type, not Confluent's IConsumer", async () => {
  assert.deepEqual(
    await ports([
      {
        path: "Billing/OrderSubmittedConsumer.cs",
        text: `using MassTransit;
public class OrderSubmittedConsumer : IConsumer<OrderSubmitted>
{
    public Task Consume(ConsumeContext<OrderSubmitted> context) => Task.CompletedTask;
}
`,
      },
      {
        path: "Shop/Checkout.cs",
        text: `using MassTransit;
public class Checkout
{
    private readonly IPublishEndpoint _bus;
    public async Task Submit(Guid id)
    {
        await _bus.Publish(new OrderSubmitted(id));
        await _bus.Publish<OrderCancelled>(new { Id = id });
        await _bus.Publish(evt);
    }
}
`,
      },
      {
        // Confluent's consumer interface is no MassTransit consumer
        path: "Kafka/Reader.cs",
        text: `using Confluent.Kafka;
public class Reader { IConsumer<string, string> consumer; }
`,
      },
    ]),
    [
      "Billing/OrderSubmittedConsumer.cs:2 server OrderSubmitted masstransit",
      "Shop/Checkout.cs:7 client OrderSubmitted masstransit",
      "Shop/Checkout.cs:8 client OrderCancelled masstransit",
    ],
  );
});
