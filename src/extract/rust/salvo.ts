// salvo: a tree of routers, `Router::with_path("users/<id>").get(h)`,
// `Router::new().path("api").post(h)`, children added with `.push(r)` /
// `.unshift(r)` (inline, through `let` bindings and functions returning
// routers, across files). A router's path is its own `with_path`/`.path`
// segments under its parents'; `.goal(h)`/`.handle(h)` answer every method.
import type { Node } from "../_syntax/tree.ts";
import { joinPaths, literal, type Value } from "../_value/mod.ts";
import { HTTP_VERBS } from "../_port/http.ts";
import {
  argsOf,
  callSite,
  chainRoot,
  chainTop,
  methodCall,
  unwrap,
} from "./nodes.ts";
import { bindingUses, callsOf, returnedBy } from "./value_uses.ts";
import type { MethodSite, RustFile, RustScan } from "./project.ts";
import { dedupe, hasPath, MAX_DEPTH } from "./project.ts";

/** Whether a file uses salvo. */
export function usesSalvo(f: RustFile): boolean {
  return f.useTexts.some((t) => /\bsalvo::/.test(t));
}

/** The methods of a salvo router method, or undefined. */
function salvoVerbs(name: string): string[] | undefined {
  if (HTTP_VERBS.has(name)) return [name.toUpperCase()];
  return name === "goal" || name === "handle" ? ["ANY"] : undefined;
}

/** `Router::new()` / `Router::with_path(p)`: the root of a router chain. */
function isRouterRoot(node: Node): boolean {
  if (node.type !== "call_expression") return false;
  const fn = node.childForFieldName("function")?.text ?? "";
  return /(^|::)Router::(new|with_path|default)$/.test(fn);
}

/** A verb on a salvo router: `Router::with_path("x").get(h)`. */
export function salvoRoute(c: RustScan, f: RustFile, site: MethodSite): void {
  const { call, name } = site;
  const verbs = salvoVerbs(name);
  if (!verbs || argsOf(call).length !== 1) return;
  if (!isRouterRoot(chainRoot(call))) return;
  const seen = new Set<string>();
  const top = chainTop(call);
  // composed when a parent router adds a path segment
  const nested = parentPaths(c, top, 0).some(hasPath);
  for (const path of routerPaths(c, top, 0)) {
    c.emitComposed(
      f,
      call,
      path,
      verbs,
      "salvo",
      seen,
      callSite(call),
      nested,
    );
  }
}

/** The full paths of the router a whole chain builds. */
function routerPaths(c: RustScan, chain: Node, depth: number): Value[] {
  return c.remember(
    `salvo:${chain.id}`,
    () => routerPathsOf(c, chain, depth),
  );
}

function routerPathsOf(c: RustScan, chain: Node, depth: number): Value[] {
  if (depth > MAX_DEPTH) return [];
  const own: Value[] = [];
  let n = unwrap(chain);
  for (let m = methodCall(n); m; m = methodCall(n)) {
    if (m.name === "path") own.unshift(c.evaluate(argsOf(n)[0]));
    n = unwrap(m.receiver);
  }
  if (isRouterRoot(n) && /with_path$/.test(n.child(0)?.text ?? "")) {
    own.unshift(c.evaluate(argsOf(n)[0]));
  }
  const mine = joinPaths(literal(""), ...own);
  return dedupe(
    parentPaths(c, chain, depth).map((p) => joinPaths(p, mine)),
  );
}

/** Expressions a value passes through unchanged: `&v`, `(v)`, `v?`. */
const WRAPPERS: ReadonlySet<string> = new Set([
  "reference_expression",
  "parenthesized_expression",
  "try_expression",
]);

/**
 * The paths of the router a value is pushed into: `.push(value)`, through
 * `let` bindings, `vec![..]` lists and the calls of a function returning it.
 */
function parentPaths(c: RustScan, node: Node, depth: number): Value[] {
  const root = [literal("")];
  // each wrapper passed counts as one step
  let value = node;
  let level = depth;
  while (value.parent && WRAPPERS.has(value.parent.type)) {
    value = value.parent;
    level++;
  }
  const parent = value.parent;
  if (level > MAX_DEPTH || !parent) return root;
  switch (parent.type) {
    case "arguments": {
      const router = pushedInto(parent);
      return router ? routerPaths(c, router, level + 1) : root;
    }
    case "let_declaration": {
      const out = bindingUses(parent).flatMap((n) =>
        parentPaths(c, n, level + 1)
      );
      return out.length > 0 ? out : root;
    }
    case "block":
    case "return_expression": {
      const fn = returnedBy(c, value);
      const out = fn
        ? callsOf(c, fn).flatMap((call) => parentPaths(c, call, level + 1))
        : [];
      return out.length > 0 ? out : root;
    }
    default:
      return root;
  }
}

/** The router chain a `.push(..)`/`.unshift(..)` argument list adds to. */
function pushedInto(args: Node): Node | undefined {
  const call = args.parent;
  const name = call ? methodCall(call)?.name : undefined;
  if (!call || (name !== "push" && name !== "unshift")) return undefined;
  return isRouterRoot(chainRoot(call)) ? chainTop(call) : undefined;
}
