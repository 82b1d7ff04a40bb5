// This library's guard in front of a route, in every way an application
// plugs it in: a guarded handler given to the router (`app.get(p, h)`,
// `Bun.serve({ routes: { p: h } })`, URLPattern tables), a handler that
// delegates to one (`(c) => listPosts(c.req.raw)`), the wrapper as
// middleware (`allow(guard.requirePermission(...))`), or a constant holding
// any of these, in the same file or imported from another one.
import type { Node } from "../_syntax/tree.ts";
import { findAncestor, namedChildren, stringValue } from "../_syntax/tree.ts";
import type { GuardArg, GuardFacts, ImportBinding } from "./facts.ts";
import {
  argList,
  FUNCTION_EXPRESSIONS,
  FUNCTION_TYPES,
  isRelative,
  namedValues,
} from "./nodes.ts";
import { unwrap } from "./values.ts";
import type { Value } from "../_value/mod.ts";
import type { Collector } from "./collect.ts";

/** The names a file's guard analysis looks through. */
export interface GuardScope {
  /** Local `const` values that may be guarded: calls and functions. */
  readonly values: ReadonlyMap<string, Node>;
  readonly imports: ReadonlyMap<string, ImportBinding>;
  /** String constants, for `requirePermission(POST, "read")`. */
  readonly consts: ReadonlyMap<string, Value | null>;
  /**
   * Expressions the analysis may still visit in this file: past it, no
   * more guards are found (a route then looks unguarded, never wrongly
   * guarded).
   */
  readonly budget: { left: number };
  /** The guard of each local value once found (`null`: being found). */
  readonly memo: Map<string, GuardFacts | null>;
}

/** Expressions visited per file, at most (hostile chains of constants). */
const MAX_VISITS = 200_000;

const MAX_DEPTH = 12;
const MAX_RETURNS = 16;
const MAX_DYNAMIC_TEXT = 120;

const GUARDABLE: ReadonlySet<string> = new Set([
  "call_expression",
  "await_expression",
  ...FUNCTION_EXPRESSIONS,
]);

/**
 * The names of a file that may hold a guarded handler (`const` calls and
 * functions, function declarations) and the guard of each, so routes in
 * this file and in files importing them can see it.
 */
export function collectGuards(c: Collector): GuardScope {
  const values = new Map<string, Node>();
  for (const { name, value } of namedValues(c.nodes("variable_declarator"))) {
    if (GUARDABLE.has(unwrap(value).type)) values.set(name.text, value);
  }
  for (const node of c.nodes("function_declaration")) {
    const name = node.childForFieldName("name")?.text;
    if (name) values.set(name, node);
  }
  const scope: GuardScope = {
    values,
    imports: c.facts.imports,
    consts: c.facts.consts,
    budget: { left: MAX_VISITS },
    memo: new Map(),
  };
  // what other files may import; this file's routes look names up as needed
  for (const exported of new Set(c.facts.exports.values())) {
    const name = exported.replace(/^fn:/, "");
    const value = values.get(name);
    const guard = value && guardOfValue(value, scope);
    if (guard) c.facts.guards.set(name, guard);
  }
  // export default guard.requirePermission(...)(handler)
  for (const node of c.nodes("export_statement")) {
    const value = node.childForFieldName("value");
    if (!value) continue;
    const local = c.facts.exports.get("default");
    const key = local === undefined ? "(default)" : local.replace(/^fn:/, "");
    if (c.facts.guards.has(key)) continue;
    const guard = guardOfValue(value, scope);
    if (!guard) continue;
    c.facts.guards.set(key, guard);
    if (local === undefined) c.facts.exports.set("default", key);
  }
  return scope;
}

/** No guard seen yet. */
export function noGuard(): GuardFacts {
  return { requirements: [], auth: false, refs: [] };
}

/** Whether anything of the guard was seen. */
export function hasGuard(guard: GuardFacts): boolean {
  return guard.requirements.length > 0 || guard.auth || guard.refs.length > 0;
}

/**
 * The guard in front of a route, from the route's arguments (handlers and
 * middleware); `{}` when none, so callers spread it into a `RouteRec`.
 */
export function routeGuard(
  args: readonly Node[],
  scope: GuardScope,
): { guard?: GuardFacts } {
  const guard = noGuard();
  for (const arg of args) visit(arg, scope, guard, 0, new Set());
  return hasGuard(guard) ? { guard } : {};
}

/** The guard of one expression (a handler, a wrapper, a delegating function). */
export function guardOfValue(
  node: Node,
  scope: GuardScope,
): GuardFacts | undefined {
  const guard = noGuard();
  visit(node, scope, guard, 0, new Set());
  return hasGuard(guard) ? guard : undefined;
}

