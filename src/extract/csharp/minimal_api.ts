// ASP.NET Core minimal APIs: `MapGet`/`MapPost`/`MapMethods`/`Map` under
// `MapGroup` prefixes, followed through variables, chains and the call sites
// of extension methods.
import { httpPort } from "../_port/http.ts";
import { ownerOf } from "../_syntax/owner.ts";
import {
  anchorOf,
  findAncestor,
  namedChildren,
  walk,
} from "../_syntax/tree.ts";
import {
  addsPrefix,
  CONFIDENCE,
  exactText,
  hole,
  joinPaths,
  literal,
  MAX_CALL_SITES,
  routePath,
  type Value,
} from "../_value/mod.ts";
import {
  basesOf,
  callArgs,
  type CSharpFile,
  MAP_METHOD,
  routeMethod,
  simpleName,
  unwrap,
} from "./project.ts";
import type { Node } from "web-tree-sitter";

/**
 * The prefixes a `MapGroup` receiver chain adds: followed through
 * variables, fluent configuration calls and, for the `this` parameter of
 * an extension method (`MapTodos(this RouteGroupBuilder group)`), every
 * call site of that method in the scan.
 */
export function groupPrefixes(
  c: CSharpFile,
  node: Node | null | undefined,
  depth = 0,
): Value[] {
  if (!node || depth > 8) return [literal("")];
  const n = unwrap(node);
  if (n.type === "invocation_expression") {
    const fn = n.childForFieldName("function");
    if (fn?.type !== "member_access_expression") return [literal("")];
    const name = fn.childForFieldName("name")?.text ?? "";
    const receiver = fn.childForFieldName("expression");
    const above = groupPrefixes(c, receiver, depth + 1);
    if (name !== "MapGroup") return above; // `.RequireAuthorization()`...
    const arg = callArgs(n)[0];
    const own = arg ? c.evaluate(arg) : hole("?");
    return above.map((a) => joinPaths(a, own));
  }
  if (n.type !== "identifier") return [literal("")];
  const decl = c.declaration(n.text, n);
  if (decl?.value) return groupPrefixes(c, decl.value, depth + 1);
  if (decl?.parameter) {
    const module = carterModulePrefix(c, n);
    if (module) return [module];
  }
  // a parameter (or the `this` of an extension method): the groups the
  // method's callers pass
  const fn = decl?.parameter ? c.calls.enclosing(n) : undefined;
  if (!fn) return [literal("")];
  const out: Value[] = [];
  for (const site of c.calls.sitesOf(fn).slice(0, MAX_CALL_SITES)) {
    const argument = c.calls.argumentNode(fn, site, n.text);
    if (argument) out.push(...groupPrefixes(c, argument, depth + 1));
  }
  return out.length > 0 ? out : [literal("")];
}

const METHOD: ReadonlySet<string> = new Set(["method_declaration"]);

/**
 * The base path of a Carter module (`class M : CarterModule` with a
 * constructor `: base("/directors")`) whose `AddRoutes` parameter `id` is.
 */
function carterModulePrefix(c: CSharpFile, id: Node): Value | undefined {
  const method = findAncestor(id, METHOD);
  if (method?.childForFieldName("name")?.text !== "AddRoutes") return undefined;
  const cls = method.parent?.parent;
  if (cls?.type !== "class_declaration") return undefined;
  if (!basesOf(cls).some((b) => simpleName(b.text) === "CarterModule")) {
    return undefined;
  }
  for (const member of namedChildren(method.parent!)) {
    if (member.type !== "constructor_declaration") continue;
    const init = namedChildren(member).find((n) =>
      n.type === "constructor_initializer"
    );
    if (!init || init.child(1)?.text !== "base") continue;
    const list = namedChildren(init).find((n) => n.type === "argument_list");
    const arg = list ? namedChildren(list)[0] : undefined;
    const value = arg ? namedChildren(arg).at(-1) : undefined;
    if (value) return c.evaluate(value);
  }
  return undefined;
}

export function minimalApi(
  c: CSharpFile,
  call: Node,
  name: string,
  receiver: Node | null,
  args: Node[],
): void {
  const pattern = args[0];
  if (!pattern) return;
  const handlerCount = name === "MapMethods" ? 3 : 2;
  if (args.length < handlerCount) return;
  let verbs: string[];
  if (name === "MapMethods") {
    const list = args[1]!;
    verbs = [];
    walk(list, (n) => {
      if (
        n.type !== "string_literal" && n.type !== "member_access_expression"
      ) return true;
      const verb = routeMethod(c, n);
      if (verb && !verbs.includes(verb)) verbs.push(verb);
      return false;
    });
    if (verbs.length === 0) return;
  } else {
    verbs = [MAP_METHOD[name]!];
  }
  // `Map` is also a common name (AutoMapper, dictionaries): require a
  // route pattern literal starting with `/` there.
  const path = c.evaluate(pattern);
  if (name === "Map" && !(exactText(path) ?? "").startsWith("/")) return;
  // An extension method nobody calls in the scan: its group prefix is
  // unknown, so the path is only partly known.
  const method = receiver?.type === "identifier"
    ? c.extensionMethodOf(receiver)
    : undefined;
  const orphan = method !== undefined &&
    (c.invocations?.(method).length ?? 0) === 0;
  const seen = new Set<string>();
  for (const prefix of groupPrefixes(c, receiver)) {
    const route = routePath(joinPaths(prefix, path), addsPrefix(prefix));
    if (seen.has(route.path)) continue;
    seen.add(route.path);
    const confidence = orphan ? CONFIDENCE.partial : route.confidence;
    minimalRoute(c, call, verbs, route.path, confidence);
  }
}

export function minimalRoute(
  c: CSharpFile,
  call: Node,
  verbs: readonly string[],
  path: string,
  confidence: number,
): void {
  for (const verb of verbs) {
    const port = httpPort({
      role: "server",
      method: verb,
      path,
      node: anchorOf(
        call,
        call.childForFieldName("function")?.childForFieldName("name") ??
          call,
      ),
      owner: ownerOf(call, c.file.path, "c-sharp"),
      filePath: c.file.path,
      confidence,
      framework: "aspnetcore-minimal",
    });
    if (port) c.ports.push(port);
  }
}
