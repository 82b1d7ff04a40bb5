// Values that flow into a function through its parameters: which
// `parameter` holes of a value stand for a path or URL the callers supply
// (a wrapper), and the value with those holes replaced by a call site's
// arguments.
import { fromParts, hole, type Part, type Value } from "./value.ts";

/** How far a value is followed out through callers of callers. */
export const MAX_FLOW_DEPTH = 3;

/** How many call sites of one function are followed. */
export const MAX_CALL_SITES = 32;

/**
 * The chains (of prefixes, outermost first) a node is reached under through
 * the callers of the function around it: each chain `outer` gives at one of
 * the function's call sites (`sites`, one level out), then `own`; `own`
 * alone when no call site is followed (there is none, or the node is
 * {@linkcode MAX_FLOW_DEPTH} levels out already). At most
 * {@linkcode MAX_CALL_SITES} sites are followed.
 */
export function chainsThroughCallers<S, T>(
  depth: number,
  sites: () => readonly S[],
  outer: (site: S, depth: number) => T[][],
  own: readonly T[],
): T[][] {
  const followed = depth < MAX_FLOW_DEPTH ? sites() : [];
  if (followed.length === 0) return [[...own]];
  return followed.slice(0, MAX_CALL_SITES).flatMap((site) =>
    outer(site, depth + 1).map((chain) => [...chain, ...own])
  );
}

/**
 * The names of the `parameter` holes of a value that stand for a whole path,
 * a prefix or a base URL (`BASE + path`, `f"{prefix}/users"`), not a value
 * inside one: a hole right after `/`, `?`, `#`, `=`, `&`, `:`, `.`, `-` or
 * `@` is a path segment, query value, host or port (`/users/{id}`,
 * `https://{host}`, `localhost:{port}`).
 */
export function flowingParameters(value: Value): Set<string> {
  const out = new Set<string>();
  let before = "";
  for (const part of value.parts) {
    if (typeof part === "string") {
      before += part;
      continue;
    }
    if (part.hole === "parameter" && !/[/?#=&:.@-]$/.test(before)) {
      out.add(part.text);
    }
    before += "\u0000";
  }
  return out;
}

/**
 * The value with each `parameter` hole named in `bound` replaced by its
 * value, and every other `parameter` hole made an `unknown` one (it stands
 * for a value the path only carries).
 */
export function bindParameters(
  value: Value,
  bound: ReadonlyMap<string, Value>,
): Value {
  const parts: Part[] = [];
  let composed = value.composed;
  for (const part of value.parts) {
    if (typeof part === "string" || part.hole !== "parameter") {
      parts.push(part);
      continue;
    }
    const argument = bound.get(part.text);
    if (argument) {
      parts.push(...argument.parts);
      composed = true;
    } else parts.push(...hole(part.text).parts);
  }
  return fromParts(parts, composed);
}

/**
 * What following a value through calls needs from a language: the function
 * around a position, the call sites of a function, and the value a call
 * site passes for a parameter. `P` is a position in the source (a value's
 * node, or a call site).
 */
export interface CallGraph<F, P> {
  /** The function (or method) whose body holds a position. */
  enclosing(at: P): F | undefined;
  /** The calls of a function that the scan can see. */
  sitesOf(fn: F): readonly P[];
  /** The value a call site passes for the parameter `name` of `fn`. */
  argument(fn: F, site: P, name: string): Value | undefined;
}

/** A value at one call site (none when no parameter had to be bound). */
export interface Flowed<P> {
  value: Value;
  site?: P;
}

/**
 * The values `value` (read at `at`) takes: itself when no parameter of the
 * enclosing function stands for its path, else once per call site whose
 * arguments give those parameters, followed out through callers (at most
 * {@linkcode MAX_FLOW_DEPTH} deep, {@linkcode MAX_CALL_SITES} sites each);
 * none when no call site does.
 */
export function flowThroughCalls<F, P>(
  graph: CallGraph<F, P>,
  at: P,
  value: Value,
  depth = 0,
): Flowed<P>[] {
  if (flowingParameters(value).size === 0) {
    return [{ value: bindParameters(value, new Map()) }];
  }
  const fn = graph.enclosing(at);
  if (fn === undefined || depth >= MAX_FLOW_DEPTH) return [];
  const out: Flowed<P>[] = [];
  for (const site of graph.sitesOf(fn).slice(0, MAX_CALL_SITES)) {
    out.push(...flowAtSite(graph, fn, site, value, depth));
  }
  return out;
}

/**
 * The values `value` (read in `fn`) takes at one call site of `fn`: its
 * parameters bound to the site's arguments, followed further out.
 */
export function flowAtSite<F, P>(
  graph: CallGraph<F, P>,
  fn: F,
  site: P,
  value: Value,
  depth = 0,
): Flowed<P>[] {
  const names = flowingParameters(value);
  const bound = new Map<string, Value>();
  for (const name of names) {
    const argument = graph.argument(fn, site, name);
    if (argument) bound.set(name, argument);
  }
  if (bound.size !== names.size) return [];
  const next = bindParameters(value, bound);
  return flowThroughCalls(graph, site, next, depth + 1).map((inner) => ({
    value: inner.value,
    site: inner.site ?? site,
  }));
}
