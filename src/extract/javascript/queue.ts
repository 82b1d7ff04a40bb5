// Queue producers and consumers in JavaScript/TypeScript: kafkajs, amqplib,
// nats, redis/ioredis, @dapr/dapr, on receivers traced back to the
// library's imports and constructors; Paho MQTT (see mqtt.ts).
import type { Node } from "web-tree-sitter";
import type { ExtractedPort } from "../types.ts";
import { composed, hole, type Value } from "../_value/mod.ts";
import type { ExportedKinds, QueueImports } from "../_port/queue.ts";
import {
  ReceiverQueueFile,
  type ReceiverSyntax,
} from "../_port/queue_receivers.ts";
import type { GrammarName } from "../_syntax/parser.ts";
import {
  namedChildren,
  stringValue,
  unwrapped,
  walk,
} from "../_syntax/tree.ts";
import { daprSubscription, queueCall } from "./queue_calls.ts";
import { pahoPorts } from "./mqtt.ts";
import { FUNCTION_EXPRESSIONS } from "./nodes.ts";

interface JsLibrary {
  /** Kind of a default or namespace import / whole `require`. */
  namespace: string;
  /** Kinds of named exports (values and types). */
  named: Record<string, string>;
}

export const LIBRARIES: Record<string, JsLibrary> = {
  kafkajs: {
    namespace: "kafkajs.module",
    named: {
      Kafka: "kafkajs.KafkaClass",
      Producer: "kafkajs.producer",
      Consumer: "kafkajs.consumer",
    },
  },
  amqplib: {
    namespace: "amqp.module",
    named: {
      connect: "amqp.connectFn",
      Channel: "amqp.channel",
      ConfirmChannel: "amqp.channel",
      Connection: "amqp.connection",
      ChannelModel: "amqp.connection",
    },
  },
  nats: {
    namespace: "nats.module",
    named: {
      connect: "nats.connectFn",
      NatsConnection: "nats.conn",
      JetStreamClient: "nats.js",
    },
  },
  redis: {
    namespace: "redis.module",
    named: {
      createClient: "redis.createFn",
      createCluster: "redis.createFn",
      RedisClientType: "redis.client",
    },
  },
  ioredis: {
    namespace: "redis.class",
    named: { Redis: "redis.class", Cluster: "redis.class" },
  },
  "@dapr/dapr": {
    namespace: "dapr.module",
    named: { DaprClient: "dapr.clientClass", DaprServer: "dapr.serverClass" },
  },
};
LIBRARIES["amqplib/callback_api"] = LIBRARIES["amqplib"]!;
LIBRARIES["@nats-io/transport-node"] = LIBRARIES["nats"]!;
LIBRARIES["dapr-client"] = LIBRARIES["@dapr/dapr"]!;

export const MODULE_LIBRARY: Record<string, JsLibrary> = {};
for (const lib of Object.values(LIBRARIES)) {
  MODULE_LIBRARY[lib.namespace] = lib;
}

/** `new X()` of a class kind. */
export const CONSTRUCTED: Record<string, string> = {
  "kafkajs.KafkaClass": "kafkajs.Kafka",
  "redis.class": "redis.client",
  "dapr.clientClass": "dapr.client",
  "dapr.serverClass": "dapr.server",
};
/** `f()` of a factory kind. */
export const CALLED: Record<string, string> = {
  "amqp.connectFn": "amqp.connection",
  "nats.connectFn": "nats.conn",
  "redis.createFn": "redis.client",
};
/** `x.m()` results and `x.p` properties by receiver kind. */
export const MEMBERS: Record<string, Record<string, string>> = {
  "kafkajs.Kafka": {
    producer: "kafkajs.producer",
    consumer: "kafkajs.consumer",
  },
  "amqp.connection": {
    createChannel: "amqp.channel",
    createConfirmChannel: "amqp.channel",
  },
  "nats.conn": { jetstream: "nats.js" },
  "redis.client": { duplicate: "redis.client" },
  "dapr.client": { pubsub: "dapr.client.pubsub" },
  "dapr.server": { pubsub: "dapr.server.pubsub" },
};
/** Class kinds used as types name their instances. */
export const INSTANCE_OF_TYPE: Record<string, string> = {
  ...CONSTRUCTED,
};

