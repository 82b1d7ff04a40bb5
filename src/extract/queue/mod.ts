// Queue extractor: Kafka, RabbitMQ, NATS, Redis pub/sub and Dapr pub/sub
// producers (`client`) and consumers (`server`) in JavaScript/TypeScript,
// Python, Go, Java and C#.
import { type GrammarName, parseSource } from "../_syntax/parser.ts";
import type {
  ExtractDiagnostic,
  ExtractResult,
  LanguageExtractor,
  SourceFile,
} from "../extractor.ts";
import type { ExtractedPort } from "../types.ts";
import type { Value } from "../_value/mod.ts";
import { eachFile } from "../_syntax/passes.ts";
import { JsProject, jsQueueExports, jsQueuePorts } from "../javascript/mod.ts";
import { daprSubscriptionPorts } from "./dapr_yaml.ts";
import { daprBindingPorts } from "./dapr_bindings.ts";
import { ExportedKinds } from "../_port/queue.ts";
import {
  PyProject,
  pythonQueueExports,
  pythonQueuePorts,
} from "../python/mod.ts";
import { goQueuePorts } from "../go/mod.ts";
import {
  collectConstants as javaConstants,
  javaQueuePorts,
} from "../java/mod.ts";
import {
  collectConstants as csharpConstants,
  csharpQueuePorts,
  globalUsings,
  globalUsingsOf,
} from "../csharp/mod.ts";
import { settleConstants } from "../_value/mod.ts";
import { isYamlPath } from "../_syntax/yaml.ts";

/** The grammar of a path, or undefined when the queue extractor skips it. */
function grammarOf(path: string): GrammarName | undefined {
  if (path.endsWith(".d.ts")) return undefined;
  const dot = path.lastIndexOf(".");
  switch (dot < 0 ? "" : path.slice(dot + 1)) {
    case "js":
    case "mjs":
    case "cjs":
    case "jsx":
      return "javascript";
    case "ts":
    case "mts":
    case "cts":
      return "typescript";
    case "tsx":
      return "tsx";
    case "py":
      return "python";
    case "go":
      return "go";
    case "java":
      return "java";
    case "cs":
      return "c-sharp";
    default:
      return undefined;
  }
}

