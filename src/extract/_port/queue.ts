// Queue port records: producers (`client`) and consumers (`server`) keyed by
// the topic, queue, subject or channel name, and the name-to-kind table the
// per-language readers use to trace receivers back to a queue library.
import type { Node } from "web-tree-sitter";
import type { ExtractedPort, PortOwner } from "../types.ts";
import type { GrammarName } from "../_syntax/parser.ts";
import { ownerOf } from "../_syntax/owner.ts";
import { positionOf } from "../_syntax/tree.ts";
import { confidenceOf } from "../_value/confidence.ts";
import {
  composed,
  exactText,
  hasHoles,
  hole,
  keyText,
  type Value,
} from "../_value/value.ts";

/** Options of {@linkcode queuePort}. */
export interface QueuePortInit {
  /** `client` publishes/produces, `server` subscribes/consumes. */
  role: "server" | "client";
  /** The topic, queue, subject or channel name. */
  topic: Value;
  node: Node;
  owner: PortOwner;
  filePath: string;
  /** `kafka`, `rabbitmq`, `nats`, `redis`, `dapr`. */
  system: string;
  /** The client library, e.g. `kafkajs`. */
  library: string;
  /** The call or annotation, e.g. `send`, `subscribe`. */
  operation: string;
  extra?: Record<string, string>;
}

/**
 * Builds a queue port keyed by the topic name, or undefined when the name is
 * unknown (an unresolved variable). Unresolved parts of a partly known name
 * become `{}` (confidence `partial`); a resolved constant or environment
 * default gives `composed`, a literal `literal`.
 */
export function queuePort(init: QueuePortInit): ExtractedPort | undefined {
  const { parts } = init.topic;
  if (parts.every((p) => typeof p !== "string")) {
    return undefined;
  }
  const key = keyText(init.topic).trim();
  if (key === "") return undefined;
  const holes = hasHoles(init.topic);
  const { line, col } = positionOf(init.node);
  return {
    ref: {
      mechanism: "queue",
      role: init.role,
      key,
      line,
      col,
      confidence: confidenceOf({ holes, composed: init.topic.composed }),
      detail: {
        topic: key,
        system: init.system,
        library: init.library,
        operation: init.operation,
        ...init.extra,
      },
    },
    owner: init.owner,
    filePath: init.filePath,
  };
}

/** Where a RabbitMQ message is published (or a queue is bound) to. */
export interface AmqpTarget {
  /**
   * The exchange; on the default exchange (`""`), which routes by queue
   * name, the routing key: the queue.
   */
  topic: Value;
  /** Whether the exchange is the default one. */
  isDefault: boolean;
  /** The `exchange` and `routingKey` details of the port. */
  extra: Record<string, string>;
}

/** The target of a publish (or binding) to `exchange` with `routingKey`. */
export function amqpTarget(exchange: Value, routingKey: Value): AmqpTarget {
  const isDefault = exactText(exchange) === "";
  return {
    topic: isDefault ? routingKey : exchange,
    isDefault,
    extra: { exchange: keyText(exchange), routingKey: keyText(routingKey) },
  };
}

/**
 * Adds the queue port of a topic to a file's ports: at the node `at`, owned
 * by the function enclosing `owner` (by default `at`), nothing when the
 * topic is missing or its name unknown.
 */
export type QueueEmit = (
  at: Node,
  role: "server" | "client",
  topic: Node | Value | undefined,
  system: string,
  library: string,
  operation: string,
  extra?: Record<string, string>,
  owner?: Node,
) => void;

/**
 * A {@linkcode QueueEmit} for one file, evaluating topic expressions with
 * `value`.
 */
export function queueEmitter(
  ports: ExtractedPort[],
  filePath: string,
  grammar: GrammarName,
  value: (topic: Node | Value) => Value,
): QueueEmit {
  return (at, role, topic, system, library, operation, extra, owner = at) => {
    if (!topic) return;
    const port = queuePort({
      role,
      topic: value(topic),
      node: at,
      owner: ownerOf(owner, filePath, grammar),
      filePath,
      system,
      library,
      operation,
      ...(extra ? { extra } : {}),
    });
    if (port) ports.push(port);
  };
}

/**
 * Binds names to kinds until nothing changes (bindings depend on each
 * other: `kafka` → `producer`), at most four passes over `items`.
 */
export function bindUntilStable<T>(
  items: readonly T[],
  bind: (item: T) => boolean,
): void {
  for (let pass = 0; pass < 4; pass++) {
    let changed = false;
    for (const item of items) changed = bind(item) || changed;
    if (!changed) break;
  }
}

