// gotham: `build_simple_router(|route| { route.get("/x").to(h); ... })`
// (also chained `Router::builder().get("/x").to(h).post(..)`), with
// prefixes from `route.scope("/api", |route| ..)`, `route.associate("/x",
// |assoc| assoc.get().to(h))` and pipeline closures; `get_or_head` gives GET
// and HEAD, `request(vec![Method::X, ..], path)` its methods.
import { namedChildren, type Node } from "../_syntax/tree.ts";
import { joinPaths, literal, type Value } from "../_value/mod.ts";
import { HTTP_VERBS } from "../_port/http.ts";
import { argsOf, callSite, lastSegment, methodCall, unwrap } from "./nodes.ts";
import { hasPath, MAX_DEPTH } from "./project.ts";
import type { MethodSite, RustFile, RustScan } from "./project.ts";

/** Whether a file uses gotham. */
export function usesGotham(f: RustFile): boolean {
  return f.useTexts.some((t) => /\bgotham::/.test(t));
}

/** Calls that finish a gotham route: `.to(h)`, `.to_file(..)`, `.to_async(h)`... */
const FINISHERS = /^to(_\w+)?$/;
/** Calls between a verb and its handler (`.with_path_extractor::<T>()`). */
const EXTRACTORS = /^(with_\w+|add_route_matcher)$/;

/** A gotham `verb(path)...to(h)` chain: reports the route. */
export function gothamRoute(c: RustScan, f: RustFile, site: MethodSite): void {
  const { call, name, receiver } = site;
  if (!FINISHERS.test(name) || name === "to_router") return;
  let verbCall = unwrap(receiver);
  for (let m = turbofishCall(verbCall); m && EXTRACTORS.test(m.name);) {
    verbCall = unwrap(m.receiver);
    m = turbofishCall(verbCall);
  }
  const m = methodCall(verbCall);
  if (!m) return;
  const args = argsOf(verbCall);
  let verbs: string[];
  let pathArg: Node | undefined = args[0];
  if (m.name === "get_or_head") verbs = ["GET", "HEAD"];
  else if (m.name === "request") {
    verbs = requestMethods(args[0]);
    pathArg = args[1];
  } else if (HTTP_VERBS.has(m.name)) verbs = [m.name.toUpperCase()];
  else return;
  if (verbs.length === 0) return;
  // `assoc.get()` inside `route.associate("/x", |assoc| ..)`: no path
  const own = pathArg ? c.evaluate(pathArg) : literal("");
  if (!pathArg && args.length > 0) return;
  const seen = new Set<string>();
  for (const prefix of builderPrefixes(c, m.receiver, 0)) {
    if (!pathArg && prefix.associate === false) continue;
    c.emitComposed(
      f,
      call,
      joinPaths(prefix.value, own),
      verbs,
      "gotham",
      seen,
      callSite(verbCall),
      hasPath(prefix.value),
    );
  }
}

/** {@linkcode methodCall}, also for `recv.name::<T>(..)`. */
function turbofishCall(
  call: Node,
): { name: string; receiver: Node } | undefined {
  const fn = call.type === "call_expression"
    ? call.childForFieldName("function")
    : null;
  if (fn?.type !== "generic_function") return methodCall(call);
  const inner = fn.childForFieldName("function");
  const receiver = inner?.type === "field_expression"
    ? inner.childForFieldName("value")
    : null;
  const name = inner?.childForFieldName("field")?.text;
  return receiver && name ? { name, receiver } : undefined;
}

/** `vec![Method::GET, Method::HEAD]`: its methods. */
function requestMethods(node: Node | undefined): string[] {
  if (node?.type !== "macro_invocation") return [];
  const tokens = namedChildren(node).find((n) => n.type === "token_tree");
  const out: string[] = [];
  for (const m of (tokens?.text ?? "").matchAll(/Method::([A-Z]+)/g)) {
    if (HTTP_VERBS.has(m[1]!.toLowerCase())) out.push(m[1]!);
  }
  return out;
}

interface Prefix {
  value: Value;
  /** Whether the builder is an `associate` one (verbs take no path). */
  associate: boolean;
}

/**
 * The prefixes of a route builder: the root of its chain is a closure
 * parameter of `scope(path, |route| ..)`, `associate(path, |assoc| ..)`,
 * `with_pipeline_chain(.., |route| ..)` or `build_router(.., |route| ..)`.
 */
function builderPrefixes(c: RustScan, node: Node, depth: number): Prefix[] {
  const root: Prefix[] = [{ value: literal(""), associate: false }];
  if (depth > MAX_DEPTH) return root;
  let n = unwrap(node);
  for (let m = methodCall(n); m; m = methodCall(n)) n = unwrap(m.receiver);
  if (n.type !== "identifier") return root;
  for (let up = n.parent; up; up = up.parent) {
    if (up.type !== "closure_expression") continue;
    const params = up.childForFieldName("parameters");
    const names = params
      ? namedChildren(params).map((p) =>
        (p.childForFieldName("pattern") ?? p).text
      )
      : [];
    if (!names.includes(n.text)) continue;
    const args = up.parent;
    const call = args?.type === "arguments" ? args.parent : null;
    const m = call ? methodCall(call) : undefined;
    if (!call) return root;
    if (!m) {
      const fn = lastSegment(call.childForFieldName("function"));
      return /^build_(simple_)?router$/.test(fn) ? root : [];
    }
    const above = builderPrefixes(c, m.receiver, depth + 1);
    const path = argsOf(call)[0];
    if (m.name === "scope" || m.name === "associate") {
      return above.map((a) => ({
        value: joinPaths(a.value, c.evaluate(path)),
        associate: m.name === "associate",
      }));
    }
    return m.name.startsWith("with_") ? above : [];
  }
  return root;
}
