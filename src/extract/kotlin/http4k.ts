// http4k's routing DSL: `"/users" bind POST to handler` inside
// `routes(...)`, under the paths nested routers are bound to
// (`"/api" bind routes(...)`), and verbs grouped under one path
// (`"/items/{id}" bind routes(GET to h, DELETE to h)`).
import type { Node } from "web-tree-sitter";
import { HTTP_METHODS } from "../_port/http.ts";
import { namedChildren } from "../_syntax/tree.ts";
import { literal, type Value } from "../_value/mod.ts";
import type { KtFile } from "./project.ts";
import { serverRoute } from "./route_at.ts";
import { callOf } from "./nodes.ts";

/** Whether a file uses http4k. */
export function usesHttp4k(text: string): boolean {
  return /import\s+org\.http4k\./.test(text);
}

/** An infix call's parts: `left op right`. */
interface Infix {
  left: Node;
  op: string;
  right: Node;
}

function infix(node: Node | null | undefined): Infix | undefined {
  if (node?.type !== "infix_expression") return undefined;
  const [left, op, right] = namedChildren(node);
  if (!left || op?.type !== "identifier" || !right) return undefined;
  return { left, op: op.text, right };
}

/** `GET`, `Method.POST`: the method a verb expression names. */
function verbOf(node: Node): string | undefined {
  const name = node.text.replace(/^(?:[\w.]*\.)?Method\./, "");
  return HTTP_METHODS.has(name) && /^[\w.]+$/.test(node.text)
    ? name
    : undefined;
}

/**
 * The http4k route an infix expression ends, if it is one:
 * `path bind VERB to handler`, or `VERB to handler` in a router bound to a
 * path.
 */
export function http4kRoute(c: KtFile, node: Node): void {
  const to = infix(node);
  if (!to || to.op !== "to") return;
  const bind = infix(to.left);
  let method: string | undefined;
  let path: Value;
  if (bind?.op === "bind") {
    method = verbOf(bind.right);
    path = c.evaluate(bind.left);
  } else {
    method = verbOf(to.left);
    path = literal("");
  }
  if (!method) return;
  const prefixes = boundPrefixes(c, node);
  // a bare `VERB to handler` routes only inside a router bound to a path
  if (!bind && prefixes.length === 0) return;
  serverRoute(c, node, { method, prefixes, path, framework: "http4k" });
}

/**
 * The paths the `routes(...)` around a node are bound to
 * (`"/api" bind routes(...)`), outermost first.
 */
function boundPrefixes(c: KtFile, from: Node): Value[] {
  const out: Value[] = [];
  for (let n: Node | null = from.parent; n; n = n.parent) {
    if (n.type !== "call_expression" || callOf(n)?.name !== "routes") continue;
    const bind = infix(n.parent);
    if (bind?.op === "bind" && bind.right.id === n.id) {
      out.unshift(c.evaluate(bind.left));
    }
  }
  return out;
}
