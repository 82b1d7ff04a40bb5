// Small readers of Rust syntax nodes: wrappers, paths, method calls and
// their chains.
import { anchorOf, namedChildren, type Node } from "../_syntax/tree.ts";

/** Unwraps `x.await`, `&x`, `x?`, `(x)`. */
export function unwrap(node: Node): Node {
  let n = node;
  for (;;) {
    if (
      n.type === "await_expression" || n.type === "try_expression" ||
      n.type === "parenthesized_expression"
    ) {
      n = n.namedChild(0) ?? n;
      if (n === node) return n;
      continue;
    }
    if (n.type === "reference_expression") {
      n = n.childForFieldName("value") ?? n;
      continue;
    }
    return n;
  }
}

/** The last `::` segment of a path expression. */
export function lastSegment(node: Node | null | undefined): string {
  if (!node) return "";
  if (node.type === "scoped_identifier") {
    return node.childForFieldName("name")?.text ?? "";
  }
  return node.text;
}

/** The method name and receiver of `recv.name(args)`. */
export function methodCall(
  call: Node,
): { name: string; receiver: Node } | undefined {
  if (call.type !== "call_expression") return undefined;
  const fn = call.childForFieldName("function");
  if (fn?.type !== "field_expression") return undefined;
  const receiver = fn.childForFieldName("value");
  const name = fn.childForFieldName("field")?.text;
  return receiver && name ? { name, receiver } : undefined;
}

/** Where a call is written: the method name of `recv.name(..)`, else the call. */
export function callSite(call: Node): Node {
  const fn = call.childForFieldName("function");
  const field = fn?.type === "field_expression"
    ? fn.childForFieldName("field")
    : null;
  return field ? anchorOf(call, field) : call;
}

export function argsOf(call: Node): Node[] {
  const args = call.childForFieldName("arguments");
  return args ? namedChildren(args) : [];
}

/** The innermost receiver of a method chain. */
export function chainRoot(call: Node): Node {
  return chainEnd(ROOTS, call, (n) => methodCall(unwrap(n))?.receiver, unwrap);
}

/** Chain ends found so far, by tree and node id (trees never change). */
const ROOTS = new WeakMap<object, Map<number, Node>>();
const TOPS = new WeakMap<object, Map<number, Node>>();

export function verbName(name: string): string {
  return name === "any" ? "ANY" : name.toUpperCase();
}

/** The last named child of a block that is not a comment: its value. */
export function tailOf(block: Node): Node | undefined {
  const children = namedChildren(block);
  for (let i = children.length - 1; i >= 0; i--) {
    const child = children[i]!;
    if (child.type !== "line_comment" && child.type !== "block_comment") {
      return child;
    }
  }
  return undefined;
}

/** The outermost call of the method chain `call` is part of. */
export function chainTop(call: Node): Node {
  return chainEnd(TOPS, call, (n) => {
    let field = n.parent;
    if (field?.type === "generic_function") field = field.parent;
    const next = field?.parent;
    return field?.type === "field_expression" &&
        field.childForFieldName("value")?.id === n.id &&
        next?.type === "call_expression"
      ? next
      : undefined;
  }, (n) => n);
}

/**
 * Follows `next` from `start` to the last node, then `end` of it; every
 * node passed is remembered with the answer, so each is followed once.
 */
function chainEnd(
  caches: WeakMap<object, Map<number, Node>>,
  start: Node,
  next: (n: Node) => Node | undefined,
  end: (n: Node) => Node,
): Node {
  let cache = caches.get(start.tree);
  if (!cache) caches.set(start.tree, cache = new Map());
  const visited: number[] = [];
  let n = start;
  let found: Node | undefined;
  for (;;) {
    found = cache.get(n.id);
    if (found) break;
    visited.push(n.id);
    const following = next(n);
    if (!following) {
      found = end(n);
      break;
    }
    n = following;
  }
  for (const id of visited) cache.set(id, found);
  return found;
}
