// Generic tree-sitter helpers shared by the language extractors: walking,
// ancestors, positions and spans, and string-literal values for the
// grammars of `_parser.ts`.
import type { Node } from "web-tree-sitter";
import type { SourceSpan } from "../types.ts";
import type { ExtractDiagnostic } from "../extractor.ts";

export type { Node };

/** 1-based line and column of a node's first character. */
export interface Position {
  /** 1-based line. */
  line: number;
  /** 1-based column (UTF-16 code units, as web-tree-sitter reports them). */
  col: number;
}

/**
 * Visits `root` and its descendants depth-first, in source order. When
 * `visit` returns `false` the children of that node are skipped. Uses a tree
 * cursor (no per-node child arrays), released before returning.
 */
export function walk(root: Node, visit: (node: Node) => boolean | void): void {
  const cursor = root.walk();
  try {
    let descend = visit(cursor.currentNode) !== false;
    for (;;) {
      if (descend && cursor.gotoFirstChild()) {
        descend = visit(cursor.currentNode) !== false;
        continue;
      }
      while (!cursor.gotoNextSibling()) {
        if (!cursor.gotoParent()) return;
      }
      descend = visit(cursor.currentNode) !== false;
    }
  } finally {
    cursor.delete();
  }
}

/** Every descendant (and `root` itself) whose type is in `types`, in source order. */
export function findAll(root: Node, types: ReadonlySet<string>): Node[] {
  const found: Node[] = [];
  walk(root, (node) => {
    if (types.has(node.type)) found.push(node);
  });
  return found;
}

/**
 * The nearest ancestor of `node` (not `node` itself unless `includeSelf`)
 * whose type is in `types`, or `null`.
 */
export function findAncestor(
  node: Node,
  types: ReadonlySet<string>,
  includeSelf = false,
): Node | null {
  if (includeSelf && types.has(node.type)) return node;
  for (const ancestor of ancestorsOf(node)) {
    if (types.has(ancestor.type)) return ancestor;
  }
  return null;
}

/**
 * The ancestors of `node`, innermost first (its parent, ..., the root),
 * found in one walk down from the root. web-tree-sitter's `parent` walks
 * down from the root on every call, so climbing parent by parent costs the
 * square of the depth: minutes for code nested 20,000 deep.
 */
export function ancestorsOf(node: Node): Node[] {
  const path: Node[] = [];
  if (typeof node.childWithDescendant !== "function") {
    // A compact tree's node (compact_tree.ts) keeps its parent: O(1) a step.
    for (let up = node.parent; up !== null; up = up.parent) path.push(up);
    return path;
  }
  let current: Node | null = node.tree.rootNode;
  while (current !== null && current.id !== node.id) {
    path.push(current);
    current = current.childWithDescendant(node);
  }
  return path.reverse();
}

/** 1-based position of a node's start. */
export function positionOf(node: Node): Position {
  return {
    line: node.startPosition.row + 1,
    col: node.startPosition.column + 1,
  };
}

/** 1-based span of a node; `endCol` is just past the last character. */
export function spanOf(node: Node): SourceSpan {
  return {
    startLine: node.startPosition.row + 1,
    startCol: node.startPosition.column + 1,
    endLine: node.endPosition.row + 1,
    endCol: node.endPosition.column + 1,
  };
}

/** A node of a WASM or a compact tree: its type and named children. */
interface TypedNode<N> {
  readonly type: string;
  namedChild(index: number): N | null;
}

/**
 * The expression inside wrappers that do not change its value (`(x)`,
 * `await x`): the first named child of each node whose type is one of
 * `wrappers`, down to one that is not.
 */
export function unwrapped<N extends TypedNode<N>>(
  node: N,
  wrappers: ReadonlySet<string>,
): N {
  let n = node;
  while (wrappers.has(n.type)) {
    const inner = n.namedChild(0);
    if (!inner) break;
    n = inner;
  }
  return n;
}

/** The text of a field child, or `undefined` when the field is absent. */
export function fieldText(node: Node, field: string): string | undefined {
  return node.childForFieldName(field)?.text;
}

/** Named children without the `null` holes web-tree-sitter's typing allows. */
export function namedChildren(node: Node): Node[] {
  const out: Node[] = [];
  for (let i = 0; i < node.namedChildCount; i++) {
    const child = node.namedChild(i);
    if (child) out.push(child);
  }
  return out;
}

