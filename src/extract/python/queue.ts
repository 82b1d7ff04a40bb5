// Queue producers and consumers in Python: confluent-kafka, kafka-python,
// aiokafka, pika, nats-py, redis-py, Dapr (client and FastAPI/gRPC
// extensions), on receivers traced back to the library's imports.
import type { Node } from "web-tree-sitter";
import type { ExtractedPort } from "../types.ts";
import {
  composed,
  exactText,
  formatPlaceholders,
  hole,
  mapText,
  type Value,
} from "../_value/mod.ts";
import type { ExportedKinds, QueueImports } from "../_port/queue.ts";
import {
  ReceiverQueueFile,
  type ReceiverSyntax,
} from "../_port/queue_receivers.ts";
import { namedChildren, unwrapped, walk } from "../_syntax/tree.ts";
import { daprSubscription, queueCall } from "./queue_calls.ts";
import { WRAPPERS } from "./module.ts";

/** Kinds of names exported by each module. `*` is the module itself. */
export const MODULES: Record<string, Record<string, string>> = {
  "confluent_kafka": {
    "*": "ck.module",
    Producer: "ck.ProducerClass",
    Consumer: "ck.ConsumerClass",
  },
  kafka: {
    "*": "kp.module",
    KafkaProducer: "kp.ProducerClass",
    KafkaConsumer: "kp.ConsumerClass",
  },
  aiokafka: {
    "*": "kp.module",
    AIOKafkaProducer: "kp.ProducerClass",
    AIOKafkaConsumer: "kp.ConsumerClass",
  },
  pika: {
    "*": "pika.module",
    BlockingConnection: "pika.ConnectionClass",
    SelectConnection: "pika.ConnectionClass",
  },
  nats: { "*": "nats.module", connect: "nats.connectFn" },
  "nats.aio.client": { "*": "nats.clientModule", Client: "nats.ClientClass" },
  redis: {
    "*": "redis.module",
    Redis: "redis.ClientClass",
    StrictRedis: "redis.ClientClass",
    from_url: "redis.fromUrlFn",
  },
  "redis.asyncio": {
    "*": "redis.module",
    Redis: "redis.ClientClass",
    from_url: "redis.fromUrlFn",
  },
  "aio_pika": {
    "*": "aiopika.module",
    connect: "aiopika.connectFn",
    "connect_robust": "aiopika.connectFn",
  },
  "dapr.clients": { "*": "dapr.module", DaprClient: "dapr.ClientClass" },
  "dapr.ext.fastapi": { "*": "dapr.extModule", DaprApp: "dapr.AppClass" },
  "dapr.ext.grpc": { "*": "dapr.extModule", App: "dapr.AppClass" },
};

/** Module kinds: attribute → kind (`pika.BlockingConnection`). */
export const MODULE_MEMBERS: Record<string, Record<string, string>> = {};
for (const exports of Object.values(MODULES)) {
  const { "*": self, ...rest } = exports;
  MODULE_MEMBERS[self!] = { ...MODULE_MEMBERS[self!], ...rest };
}
MODULE_MEMBERS["redis.module"] = {
  ...MODULE_MEMBERS["redis.module"],
  asyncio: "redis.module",
};

/** Calling a class or factory kind. */
export const CALLED: Record<string, string> = {
  "ck.ProducerClass": "ck.producer",
  "ck.ConsumerClass": "ck.consumer",
  "kp.ProducerClass": "kp.producer",
  "kp.ConsumerClass": "kp.consumer",
  "pika.ConnectionClass": "pika.connection",
  "nats.connectFn": "nats.conn",
  "nats.ClientClass": "nats.conn",
  "redis.ClientClass": "redis.client",
  "redis.fromUrlFn": "redis.client",
  "dapr.ClientClass": "dapr.client",
  "dapr.AppClass": "dapr.app",
  "aiopika.connectFn": "aiopika.connection",
};
/** Method results by receiver kind. */
export const METHODS: Record<string, Record<string, string>> = {
  "pika.connection": { channel: "pika.channel" },
  "nats.conn": { jetstream: "nats.js" },
  "redis.client": { pubsub: "redis.pubsub" },
  "aiopika.connection": { channel: "aiopika.channel" },
  "aiopika.channel": {
    "declare_queue": "aiopika.queue",
    "get_queue": "aiopika.queue",
    "declare_exchange": "aiopika.exchange",
    "get_exchange": "aiopika.exchange",
  },
};
/** Attribute kinds by receiver kind. */
export const ATTRIBUTES: Record<string, Record<string, string>> = {
  "aiopika.channel": { "default_exchange": "aiopika.defaultExchange" },
};
/** A class used as a type annotation names its instances. */
export const INSTANCE: Record<string, string> = CALLED;

