// axum and actix-web routes: `.route(path, get(h).post(h2))`, actix
// `web::resource(..).route(..)`, `.to(h)` and `#[get("/x")]` handlers.
import { HTTP_METHODS, HTTP_VERBS } from "../_port/http.ts";
import { namedChildren, type Node } from "../_syntax/tree.ts";
import { exactText, joinPaths } from "../_value/mod.ts";
import { clientCall } from "./clients.ts";
import {
  argsOf,
  chainRoot,
  lastSegment,
  methodCall,
  unwrap,
  verbName,
} from "./nodes.ts";
import {
  ACTIX_ATTRIBUTES,
  AXUM_METHODS,
  hasPath,
  MAX_DEPTH,
  type RustFile,
  type RustScan,
} from "./project.ts";
import { callSitePrefixes } from "./mounts.ts";

/** axum `.route(path, get(h).post(h2))` / actix `.route(path, web::get().to(h))`. */
export function routeCall(
  c: RustScan,
  f: RustFile,
  call: Node,
): void {
  const args = argsOf(call);
  const [pathArg, handler] = args;
  if (!pathArg || !handler) {
    // actix `web::resource("/x").route(web::get().to(h))`
    if (pathArg) actixResourceRoute(c, f, call, pathArg);
    return;
  }
  const axum = f.axum ? axumVerbs(c, handler) : undefined;
  const verbs = axum ?? actixVerbs(c, handler);
  if (!verbs) return;
  const framework = axum ? "axum" : "actix-web";
  c.emitServer(f, call, pathArg, verbs, framework);
}

/** axum's method-router constructors and methods (`query` is `QUERY`). */
const AXUM_ROUTING = new Set([...HTTP_VERBS, "trace", "any", "query"]);
/** Method-router methods that add no verb: layers, state, fallbacks. */
const AXUM_NEUTRAL = new Set([
  "layer",
  "route_layer",
  "with_state",
  "fallback",
  "fallback_service",
]);

/**
 * The verb an axum (or aide) method-router name gives: `get`,
 * `get_service`, aide's `get_with`; undefined for other names.
 */
function axumVerb(name: string): string | undefined {
  const base = name.replace(/_(service|with)$/, "");
  return AXUM_ROUTING.has(base) ? verbName(base) : undefined;
}

/**
 * The verbs of an axum `MethodFilter`: `MethodFilter::GET`, also
 * `MethodFilter::GET.or(MethodFilter::QUERY)`; empty when one is unknown.
 */
export function methodFilters(node: Node | undefined, depth = 0): string[] {
  if (!node || depth > MAX_DEPTH) return [];
  const n = unwrap(node);
  const m = methodCall(n);
  if (m?.name === "or") {
    const left = methodFilters(m.receiver, depth + 1);
    const right = methodFilters(argsOf(n)[0], depth + 1);
    return left.length > 0 && right.length > 0 ? [...left, ...right] : [];
  }
  if (n.type !== "scoped_identifier" && n.type !== "identifier") return [];
  const v = lastSegment(n).toUpperCase();
  return HTTP_METHODS.has(v) || v === "QUERY" ? [v] : [];
}

/** Verbs of an axum method router `get(h).post(h2)`, or undefined. */
export function axumVerbs(
  _c: RustScan,
  node: Node,
): string[] | undefined {
  const verbs: string[] = [];
  let n: Node | undefined = unwrap(node);
  while (n) {
    const m = methodCall(n);
    if (m) {
      const verb = axumVerb(m.name);
      if (verb) verbs.push(verb);
      else if (m.name === "on" || m.name === "on_service") {
        verbs.push(...methodFilters(argsOf(n)[0]).reverse());
      } else if (!AXUM_NEUTRAL.has(m.name)) return undefined;
      n = unwrap(m.receiver);
      continue;
    }
    if (n.type !== "call_expression") return undefined;
    const fn = n.childForFieldName("function");
    const name = lastSegment(fn);
    const path = fn?.text ?? "";
    if (fn?.type === "scoped_identifier" && !/(^|::)routing::/.test(path)) {
      return undefined;
    }
    const verb = axumVerb(name);
    if (verb) verbs.push(verb);
    else if (name === "on" || name === "on_service") {
      const filtered = methodFilters(argsOf(n)[0]);
      if (filtered.length === 0) return undefined;
      verbs.push(...filtered.reverse());
    } else return undefined;
    n = undefined;
  }
  return verbs.length > 0 ? verbs.reverse() : undefined;
}

