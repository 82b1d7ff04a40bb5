// warp: routes are filter chains ending in a handler, `warp::path("users")
// .and(warp::path::param::<u32>()).and(warp::get()).and_then(h)` or
// `warp::path!("todos" / u64).and(warp::put()).map(h)`. Segments come from
// `path`, `path!`, `path::param` and `path::tail`, methods from
// `warp::get()`... (`warp::ws()` is a GET upgrade; no method filter answers
// every method); filters given to `.and(..)` are followed through `let`
// bindings and functions, and a chain combined into `warp::path("api")
// .and(routes)` (through `.or`, lets and functions) gets that prefix.
import { namedChildren, type Node } from "../_syntax/tree.ts";
import { stringValue } from "../_syntax/tree.ts";
import { joinPaths, literal, type Value } from "../_value/mod.ts";
import { HTTP_VERBS } from "../_port/http.ts";
import {
  argsOf,
  callSite,
  chainTop,
  lastSegment,
  tailOf,
  unwrap,
} from "./nodes.ts";
import { bindingUses, callsOf, returnedBy } from "./value_uses.ts";
import { dedupe, hasPath, MAX_DEPTH } from "./project.ts";
import type { MethodSite, RustFile, RustScan } from "./project.ts";

/** Whether a file uses warp. */
export function usesWarp(f: RustFile): boolean {
  return f.useTexts.some((t) => /\bwarp::/.test(t));
}

/** Methods applying a handler to a filter. */
const HANDLERS = new Set(["map", "and_then", "then"]);

/** What a filter contributes: path segments and methods. */
interface Filter {
  segments: Value[];
  methods: string[];
  /** Whether it names a path (segments or `path::end()`). */
  routed: boolean;
}

/** `recv.name(..)` also with a turbofish (`recv.name::<T>(..)`). */
function method(call: Node): { name: string; receiver: Node } | undefined {
  if (call.type !== "call_expression") return undefined;
  let fn = call.childForFieldName("function");
  if (fn?.type === "generic_function") fn = fn.childForFieldName("function");
  if (fn?.type !== "field_expression") return undefined;
  const receiver = fn.childForFieldName("value");
  const name = fn.childForFieldName("field")?.text;
  return receiver && name ? { name, receiver } : undefined;
}

/** The callee path of a free call, turbofish removed (`warp::path::param`). */
function callee(call: Node): string | undefined {
  if (call.type !== "call_expression") return undefined;
  const fn = call.childForFieldName("function");
  if (!fn || fn.type === "field_expression") return undefined;
  return fn.text.replace(/::<[^]*>$/, "").replace(/\s+/g, "");
}

/** A warp handler application `filter.map(h)`: reports its route. */
export function warpRoute(c: RustScan, f: RustFile, site: MethodSite): void {
  const { call, name, receiver } = site;
  if (!HANDLERS.has(name)) return;
  const filter = chainFilter(c, receiver, 0);
  if (!filter || !filter.routed) return;
  const methods = filter.methods.length > 0 ? filter.methods : ["ANY"];
  const own = joinPaths(literal(""), ...filter.segments);
  const seen = new Set<string>();
  for (const prefix of prefixes(c, chainTop(call), 0)) {
    const path = joinPaths(prefix, own);
    c.emitComposed(
      f,
      call,
      path,
      methods,
      "warp",
      seen,
      callSite(call),
      hasPath(prefix),
    );
  }
}

/**
 * The filter a chain builds: its root and each `.and(..)`; undefined when
 * it already applies a handler (only the first handler is the route).
 */
function chainFilter(
  c: RustScan,
  node: Node,
  depth: number,
): Filter | undefined {
  if (depth > MAX_DEPTH) return undefined;
  const parts: Filter[] = [];
  let n = unwrap(node);
  for (let m = method(n); m; m = method(n)) {
    if (HANDLERS.has(m.name)) return undefined;
    if (m.name === "and") {
      const arg = argsOf(n)[0];
      const inner = arg ? filterOf(c, arg, depth + 1) : undefined;
      if (inner) parts.unshift(inner);
    }
    n = unwrap(m.receiver);
  }
  const root = filterOf(c, n, depth + 1);
  if (root) parts.unshift(root);
  return {
    segments: parts.flatMap((p) => p.segments),
    methods: parts.flatMap((p) => p.methods),
    routed: parts.some((p) => p.routed),
  };
}