/** What the queue reader gathers from Python. */
const SYNTAX: ReceiverSyntax = {
  scopes: new Set(["function_definition", "lambda"]),
  bindings: new Set([
    "assignment",
    "with_item",
    "typed_parameter",
    "typed_default_parameter",
  ]),
  calls: new Set(["call"]),
  constant: { type: "assignment", name: "left", value: "right" },
  wrappers: WRAPPERS,
  member: { type: "attribute", name: "attribute", self: "self" },
};

export function unwrap(node: Node): Node {
  return unwrapped(node, WRAPPERS);
}

export function positional(call: Node): Node[] {
  const args = call.childForFieldName("arguments");
  return args
    ? namedChildren(args).filter((a) =>
      a.type !== "keyword_argument" && a.type !== "comment" &&
      a.type !== "dictionary_splat" && a.type !== "list_splat"
    )
    : [];
}

export function keyword(call: Node, name: string): Node | undefined {
  const args = call.childForFieldName("arguments");
  for (const a of args ? namedChildren(args) : []) {
    if (
      a.type === "keyword_argument" &&
      a.childForFieldName("name")?.text === name
    ) return a.childForFieldName("value") ?? undefined;
  }
  return undefined;
}

/** `name` or `name as alias` in an import statement: [name, alias]. */
export function importedAs(
  name: Node,
): [string | undefined, string | undefined] {
  return name.type === "aliased_import"
    ? [
      name.childForFieldName("name")?.text,
      name.childForFieldName("alias")?.text,
    ]
    : [name.text, name.text];
}

export function argument(
  call: Node,
  index: number,
  name: string,
): Node | undefined {
  return keyword(call, name) ?? positional(call)[index];
}

/** The queue ports of one Python file. */
export class PyQueueFile extends ReceiverQueueFile {
  constructor(
    path: string,
    ports: ExtractedPort[],
    imports?: QueueImports,
    exported?: ExportedKinds,
    collectOnly = false,
  ) {
    super(path, "python", SYNTAX, ports, imports, exported, collectOnly);
  }

  /** Module-level kinds (not `self.x` ones) are what a module exports. */
  recordExports(): void {
    for (const [name, kind] of this.kinds.globals()) {
      if (!name.startsWith("self.")) {
        this.exported?.set(this.path, name, kind);
      }
    }
  }

  daprSubscription(node: Node): { pubsub: Node; topic: Node } | undefined {
    return daprSubscription(this, node);
  }

  call(node: Node): void {
    queueCall(this, node);
  }

  libraryImports(root: Node): boolean {
    let any = false;
    walk(root, (n) => {
      if (n.type === "import_statement") {
        for (const name of n.childrenForFieldName("name")) {
          if (!name) continue;
          const dotted = name.type === "aliased_import"
            ? name.childForFieldName("name")
            : name;
          const alias = name.type === "aliased_import"
            ? name.childForFieldName("alias")?.text
            : undefined;
          const module = dotted?.text ?? "";
          const exports = MODULES[module];
          if (!exports) continue;
          any = true;
          // `import redis.asyncio as r` binds r; `import pika` binds pika.
          if (alias) this.kinds.bindGlobal(alias, exports["*"]!);
          else {
            const top = module.split(".")[0]!;
            const topExports = MODULES[top];
            if (topExports) this.kinds.bindGlobal(top, topExports["*"]!);
          }
        }
        return false;
      }
      if (n.type === "import_from_statement") {
        const module = n.childForFieldName("module_name")?.text ?? "";
        const exports = MODULES[module];
        if (!exports) return false;
        any = true;
        for (const name of n.childrenForFieldName("name")) {
          if (!name) continue;
          const [original, alias] = importedAs(name);
          const kind = original ? exports[original] : undefined;
          if (kind && alias) this.kinds.bindGlobal(alias, kind);
        }
        return false;
      }
    });
    return any;
  }

  bind(b: Node): boolean {
    switch (b.type) {
      case "assignment": {
        const left = b.childForFieldName("left");
        const right = b.childForFieldName("right");
        const kind = right
          ? this.kindOf(right)
          : this.typeKind(b.childForFieldName("type"));
        if (!left || !kind) return false;
        if (left.type === "identifier") {
          return this.kinds.bind(b, left.text, kind);
        }
        const attr = this.ownMember(left);
        return attr ? this.kinds.bindGlobal(attr, kind) : false;
      }
      case "with_item": {
        const value = b.childForFieldName("value");
        if (value?.type !== "as_pattern") return false;
        const target = value.childForFieldName("alias")?.namedChild(0);
        const expression = value.namedChild(0);
        const kind = expression ? this.kindOf(expression) : undefined;
        if (target?.type !== "identifier" || !kind) return false;
        return this.kinds.bind(b, target.text, kind);
      }
      default: {
        const name = namedChildren(b).find((c) => c.type === "identifier");
        const kind = this.typeKind(b.childForFieldName("type"));
        return name && kind ? this.kinds.bind(b, name.text, kind) : false;
      }
    }
  }