/**
 * Kinds of values (`kafkajs.producer`, `amqp.channel`...) bound to names,
 * per scope: a name is looked up in the enclosing scopes of its use, then
 * at file level. Attribute names (`this.x`, `self.x`) live at file level.
 */
export class KindTable {
  readonly #kinds = new Map<string, string>();
  readonly #scopes: ReadonlySet<string>;

  constructor(scopeTypes: ReadonlySet<string>) {
    this.#scopes = scopeTypes;
  }

  /** The scope a binding at `node` belongs to (null: file level). */
  scopeOf(node: Node): Node | null {
    for (let n = node.parent; n; n = n.parent) {
      if (this.#scopes.has(n.type)) return n;
    }
    return null;
  }

  /** Binds `name` in the scope of `at`; returns whether it was new. */
  bind(at: Node | null, name: string, kind: string): boolean {
    const scope = at ? this.scopeOf(at) : null;
    const key = `${scope ? scope.id : 0}:${name}`;
    if (this.#kinds.get(key) === kind) return false;
    this.#kinds.set(key, kind);
    return true;
  }

  /** Binds at file level. */
  bindGlobal(name: string, kind: string): boolean {
    const key = `0:${name}`;
    if (this.#kinds.get(key) === kind) return false;
    this.#kinds.set(key, kind);
    return true;
  }

  /** The file-level bindings: `[name, kind]` pairs. */
  globals(): Array<[string, string]> {
    const out: Array<[string, string]> = [];
    for (const [key, kind] of this.#kinds) {
      if (key.startsWith("0:")) out.push([key.slice(2), kind]);
    }
    return out;
  }

  /** The kind of `name` as seen at `at`. */
  lookup(at: Node, name: string): string | undefined {
    for (let n = at.parent; n; n = n.parent) {
      if (!this.#scopes.has(n.type)) continue;
      const kind = this.#kinds.get(`${n.id}:${name}`);
      if (kind) return kind;
    }
    return this.#kinds.get(`0:${name}`);
  }
}

/**
 * What a queue reader asks its language's project about other files: the
 * value of a constant a file imports, and where an imported name comes
 * from. Implemented by each language's `project.ts`.
 */
export interface QueueImports {
  /**
   * The value of `local` as a file sees it through its imports (or of
   * `local.member` for an imported module), if it is a string constant.
   */
  constant(path: string, local: string, member?: string): Value | undefined;
  /** The file and the name a local name of `path` is imported from. */
  origin(
    path: string,
    local: string,
  ): { path: string; name: string } | undefined;
  /** The local names `path` binds by imports. */
  imported(path: string): Iterable<string>;
}

/**
 * The value a name read in queue code stands for: the expression assigned
 * to it in the file (`assigned`, evaluated by `evaluate`) unless the name is
 * read inside that very assignment, else the constant it is imported as,
 * else an unresolved `constant`. A substituted value counts as composed.
 */
export function nameValue(
  name: Node,
  assigned: Node | undefined,
  evaluate: (node: Node) => Value,
  imports: QueueImports | undefined,
  path: string,
): Value {
  if (
    assigned &&
    !(assigned.startIndex <= name.startIndex &&
      assigned.endIndex >= name.endIndex)
  ) {
    return composed(evaluate(assigned));
  }
  return imports?.constant(path, name.text) ?? hole(name.text, "constant");
}

/**
 * Queue client kinds that modules hold at module level (`export const
 * producer = kafka.producer()`), so that the calls of their importers count
 * too.
 */
export class ExportedKinds {
  readonly #byFile = new Map<string, Map<string, string>>();

  /** Records that `path` holds `name` of `kind`. */
  set(path: string, name: string, kind: string): void {
    let names = this.#byFile.get(path);
    if (!names) this.#byFile.set(path, names = new Map());
    names.set(name, kind);
  }

  /**
   * Binds in `kinds` each name `path` imports from a module holding a
   * queue client under that name; whether any was.
   */
  bindImports(kinds: KindTable, imports: QueueImports, path: string): boolean {
    let any = false;
    for (const local of imports.imported(path)) {
      const origin = imports.origin(path, local);
      const kind = origin
        ? this.#byFile.get(origin.path)?.get(origin.name)
        : undefined;
      if (kind) {
        kinds.bindGlobal(local, kind);
        any = true;
      }
    }
    return any;
  }

  /** Every name some module holds a client under. */
  names(): Set<string> {
    const out = new Set<string>();
    for (const names of this.#byFile.values()) {
      for (const name of names.keys()) out.add(name);
    }
    return out;
  }
}
