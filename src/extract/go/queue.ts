// Queue producers and consumers in Go: sarama, segmentio/kafka-go,
// confluent-kafka-go, nats.go (and Go kit publishers on it), RabbitMQ
// (streadway/amqp, amqp091-go), go-redis and the Dapr Go SDK, on receivers
// traced back to the library's constructors and types.
import type { Node } from "web-tree-sitter";
import type { ExtractedPort } from "../types.ts";
import {
  composed,
  concat,
  exactText,
  formatPlaceholders,
  hole,
  keyText,
  type Value,
} from "../_value/mod.ts";
import { evaluateStringNode } from "../_value/literals.ts";
import {
  bindUntilStable,
  KindTable,
  type QueueEmit,
  queueEmitter,
} from "../_port/queue.ts";
import { namedChildren, stringValue, walk } from "../_syntax/tree.ts";
import { isGoTestFile } from "./test_files.ts";

/** Libraries by import path (a trailing major version is ignored). */
const LIBRARIES: Record<string, string> = {
  "github.com/IBM/sarama": "sarama",
  "github.com/Shopify/sarama": "sarama",
  "github.com/segmentio/kafka-go": "kafkago",
  "github.com/confluentinc/confluent-kafka-go/kafka": "confluent",
  "github.com/nats-io/nats.go": "nats",
  "github.com/nats-io/nats.go/jetstream": "jetstream",
  "github.com/go-kit/kit/transport/nats": "gokitnats",
  "github.com/streadway/amqp": "amqp",
  "github.com/rabbitmq/amqp091-go": "amqp",
  "github.com/redis/go-redis": "goredis",
  "github.com/go-redis/redis": "goredis",
  "github.com/dapr/go-sdk/client": "daprclient",
  "github.com/dapr/go-sdk/service/common": "daprcommon",
};

/** `pkg.Func(...)` results and `pkg.Type` declarations, by library. */
const CONSTRUCTORS: Record<string, Record<string, string>> = {
  sarama: {
    NewConsumer: "sarama.consumer",
    NewConsumerFromClient: "sarama.consumer",
    Consumer: "sarama.consumer",
    NewConsumerGroup: "sarama.group",
    NewConsumerGroupFromClient: "sarama.group",
    ConsumerGroup: "sarama.group",
  },
  confluent: {
    NewConsumer: "confluent.consumer",
    Consumer: "confluent.consumer",
  },
  nats: {
    Connect: "nats.conn",
    Conn: "nats.conn",
    JetStreamContext: "nats.js",
  },
  jetstream: { New: "nats.js", JetStream: "nats.js" },
  goredis: {
    NewClient: "redis.client",
    NewClusterClient: "redis.client",
    NewUniversalClient: "redis.client",
    NewFailoverClient: "redis.client",
    NewRing: "redis.client",
    Client: "redis.client",
    ClusterClient: "redis.client",
    UniversalClient: "redis.client",
  },
  amqp: {
    Dial: "amqp.conn",
    DialConfig: "amqp.conn",
    DialTLS: "amqp.conn",
    Connection: "amqp.conn",
    Channel: "amqp.channel",
  },
  daprclient: {
    NewClient: "dapr.client",
    NewClientWithAddress: "dapr.client",
    Client: "dapr.client",
  },
};
/** Method results by receiver kind. */
const METHODS: Record<string, Record<string, string>> = {
  "nats.conn": { JetStream: "nats.js" },
  "amqp.conn": { Channel: "amqp.channel" },
};
/** Struct literals whose `Topic` field names a topic: role per type. */
const LITERALS: Record<string, Record<string, "server" | "client">> = {
  sarama: { ProducerMessage: "client" },
  kafkago: { Writer: "client", Message: "client", ReaderConfig: "server" },
  confluent: { TopicPartition: "client" },
  daprcommon: { Subscription: "server" },
};
const LITERAL_LIBRARY: Record<string, string> = {
  sarama: "sarama",
  kafkago: "kafka-go",
  confluent: "confluent-kafka-go",
  daprcommon: "dapr-go-sdk",
};