  typeKind(type: Node | null): string | undefined {
    const inner = type?.namedChild(0);
    if (!inner) return undefined;
    const kind = this.kindOf(inner);
    return kind ? INSTANCE[kind] ?? kind : undefined;
  }

  /** A module's member, else an attribute of an instance. */
  memberKind(kind: string, name: string): string | undefined {
    return MODULE_MEMBERS[kind]?.[name] ?? ATTRIBUTES[kind]?.[name];
  }

  /** A method's result, else calling what the callee is (a class, a factory). */
  callKind(_call: Node, fn: Node): string | undefined {
    if (fn.type === "attribute") {
      const kind = this.receiverKind(fn);
      const result = kind ? METHODS[kind]?.[this.memberName(fn)] : undefined;
      if (result) return result;
    }
    const kind = this.kindOf(fn);
    return kind ? CALLED[kind] : undefined;
  }

  expressionValue(n: Node, depth: number): Value {
    switch (n.type) {
      case "attribute": {
        // `settings.TOPIC` with `from app import settings`
        const object = n.childForFieldName("object");
        const name = n.childForFieldName("attribute")?.text ?? "";
        const found = object?.type === "identifier"
          ? this.imports?.constant(this.path, object.text, name)
          : undefined;
        return found ?? hole(n.text);
      }
      case "binary_operator": {
        const op = n.childForFieldName("operator")?.text;
        const left = n.childForFieldName("left");
        const right = n.childForFieldName("right");
        if (op === "+") return this.sum(left, right, depth);
        if (op === "%" && left) {
          const format = this.value(left, depth + 1);
          const text = exactText(format);
          if (text !== undefined) {
            return formatPlaceholders(format);
          }
        }
        return hole(n.text);
      }
      case "boolean_operator": {
        // `os.environ.get("T") or "events"`
        const left = n.childForFieldName("left");
        const right = n.childForFieldName("right");
        if (
          n.childForFieldName("operator")?.text === "or" && left &&
          isEnvRead(left)
        ) {
          return composed(this.value(right, depth + 1));
        }
        return hole(n.text);
      }
      case "call": {
        const fn = n.childForFieldName("function")?.text ?? "";
        if (/^(os\.getenv|getenv|os\.environ\.get|environ\.get)$/.test(fn)) {
          const fallback = argument(n, 1, "default");
          return fallback
            ? composed(this.value(fallback, depth + 1))
            : hole(n.text, "env");
        }
        if (fn.endsWith(".format")) {
          const object = n.childForFieldName("function")?.childForFieldName(
            "object",
          );
          const format = object ? this.value(object, depth + 1) : hole("?");
          const text = exactText(format);
          if (text !== undefined) {
            return formatPlaceholders(
              mapText(format, (t) => t.replace(/\{[A-Za-z_]\w*\}/g, "{}")),
            );
          }
        }
        return hole(n.text);
      }
      default:
        return hole(n.text);
    }
  }

  /**
   * The name an aio-pika queue or exchange variable was declared with:
   * `q = await channel.declare_queue("name")`.
   */
  declaredName(receiver: Node): Value | undefined {
    const r = unwrap(receiver);
    const value = r.type === "identifier"
      ? this.constants.get(r.text)
      : r.type === "call"
      ? r
      : undefined;
    const call = value ? unwrap(value) : undefined;
    if (call?.type !== "call") return undefined;
    const name = call.childForFieldName("function")?.childForFieldName(
      "attribute",
    )?.text;
    if (!name || !/^(declare|get)_(queue|exchange)$/.test(name)) {
      return undefined;
    }
    const arg = argument(call, 0, "name");
    return arg ? this.value(arg) : undefined;
  }
}

export function isEnvRead(node: Node): boolean {
  return /^(os\.getenv|getenv|os\.environ|environ)\b/.test(unwrap(node).text);
}

/** Finds queue ports in one parsed Python file. */
export function pythonQueuePorts(
  root: Node,
  path: string,
  ports: ExtractedPort[],
  imports?: QueueImports,
  exported?: ExportedKinds,
): void {
  new PyQueueFile(path, ports, imports, exported).run(root);
}

/** Records the queue clients one Python module holds at module level. */
export function pythonQueueExports(
  root: Node,
  path: string,
  imports: QueueImports,
  exported: ExportedKinds,
): void {
  new PyQueueFile(path, [], imports, exported, true).run(root);
}