/** Verbs of an actix route `web::get().to(h)` / `web::route()`, or undefined. */
export function actixVerbs(
  c: RustScan,
  node: Node,
): string[] | undefined {
  const n = unwrap(node);
  const m = methodCall(n);
  if (!m || m.name !== "to") return undefined;
  let root = unwrap(m.receiver);
  let verb: string | undefined;
  // `web::route().method(Method::GET).to(h)` / `.guard(..)`
  for (;;) {
    const inner = methodCall(root);
    if (!inner) break;
    if (inner.name === "method") {
      verb = c.methodFilter(argsOf(root)[0]);
    }
    root = unwrap(inner.receiver);
  }
  if (root.type !== "call_expression") return undefined;
  const fn = root.childForFieldName("function");
  // `web::get()`, or a bare `get()` under `use actix_web::web::*`
  if (fn?.type !== "scoped_identifier" && !webGlob(c, root)) return undefined;
  const name = lastSegment(fn);
  if (AXUM_METHODS.has(name) && name !== "any") return [name.toUpperCase()];
  if (name === "route") return [verb ?? "ANY"];
  if (name === "method") {
    const v = c.methodFilter(argsOf(root)[0]);
    return v ? [v] : undefined;
  }
  return undefined;
}

/** Whether a node's file imports all of actix's `web` module (`use actix_web::web::*`). */
function webGlob(c: RustScan, node: Node): boolean {
  const f = c.fileOf(node);
  return f?.useTexts.some((t) => /\bactix_web::web::\*/.test(t)) === true;
}

/** `web::resource("/x").route(web::get().to(h))`. */
export function actixResourceRoute(
  c: RustScan,
  f: RustFile,
  call: Node,
  routeArg: Node,
): void {
  const verbs = actixVerbs(c, routeArg);
  if (!verbs) return;
  const resource = resourceOf(call);
  if (!resource) return;
  c.emitServer(f, call, resource.path, verbs, "actix-web", resource.call);
}

/** The `web::resource(path)` at the root of a chain. */
export function resourceOf(
  call: Node,
): { path: Node; call: Node } | undefined {
  const root = chainRoot(call);
  if (root.type !== "call_expression") return undefined;
  const fn = root.childForFieldName("function")?.text ?? "";
  if (!/(^|::)(resource|Resource::new)$/.test(fn)) return undefined;
  const path = argsOf(root)[0];
  return path ? { path, call: root } : undefined;
}

export function actixResourceOrClient(
  c: RustScan,
  f: RustFile,
  call: Node,
  name: string,
  receiver: Node,
): void {
  if (name === "to") {
    // `web::resource("/x").to(h)`: every method.
    const root = chainRoot(call);
    if (
      root.id === unwrap(receiver).id &&
      resourceOf(call)
    ) {
      const resource = resourceOf(call)!;
      c.emitServer(f, call, resource.path, ["ANY"], "actix-web", root);
    }
    return;
  }
  clientCall(c, f, call, receiver, name);
}

/** actix / rocket `#[get("/x")]` on a handler function. */
export function actixAttribute(
  c: RustScan,
  f: RustFile,
  item: Node,
): void {
  if (!f.actix) return;
  const attribute = namedChildren(item).find((c) => c.type === "attribute");
  if (!attribute) return;
  const head = namedChildren(attribute)[0];
  const name = lastSegment(head);
  if (!ACTIX_ATTRIBUTES.has(name)) return;
  if (head?.type === "scoped_identifier" && !/^actix_web::/.test(head.text)) {
    return;
  }
  const tokens = attribute.childForFieldName("arguments");
  if (!tokens) return;
  const parts = namedChildren(tokens);
  const pathNode = parts[0];
  if (!pathNode || pathNode.type !== "string_literal") return;
  let verbs: string[];
  if (name === "route") {
    verbs = [];
    for (let i = 1; i < parts.length; i++) {
      if (parts[i]!.text === "method" && parts[i + 1]) {
        const v = exactText(c.evaluate(parts[i + 1]))?.toUpperCase();
        if (v && HTTP_METHODS.has(v)) verbs.push(v);
      }
    }
    if (verbs.length === 0) verbs = ["ANY"];
  } else {
    verbs = [name.toUpperCase()];
  }
  // The handler function the attribute decorates.
  let fn: Node | null = item.nextNamedSibling;
  while (fn && fn.type === "attribute_item") fn = fn.nextNamedSibling;
  if (fn?.type !== "function_item") return;
  const handler = fn.childForFieldName("name")?.text;
  if (!handler) return;
  const path = c.evaluate(pathNode);
  const prefixes = callSitePrefixes(c, handler, fn, 0);
  const seen = new Set<string>();
  for (const pre of prefixes) {
    c.emitComposed(
      f,
      fn,
      joinPaths(pre, path),
      verbs,
      "actix-web",
      seen,
      item,
      hasPath(pre),
    );
  }
}
