// The prefixes mounted above a router or scope value: followed out through
// method chains, `let` bindings, function returns and the calls of the
// function that builds it (`.nest`, `.merge`, `.service`, `.configure`).
import { namedChildren, type Node, walk } from "../_syntax/tree.ts";
import { joinPaths, literal, type Value } from "../_value/mod.ts";
import { argsOf, chainRoot, methodCall, tailOf } from "./nodes.ts";
import { dedupe, MAX_DEPTH, type RustScan } from "./project.ts";

/** axum's `.nest`, `.nest_service`, aide's `.nest_api_service`, poem's `.nest_no_strip`. */
const NESTS = new Set([
  "nest",
  "nest_service",
  "nest_api_service",
  "nest_no_strip",
]);

/**
 * The prefixes mounted above a router/scope value, following the value
 * out through method chains, `let` bindings, function returns, `.nest`,
 * `.merge`, `.service` and `.configure`.
 */
export function prefixes(
  c: RustScan,
  node: Node,
  depth = 0,
): Value[] {
  if (depth > MAX_DEPTH) return [literal("")];
  return c.remember(`p:${node.id}`, () => dedupe(prefixesOf(c, node, depth)));
}

export function prefixesOf(
  c: RustScan,
  node: Node,
  depth: number,
): Value[] {
  const parent = node.parent;
  if (!parent) return [literal("")];
  switch (parent.type) {
    case "await_expression":
    case "try_expression":
    case "reference_expression":
    case "parenthesized_expression":
      return prefixes(c, parent, depth + 1);
    case "field_expression": {
      const call = parent.parent;
      if (
        parent.childForFieldName("value")?.id === node.id &&
        call?.type === "call_expression"
      ) return prefixes(c, call, depth + 1);
      return [literal("")];
    }
    case "arguments": {
      const call = parent.parent;
      const m = call ? methodCall(call) : undefined;
      if (!call || !m) return [literal("")];
      const args = namedChildren(parent);
      const index = args.findIndex((a) => a.id === node.id);
      if (NESTS.has(m.name) && index === 1) {
        const p = c.evaluate(args[0]);
        return mountedBelow(c, call, depth).map((pre) => joinPaths(pre, p));
      }
      if (
        m.name === "merge" || m.name === "service" ||
        m.name === "configure" || m.name === "default_service"
      ) {
        return mountedBelow(c, call, depth);
      }
      return [literal("")];
    }
    case "let_declaration": {
      const pattern = parent.childForFieldName("pattern");
      if (pattern?.type !== "identifier") return [literal("")];
      const block = parent.parent;
      const out: Value[] = [];
      if (block) {
        walk(block, (n) => {
          if (
            n.type === "identifier" && n.text === pattern.text &&
            n.startIndex >= parent.endIndex &&
            n.parent?.type !== "scoped_identifier"
          ) out.push(...prefixes(c, n, depth + 1));
        });
      }
      return out.length > 0 ? out : [literal("")];
    }
    case "closure_expression": {
      // `.configure(|cfg| routes(cfg))`: the closure's body is its value
      return parent.childForFieldName("body")?.id === node.id
        ? prefixes(c, parent, depth + 1)
        : [literal("")];
    }
    case "block": {
      // The tail expression of a function body: the function's value.
      const fn = parent.parent;
      const last = tailOf(parent);
      if (fn?.type !== "function_item" || last?.id !== node.id) {
        return [literal("")];
      }
      const name = fn.childForFieldName("name")?.text;
      return name ? callSitePrefixes(c, name, fn, depth) : [literal("")];
    }
    case "return_expression": {
      const fn = c.enclosingFunction(node);
      const name = fn?.childForFieldName("name")?.text;
      return fn && name ? callSitePrefixes(c, name, fn, depth) : [literal("")];
    }
    default:
      return [literal("")];
  }
}

/** Prefixes for the calls of function `name` (other than its own body). */
export function callSitePrefixes(
  c: RustScan,
  name: string,
  fn: Node,
  depth: number,
): Value[] {
  const key = `fn:${fn.id}`;
  const cached = c.memo.get(key);
  if (cached) return cached;
  const home = c.fileOf(fn);
  const out: Value[] = [];
  for (const use of home ? c.usesOf(name, home) : []) {
    if (use.parent?.id === fn.id) continue; // the definition's name
    let site: Node = use;
    if (use.parent?.type === "scoped_identifier") site = use.parent;
    const call = site.parent;
    if (
      call?.type === "call_expression" &&
      call.childForFieldName("function")?.id === site.id
    ) {
      out.push(...prefixes(c, call, depth + 1));
    } else if (call?.type === "arguments") {
      // `.configure(config)`, `.service(handler)`
      const m = call.parent ? methodCall(call.parent) : undefined;
      if (m && ["service", "configure", "default_service"].includes(m.name)) {
        out.push(...prefixes(c, site, depth + 1));
      }
    }
  }
  const result = out.length > 0 ? dedupe(out) : [literal("")];
  c.memo.set(key, result);
  return result;
}

/**
 * Prefixes that apply to values mounted by a `.nest/.service(...)` call:
 * those above the call's own chain, plus the chain's root scope.
 */
export function mountedBelow(
  c: RustScan,
  call: Node,
  depth: number,
): Value[] {
  const above = prefixes(c, call, depth + 1);
  const own = rootPrefixes(c, chainRoot(call), depth);
  const out: Value[] = [];
  for (const a of above) {
    for (const o of own) out.push(joinPaths(a, o));
  }
  return out;
}

/** The prefix a chain root contributes: `web::scope("/api")`. */
export function rootPrefixes(
  c: RustScan,
  root: Node,
  depth: number,
): Value[] {
  if (depth > MAX_DEPTH) return [literal("")];
  if (root.type === "call_expression") {
    const fn = root.childForFieldName("function");
    const text = fn?.text ?? "";
    if (/(^|::)(scope|Scope::new)$/.test(text)) {
      return [c.evaluate(argsOf(root)[0])];
    }
    return [literal("")];
  }
  if (root.type === "identifier") {
    const value = c.letValue(root.text, root);
    if (value) return rootPrefixes(c, chainRoot(value), depth + 1);
    // `fn config(cfg: &mut web::ServiceConfig)` registered by `.configure`
    const fn = c.enclosingFunction(root);
    const params = fn?.childForFieldName("parameters");
    const isParam = params
      ? namedChildren(params).some((p) =>
        p.childForFieldName("pattern")?.text === root.text &&
        /ServiceConfig/.test(p.childForFieldName("type")?.text ?? "")
      )
      : false;
    const name = fn?.childForFieldName("name")?.text;
    if (fn && isParam && name) {
      return callSitePrefixes(c, name, fn, depth + 1);
    }
  }
  return [literal("")];
}
