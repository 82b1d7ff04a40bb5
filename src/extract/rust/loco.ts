// Loco: `Routes::new().prefix("/api/posts").add("/{id}", get(show).put(edit))`
// in a controller (axum method routers), under the prefix of the
// `AppRoutes` chain that `.add_route(posts::routes())` mounts it on.
import type { Node } from "../_syntax/tree.ts";
import { joinPaths, literal, type Value } from "../_value/mod.ts";
import { argsOf, callSite, chainTop, methodCall, unwrap } from "./nodes.ts";
import { callsOf, returnedBy } from "./value_uses.ts";
import type { MethodSite, RustFile, RustScan } from "./project.ts";
import { hasPath } from "./project.ts";
import { axumVerbs } from "./routes.ts";

/** Whether a file uses Loco. */
export function usesLoco(f: RustFile): boolean {
  return f.useTexts.some((t) => /\bloco_rs::/.test(t));
}

/** The `.prefix(p)` values and the root call of a chain. */
function chainPrefix(
  c: RustScan,
  call: Node,
): { prefix: Value; root: Node } {
  const parts: Value[] = [];
  let n = unwrap(call);
  for (let m = methodCall(n); m; m = methodCall(n)) {
    if (m.name === "prefix") parts.unshift(c.evaluate(argsOf(n)[0]));
    n = unwrap(m.receiver);
  }
  return { prefix: joinPaths(literal(""), ...parts), root: n };
}

/** A constructor call `Type::new()`/`Type::with_default_routes()` named `type`. */
function isBuiltBy(root: Node, type: RegExp): boolean {
  const fn = root.type === "call_expression"
    ? root.childForFieldName("function")?.text ?? ""
    : "";
  return type.test(fn);
}

/** `.add(path, method_router)` on a Loco `Routes` chain. */
export function locoAdd(c: RustScan, f: RustFile, site: MethodSite): void {
  const { call, name, receiver } = site;
  if (name !== "add") return;
  const [path, router] = argsOf(call);
  if (!path || !router || argsOf(call).length !== 2) return;
  const verbs = axumVerbs(c, router);
  if (!verbs) return;
  const own = chainPrefix(c, receiver);
  if (!isBuiltBy(own.root, /(^|::)Routes::new$/)) return;
  const seen = new Set<string>();
  for (const app of appPrefixes(c, chainTop(call))) {
    const prefix = joinPaths(app, own.prefix);
    c.emitComposed(
      f,
      call,
      joinPaths(prefix, c.evaluate(path)),
      verbs,
      "loco",
      seen,
      callSite(call),
      hasPath(prefix),
    );
  }
}

/**
 * The prefixes of the `AppRoutes` chains a function returning `routes`
 * is added to with `.add_route(module::routes())`.
 */
function appPrefixes(c: RustScan, routes: Node): Value[] {
  const root = [literal("")];
  const fn = returnedBy(c, routes);
  if (!fn) return root;
  const out: Value[] = [];
  for (const call of callsOf(c, fn)) {
    const args = call.parent;
    const add = args?.type === "arguments" ? args.parent : null;
    const m = add ? methodCall(add) : undefined;
    if (m?.name !== "add_route" && m?.name !== "add_routes") continue;
    const app = chainPrefix(c, m.receiver);
    if (isBuiltBy(app.root, /(^|::)AppRoutes::\w+$/)) out.push(app.prefix);
  }
  return out.length > 0 ? out : root;
}