/** Node types that hold a string literal in one of the supported grammars. */
export const STRING_TYPES: ReadonlySet<string> = new Set([
  "string", // javascript, typescript, python, php (single quotes), ruby
  "template_string", // javascript, typescript
  "concatenated_string", // python: "a" "b"
  "string_literal", // java, c-sharp, rust
  "interpreted_string_literal", // go
  "raw_string_literal", // go, rust, c-sharp
  "verbatim_string_literal", // c-sharp
  "interpolated_string_expression", // c-sharp
  "encapsed_string", // php (double quotes)
  "heredoc", // php
  "nowdoc", // php
  "heredoc_body",
  "nowdoc_body",
]);

const CONTENT_TYPES: ReadonlySet<string> = new Set([
  "string_fragment",
  "string_content",
  "string_literal_content",
  "interpreted_string_literal_content",
  "raw_string_literal_content",
  "raw_string_content",
  "multiline_string_fragment",
]);

const DELIMITER_TYPES: ReadonlySet<string> = new Set([
  "string_start",
  "string_end",
  "interpolation_start",
  "raw_string_start",
  "raw_string_end",
  "heredoc_start",
  "heredoc_end",
]);

/**
 * A string literal split into literal text and interpolated expressions:
 * `` `/users/${id}` `` gives `["/users/", <id node>]`. Returns `undefined`
 * when `node` is not a string literal of a supported grammar.
 */
export function stringParts(node: Node): Array<string | Node> | undefined {
  if (!STRING_TYPES.has(node.type)) return undefined;
  const parts: Array<string | Node> = [];
  const push = (text: string): void => {
    const last = parts[parts.length - 1];
    if (typeof last === "string") parts[parts.length - 1] = last + text;
    else parts.push(text);
  };
  if (node.type === "concatenated_string") {
    for (const child of namedChildren(node)) {
      const inner = stringParts(child);
      if (!inner) return undefined;
      for (const part of inner) {
        if (typeof part === "string") push(part);
        else parts.push(part);
      }
    }
    return parts.length ? parts : [""];
  }
  if (node.type === "verbatim_string_literal") {
    // @"a""b" -> a"b
    return [node.text.slice(2, -1).replaceAll('""', '"')];
  }
  const raw = isRawString(node);
  for (const child of namedChildren(node)) {
    const type = child.type;
    if (DELIMITER_TYPES.has(type)) continue;
    if (CONTENT_TYPES.has(type)) {
      push(raw ? child.text : unescapeString(child.text));
    } else if (type === "escape_sequence") {
      push(raw ? child.text : unescapeString(child.text));
    } else if (type === "heredoc_body" || type === "nowdoc_body") {
      const inner = stringParts(child);
      if (inner) {
        for (const part of inner) {
          if (typeof part === "string") push(part);
          else parts.push(part);
        }
      }
    } else if (type === "interpolation" || type === "template_substitution") {
      const expression = child.childForFieldName("expression") ??
        namedChildren(child).find((c) => c.type !== "interpolation_brace") ??
        child;
      parts.push(expression);
    } else if (type === "comment") {
      continue;
    } else {
      parts.push(child);
    }
  }
  return parts.length ? parts : [""];
}

/**
 * The value of a string literal without interpolation, or `undefined` when
 * `node` is not a string literal or interpolates an expression.
 */
export function stringValue(node: Node): string | undefined {
  const parts = stringParts(node);
  if (!parts) return undefined;
  let text = "";
  for (const part of parts) {
    if (typeof part !== "string") return undefined;
    text += part;
  }
  return text;
}

function isRawString(node: Node): boolean {
  switch (node.type) {
    case "raw_string_literal":
    case "nowdoc":
    case "nowdoc_body":
      return true;
    case "string": {
      const first = node.child(0);
      if (!first) return false;
      // python: the prefix lives in string_start (r"..", rb"..")
      if (first.type === "string_start") return /[rR]/.test(first.text);
      // php: single-quoted strings only know \\ and \'
      return false;
    }
    default:
      return false;
  }
}

const SIMPLE_ESCAPES: Record<string, string> = {
  n: "\n",
  t: "\t",
  r: "\r",
  b: "\b",
  f: "\f",
  v: "\v",
  "0": "\0",
};