/** What a topic or receiver expression is read through. */
const WRAPPERS: ReadonlySet<string> = new Set([
  "await_expression",
  "parenthesized_expression",
  "as_expression",
  "non_null_expression",
  "satisfies_expression",
  "type_assertion",
]);

export function unwrap(node: Node): Node {
  return unwrapped(node, WRAPPERS);
}

/** What the queue reader gathers from JavaScript/TypeScript. */
const SYNTAX: ReceiverSyntax = {
  scopes: new Set([
    "function_declaration",
    "generator_function_declaration",
    ...FUNCTION_EXPRESSIONS,
    "method_definition",
  ]),
  bindings: new Set([
    "variable_declarator",
    "assignment_expression",
    "public_field_definition",
    "required_parameter",
    "optional_parameter",
    // callbacks: a call they are passed to binds their parameters
    ...FUNCTION_EXPRESSIONS,
  ]),
  calls: new Set(["call_expression"]),
  constant: { type: "variable_declarator", name: "name", value: "value" },
  wrappers: WRAPPERS,
  member: { type: "member_expression", name: "property", self: "this" },
};

/** Whether an expression reads the environment (`process.env.X`...). */
export function isEnvRead(node: Node): boolean {
  const text = node.text;
  return /^(process\.env|Bun\.env|import\.meta\.env)\b/.test(text) ||
    /^Deno\.env\.get\(/.test(text);
}

/** The queue ports of one JavaScript/TypeScript file. */
export class JsQueueFile extends ReceiverQueueFile {
  readonly grammar: GrammarName;

  constructor(
    path: string,
    grammar: GrammarName,
    ports: ExtractedPort[],
    imports?: QueueImports,
    exported?: ExportedKinds,
    collectOnly = false,
  ) {
    super(path, grammar, SYNTAX, ports, imports, exported, collectOnly);
    this.grammar = grammar;
  }

  daprSubscription(node: Node): { pubsub: Node; topic: Node } | undefined {
    return daprSubscription(node);
  }

  call(node: Node): void {
    queueCall(this, node);
  }

  /** `export const producer = kafka.producer()` → exported kinds. */
  recordExports(root: Node): void {
    if (!this.exported) return;
    for (const stmt of namedChildren(root)) {
      if (stmt.type !== "export_statement") continue;
      const declaration = stmt.childForFieldName("declaration");
      if (!declaration) continue;
      for (const d of namedChildren(declaration)) {
        if (d.type !== "variable_declarator") continue;
        const name = d.childForFieldName("name");
        if (name?.type !== "identifier") continue;
        const kind = this.kinds.lookup(name, name.text);
        if (kind) this.exported.set(this.path, name.text, kind);
      }
    }
  }

  /** Binds imported names; returns whether any queue library is imported. */
  libraryImports(root: Node): boolean {
    let any = false;
    for (const stmt of namedChildren(root)) {
      if (stmt.type !== "import_statement") continue;
      const source = stmt.childForFieldName("source");
      const lib = source ? LIBRARIES[stringValue(source) ?? ""] : undefined;
      if (!lib) continue;
      any = true;
      const clause = namedChildren(stmt).find((c) =>
        c.type === "import_clause"
      );
      for (const part of clause ? namedChildren(clause) : []) {
        if (part.type === "identifier") {
          this.kinds.bindGlobal(part.text, lib.namespace);
        } else if (part.type === "namespace_import") {
          const id = namedChildren(part)[0];
          if (id) this.kinds.bindGlobal(id.text, lib.namespace);
        } else if (part.type === "named_imports") {
          for (const spec of namedChildren(part)) {
            const name = spec.childForFieldName("name")?.text ?? "";
            const alias = spec.childForFieldName("alias")?.text ?? name;
            const kind = lib.named[name];
            if (kind) this.kinds.bindGlobal(alias, kind);
          }
        }
      }
    }
    // CommonJS: `const x = require("lib")`, `const { A } = require("lib")`.
    walk(root, (n) => {
      if (n.type !== "call_expression") return;
      if (n.childForFieldName("function")?.text !== "require") return;
      const arg = n.childForFieldName("arguments")?.namedChild(0);
      const lib = arg ? LIBRARIES[stringValue(arg) ?? ""] : undefined;
      if (!lib) return;
      any = true;
      let target: Node | null = n;
      // `require("x").Kafka`
      if (n.parent?.type === "member_expression") {
        const prop = n.parent.childForFieldName("property")?.text ?? "";
        const decl = n.parent.parent;
        const kind = lib.named[prop];
        if (decl?.type === "variable_declarator" && kind) {
          const name = decl.childForFieldName("name");
          if (name?.type === "identifier") {
            this.kinds.bindGlobal(name.text, kind);
          }
        }
        return;
      }
      target = n.parent;
      if (target?.type !== "variable_declarator") return;
      const name = target.childForFieldName("name");
      if (name?.type === "identifier") {
        this.kinds.bindGlobal(name.text, lib.namespace);
      } else if (name?.type === "object_pattern") {
        for (const p of namedChildren(name)) {
          let key = "";
          let local = "";
          if (p.type === "shorthand_property_identifier_pattern") {
            key = local = p.text;
          } else if (p.type === "pair_pattern") {
            key = p.childForFieldName("key")?.text ?? "";
            local = p.childForFieldName("value")?.text ?? "";
          }
          const kind = lib.named[key];
          if (kind && local) this.kinds.bindGlobal(local, kind);
        }
      }
    });
    return any;
  }

  bind(d: Node): boolean {
    switch (d.type) {
      case "variable_declarator": {
        const constant = this.constantOf(d);
        const kind = constant && this.kindOf(constant[1]);
        return kind ? this.kinds.bind(d, constant[0], kind) : false;
      }
      case "assignment_expression": {
        const left = d.childForFieldName("left");
        const right = d.childForFieldName("right");
        if (!left || !right) return false;
        const kind = this.kindOf(right);
        if (!kind) return false;
        if (left.type === "identifier") {
          return this.kinds.bind(d, left.text, kind);
        }
        const name = this.ownMember(left);
        return name ? this.kinds.bindGlobal(name, kind) : false;
      }
      case "public_field_definition": {
        const name = d.childForFieldName("name")?.text;
        const value = d.childForFieldName("value");
        const kind = value
          ? this.kindOf(value)
          : this.typeKind(d.childForFieldName("type"));
        return name && kind
          ? this.kinds.bindGlobal(`this.${name}`, kind)
          : false;
      }
      case "arrow_function":
      case "function_expression":
      case "function":
        return this.bindCallback(d);
      default: {
        // required_parameter / optional_parameter with a type annotation
        const pattern = d.childForFieldName("pattern");
        const kind = this.typeKind(d.childForFieldName("type"));
        if (pattern?.type !== "identifier" || !kind) return false;
        let changed = this.kinds.bind(d, pattern.text, kind);
        if (namedChildren(d).some((c) => c.type === "accessibility_modifier")) {
          changed = this.kinds.bindGlobal(`this.${pattern.text}`, kind) ||
            changed;
        }
        return changed;
      }
    }
  }

  /**
   * Parameters of callbacks: `p.then((conn) => ...)` binds `conn` to what
   * `p` resolves to; a node-style callback `(err, ch) => ...` passed last
   * to `conn.createChannel(cb)` binds `ch` to the call's result.
   */
  bindCallback(fn: Node): boolean {
    const list = fn.parent;
    const call = list?.parent;
    if (list?.type !== "arguments" || call?.type !== "call_expression") {
      return false;
    }
    const params = callbackParams(fn);
    const callee = call.childForFieldName("function");
    if (callee?.type === "member_expression") {
      const method = callee.childForFieldName("property")?.text;
      if (method === "then") {
        const object = callee.childForFieldName("object");
        const kind = object ? this.kindOf(object) : undefined;
        return kind && params[0]
          ? this.kinds.bind(params[0], params[0].text, kind)
          : false;
      }
    }
    const args = namedChildren(list);
    if (args[args.length - 1]?.id !== fn.id || !params[1]) return false;
    const kind = this.kindOf(call);
    return kind ? this.kinds.bind(params[1], params[1].text, kind) : false;
  }

  /** Kind of a type annotation naming a library type. */
  typeKind(annotation: Node | null): string | undefined {
    if (!annotation) return undefined;
    const type = annotation.type === "type_annotation"
      ? annotation.namedChild(0)
      : annotation;
    if (!type) return undefined;
    let kind: string | undefined;
    if (type.type === "type_identifier") {
      kind = this.kinds.lookup(type, type.text);
    } else if (type.type === "nested_type_identifier") {
      const module = type.childForFieldName("module");
      const name = type.childForFieldName("name")?.text ?? "";
      const moduleKind = module
        ? this.kinds.lookup(type, module.text)
        : undefined;
      kind = moduleKind ? MODULE_LIBRARY[moduleKind]?.named[name] : undefined;
    } else if (type.type === "generic_type") {
      return this.typeKind(type.childForFieldName("name"));
    }
    if (!kind) return undefined;
    return INSTANCE_OF_TYPE[kind] ?? kind;
  }

  /** A library's export, else what a method or property gives. */
  memberKind(kind: string, name: string): string | undefined {
    return MODULE_LIBRARY[kind]?.named[name] ?? MEMBERS[kind]?.[name];
  }

  /** `new X()` of a class kind. */
  override otherKind(n: Node): string | undefined {
    if (n.type !== "new_expression") return undefined;
    const ctor = n.childForFieldName("constructor");
    const kind = ctor ? this.kindOf(ctor) : undefined;
    return kind ? CONSTRUCTED[kind] : undefined;
  }

  /**
   * A factory's result, a library export called (`amqp.connect()`), a
   * method's result, or what `p.then((x) => x.y)` resolves to.
   */
  callKind(call: Node, fn: Node): string | undefined {
    if (fn.type !== "member_expression") {
      const kind = this.kindOf(fn);
      return kind ? CALLED[kind] : undefined;
    }
    const method = this.memberName(fn);
    if (method === "then") {
      const callback = call.childForFieldName("arguments")?.namedChild(0);
      const result = callback ? returnedExpression(callback) : undefined;
      return result ? this.kindOf(result) : undefined;
    }
    const kind = this.receiverKind(fn);
    if (!kind) return undefined;
    const exported = MODULE_LIBRARY[kind]?.named[method];
    if (exported) return CALLED[exported];
    return MEMBERS[kind]?.[method];
  }

  expressionValue(n: Node, depth: number): Value {
    if (n.type !== "binary_expression") return hole(n.text);
    const op = n.childForFieldName("operator")?.text;
    const left = n.childForFieldName("left");
    const right = n.childForFieldName("right");
    if ((op === "??" || op === "||") && left && isEnvRead(unwrap(left))) {
      return composed(this.value(right, depth + 1));
    }
    return op === "+" ? this.sum(left, right, depth) : hole(n.text);
  }
}

/** The identifier parameters of a callback (`x => ..`, `(a, b) => ..`). */
export function callbackParams(fn: Node): Node[] {
  const single = fn.childForFieldName("parameter");
  if (single?.type === "identifier") return [single];
  const params = fn.childForFieldName("parameters");
  return (params ? namedChildren(params) : []).map((p) =>
    p.type === "identifier" ? p : p.childForFieldName("pattern") ?? p
  );
}

/** What an arrow or function returns: its expression body or `return x`. */
export function returnedExpression(fn: Node): Node | undefined {
  if (fn.type !== "arrow_function" && fn.type !== "function_expression") {
    return undefined;
  }
  const body = fn.childForFieldName("body");
  if (!body) return undefined;
  if (body.type !== "statement_block") return body;
  for (const stmt of namedChildren(body)) {
    if (stmt.type === "return_statement") {
      return stmt.namedChild(0) ?? undefined;
    }
  }
  return undefined;
}

/** Finds queue ports in one parsed JavaScript/TypeScript file. */
export function jsQueuePorts(
  root: Node,
  path: string,
  grammar: GrammarName,
  ports: ExtractedPort[],
  imports?: QueueImports,
  exported?: ExportedKinds,
): void {
  new JsQueueFile(path, grammar, ports, imports, exported).run(root);
  pahoPorts(root, path, grammar, ports);
}

/** Records the queue clients one JavaScript/TypeScript file exports. */
export function jsQueueExports(
  root: Node,
  path: string,
  grammar: GrammarName,
  imports: QueueImports,
  exported: ExportedKinds,
): void {
  new JsQueueFile(path, grammar, [], imports, exported, true).run(root);
}