const SCOPES: ReadonlySet<string> = new Set([
  "function_declaration",
  "method_declaration",
  "func_literal",
]);

function libraryOf(path: string): string | undefined {
  const direct = LIBRARIES[path];
  if (direct) return direct;
  const stripped = path.replace(/\/v\d+(?=\/|$)/, "");
  return LIBRARIES[stripped];
}

function unwrap(node: Node): Node {
  let n = node;
  for (;;) {
    if (n.type === "parenthesized_expression") n = n.namedChild(0) ?? n;
    else if (n.type === "unary_expression" && n.text.startsWith("&")) {
      n = n.childForFieldName("operand") ?? n;
    } else if (n.type === "literal_element") n = n.namedChild(0) ?? n;
    else return n;
    if (n === node) return n;
  }
}

/** The `Key: value` elements of a composite literal's body. */
function keyedElements(
  body: Node | null,
): Array<{ key: string | undefined; value: Node | undefined }> {
  const out: Array<{ key: string | undefined; value: Node | undefined }> = [];
  for (const element of body ? namedChildren(body) : []) {
    if (element.type !== "keyed_element") continue;
    out.push({
      key: element.childForFieldName("key")?.text ??
        namedChildren(element)[0]?.text,
      value: element.childForFieldName("value") ?? namedChildren(element)[1],
    });
  }
  return out;
}

function args(call: Node): Node[] {
  const list = call.childForFieldName("arguments");
  return list ? namedChildren(list).filter((a) => a.type !== "comment") : [];
}

class GoQueueFile {
  readonly path: string;
  /** Local package name → library. */
  readonly packages = new Map<string, string>();
  readonly kinds = new KindTable(SCOPES);
  readonly values = new Map<string, Node>();
  readonly envHelpers = new Set<string>();
  readonly ports: ExtractedPort[];

  readonly emit: QueueEmit;

  constructor(path: string, ports: ExtractedPort[]) {
    this.path = path;
    this.ports = ports;
    this.emit = queueEmitter(
      ports,
      path,
      "go",
      (topic) => "parts" in topic ? topic : this.value(topic),
    );
  }