/** Libraries whose names a file must mention before it is parsed. */
const HINTS =
  /kafka|amqp|pika|["'/]nats\b|\bnats[.-]|import nats|redis|dapr|sarama|rabbit|mqtt|servicebus|masstransit/i;
/** Java / C# files that may define string constants. */
const CONSTANT_HINTS =
  /static\s+final\s+String|final\s+static\s+String|interface\s|const\s+string|static\s+readonly\s+string/;

/**
 * Extracts queue producers and consumers. A producer (publish, send,
 * produce) is a `client` port and a consumer (subscribe, consume, listener)
 * is a `server` port of the topic, queue, subject or channel name, so a link
 * runs from producer to consumer. Calls count only on receivers traced back
 * to the library (imports, constructors, factories, declared types): an
 * event emitter's `emit`/`on` or any other `publish` is ignored.
 *
 * Libraries: kafkajs, amqplib, nats, redis/ioredis and @dapr/dapr
 * (JavaScript/TypeScript); confluent-kafka, kafka-python, aiokafka, pika,
 * aio-pika,
 * nats-py, redis-py and Dapr (`DaprClient.publish_event`,
 * `@app.subscribe`) in Python; sarama, kafka-go, confluent-kafka-go,
 * nats.go, go-redis and the Dapr Go SDK; Spring `@KafkaListener`,
 * `KafkaTemplate.send`, `@RabbitListener`, `RabbitTemplate.convertAndSend`,
 * Kafka clients and Dapr `@Topic`/`publishEvent` in Java; Dapr `[Topic]`,
 * `WithTopic`, `PublishEventAsync` and Confluent.Kafka in C#; Dapr
 * declarative `kind: Subscription` YAML documents.
 *
 * RabbitMQ: a publish to the default exchange (`""`, `sendToQueue`) is
 * keyed by the routing key (the queue name); a publish to a named exchange
 * is keyed by the exchange, and a consumer joins it through the
 * `bindQueue`/`queue_bind` of its queue to that exchange (a `server` port
 * keyed by the exchange).
 *
 * @example Usage
 * ```ts
 * import { queueExtractor } from "@portcullis/portcullis/extract";
 * import assert from "node:assert/strict";
 *
 * const text = `import os
 * from confluent_kafka import Producer
 * producer = Producer({"bootstrap.servers": "kafka:9092"})
 * producer.produce(os.getenv("TOPIC", "orders"), value=b"{}")`;
 * const { ports } = await queueExtractor.extract([{ path: "events.py", text }]);
 * assert.equal(ports[0]?.ref.key, "orders");
 * assert.equal(ports[0]?.ref.role, "client");
 * ```
 */
export const queueExtractor: LanguageExtractor = {
  name: "queue",
  accepts(path: string): boolean {
    return grammarOf(path) !== undefined || isYamlPath(path);
  },
  async extract(files: readonly SourceFile[]): Promise<ExtractResult> {
    const diagnostics: ExtractDiagnostic[] = [];
    const ports: ExtractedPort[] = [];
    let relevant = files.filter((f) => HINTS.test(f.text));
    const isJs = (path: string): boolean => {
      const g = grammarOf(path);
      return g === "javascript" || g === "typescript" || g === "tsx";
    };
    const isPython = (path: string): boolean => grammarOf(path) === "python";
    // Constants and clients imported from sibling modules (config.py,
    // config.ts): each language's project answers across files.
    const scratch: ExtractDiagnostic[] = [];
    const js = relevant.some((f) => isJs(f.path))
      ? await JsProject.load(files.filter((f) => isJs(f.path)), scratch)
      : undefined;
    const python = relevant.some((f) => isPython(f.path))
      ? await PyProject.load(files.filter((f) => isPython(f.path)), scratch)
      : undefined;
    // Queue clients held by JS/TS and Python modules (`export const
    // producer = kafka.producer()`): their importers' calls count too.
    const exported = new ExportedKinds();
    await eachFile(relevant, [], async (file) => {
      const grammar = grammarOf(file.path);
      if (grammar === "python" && python) {
        const tree = await parseSource(grammar, file.text);
        try {
          pythonQueueExports(tree.rootNode, file.path, python, exported);
        } finally {
          tree.delete();
        }
      } else if (grammar && js && isJs(file.path)) {
        if (!file.text.includes("export ")) return;
        const tree = await parseSource(grammar, file.text);
        try {
          jsQueueExports(tree.rootNode, file.path, grammar, js, exported);
        } finally {
          tree.delete();
        }
      }
    });
    const names = [...exported.names()];
    if (names.length > 0) {
      const chosen = new Set(relevant);
      relevant = relevant.concat(
        files.filter((f) =>
          !chosen.has(f) && (isJs(f.path) || f.path.endsWith(".py")) &&
          /\bimport\b/.test(f.text) &&
          names.some((name) => f.text.includes(name))
        ),
      );
    }
    const javaConstantsMap = new Map<string, Value>();
    const csharpConstantsMap = new Map<string, Value>();
    // Constants of every Java/C# file (topic names often live in a
    // separate class).
    const jvm = relevant.some((f) => /\.(java|cs)$/.test(f.path));
    await eachFile(jvm ? files : [], diagnostics, async (file) => {
      const grammar = grammarOf(file.path);
      if (grammar !== "java" && grammar !== "c-sharp") return;
      if (!CONSTANT_HINTS.test(file.text)) return;
      const tree = await parseSource(grammar, file.text);
      try {
        if (grammar === "java") javaConstants(tree.rootNode, javaConstantsMap);
        else csharpConstants(tree.rootNode, csharpConstantsMap);
      } finally {
        tree.delete();
      }
    });
    settleConstants(javaConstantsMap);
    settleConstants(csharpConstantsMap);
    const csharpGlobal = globalUsings(files);
    await eachFile(relevant, diagnostics, async (file) => {
      if (isYamlPath(file.path)) {
        daprSubscriptionPorts(file.path, file.text, ports, diagnostics);
        daprBindingPorts(file.path, file.text, ports);
        return;
      }
      const grammar = grammarOf(file.path);
      if (!grammar) return;
      const tree = await parseSource(grammar, file.text);
      try {
        const root = tree.rootNode;
        switch (grammar) {
          case "python":
            pythonQueuePorts(root, file.path, ports, python, exported);
            break;
          case "go":
            goQueuePorts(root, file.path, ports);
            break;
          case "java":
            javaQueuePorts(root, file, javaConstantsMap, ports);
            break;
          case "c-sharp":
            csharpQueuePorts(
              root,
              file,
              csharpConstantsMap,
              ports,
              globalUsingsOf(file.path, csharpGlobal),
            );
            break;
          default:
            jsQueuePorts(root, file.path, grammar, ports, js, exported);
        }
      } finally {
        tree.delete();
      }
    });
    return { ports, diagnostics };
  },
};
