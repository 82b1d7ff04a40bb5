// Queue port records: producers (`client`) and consumers (`server`) keyed by
// the topic, queue, subject or channel name, and the name-to-kind table the
// per-language readers use to trace receivers back to a queue library.
import type { Node } from "web-tree-sitter";
import type { ExtractedPort, PortOwner } from "../types.ts";
import type { GrammarName } from "../_syntax/parser.ts";
import { ownerOf } from "../_syntax/owner.ts";
import { positionOf } from "../_syntax/tree.ts";
import { confidenceOf } from "../_value/confidence.ts";
import { hasHoles, keyText, type Value } from "../_value/value.ts";

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