  run(root: Node): void {
    walk(root, (n) => {
      if (n.type !== "import_spec") return;
      const path = stringValue(n.childForFieldName("path") ?? n) ?? "";
      const library = libraryOf(path);
      if (!library) return false;
      const alias = n.childForFieldName("name")?.text;
      const local = alias ?? localName(path);
      if (local !== "_" && local !== ".") this.packages.set(local, library);
      return false;
    });
    if (this.packages.size === 0) return;
    const bindings: Node[] = [];
    const sites: Node[] = [];
    walk(root, (n) => {
      switch (n.type) {
        case "short_var_declaration":
        case "assignment_statement":
        case "var_spec":
        case "const_spec":
        case "parameter_declaration":
        case "field_declaration":
          bindings.push(n);
          break;
        case "call_expression":
        case "composite_literal":
          sites.push(n);
          break;
        case "function_declaration": {
          // `func getEnv(key, fallback string) string { ... os.Getenv ... }`
          const body = n.childForFieldName("body")?.text ?? "";
          const name = n.childForFieldName("name")?.text;
          if (name && /\bos\.(Getenv|LookupEnv)\(/.test(body)) {
            this.envHelpers.add(name);
          }
          break;
        }
      }
    });
    for (const b of bindings) this.collectValue(b);
    bindUntilStable(bindings, (b) => this.bind(b));
    for (const site of sites) {
      if (site.type === "composite_literal") this.literal(site);
      else this.call(site);
    }
  }

  collectValue(b: Node): void {
    if (b.type === "const_spec" || b.type === "var_spec") {
      const names = b.childrenForFieldName("name");
      const values = b.childForFieldName("value");
      const list = values ? namedChildren(values) : [];
      names.forEach((name, i) => {
        if (name && list[i] && !this.values.has(name.text)) {
          this.values.set(name.text, list[i]!);
        }
      });
    } else if (b.type === "short_var_declaration") {
      const left = namedChildren(b.childForFieldName("left") ?? b);
      const right = namedChildren(b.childForFieldName("right") ?? b);
      if (left.length === right.length) {
        left.forEach((name, i) => {
          if (name.type === "identifier" && !this.values.has(name.text)) {
            this.values.set(name.text, right[i]!);
          }
        });
      }
    }
  }

  bind(b: Node): boolean {
    switch (b.type) {
      case "short_var_declaration":
      case "assignment_statement":
      case "var_spec": {
        const left = b.type === "var_spec"
          ? b.childrenForFieldName("name").filter((n): n is Node => n !== null)
          : namedChildren(b.childForFieldName("left") ?? b);
        const rightList = b.childForFieldName(
          b.type === "var_spec" ? "value" : "right",
        );
        const right = rightList ? namedChildren(rightList) : [];
        const typeKind = b.type === "var_spec"
          ? this.typeKind(b.childForFieldName("type"))
          : undefined;
        let changed = false;
        left.forEach((target, i) => {
          // `p, err := sarama.NewSyncProducer(...)`: the first result.
          const value = right.length === left.length ? right[i] : right[0];
          const kind = typeKind ??
            (value && (right.length === left.length || i === 0)
              ? this.kindOf(value)
              : undefined);
          if (!kind) return;
          if (target.type === "identifier") {
            changed = this.kinds.bind(b, target.text, kind) || changed;
          } else if (target.type === "selector_expression") {
            const field = target.childForFieldName("field")?.text;
            if (field) {
              changed = this.kinds.bindGlobal(`field.${field}`, kind) ||
                changed;
            }
          }
        });
        return changed;
      }
      case "parameter_declaration":
      case "field_declaration": {
        const kind = this.typeKind(b.childForFieldName("type"));
        if (!kind) return false;
        let changed = false;
        for (const name of b.childrenForFieldName("name")) {
          if (!name) continue;
          changed = (b.type === "field_declaration"
            ? this.kinds.bindGlobal(`field.${name.text}`, kind)
            : this.kinds.bind(b, name.text, kind)) || changed;
        }
        return changed;
      }
      default:
        return false;
    }
  }

  typeKind(type: Node | null): string | undefined {
    let t = type;
    while (t?.type === "pointer_type") t = t.namedChild(0);
    if (t?.type !== "qualified_type") return undefined;
    const library = this.packages.get(
      t.childForFieldName("package")?.text ?? "",
    );
    const name = t.childForFieldName("name")?.text ?? "";
    return library ? CONSTRUCTORS[library]?.[name] : undefined;
  }

  kindOf(expression: Node): string | undefined {
    const n = unwrap(expression);
    if (n.type === "identifier") return this.kinds.lookup(n, n.text);
    if (n.type === "selector_expression") {
      const operand = n.childForFieldName("operand");
      const field = n.childForFieldName("field")?.text ?? "";
      if (operand?.type === "identifier" && this.packages.has(operand.text)) {
        return undefined;
      }
      return this.kinds.lookup(n, `field.${field}`);
    }
    if (n.type === "call_expression") {
      const fn = n.childForFieldName("function");
      if (fn?.type !== "selector_expression") return undefined;
      const operand = fn.childForFieldName("operand");
      const field = fn.childForFieldName("field")?.text ?? "";
      const library = operand?.type === "identifier"
        ? this.packages.get(operand.text)
        : undefined;
      if (library) return CONSTRUCTORS[library]?.[field];
      const kind = operand ? this.kindOf(operand) : undefined;
      return kind ? METHODS[kind]?.[field] : undefined;
    }
    return undefined;
  }

  value(node: Node | null | undefined, depth = 0): Value {
    if (!node || depth > 8) return hole("?");
    const n = unwrap(node);
    const str = evaluateStringNode(n, (e) => hole(e.text));
    if (str) return str;
    switch (n.type) {
      case "identifier": {
        const value = this.values.get(n.text);
        if (
          !value ||
          value.startIndex <= n.startIndex && value.endIndex >= n.endIndex
        ) {
          return hole(n.text);
        }
        return composed(this.value(value, depth + 1));
      }
      case "binary_expression": {
        if (n.childForFieldName("operator")?.text !== "+") return hole(n.text);
        return concat([
          this.value(n.childForFieldName("left"), depth + 1),
          this.value(n.childForFieldName("right"), depth + 1),
        ]);
      }
      case "call_expression": {
        const fn = n.childForFieldName("function")?.text ?? "";
        const a = args(n);
        if (fn === "fmt.Sprintf" && a[0]) {
          const format = this.value(a[0], depth + 1);
          const text = exactText(format);
          return text === undefined ? format : formatPlaceholders(format);
        }
        // `getEnv("TOPIC", "events")`, `cmp.Or(os.Getenv("T"), "events")`
        if ((this.envHelpers.has(fn) || fn === "cmp.Or") && a.length >= 2) {
          return composed(this.value(a[a.length - 1], depth + 1));
        }
        return hole(n.text);
      }
      default:
        return hole(n.text);
    }
  }

  /** `sarama.ProducerMessage{Topic: ...}`, `kafka.ReaderConfig{Topic: ...}`. */
  literal(node: Node): void {
    const type = node.childForFieldName("type");
    if (type?.type !== "qualified_type") return;
    const library = this.packages.get(
      type.childForFieldName("package")?.text ?? "",
    );
    const name = type.childForFieldName("name")?.text ?? "";
    const role = library ? LITERALS[library]?.[name] : undefined;
    if (!library || !role) return;
    const body = node.childForFieldName("body");
    const system = library === "daprcommon" ? "dapr" : "kafka";
    const elements = keyedElements(body);
    let extra: Record<string, string> | undefined;
    for (const { key, value } of elements) {
      if (key === "PubsubName" && value) {
        extra = { pubsub: keyText(this.value(value)) };
      }
    }
    for (const { key, value } of elements) {
      if (key === "Topic") {
        this.emit(
          node,
          role,
          value,
          system,
          LITERAL_LIBRARY[library]!,
          name,
          extra,
        );
      } else if (key === "GroupTopics" || key === "Topics") {
        for (const t of sliceItems(value ? unwrap(value) : undefined)) {
          this.emit(
            node,
            role,
            t,
            system,
            LITERAL_LIBRARY[library]!,
            name,
            extra,
          );
        }
      }
    }
  }

  /**
   * RabbitMQ (streadway/amqp, amqp091-go): a publish to a named exchange is
   * keyed by the exchange (else by the routing key: the default exchange
   * delivers to that queue); a consumer joins an exchange through the
   * binding of its queue, or consumes a queue.
   */
  amqp(call: Node, method: string, a: Node[]): void {
    const rest = /WithContext$/.test(method) ? a.slice(1) : a;
    const name = method.replace(/WithContext$/, "");
    if (name === "Publish" || name === "PublishWithDeferredConfirm") {
      const [exchangeNode, keyNode] = rest;
      if (!exchangeNode) return;
      const exchange = this.value(exchangeNode);
      const named = exactText(exchange) !== "";
      this.emit(
        call,
        "client",
        named ? exchange : keyNode,
        "rabbitmq",
        "amqp",
        method,
      );
    } else if (name === "QueueBind") {
      const exchange = rest[2] ? this.value(rest[2]) : undefined;
      if (exchange && exactText(exchange) !== "") {
        this.emit(call, "server", exchange, "rabbitmq", "amqp", method);
      }
    } else if (name === "Consume") {
      this.emit(call, "server", rest[0], "rabbitmq", "amqp", method);
    }
  }

  call(call: Node): void {
    const fn = call.childForFieldName("function");
    if (fn?.type !== "selector_expression") return;
    const operand = fn.childForFieldName("operand");
    const method = fn.childForFieldName("field")?.text ?? "";
    const a = args(call);
    if (
      operand?.type === "identifier" &&
      this.packages.get(operand.text) === "gokitnats" &&
      method === "NewPublisher"
    ) {
      // Go kit: natstransport.NewPublisher(nc, subject, enc, dec) requests
      this.emit(call, "client", a[1], "nats", "go-kit", method);
      return;
    }
    const kind = operand ? this.kindOf(operand) : undefined;
    if (!kind) return;
    switch (kind) {
      case "sarama.consumer":
        if (method === "ConsumePartition") {
          this.emit(call, "server", a[0], "kafka", "sarama", method);
        }
        return;
      case "sarama.group":
        if (method === "Consume") {
          for (const t of this.slice(a[1])) {
            this.emit(call, "server", t, "kafka", "sarama", method);
          }
        }
        return;
      case "confluent.consumer":
        if (method === "SubscribeTopics") {
          for (const t of this.slice(a[0])) {
            this.emit(call, "server", t, "kafka", "confluent-kafka-go", method);
          }
        } else if (method === "Subscribe") {
          this.emit(
            call,
            "server",
            a[0],
            "kafka",
            "confluent-kafka-go",
            method,
          );
        }
        return;
      case "nats.conn":
      case "nats.js": {
        // jetstream.New API takes a context first.
        const rest = a[0] && /^ctx$|context\./i.test(a[0].text)
          ? a.slice(1)
          : a;
        if (/^(Publish|PublishMsg|Request|PublishAsync)$/.test(method)) {
          this.emit(call, "client", rest[0], "nats", "nats.go", method);
        } else if (
          /^(Subscribe|QueueSubscribe|ChanSubscribe|SubscribeSync|QueueSubscribeSync|ChanQueueSubscribe|PullSubscribe)$/
            .test(method)
        ) {
          this.emit(call, "server", rest[0], "nats", "nats.go", method);
        }
        return;
      }
      case "amqp.channel":
        this.amqp(call, method, a);
        return;
      case "redis.client":
        if (method === "Publish" || method === "SPublish") {
          this.emit(call, "client", a[1], "redis", "go-redis", method);
        } else if (method === "Subscribe" || method === "SSubscribe") {
          for (const t of a.slice(1)) {
            this.emit(call, "server", t, "redis", "go-redis", method);
          }
        }
        return;
      case "dapr.client":
        if (
          method === "PublishEvent" ||
          method === "PublishEventfromCustomContent"
        ) {
          this.emit(call, "client", a[2], "dapr", "dapr-go-sdk", method, {
            pubsub: a[1] ? keyText(this.value(a[1])) : "",
          });
        }
        return;
    }
  }

  /** Items of `[]string{...}` (directly or through a variable). */
  slice(node: Node | undefined): Node[] {
    if (!node) return [];
    const n = unwrap(node);
    if (n.type === "identifier") {
      const value = this.values.get(n.text);
      return value ? sliceItems(unwrap(value)) : [];
    }
    return sliceItems(n);
  }
}

function sliceItems(node: Node | undefined): Node[] {
  if (node?.type !== "composite_literal") return [];
  const body = node.childForFieldName("body");
  return body ? namedChildren(body).map((e) => unwrap(e)) : [];
}

/** The package name an import path binds by default. */
function localName(path: string): string {
  const parts = path.split("/");
  let last = parts[parts.length - 1] ?? "";
  if (/^v\d+$/.test(last) && parts.length > 1) last = parts[parts.length - 2]!;
  if (last === "go-redis") return "redis";
  if (last === "nats.go") return "nats";
  if (last === "kafka-go") return "kafka";
  if (last === "go-sdk") return "dapr";
  return last.replace(/[.-]go$/, "").replace(/^go-/, "");
}

/** Finds queue ports in one parsed Go file. */
export function goQueuePorts(
  root: Node,
  path: string,
  ports: ExtractedPort[],
): void {
  if (isGoTestFile(path)) return;
  new GoQueueFile(path, ports).run(root);
}
