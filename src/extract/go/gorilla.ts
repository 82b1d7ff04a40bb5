// gorilla/mux route builders: `r.Methods("GET").Path("/x").Handler(h)`,
// `r.Path("/x").Methods("GET").Queries(...).HandlerFunc(h)` and
// `r.PathPrefix("/static/").Handler(fs)`, read back from the terminal
// `Handler`/`HandlerFunc` call down to the router the chain starts on.
import type { Node } from "../_syntax/compact_tree.ts";
import { exactText, joinPaths, mapText, type Value } from "../_value/mod.ts";
import type { GoProject } from "./project.ts";
import { argumentsOf, type PendingRoute, type Routers } from "./routers.ts";

/** The steps of a route builder chain, outermost first. */
export interface GorillaChain {
  /** The expression the chain starts on (a router, when it is a route). */
  base: Node;
  /** From `.Methods(...)`; `ANY` when a verb is not a literal. */
  methods?: string[];
  /** From `.Path(...)`. */
  path?: Value;
  /** From `.PathPrefix(...)`. */
  prefix?: Value;
  /** The source text of the path arguments, outermost first. */
  raw: string[];
  /** `.BuildOnly()`: a URL template that never matches a request. */
  buildOnly?: boolean;
}

// Route matchers that do not change the path or the methods.
const MATCHERS: ReadonlySet<string> = new Set([
  "Queries",
  "Headers",
  "HeadersRegexp",
  "Schemes",
  "Host",
  "Name",
  "MatcherFunc",
  "BuildVarsFunc",
  "NewRoute",
]);
const MAX_STEPS = 32;

/** `{id:[0-9]+}` → `{id}`: a gorilla variable without its pattern. */
export function gorillaPath(path: Value): Value {
  return mapText(
    path,
    (text) => text.replace(/\{(\w+):[^{}]*(?:\{[^{}]*\}[^{}]*)*\}/g, "{$1}"),
  );
}

/**
 * The builder steps of `expr` (`r.Methods("GET").Path("/x")`) down to the
 * expression they start on; `undefined` when `expr` is no builder call or
 * a path is not a string.
 */
export function gorillaChain(
  expr: Node | null | undefined,
  project: GoProject,
): GorillaChain | undefined {
  const chain: Omit<GorillaChain, "base"> = { raw: [] };
  let current = expr;
  let steps = 0;
  while (current?.type === "call_expression" && steps < MAX_STEPS) {
    const callee = current.childForFieldName("function");
    if (callee?.type !== "selector_expression" || project.qualified(callee)) {
      break;
    }
    const field = callee.childForFieldName("field")?.text ?? "";
    const args = argumentsOf(current);
    if (field === "Methods") {
      chain.methods ??= verbsOf(args, project);
    } else if (field === "Path" || field === "PathPrefix") {
      const value = project.evalString(args[0]);
      if (!value || !args[0]) return undefined;
      chain.raw.push(args[0].text);
      if (field === "Path") chain.path ??= value;
      else chain.prefix ??= value;
    } else if (field === "BuildOnly") chain.buildOnly = true;
    else if (!MATCHERS.has(field)) break;
    current = callee.childForFieldName("operand");
    steps++;
  }
  if (!current || steps === 0) return undefined;
  return { ...chain, base: current };
}

/**
 * A route from a builder chain ending in `.Handler(h)`/`.HandlerFunc(h)`
 * on a gorilla router; a `PathPrefix` chain whose handler is a router (or a
 * `StripPrefix` of one) mounts it instead.
 */
export function gorillaBuilderRoute(
  call: Node,
  project: GoProject,
  routers: Routers,
  mount: (handler: Node | undefined, refs: PendingRoute["refs"]) => boolean,
): PendingRoute | undefined {
  const callee = call.childForFieldName("function");
  const method = callee?.childForFieldName("field")?.text;
  if (method !== "Handler" && method !== "HandlerFunc") return undefined;
  const chain = gorillaChain(callee?.childForFieldName("operand"), project);
  if (!chain || (!chain.path && !chain.prefix)) return undefined;
  const refs = routers.refs(chain.base).filter((r) =>
    r.root.framework === "gorilla"
  );
  if (refs.length === 0 || chain.buildOnly || builtOnly(call)) {
    return undefined;
  }
  const handler = argumentsOf(call)[0];
  if (!chain.path && chain.prefix) {
    if (mount(handler, refs)) return undefined;
    // StripPrefix of a handler built elsewhere: a mount, not one route
    if (strippedHandler(handler, project) === "other") return undefined;
    const children = routers.refs(handler);
    if (children.length) {
      const prefix = mapText(chain.prefix, (t) => t.replace(/\/$/, ""));
      for (const child of children) {
        for (const parent of refs) child.root.mounts.push({ parent, prefix });
      }
      return undefined;
    }
  }
  const path = chain.path && chain.prefix
    ? joinPaths(chain.prefix, chain.path)
    : chain.path ?? chain.prefix;
  if (!path) return undefined;
  return {
    call,
    refs,
    methods: chain.methods ?? ["ANY"],
    path: gorillaPath(path),
    raw: chain.raw.reverse().join(" "),
    confidence: 1,
    framework: "gorilla",
  };
}

function verbsOf(args: Node[], project: GoProject): string[] {
  const verbs = args.map((a) => exactText(project.evalString(a)));
  if (verbs.length && verbs.every((v) => v && /^[A-Za-z]+$/.test(v))) {
    return verbs.map((v) => (v ?? "").toUpperCase());
  }
  return ["ANY"];
}

/**
 * What `http.StripPrefix(p, inner)` wraps: a file server, another handler,
 * or nothing (`handler` is no `StripPrefix` call).
 */
function strippedHandler(
  handler: Node | undefined,
  project: GoProject,
): "files" | "other" | undefined {
  if (handler?.type !== "call_expression") return undefined;
  const qualified = project.qualified(handler.childForFieldName("function"));
  if (qualified?.[0] !== "net/http" || qualified[1] !== "StripPrefix") {
    return undefined;
  }
  const inner = argumentsOf(handler)[1];
  const served = inner?.type === "call_expression"
    ? project.qualified(inner.childForFieldName("function"))
    : undefined;
  return served?.[0] === "net/http" && served[1] === "FileServer"
    ? "files"
    : "other";
}

/** Whether a route call is followed by `.BuildOnly()` in its chain. */
export function builtOnly(call: Node): boolean {
  let current: Node = call;
  for (let steps = 0; steps < MAX_STEPS; steps++) {
    const selector = current.parent;
    const chained = selector?.parent;
    if (
      selector?.type !== "selector_expression" ||
      chained?.type !== "call_expression"
    ) return false;
    if (selector.childForFieldName("field")?.text === "BuildOnly") return true;
    current = chained;
  }
  return false;
}
