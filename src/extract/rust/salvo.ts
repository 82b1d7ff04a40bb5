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
import {
  dedupe,
  hasPath,
  MAX_DEPTH,
  type RustFile,
  type RustScan,
} from "./project.ts";

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
export function salvoRoute(
  c: RustScan,
  f: RustFile,
  call: Node,
  name: string,
): void {
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

/**
 * The paths of the router a value is pushed into: `.push(value)`, through
 * `let` bindings, `vec![..]` lists and the calls of a function returning it.
 */
function parentPaths(c: RustScan, node: Node, depth: number): Value[] {
  const root = [literal("")];
  if (depth > MAX_DEPTH) return root;
  const parent = node.parent;
  if (!parent) return root;
  switch (parent.type) {
    case "reference_expression":
    case "parenthesized_expression":
    case "try_expression":
      return parentPaths(c, parent, depth + 1);
    case "arguments": {
      const call = parent.parent;
      const m = call ? methodCall(call) : undefined;
      if (!call || (m?.name !== "push" && m?.name !== "unshift")) return root;
      if (!isRouterRoot(chainRoot(call))) return root;
      return routerPaths(c, chainTop(call), depth + 1);
    }
    case "let_declaration": {
      const out = bindingUses(parent).flatMap((n) =>
        parentPaths(c, n, depth + 1)
      );
      return out.length > 0 ? out : root;
    }
    case "block":
    case "return_expression": {
      const fn = returnedBy(c, node);
      const out = fn
        ? callsOf(c, fn).flatMap((call) => parentPaths(c, call, depth + 1))
        : [];
      return out.length > 0 ? out : root;
    }
    default:
      return root;
  }
}
