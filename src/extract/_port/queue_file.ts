// The shape every language's queue reader shares: one file's constants and
// receiver kinds, bound from the queue libraries it imports (and the
// clients other modules export), then its calls read as producers and
// consumers.
import type { Node } from "web-tree-sitter";
import type { ExtractedPort } from "../types.ts";
import type { GrammarName } from "../_syntax/parser.ts";
import { concat, hole, keyText, type Value } from "../_value/value.ts";
import { walk } from "../_syntax/tree.ts";
import { evaluateStringNode } from "../_value/literals.ts";
import {
  bindUntilStable,
  type ExportedKinds,
  KindTable,
  nameValue,
  type QueueEmit,
  queueEmitter,
  type QueueImports,
} from "./queue.ts";

/** The syntax a language's queue reader gathers from a tree. */
export interface QueueSyntax {
  /** The scopes names are bound in (functions, lambdas...). */
  scopes: ReadonlySet<string>;
  /** Assignments, declarations and typed parameters that bind names. */
  bindings: ReadonlySet<string>;
  /** Calls, read once the names are bound. */
  calls: ReadonlySet<string>;
  /**
   * The binding that defines a constant (`NAME = "..."`): its node type,
   * the field of its name (an identifier) and of its value.
   */
  constant: { type: string; name: string; value: string };
}

/** The nodes of a file a queue reader reads. */
export interface QueueNodes {
  /** Assignments, declarations and typed parameters that bind names. */
  bindings: Node[];
  /** Calls, read once the names are bound. */
  calls: Node[];
}

/**
 * Adds the port of one call's topic (see {@linkcode QueueFile.callEmitter}):
 * nothing when the topic is missing or its name unknown.
 */
export type CallEmit = (
  role: "server" | "client",
  topic: Node | Value | undefined,
  system: string,
  library: string,
  extra?: Record<string, string>,
) => void;

/** The queue ports of one file of a language (see the subclasses). */
export abstract class QueueFile {
  readonly path: string;
  readonly kinds: KindTable;
  readonly constants = new Map<string, Node>();
  readonly ports: ExtractedPort[];
  /** The project, for imported constants and clients. */
  readonly imports: QueueImports | undefined;
  readonly exported: ExportedKinds | undefined;
  /** Only record the kinds the file exports, emit nothing. */
  readonly collectOnly: boolean;
  /** Adds a port (topic expressions evaluated with `value`). */
  readonly emitter: QueueEmit;

  /** The syntax the file's language reads with. */
  readonly syntax: QueueSyntax;

  constructor(
    path: string,
    grammar: GrammarName,
    syntax: QueueSyntax,
    ports: ExtractedPort[],
    imports?: QueueImports,
    exported?: ExportedKinds,
    collectOnly = false,
  ) {
    this.path = path;
    this.syntax = syntax;
    this.kinds = new KindTable(syntax.scopes);
    this.ports = ports;
    this.imports = imports;
    this.exported = exported;
    this.collectOnly = collectOnly;
    this.emitter = queueEmitter(
      ports,
      path,
      grammar,
      (topic) => "parts" in topic ? topic : this.value(topic),
    );
  }

  /**
   * Adds the ports of one call: at `at`, for the operation `operation`,
   * owned by the function around `owner` (by default `at`).
   */
  callEmitter(at: Node, operation: string, owner: Node = at): CallEmit {
    return (role, topic, system, library, extra) =>
      this.emitter(at, role, topic, system, library, operation, extra, owner);
  }

  /** Strips what does not change an expression's value (`await`, parens). */
  abstract unwrap(node: Node): Node;
  /** The value of an expression other than a string or a name. */
  abstract expressionValue(node: Node, depth: number): Value;

  /**
   * The value of a topic expression: strings, names (constants of the file
   * and of the modules it imports), and what the language adds.
   */
  value(node: Node | null | undefined, depth = 0): Value {
    if (!node || depth > 8) return hole("?");
    const n = this.unwrap(node);
    const str = evaluateStringNode(n, (e) => this.value(e, depth + 1));
    if (str) return str;
    if (n.type !== "identifier") return this.expressionValue(n, depth);
    return nameValue(
      n,
      this.constants.get(n.text),
      (value) => this.value(value, depth + 1),
      this.imports,
      this.path,
    );
  }

  /** `a + b` of two expressions. */
  sum(left: Node | null, right: Node | null, depth: number): Value {
    return concat([this.value(left, depth + 1), this.value(right, depth + 1)]);
  }
  /** The binding nodes and calls of a tree. */
  gather(root: Node): QueueNodes {
    const bindings: Node[] = [];
    const calls: Node[] = [];
    walk(root, (n) => {
      if (this.syntax.bindings.has(n.type)) bindings.push(n);
      else if (this.syntax.calls.has(n.type)) calls.push(n);
    });
    return { bindings, calls };
  }

  /** The name and value node of a binding that defines a constant. */
  constantOf(binding: Node): [string, Node] | undefined {
    const { type, name, value } = this.syntax.constant;
    if (binding.type !== type) return undefined;
    const nameNode = binding.childForFieldName(name);
    const valueNode = binding.childForFieldName(value);
    return nameNode?.type === "identifier" && valueNode
      ? [nameNode.text, valueNode]
      : undefined;
  }
  /** Binds imported names; whether any queue library is imported. */
  abstract libraryImports(root: Node): boolean;
  /** Binds one binding's name to a kind; whether it changed anything. */
  abstract bind(binding: Node): boolean;
  /** Records the kinds of the names the file exports. */
  abstract recordExports(root: Node): void;
  /**
   * The pub/sub component and the topic of a Dapr programmatic
   * subscription (`{ pubsubname, topic, route }`), if `node` is one.
   */
  abstract daprSubscription(
    node: Node,
  ): { pubsub: Node; topic: Node } | undefined;
  /** Reads one call as a producer or consumer. */
  abstract call(node: Node): void;

  /**
   * Dapr programmatic subscriptions: the objects a `/dapr/subscribe`
   * handler returns, each a consumer of its topic.
   */
  daprRoutes(root: Node): void {
    walk(root, (n) => {
      const subscription = this.daprSubscription(n);
      if (!subscription) return;
      const extra = { pubsub: keyText(this.value(subscription.pubsub)) };
      this.emitter(
        n,
        "server",
        subscription.topic,
        "dapr",
        "dapr-subscribe",
        "/dapr/subscribe",
        extra,
      );
      return false;
    });
  }

  /** Binds names imported from modules that export queue clients. */
  importedKinds(): boolean {
    if (!this.exported || !this.imports) return false;
    return this.exported.bindImports(this.kinds, this.imports, this.path);
  }

  /** Reads a file's tree: constants, kinds, then every call. */
  run(root: Node): void {
    const { bindings, calls } = this.gather(root);
    for (const binding of bindings) {
      const constant = this.constantOf(binding);
      if (constant && !this.constants.has(constant[0])) {
        this.constants.set(constant[0], constant[1]);
      }
    }
    if (!this.collectOnly && root.text.includes("dapr/subscribe")) {
      this.daprRoutes(root);
    }
    const imported = this.libraryImports(root);
    const fromModules = this.importedKinds();
    if (!imported && !fromModules) return;
    bindUntilStable(bindings, (b) => this.bind(b));
    if (this.collectOnly) {
      this.recordExports(root);
      return;
    }
    for (const node of calls) this.call(node);
  }
}
