// rwf (Rust Web Framework): `Server::new(vec![route!("/x" => Controller),
// crud!("/api/users" => Users), rest!(..), Ctrl.route("/")])`, with
// `engine!("/admin" => engine)` mounting an `Engine::new(vec![...])` under a
// prefix. A plain `Controller` answers every method (`ANY`) unless its
// `handle` matches on `Method::GET =>`...; `crud!`/`rest!` register the REST
// surface (list/create on the path, show/update/delete on `path/:id`).
import { namedChildren, type Node, walk } from "../_syntax/tree.ts";
import { stringValue } from "../_syntax/tree.ts";
import { joinPaths, literal, type Value } from "../_value/mod.ts";
import { HTTP_METHODS } from "../_port/http.ts";
import { lastSegment } from "./nodes.ts";
import { isTestItem } from "./test_code.ts";
import { hasPath, MAX_DEPTH, type RustFile, type RustScan } from "./project.ts";

/** The REST surface of `crud!`/`rest!`: methods by path suffix. */
const REST: ReadonlyArray<[string, string[]]> = [
  ["", ["GET", "POST"]],
  ["/:id", ["GET", "PUT", "PATCH", "DELETE"]],
];

/** Whether a file uses rwf. */
export function usesRwf(f: RustFile): boolean {
  return f.useTexts.some((t) => /\brwf::/.test(t));
}

/** One `name!(path => target)` of a token tree or a macro invocation. */
interface Registration {
  macro: string;
  path: string;
  /** The text after `=>`: a controller type or an engine binding. */
  target: string;
  /** Where it is written: the macro's name or the controller. */
  at: Node;
}

/** Reads `route!("/x" => C)` at a macro's `(..)` token tree. */
function registration(tokens: Node): Registration | undefined {
  let bang = tokens.previousSibling;
  let name = bang?.previousSibling;
  if (tokens.parent?.type === "macro_invocation") {
    name = tokens.parent.childForFieldName("macro");
    bang = null;
  } else if (bang?.type !== "!") return undefined;
  const macro = lastSegment(name);
  if (!["route", "crud", "rest", "engine"].includes(macro)) return undefined;
  const parts = namedChildren(tokens);
  const path = parts[0]?.type === "string_literal"
    ? stringValue(parts[0])
    : undefined;
  const arrow = [...Array(tokens.childCount).keys()].find((i) =>
    tokens.child(i)?.type === "=>"
  );
  if (path === undefined || arrow === undefined) return undefined;
  let target = "";
  for (let i = arrow + 1; i < tokens.childCount - 1; i++) {
    target += tokens.child(i)!.text;
  }
  const at = tokens.parent?.type === "macro_invocation" ? tokens.parent : name;
  return { macro, path, target: target.trim(), at: at ?? tokens };
}

/** Reads `Ctrl.route("/x")` inside a token tree. */
function methodRoute(tokens: Node): Registration | undefined {
  const name = tokens.previousSibling;
  const dot = name?.previousSibling;
  const ctrl = dot?.previousSibling;
  if (
    name?.text !== "route" || dot?.type !== "." ||
    ctrl?.type !== "identifier" || tokens.parent?.type !== "token_tree"
  ) return undefined;
  const parts = namedChildren(tokens);
  const path = parts.length === 1 && parts[0]!.type === "string_literal"
    ? stringValue(parts[0]!)
    : undefined;
  return path === undefined
    ? undefined
    : { macro: "route", path, target: ctrl.text, at: ctrl };
}

/** The rwf routes of a file. */
export function rwfRoutes(c: RustScan, f: RustFile): void {
  walk(f.tree.rootNode, (n) => {
    if (isTestItem(n)) return false;
    if (n.type !== "token_tree" || n.child(0)?.type !== "(") return;
    const r = registration(n) ?? methodRoute(n);
    if (!r || r.macro === "engine") return;
    const seen = new Set<string>();
    const routes: ReadonlyArray<[string, string[]]> = r.macro === "route"
      ? [["", controllerVerbs(c, r.target)]]
      : REST;
    for (const prefix of engineMounts(c, n, 0)) {
      for (const [suffix, verbs] of routes) {
        c.emitComposed(
          f,
          n,
          joinPaths(prefix, literal(r.path), literal(suffix)),
          verbs,
          "rwf",
          seen,
          r.at,
          hasPath(prefix),
        );
      }
    }
    return false;
  });
}

/**
 * The prefixes of the engine a registration belongs to: nested in
 * `engine!("/p" => Engine::new(vec![..]))`, or in a `let e =
 * Engine::new(vec![..])` that an `engine!("/p" => e)` of its block mounts.
 */
function engineMounts(c: RustScan, node: Node, depth: number): Value[] {
  if (depth > MAX_DEPTH) return [literal("")];
  for (let n = node.parent; n; n = n.parent) {
    if (n.type === "token_tree") {
      const r = registration(n);
      if (r?.macro === "engine") {
        return engineMounts(c, n, depth + 1).map((p) =>
          joinPaths(p, literal(r.path))
        );
      }
      continue;
    }
    if (n.type === "macro_invocation") continue;
    if (n.type !== "arguments") break;
    const call = n.parent;
    const fn = call?.childForFieldName("function")?.text ?? "";
    if (!/(^|::)Engine::new$/.test(fn)) break;
    const binding = call!.parent;
    const pattern = binding?.type === "let_declaration"
      ? binding.childForFieldName("pattern")
      : undefined;
    if (pattern?.type !== "identifier" || !binding!.parent) break;
    const out: Value[] = [];
    walk(binding!.parent, (t) => {
      if (t.type !== "token_tree" || t.startIndex < binding!.endIndex) return;
      const r = registration(t);
      if (r?.macro !== "engine" || r.target !== pattern.text) return;
      for (const p of engineMounts(c, t, depth + 1)) {
        out.push(joinPaths(p, literal(r.path)));
      }
      return false;
    });
    return out.length > 0 ? out : [literal("")];
  }
  return [literal("")];
}

/**
 * The methods of a controller: the `Method::X =>` arms of its `handle`
 * (`impl Controller for C`), else every method.
 */
function controllerVerbs(c: RustScan, target: string): string[] {
  const name = target.split("::").at(-1) ?? target;
  const cached = VERBS.get(c)?.get(name);
  if (cached) return cached;
  const verbs = new Set<string>();
  for (const f of c.files) {
    if (!f.file.text.includes(name)) continue;
    walk(f.tree.rootNode, (n) => {
      if (n.type !== "impl_item") return;
      const trait = lastSegment(n.childForFieldName("trait"));
      if (
        trait !== "Controller" ||
        lastSegment(n.childForFieldName("type")) !== name
      ) return false;
      walk(n, (arm) => {
        if (arm.type !== "match_arm") return;
        const pattern = arm.childForFieldName("pattern")?.text ?? "";
        const m = /^Method::([A-Z]+)$/.exec(pattern.trim());
        if (m && HTTP_METHODS.has(m[1]!)) verbs.add(m[1]!);
      });
      return false;
    });
  }
  const out = verbs.size > 0 ? [...verbs] : ["ANY"];
  if (!VERBS.has(c)) VERBS.set(c, new Map());
  VERBS.get(c)!.set(name, out);
  return out;
}

/** Controller methods by scan and controller name. */
const VERBS = new WeakMap<RustScan, Map<string, string[]>>();