function visit(
  node: Node,
  scope: GuardScope,
  out: GuardFacts,
  depth: number,
  seen: Set<string>,
): void {
  if (depth > MAX_DEPTH || scope.budget.left <= 0) return;
  scope.budget.left--;
  let v = unwrap(node);
  if (v.type === "await_expression" && v.namedChild(0)) {
    v = unwrap(v.namedChild(0)!);
  }
  if (v.type === "identifier" || v.type === "shorthand_property_identifier") {
    const name = v.text;
    if (seen.has(name)) return;
    seen.add(name);
    const local = scope.values.get(name);
    if (local) {
      // once per name: a constant many routes share is read once
      let own = scope.memo.get(name);
      if (own === undefined) {
        scope.memo.set(name, null); // a cycle back to it finds nothing
        own = noGuard();
        visit(local, scope, own, depth + 1, new Set([name]));
        scope.memo.set(name, own);
      }
      if (own) {
        out.requirements.push(...own.requirements);
        out.auth ||= own.auth;
        out.refs.push(...own.refs);
      }
      return;
    }
    const binding = scope.imports.get(name);
    if (binding && isRelative(binding.source)) out.refs.push(binding);
    return;
  }
  if (FUNCTION_TYPES.has(v.type)) {
    // a handler that answers with a guarded handler's answer
    for (const returned of returnedValues(v)) {
      let r = unwrap(returned);
      if (r.type === "await_expression" && r.namedChild(0)) {
        r = unwrap(r.namedChild(0)!);
      }
      if (r.type === "call_expression") {
        visit(r.childForFieldName("function")!, scope, out, depth + 1, seen);
      } else if (r.type === "identifier") {
        visit(r, scope, out, depth + 1, seen);
      }
    }
    return;
  }
  if (v.type === "call_expression") {
    const fn = unwrap(v.childForFieldName("function")!);
    if (fn.type === "member_expression") {
      const property = fn.childForFieldName("property")?.text;
      if (property === "requirePermission") {
        out.requirements.push(argList(v).map((a) => guardArg(a, scope)));
        return;
      }
      if (property === "authRequired") out.auth = true;
    }
    // `wrapper(handler)`, `allow(wrapper)`, `wrapper.withErrorFactory(f)`
    visit(fn, scope, out, depth + 1, seen);
    for (const arg of argList(v)) {
      if (!FUNCTION_TYPES.has(unwrap(arg).type)) {
        visit(arg, scope, out, depth + 1, seen);
      }
    }
    return;
  }
  if (v.type === "member_expression") {
    visit(v.childForFieldName("object")!, scope, out, depth + 1, seen);
    return;
  }
  for (const child of namedChildren(v)) {
    if (!FUNCTION_TYPES.has(child.type) && child.type !== "identifier") {
      visit(child, scope, out, depth + 1, seen);
    }
  }
}

/** The expressions a function returns: its expression body, or its own `return`s. */
function returnedValues(fn: Node): Node[] {
  const body = fn.childForFieldName("body");
  if (!body) return [];
  if (body.type !== "statement_block") return [body];
  const out: Node[] = [];
  for (const ret of body.descendantsOfType("return_statement")) {
    if (!ret || findAncestor(ret, FUNCTION_TYPES)?.id !== fn.id) continue;
    const value = ret.namedChild(0);
    if (value) out.push(value);
    if (out.length >= MAX_RETURNS) break;
  }
  return out;
}

function guardArg(node: Node, scope: GuardScope): GuardArg {
  const v = unwrap(node);
  const text = stringValue(v);
  if (text !== undefined) return text;
  if (v.type === "identifier") {
    const value = scope.consts.get(v.text);
    const only = value && value.parts.length === 1 ? value.parts[0] : undefined;
    if (typeof only === "string") return only;
  }
  const source = v.text.replace(/\s+/g, " ");
  return {
    dynamic: source.length > MAX_DYNAMIC_TEXT
      ? `${source.slice(0, MAX_DYNAMIC_TEXT - 1)}…`
      : source,
  };
}

/** A guard of several sources as one. */
export function mergeGuards(guards: readonly GuardFacts[]): GuardFacts {
  const out = noGuard();
  for (const g of guards) {
    out.requirements.push(...g.requirements);
    out.auth ||= g.auth;
    out.refs.push(...g.refs);
  }
  return out;
}

/**
 * A route's `detail` for its guard: `permissions` (JSON: one argument
 * list per `requirePermission`, `{"dynamic": "<source>"}` for a value read
 * at request time), and for the first requirement when all its arguments
 * are literal, `permission` (`post:read`) with `object` and `action` for a
 * two-argument one; `auth: "required"` for `authRequired()` alone.
 */
export function guardDetail(guard: GuardFacts): Record<string, string> {
  const [first] = guard.requirements;
  if (!first) return guard.auth ? { auth: "required" } : {};
  const detail: Record<string, string> = {};
  if (first.every((a) => typeof a === "string")) {
    const literal = first as string[];
    if (literal.length === 2) {
      detail.object = literal[0]!;
      detail.action = literal[1]!;
    }
    detail.permission = literal.join(":");
  }
  detail.permissions = JSON.stringify(guard.requirements);
  return detail;
}
