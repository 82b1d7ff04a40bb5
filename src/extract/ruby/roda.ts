// Roda routing trees: `route do |r| ... end` with `r.on`, `r.is`, `r.root`
// and the verb methods, their matchers composed into paths.
import type { Node } from "web-tree-sitter";
import { HTTP_VERBS } from "../_port/http.ts";
import { namedChildren } from "../_syntax/tree.ts";
import { CONFIDENCE, hole, literal, type Value } from "../_value/mod.ts";
import { args, positional, type RubyFile, symbolName } from "./project.ts";

/** The deepest syntax nesting a routing tree is read to. */
const MAX_DEPTH = 256;

/** Matcher classes that match one segment (`r.is "posts", Integer`). */
const SEGMENT_CLASSES: ReadonlySet<string> = new Set([
  "Integer",
  "String",
  "Float",
]);

/**
 * A matcher's path segment: a string (`"users"`, may hold slashes), a
 * symbol or a class or regexp (one parameter); `undefined` for matchers
 * that consume nothing (`true`, hashes such as `param: "x"`).
 */
function segment(c: RubyFile, matcher: Node): Value | undefined {
  switch (matcher.type) {
    case "string":
      return c.evaluate(matcher);
    case "simple_symbol":
      return literal(`:${matcher.text.slice(1)}`);
    case "constant":
      return SEGMENT_CLASSES.has(matcher.text)
        ? literal(":param")
        : hole(matcher.text);
    case "regex":
      return literal(":param");
    case "true":
    case "false":
    case "pair":
    case "hash":
      return undefined;
    default:
      return hole(matcher.text);
  }
}

/** Whether a node is a routing call on the request, e.g. `r.on "x"`. */
function routingCall(node: Node, request: string): string | undefined {
  if (node.type !== "call") return undefined;
  const receiver = node.childForFieldName("receiver");
  if (receiver?.type !== "identifier" || receiver.text !== request) {
    return undefined;
  }
  const method = node.childForFieldName("method")?.text ?? "";
  return method === "on" || method === "is" || method === "root" ||
      HTTP_VERBS.has(method)
    ? method
    : undefined;
}

/** Whether a subtree holds a routing call (one that is not itself). */
function routesInside(node: Node, request: string, depth = 0): boolean {
  if (depth > MAX_DEPTH) return false;
  for (const child of namedChildren(node)) {
    if (routingCall(child, request)) return true;
    if (routesInside(child, request, depth + 1)) return true;
  }
  return false;
}

/**
 * `route do |r| ... end` in a Roda app: `r.on` adds its matchers to the
 * path, `r.is` and the verb methods with matchers end it (`r.is` without
 * verb calls inside answers any method), `r.root` is `GET` on the path so
 * far, and a verb method without matchers answers the path so far.
 */
export function rodaRoutes(c: RubyFile, route: Node): void {
  const block = route.childForFieldName("block");
  const params = block?.childForFieldName("parameters");
  const request = params ? namedChildren(params)[0]?.text : undefined;
  const body = block?.childForFieldName("body");
  if (!request || !body) return;
  // multi_route `route("users") do |r|`, hash_branches `hash_branch("users")`:
  // the branch of the first segment
  const name = positional(route)[0];
  const branch = name ? symbolName(name) : undefined;
  const prefix = !name
    ? []
    : [branch === undefined ? c.evaluate(name) : literal(branch)];
  visit(c, body, request, prefix, false, 0);
}

function visit(
  c: RubyFile,
  node: Node,
  request: string,
  prefix: readonly Value[],
  terminal: boolean,
  depth: number,
): void {
  if (depth > MAX_DEPTH) return;
  for (const child of namedChildren(node)) {
    const method = routingCall(child, request);
    if (!method) {
      visit(c, child, request, prefix, terminal, depth + 1);
      continue;
    }
    const matchers = args(child).map((m) => segment(c, m)).filter((
      v,
    ): v is Value => v !== undefined);
    const path = [...prefix, ...matchers];
    const block = child.childForFieldName("block");
    const inner = block ? routesInside(block, request) : false;
    const emit = (verb: string, confidence?: number) =>
      c.emitServer(child, [verb], path, "roda", prefix.length > 0, {
        ...(confidence === undefined ? {} : { confidence }),
      });
    if (method === "root") emit("GET");
    else if (HTTP_VERBS.has(method)) emit(method.toUpperCase());
    else if (!inner && (method === "is" || !terminal)) {
      // a leaf `r.is`/`r.on` block answers every method
      emit("ANY", method === "on" ? CONFIDENCE.partial : undefined);
    }
    if (block && inner) {
      visit(c, block, request, path, terminal || method === "is", depth + 1);
    }
  }
}

/** Whether a class body or file defines a Roda app (`class App < Roda`). */
export function isRodaApp(text: string): boolean {
  return /<\s*Roda\b|Roda\.route\b|\brequire\s+["']roda["']/.test(text);
}

/**
 * `route do |r|`, `route("users") do |r|` (multi_route) or
 * `hash_branch("users") do |r|` (no receiver or a class's, e.g.
 * `App.route`; a block with the request parameter).
 */
export function isRodaRoute(call: Node): boolean {
  const receiver = call.childForFieldName("receiver");
  const method = call.childForFieldName("method")?.text;
  const count = positional(call).length;
  return (method === "route" && count <= 1 ||
    method === "hash_branch" && count === 1) &&
    (!receiver || receiver.type === "constant") &&
    call.childForFieldName("block") !== null;
}
