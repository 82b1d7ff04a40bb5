// Ktor's routing DSL: `get("/x") { }`... inside `routing { }`, under the
// `route("/api") { }` around it, and in `Route.` extension functions under
// the prefixes of the places that call them.
import type { Node } from "web-tree-sitter";
import { HTTP_VERBS } from "../_port/http.ts";
import { namedChildren } from "../_syntax/tree.ts";
import { chainsThroughCallers, literal, type Value } from "../_value/mod.ts";
import type { KtFile } from "./project.ts";
import { serverRoute } from "./route_at.ts";
import { callOf, type KtCall, nameOf, typeText } from "./nodes.ts";

/** Whether a file uses Ktor's server routing. */
export function usesKtorRouting(text: string): boolean {
  return /import\s+io\.ktor\.(server\.)?routing\b/.test(text);
}

/** The receivers of functions that declare routes (`fun Route.users()`). */
const ROUTE_RECEIVERS: ReadonlySet<string> = new Set(["Route", "Routing"]);

/** The routing blocks whose lambdas hold routes at the root. */
const ROOTS: ReadonlySet<string> = new Set(["routing", "Routing"]);

/** A `HttpMethod.Get` argument's method. */
function httpMethod(node: Node | undefined): string | undefined {
  const text = node?.text ?? "";
  const m = /^HttpMethod\.(\w+)$/.exec(text);
  return m ? m[1]!.toUpperCase() : undefined;
}

/**
 * The Ktor route of a call, if it is one: `get("/x") { }` (any verb, with
 * or without a path), `route("/x", HttpMethod.Get) { handle { } }` and
 * `method(HttpMethod.Post) { handle { } }`.
 */
export function ktorRoute(c: KtFile, node: Node): void {
  const call = callOf(node);
  if (!call || call.receiver || !call.lambda) return;
  let method: string | undefined;
  let path: Value = literal("");
  if (HTTP_VERBS.has(call.name)) {
    method = call.name.toUpperCase();
    const first = call.args[0]?.value;
    if (call.args.length > 1 || (first && !isStringy(first))) return;
    if (first) path = c.evaluate(first);
  } else if (call.name === "route" && call.args.length === 2) {
    method = httpMethod(call.args[1]?.value);
    path = c.evaluate(call.args[0]?.value);
  } else if (call.name === "method" && call.args.length === 1) {
    method = httpMethod(call.args[0]?.value);
  }
  if (!method) return;
  for (const prefixes of prefixChains(c, node, 0)) {
    serverRoute(c, node, { method, prefixes, path, framework: "ktor" });
  }
}

/** Whether a node may be a path (a string or a name that holds one). */
function isStringy(node: Node): boolean {
  return node.type === "string_literal" ||
    node.type === "multiline_string_literal" || node.type === "identifier" ||
    node.type === "navigation_expression" || node.type === "binary_expression";
}

/**
 * The `route("/p") { }` prefixes around a node, outermost first: one list
 * per way the routes are reached (a `Route.` extension function through its
 * callers, a few calls deep); none for a node that is not in routing.
 */
function prefixChains(
  c: KtFile,
  from: Node,
  depth: number,
): Value[][] {
  const prefixes: Value[] = [];
  for (let n: Node | null = from.parent; n; n = n.parent) {
    if (n.type === "function_declaration") {
      if (!ROUTE_RECEIVERS.has(receiverOf(n))) return [];
      // an extension nobody in the scan calls: its routes at the root
      return chainsThroughCallers(
        depth,
        () => callSites(c, n),
        (site, outer) => prefixChains(c, site, outer),
        prefixes,
      );
    }
    if (n.type !== "lambda_literal") continue;
    const owner = n.parent?.parent;
    const outer = owner ? callOf(owner) : undefined;
    if (!outer) continue;
    if (ROOTS.has(outer.name)) return [prefixes];
    if (outer.name === "route" && !outer.receiver && outer.args.length === 1) {
      prefixes.unshift(c.evaluate(outer.args[0]?.value));
    }
  }
  return [];
}

/** The receiver type of an extension function (`Route` of `fun Route.x()`). */
function receiverOf(fn: Node): string {
  const children = namedChildren(fn);
  const name = fn.childForFieldName("name");
  const type = children.find((c) =>
    c.type === "user_type" && name !== null && c.endIndex <= name.startIndex
  );
  return typeText(type).split(".").pop() ?? "";
}

/** The calls of an extension function `name()` with no receiver or `this`. */
function callSites(c: KtFile, fn: Node): Node[] {
  const name = nameOf(fn) ?? "";
  const arity = namedChildren(
    namedChildren(fn).find((x) => x.type === "function_value_parameters") ??
      fn,
  ).filter((p) => p.type === "parameter").length;
  const sites = c.calls(name).filter((site) => {
    const call: KtCall | undefined = callOf(site);
    return call !== undefined && call.args.length === arity &&
      (!call.receiver || call.receiver.type === "this_expression");
  });
  return sites;
}
