// Private helpers shared by the Java, C#, Rust, PHP, Ruby, Elixir and queue
// extractors: positions, owners, client URL composition and port records.
import type { Node, Tree } from "web-tree-sitter";
import { httpBoundaryKey } from "../../boundary/http_path.ts";
import type { ExtractedPort, PortOwner } from "../types.ts";
import type {
  ExtractDiagnostic,
  ExtractResult,
  SourceFile,
} from "../extractor.ts";
import { type GrammarName, parseSource } from "../_syntax/parser.ts";
import { ownerOf } from "../_syntax/owner.ts";
import { positionOf, stringParts } from "../_syntax/tree.ts";

/** A piece of a statically evaluated string expression. */
export type StringPiece =
  | { kind: "text"; text: string }
  | { kind: "hole"; text: string };

/** A string expression evaluated as far as the code allows. */
export interface EvaluatedString {
  /** Literal text and unresolved parts, in order. */
  pieces: StringPiece[];
  /** Whether a constant (or environment default) was substituted. */
  resolved: boolean;
}

/** A literal with no unresolved parts. */
export function literal(text: string, resolved = false): EvaluatedString {
  return { pieces: [{ kind: "text", text }], resolved };
}

/** The text of an evaluated string, each unresolved part written `{}`. */
export function keyText(value: EvaluatedString): string {
  return value.pieces.map((p) => p.kind === "text" ? p.text : "{}").join("");
}

/** A single unresolved part. */
export function hole(text: string): EvaluatedString {
  return { pieces: [{ kind: "hole", text }], resolved: false };
}

/** Concatenation of evaluated strings. */
export function concat(parts: readonly EvaluatedString[]): EvaluatedString {
  const pieces: StringPiece[] = [];
  let resolved = false;
  for (const part of parts) {
    resolved ||= part.resolved;
    for (const piece of part.pieces) {
      const last = pieces[pieces.length - 1];
      if (piece.kind === "text" && last?.kind === "text") {
        pieces[pieces.length - 1] = {
          kind: "text",
          text: last.text + piece.text,
        };
      } else {
        pieces.push(piece);
      }
    }
  }
  return { pieces, resolved };
}

/** The text of an evaluated string when it has no holes. */
export function exactText(value: EvaluatedString): string | undefined {
  if (value.pieces.length === 0) return "";
  if (value.pieces.length !== 1) return undefined;
  const piece = value.pieces[0]!;
  return piece.kind === "text" ? piece.text : undefined;
}

/** Replaces printf-style `%s`/`%d` and `{}`/`{0}` placeholders by holes. */
export function splitPlaceholders(text: string): StringPiece[] {
  const pieces: StringPiece[] = [];
  let start = 0;
  let i = 0;
  while (i < text.length) {
    const c = text[i];
    let len = 0;
    if (c === "%" && i + 1 < text.length && "sdvf".includes(text[i + 1]!)) {
      len = 2;
    } else if (c === "{") {
      let j = i + 1;
      while (j < text.length && text[j]! >= "0" && text[j]! <= "9") j++;
      if (text[j] === "}") len = j + 1 - i;
    }
    if (len > 0) {
      if (i > start) pieces.push({ kind: "text", text: text.slice(start, i) });
      pieces.push({ kind: "hole", text: text.slice(i, i + len) });
      i += len;
      start = i;
    } else {
      i++;
    }
  }
  if (start < text.length) {
    pieces.push({ kind: "text", text: text.slice(start) });
  }
  return pieces;
}

/** A client URL reduced to its path, with the confidence it deserves. */
export interface ClientPath {
  /** The path with unresolved parts written `{}`, starting with `/`. */
  path: string;
  /** 1.0 literal, 0.95 constants resolved, 0.8 unresolved parts. */
  confidence: number;
}

/**
 * Reduces a client URL expression to its path: an absolute URL loses its
 * scheme and authority, a leading base variable is dropped when a literal
 * path follows it, other unresolved parts become `{}`; the query string and
 * fragment are dropped. Returns undefined when no path can be told (a bare
 * variable, a relative path).
 */
