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

Deno.test("queueExtractor reads MQTTnet publishers and subscribers", async () => {
  assert.deepEqual(
    await ports([{
      path: "Sensors/Publisher.cs",
      text: `using MQTTnet;
public class Publisher
{
    public async Task Send(IMqttClient client)
    {
        var message = new MqttApplicationMessageBuilder()
            .WithTopic("plant/temperature")
            .Build();
        await client.PublishAsync(message);
        var options = new MqttClientSubscribeOptionsBuilder()
            .WithTopicFilter(f => f.WithTopic("plant/commands"))
            .Build();
        await client.SubscribeAsync("plant/alarms");
        var other = new StringBuilder().WithTopic("not/mqtt");
    }
}
`,
    }]),
    [
      "Sensors/Publisher.cs:11 server plant/commands mqttnet",
      "Sensors/Publisher.cs:13 server plant/alarms mqttnet",
      "Sensors/Publisher.cs:6 client plant/temperature mqttnet",
    ],
  );
});

Deno.test("queueExtractor reads Paho MQTT messages and subscriptions in the browser", async () => {
  assert.deepEqual(
    await ports([{
      path: "web/js/mqtt.js",
      text: `export class Feed {
  constructor(host) {
    this.client = new Paho.MQTT.Client(host, 9001, "ui");
    this.client.subscribe("plant/alarms");
  }
  send(value) {
    const message = new Paho.MQTT.Message(String(value));
    message.destinationName = "plant/setpoint";
    this.client.send(message);
    const other = {};
    other.destinationName = "not/a/message";
  }
}
`,
    }]),
    [
      "web/js/mqtt.js:4 server plant/alarms paho-mqtt",
      "web/js/mqtt.js:8 client plant/setpoint paho-mqtt",
    ],
  );
});

Deno.test("queueExtractor reads Dapr input binding components as consumers of their topic", async () => {
  assert.deepEqual(
    await ports([{
      path: "dapr/components/sensors.yaml",
      text: `apiVersion: dapr.io/v1alpha1
kind: Component
metadata:
  name: sensors
spec:
  type: bindings.mqtt3
  version: v1
  metadata:
    - name: url
      value: mqtt://broker:1883
    - name: topic
      value: plant/temperature
---
apiVersion: dapr.io/v1alpha1
kind: Component
metadata:
  name: orders
spec:
  type: bindings.kafka
  metadata:
    - name: topics
      value: orders.created, orders.paid
---
apiVersion: dapr.io/v1alpha1
kind: Component
metadata:
  name: state
spec:
  type: state.redis
  metadata:
    - name: topic
      value: not-a-binding
`,
    }]),
    [
      "dapr/components/sensors.yaml:12 server plant/temperature dapr-binding",
      "dapr/components/sensors.yaml:22 server orders.created dapr-binding",
      "dapr/components/sensors.yaml:22 server orders.paid dapr-binding",
    ],
  );
});
