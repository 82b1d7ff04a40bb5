// tide: `app.at("/users/:id").get(h).put(h2)` on a `tide::new()` server,
// also through `let r = app.at("/x"); r.post(h);`, `.all(h)` (every
// method), `.serve_dir(..)`/`.serve_file(..)` (GET) and sub-apps mounted
// with `app.at("/api").nest(api)`.
import { namedChildren, type Node } from "../_syntax/tree.ts";
import { joinPaths, literal, type Value } from "../_value/mod.ts";
import { HTTP_VERBS } from "../_port/http.ts";
import { argsOf, methodCall, tailOf, unwrap } from "./nodes.ts";
import { hasPath, MAX_DEPTH } from "./project.ts";
import type { MethodSite, RustFile, RustScan } from "./project.ts";

/** Whether a file uses tide. */
export function usesTide(f: RustFile): boolean {
  return f.useTexts.some((t) => /\btide::/.test(t)) ||
    /\btide::(new|with_state)\s*\(/.test(f.file.text);
}

/** The methods a tide route method registers, or undefined. */
function tideVerbs(name: string): string[] | undefined {
  if (HTTP_VERBS.has(name)) return [name.toUpperCase()];
  if (name === "all") return ["ANY"];
  if (name === "serve_dir" || name === "serve_file") return ["GET"];
  return undefined;
}

/** A tide route method call `route.get(h)`: its route's paths. */
export function tideRoute(c: RustScan, f: RustFile, site: MethodSite): void {
  const { call, name, receiver } = site;
  const verbs = tideVerbs(name);
  if (!verbs || argsOf(call).length !== 1) return;
  const paths = routePaths(c, receiver, 0);
  const seen = new Set<string>();
  for (const path of paths) {
    c.emitComposed(f, call, path.value, verbs, "tide", seen, call, path.nested);
  }
}

/** The prefixes of servers, by scan and `let` declaration. */
const SERVERS = new WeakMap<RustScan, Map<number, RoutePath[]>>();

interface RoutePath {
  value: Value;
  nested: boolean;
}

/**
 * The paths of a tide route value: `app.at("/x")`, `.at("/a").at("/b")`,
 * a `let` bound route, or a verb chain on one (`at("/x").put(h).get(h2)`).
 */
function routePaths(c: RustScan, node: Node, depth: number): RoutePath[] {
  if (depth > MAX_DEPTH) return [];
  const n = unwrap(node);
  const m = methodCall(n);
  if (m && m.name === "at") {
    const path = c.evaluate(argsOf(n)[0]);
    const inner = unwrap(m.receiver);
    const above = methodCall(inner)?.name === "at"
      ? routePaths(c, inner, depth + 1)
      : serverPrefixes(c, inner, depth + 1);
    return above.map((a) => ({
      value: joinPaths(a.value, path),
      nested: a.nested,
    }));
  }
  if (m && tideVerbs(m.name)) return routePaths(c, m.receiver, depth + 1);
  if (n.type === "identifier") {
    const value = c.letValue(n.text, n);
    return value ? routePaths(c, value, depth + 1) : [];
  }
  return [];
}

/**
 * The prefixes a server is nested at: a `tide::new()` bound by `let` and
 * given to `route.nest(..)` (by name, or as the tail of a block argument).
 */
function serverPrefixes(c: RustScan, node: Node, depth: number): RoutePath[] {
  const root = [{ value: literal(""), nested: false }];
  if (node.type !== "identifier" || depth > MAX_DEPTH) return root;
  const value = c.letValue(node.text, node);
  const binding = value?.parent;
  const block = binding?.parent;
  if (!value || binding?.type !== "let_declaration" || !block) return root;
  let memo = SERVERS.get(c);
  if (!memo) SERVERS.set(c, memo = new Map());
  const cached = memo.get(binding.id);
  if (cached) return cached;
  const result = nestPrefixes(c, node, binding, depth);
  memo.set(binding.id, result);
  return result;
}

/** The prefixes of the server a `let` binds, found where it is nested. */
function nestPrefixes(
  c: RustScan,
  node: Node,
  binding: Node,
  depth: number,
): RoutePath[] {
  const root = [{ value: literal(""), nested: false }];
  const block = binding.parent!;
  const out: RoutePath[] = [];
  const nestOf = (arg: Node): void => {
    const args = arg.parent;
    const call = args?.type === "arguments" ? args.parent : null;
    const m = call ? methodCall(call) : undefined;
    if (m?.name !== "nest") return;
    for (const p of routePaths(c, m.receiver, depth + 1)) {
      out.push({ value: p.value, nested: p.nested || hasPath(p.value) });
    }
  };
  const tail = tailOf(block);
  if (tail?.type === "identifier" && tail.text === node.text) nestOf(block);
  for (const stmt of namedChildren(block)) {
    if (stmt.startIndex < binding.endIndex) continue;
    const call = stmt.type === "expression_statement"
      ? stmt.namedChild(0)
      : stmt;
    const m = call ? methodCall(unwrap(call)) : undefined;
    const arg = m?.name === "nest" ? argsOf(unwrap(call!))[0] : undefined;
    if (arg?.type === "identifier" && arg.text === node.text) nestOf(arg);
  }
  return out.length > 0 ? out : root;
}