export function clientPath(value: EvaluatedString): ClientPath | undefined {
  const pieces = [...value.pieces];
  let droppedBase = false;
  // A leading unresolved base (`baseUrl + "/users"`): keep the path only.
  while (pieces[0]?.kind === "hole") {
    const next = pieces[1];
    if (next?.kind === "text" && next.text.startsWith("/")) {
      pieces.shift();
      droppedBase = true;
    } else if (next?.kind === "text" && /^https?:\/\//i.test(next.text)) {
      pieces.shift();
    } else {
      return undefined;
    }
  }
  let path = "";
  let holes = false;
  for (const piece of pieces) {
    if (piece.kind === "text") path += piece.text;
    else {
      path += "{}";
      holes = true;
    }
  }
  const scheme = /^[a-z][a-z0-9+.-]*:\/\//i.exec(path);
  if (scheme) {
    const rest = path.slice(scheme[0].length);
    const slash = rest.search(/[/?#]/);
    path = slash < 0 ? "/" : rest.slice(slash);
    if (!path.startsWith("/")) path = "/" + path;
  }
  const cut = path.search(/[?#]/);
  if (cut >= 0) path = path.slice(0, cut);
  if (!path.startsWith("/")) return undefined;
  const confidence = holes ? 0.8 : value.resolved || droppedBase ? 0.95 : 1;
  return { path, confidence };
}

/**
 * Joins route prefixes and a route path with single slashes; the result
 * starts with `/` and has no trailing slash (except the root `/`).
 */
export function joinPaths(...parts: readonly string[]): string {
  const segments: string[] = [];
  for (const part of parts) {
    for (const segment of part.split("/")) {
      if (segment !== "") segments.push(segment);
    }
  }
  return "/" + segments.join("/");
}

/**
 * The confidence of a route path composed from a template: 0.8 with an
 * unresolved part, 0.95 when a constant or a prefix (`prefixed`) went into
 * it, else 1 (a literal).
 */
export function routeConfidence(
  composed: EvaluatedString,
  prefixed: boolean,
): number {
  return composed.pieces.some((p) => p.kind === "hole")
    ? 0.8
    : composed.resolved || prefixed
    ? 0.95
    : 1;
}

/** Options of {@linkcode httpPort}. */
export interface HttpPortInit {
  role: "server" | "client";
  method: string;
  path: string;
  node: Node;
  owner: PortOwner;
  filePath: string;
  confidence: number;
  framework: string;
  extra?: Record<string, string>;
}

/**
 * Builds an HTTP port, or undefined when the path cannot be normalized (the
 * caller records nothing rather than a wrong key).
 */
export function httpPort(init: HttpPortInit): ExtractedPort | undefined {
  let key: string;
  try {
    key = httpBoundaryKey(init.method, init.path);
  } catch {
    return undefined;
  }
  const { line, col } = positionOf(init.node);
  return {
    ref: {
      mechanism: "http",
      role: init.role,
      key,
      line,
      col,
      confidence: init.confidence,
      detail: {
        method: init.method,
        path: init.path,
        framework: init.framework,
        ...init.extra,
      },
    },
    owner: init.owner,
    filePath: init.filePath,
  };
}

/** Runs a per-file extraction, turning a failure into a diagnostic. */
export async function eachFile<F extends { path: string }>(
  files: readonly F[],
  diagnostics: ExtractDiagnostic[],
  run: (file: F) => Promise<void>,
): Promise<void> {
  for (const file of files) {
    try {
      await run(file);
    } catch (error) {
      const detail = error instanceof Error ? error.message : String(error);
      diagnostics.push({
        filePath: file.path,
        severity: "error",
        message: `Cannot extract ports: ${detail}`,
      });
    }
  }
}

/** Reports a file whose syntax tree has errors (the ports found are kept). */
export function syntaxWarning(
  root: Node,
  filePath: string,
  diagnostics: ExtractDiagnostic[],
): void {
  if (!root.hasError) return;
  let where = "";
  const stack: Node[] = [root];
  while (stack.length > 0) {
    const n = stack.pop()!;
    if (n.isError || n.isMissing) {
      const { line, col } = positionOf(n);
      where = ` at ${line}:${col}`;
      break;
    }
    for (let i = n.childCount - 1; i >= 0; i--) {
      const c = n.child(i);
      if (c?.hasError || c?.isError || c?.isMissing) stack.push(c);
    }
  }
  diagnostics.push({
    filePath,
    severity: "warning",
    message: `Cannot parse: syntax error${where}`,
  });
}

/** The HTTP method names recognised in framework calls. */
export const HTTP_METHODS: ReadonlySet<string> = new Set([
  "GET",
  "POST",
  "PUT",
  "PATCH",
  "DELETE",
  "HEAD",
  "OPTIONS",
]);

/** {@linkcode HTTP_METHODS} in lower case, as routing DSLs spell them. */
export const HTTP_VERBS: ReadonlySet<string> = new Set(
  [...HTTP_METHODS].map((m) => m.toLowerCase()),
);

/**
 * Evaluates a string literal node with `evaluate` for its interpolated
 * expressions, or undefined when the node is not a string literal.
 */
export function evaluateStringNode(
  node: Node,
  evaluate: (expression: Node) => EvaluatedString,
): EvaluatedString | undefined {
  const parts = stringParts(node);
  if (!parts) return undefined;
  return concat(
    parts.map((part) =>
      typeof part === "string" ? literal(part) : evaluate(part)
    ),
  );
}

/**
 * The value of a string literal without interpolated parts (what a string
 * constant may hold), or undefined.
 */
export function literalString(node: Node): EvaluatedString | undefined {
  const value = evaluateStringNode(node, (e) => hole(e.text));
  return value && exactText(value) !== undefined ? value : undefined;
}

/**
 * Evaluates a binary string concatenation (`a + b`, PHP's `a . b`) with
 * `evaluate` for its operands; another operator leaves the whole expression
 * unresolved.
 */
export function evaluateConcatenation(
  node: Node,
  operator: string,
  evaluate: (operand: Node | null) => EvaluatedString,
): EvaluatedString {
  if (node.childForFieldName("operator")?.text !== operator) {
    return hole(node.text);
  }
  return concat([
    evaluate(node.childForFieldName("left")),
    evaluate(node.childForFieldName("right")),
  ]);
}

/**
 * Where a port written as a method call is reported: the call's start, or
 * the method name when a chain puts it on a later line than the receiver
 * (`Router::new()\n  .route(...)` reports the `.route` line).
 */
export function anchorOf(call: Node, name: Node): Node {
  return name.startPosition.row > call.startPosition.row ? name : call;
}

/** Options of {@linkcode queuePort}. */
export interface QueuePortInit {
  /** `client` publishes/produces, `server` subscribes/consumes. */
  role: "server" | "client";
  /** The topic, queue, subject or channel name. */
  topic: EvaluatedString;
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
 * become `{}` (confidence 0.8); a resolved constant or environment default
 * gives 0.95, a literal 1.
 */
export function queuePort(init: QueuePortInit): ExtractedPort | undefined {
  const { pieces } = init.topic;
  if (pieces.length === 0 || pieces.every((p) => p.kind === "hole")) {
    return undefined;
  }
  const key = keyText(init.topic).trim();
  if (key === "") return undefined;
  const holes = pieces.some((p) => p.kind === "hole");
  const { line, col } = positionOf(init.node);
  return {
    ref: {
      mechanism: "queue",
      role: init.role,
      key,
      line,
      col,
      confidence: holes ? 0.8 : init.topic.resolved ? 0.95 : 1,
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
  topic: Node | EvaluatedString | undefined,
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
  value: (topic: Node | EvaluatedString) => EvaluatedString,
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
 * Source bytes whose trees a two-pass extractor keeps between its passes;
 * beyond it, the second pass parses again (bounded WASM memory).
 */
const KEEP_TREES_BUDGET = 4_000_000;

/**
 * Extracts the ports of one language's files in two passes: a cross-file
 * pass (`first`, on the files `needsFirst` selects) and then a per-file
 * pass (`second`, which adds the ports it finds) over every file, parsing
 * each file once when the trees fit the memory budget and twice otherwise.
 * A file with syntax errors gets a `warning` diagnostic before `second`
 * reads it; a file that cannot be parsed or processed becomes an `error`
 * diagnostic.
 */
export async function twoPasses(
  files: readonly SourceFile[],
  grammar: GrammarName,
  needsFirst: (file: SourceFile) => boolean,
  first: (root: Node) => void,
  second: (file: SourceFile, root: Node, ports: ExtractedPort[]) => void,
): Promise<ExtractResult> {
  const diagnostics: ExtractDiagnostic[] = [];
  const ports: ExtractedPort[] = [];
  const kept = new Map<string, Tree>();
  let budget = KEEP_TREES_BUDGET;
  const failed = new Set<string>();
  try {
    await eachFile(files, diagnostics, async (file) => {
      if (!needsFirst(file)) return;
      let tree: Tree | undefined;
      try {
        tree = await parseSource(grammar, file.text);
        first(tree.rootNode);
      } catch (error) {
        failed.add(file.path);
        tree?.delete();
        throw error;
      }
      if (file.text.length <= budget) {
        budget -= file.text.length;
        kept.set(file.path, tree);
      } else {
        tree.delete();
      }
    });
    await eachFile(
      files.filter((f) => !failed.has(f.path)),
      diagnostics,
      async (file) => {
        const tree = kept.get(file.path) ??
          await parseSource(grammar, file.text);
        kept.delete(file.path);
        try {
          syntaxWarning(tree.rootNode, file.path, diagnostics);
          second(file, tree.rootNode, ports);
        } finally {
          tree.delete();
        }
      },
    );
  } finally {
    for (const tree of kept.values()) tree.delete();
  }
  return { ports, diagnostics };
}
