// axum and actix-web routes: `.route(path, get(h).post(h2))`, actix
// `web::resource(..).route(..)`, `.to(h)` and `#[get("/x")]` handlers.
import { HTTP_METHODS } from "../_port/http.ts";
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

/** Verbs of an axum method router `get(h).post(h2)`, or undefined. */
export function axumVerbs(
  c: RustScan,
  node: Node,
): string[] | undefined {
  const verbs: string[] = [];
  let n: Node | undefined = unwrap(node);
  while (n) {
    const m = methodCall(n);
    if (m) {
      if (AXUM_METHODS.has(m.name)) verbs.push(verbName(m.name));
      else if (m.name === "on") {
        const v = c.methodFilter(argsOf(n)[0]);
        if (v) verbs.push(v);
      } else if (
        !["layer", "route_layer", "with_state", "fallback"].includes(m.name)
      ) return undefined;
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
    const base = name.replace(/_service$/, "");
    if (AXUM_METHODS.has(base)) verbs.push(verbName(base));
    else if (base === "on") {
      const v = c.methodFilter(argsOf(n)[0]);
      if (!v) return undefined;
      verbs.push(v);
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
  if (fn?.type !== "scoped_identifier") return undefined;
  const name = lastSegment(fn);
  if (AXUM_METHODS.has(name) && name !== "any") return [name.toUpperCase()];
  if (name === "route") return [verb ?? "ANY"];
  if (name === "method") {
    const v = c.methodFilter(argsOf(root)[0]);
    return v ? [v] : undefined;
  }
  return undefined;
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