/** The filter of one warp expression (a call, `path!`, a name or a call of a function). */
function filterOf(c: RustScan, node: Node, depth: number): Filter | undefined {
  if (depth > MAX_DEPTH) return undefined;
  const n = unwrap(node);
  const none: Filter = { segments: [], methods: [], routed: false };
  if (n.type === "macro_invocation") {
    if (lastSegment(n.childForFieldName("macro")) !== "path") return undefined;
    return { segments: macroSegments(n), methods: [], routed: true };
  }
  if (method(n)) return chainFilter(c, n, depth + 1);
  if (n.type === "identifier") {
    const value = c.letValue(n.text, n);
    return value ? filterOf(c, value, depth + 1) : undefined;
  }
  const fn = callee(n);
  if (fn === undefined) return undefined;
  const name = fn.replace(/^warp::/, "");
  if (name === "path") {
    return { segments: [c.evaluate(argsOf(n)[0])], methods: [], routed: true };
  }
  if (name === "path::param") {
    return { segments: [literal("{p}")], methods: [], routed: true };
  }
  if (name === "path::tail" || name === "path::peek") {
    return { segments: [literal("{*tail}")], methods: [], routed: true };
  }
  if (name === "path::end") return { ...none, routed: true };
  if (name === "ws") return { ...none, methods: ["GET"] };
  if (HTTP_VERBS.has(name) && fn.startsWith("warp::")) {
    return { ...none, methods: [name.toUpperCase()] };
  }
  if (fn.startsWith("warp::") || argsOf(n).length > 0) return none;
  // a filter built by a function of the scan: `.and(with_auth())`
  const body = functionValue(c, fn);
  return body ? filterOf(c, body, depth + 1) : none;
}

/** The segments of `warp::path!("a" / u32 / "b")`. */
function macroSegments(macro: Node): Value[] {
  const tokens = namedChildren(macro).find((t) => t.type === "token_tree");
  const out: Value[] = [];
  for (const t of tokens ? namedChildren(tokens) : []) {
    if (t.type === "string_literal") out.push(literal(stringValue(t) ?? ""));
    else if (/identifier$/.test(t.type) || t.type === "primitive_type") {
      out.push(literal("{p}"));
    }
  }
  return out;
}

/** The value of a zero-parameter function of the scan named by a path. */
function functionValue(c: RustScan, path: string): Node | undefined {
  const name = path.split("::").at(-1) ?? path;
  let known = FUNCTION_VALUES.get(c);
  if (!known) FUNCTION_VALUES.set(c, known = new Map());
  if (!known.has(name)) known.set(name, findFunctionValue(c, name));
  return known.get(name);
}

/** The values of the functions looked up so far, by scan and name. */
const FUNCTION_VALUES = new WeakMap<RustScan, Map<string, Node | undefined>>();

/** The value of the first top-level function `name` of the scan's files. */
function findFunctionValue(c: RustScan, name: string): Node | undefined {
  for (const f of c.files) {
    for (const item of namedChildren(f.tree.rootNode)) {
      if (
        item.type === "function_item" &&
        item.childForFieldName("name")?.text === name
      ) {
        const body = item.childForFieldName("body");
        return body ? tailOf(body) : undefined;
      }
    }
  }
  return undefined;
}

/**
 * The prefixes of a route value: `warp::path("api").and(value)` gives the
 * segments before it; `.or(..)`, `let` bindings and the calls of a function
 * returning it pass them on.
 */
function prefixes(c: RustScan, node: Node, depth: number): Value[] {
  return c.remember(`warp:${node.id}`, () => prefixesOf(c, node, depth));
}

function prefixesOf(c: RustScan, node: Node, depth: number): Value[] {
  const root = [literal("")];
  if (depth > MAX_DEPTH) return root;
  const parent = node.parent;
  if (!parent) return root;
  switch (parent.type) {
    case "parenthesized_expression":
    case "reference_expression":
      return prefixes(c, parent, depth + 1);
    case "field_expression": {
      // `value.or(other)`: the combination's prefixes
      const call = parent.parent;
      const m = call ? method(call) : undefined;
      return m?.name === "or" || m?.name === "boxed" || m?.name === "with"
        ? prefixes(c, chainTop(call!), depth + 1)
        : root;
    }
    case "arguments": {
      const call = parent.parent;
      const m = call ? method(call) : undefined;
      if (m?.name === "or") return prefixes(c, chainTop(call!), depth + 1);
      if (m?.name !== "and") return root;
      const before = chainFilter(c, m.receiver, depth + 1);
      const own = joinPaths(literal(""), ...(before?.segments ?? []));
      return prefixes(c, chainTop(call!), depth + 1).map((p) =>
        joinPaths(p, own)
      );
    }
    case "let_declaration": {
      const out = bindingUses(parent).flatMap((n) => prefixes(c, n, depth + 1));
      return out.length > 0 ? dedupe(out) : root;
    }
    case "block": {
      const fn = returnedBy(c, node);
      const out = fn
        ? callsOf(c, fn).flatMap((call) => prefixes(c, call, depth + 1))
        : [];
      return out.length > 0 ? dedupe(out) : root;
    }
    default:
      return root;
  }
}