/** Decodes the common backslash escapes of C-like string literals. */
export function unescapeString(text: string): string {
  if (!text.includes("\\")) return text;
  return text.replace(
    /\\(u\{[0-9a-fA-F]+\}|u[0-9a-fA-F]{4}|x[0-9a-fA-F]{2}|[\s\S])/g,
    (_m, esc: string) => {
      if (esc.length > 1 && (esc[0] === "u" || esc[0] === "x")) {
        const hex = esc[1] === "{" ? esc.slice(2, -1) : esc.slice(1);
        return String.fromCodePoint(parseInt(hex, 16));
      }
      return SIMPLE_ESCAPES[esc] ?? esc;
    },
  );
}

/** The base name of a `/`-separated path. */
export function baseName(path: string): string {
  const slash = path.lastIndexOf("/");
  return slash === -1 ? path : path.slice(slash + 1);
}

/**
 * Whether nothing of a tree parsed: the root, or each of its top-level
 * nodes, is a syntax error (not a file of comments, nor an empty one).
 */
export function nothingParsed(root: Node): boolean {
  if (root.isError) return true;
  if (root.namedChildCount === 0) return false;
  for (let i = 0; i < root.namedChildCount; i++) {
    if (!root.namedChild(i)?.isError) return false;
  }
  return true;
}

/**
 * A warning for a tree with syntax errors (`Cannot fully parse: syntax
 * error at 3:5`; extractors still read what parsed), an error when
 * nothing parsed (`Cannot parse: syntax error at 1:1, nothing could be
 * read`), or `undefined` for a clean tree.
 */
export function parseDiagnostic(
  root: Node,
  filePath: string,
): ExtractDiagnostic | undefined {
  if (!root.hasError) return undefined;
  let found: Node | undefined;
  walk(root, (node) => {
    if (found) return false;
    if (node.isMissing || (node.isError && !isGrammarGap(node))) {
      found = node;
      return false;
    }
    return node.hasError;
  });
  if (!found) return undefined;
  const where = positionOf(found);
  const what = found.isMissing ? `missing "${found.type}"` : "syntax error";
  if (nothingParsed(root)) {
    return {
      filePath,
      severity: "error",
      message:
        `Cannot parse: ${what} at ${where.line}:${where.col}, nothing could be read`,
    };
  }
  return {
    filePath,
    severity: "warning",
    message: `Cannot fully parse: ${what} at ${where.line}:${where.col}`,
  };
}

/** A type parameter's name read from a variance annotation (`in`, `const out`). */
const VARIANCE = /^(?:const\s+)?(?:in|out)$/;
/** What follows it in the error: the real name, after `out` for `in out`. */
const VARIANCE_REST = /^(?:out\s+)?[A-Za-z_$][\w$]*$/;
/** A reserved word with `as` in an export or import list. */
const KEYWORD_NAME = /^as\s+[A-Za-z_$][\w$]*$|^[A-Za-z_$][\w$]*\s+as$/;

/**
 * Whether an ERROR node is valid code the grammar lacks, that leaves the
 * rest of the tree whole: a TypeScript variance annotation on a type
 * parameter (`<in T>`, `<out T>`, `<in out T>`: the grammar takes `in` or
 * `out` for the name and the name for an error), or a reserved word as a
 * module export name (`export { _null as null }`, `import { null as n }`).
 */
export function isGrammarGap(node: Node): boolean {
  const parent = node.parent?.type;
  const previous = node.previousSibling;
  if (parent === "type_parameters" || parent === "type_parameter") {
    const name = parent === "type_parameters"
      ? previous?.type === "type_parameter" ? previous : undefined
      : previous?.type === "type_identifier"
      ? previous
      : undefined;
    return name !== undefined && VARIANCE.test(name.text) &&
      VARIANCE_REST.test(node.text);
  }
  return (parent === "export_clause" || parent === "named_imports") &&
    KEYWORD_NAME.test(node.text);
}

/** The text of a file's top-level statements of one type, one per line. */
export function statementsText(root: Node, type: string): string {
  return namedChildren(root)
    .filter((n) => n.type === type)
    .map((n) => n.text)
    .join("\n");
}

/**
 * Where a port written as a method call is reported: the call's start, or
 * the method name when a chain puts it on a later line than the receiver
 * (`Router::new()\n  .route(...)` reports the `.route` line).
 */
export function anchorOf(call: Node, name: Node): Node {
  return name.startPosition.row > call.startPosition.row ? name : call;
}
