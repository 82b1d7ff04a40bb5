// go-zero routes: `server.AddRoute(rest.Route{Method: ..., Path: ...})` and
// `server.AddRoutes([]rest.Route{{...}, ...}, rest.WithPrefix("/v1"))`, as
// goctl generates them from `.api` files. Each route is reported at its
// `rest.Route` literal.
import { namedChildren, type Node } from "../_syntax/compact_tree.ts";
import type { Value } from "../_value/mod.ts";
import { exactText, joinPaths, literal } from "../_value/mod.ts";
import { goRoutePort, prefixedRoutePath } from "./route_port.ts";
import type { ExtractedPort } from "../types.ts";
import type { GoProject } from "./project.ts";
import { normalizeImport } from "./declarations.ts";
import { fieldsOf } from "./composite.ts";
import { argumentsOf } from "./routers.ts";

const REST = [
  "github.com/zeromicro/go-zero/rest",
  "github.com/tal-tech/go-zero/rest",
];
const MAX_ROUTES = 1000;

/** The routes an `AddRoute`/`AddRoutes` call of go-zero registers. */
export function goZeroRoutes(call: Node, project: GoProject): ExtractedPort[] {
  const callee = call.childForFieldName("function");
  const method = callee?.type === "selector_expression"
    ? callee.childForFieldName("field")?.text
    : undefined;
  if (method !== "AddRoute" && method !== "AddRoutes") return [];
  const [routes, ...options] = argumentsOf(call);
  if (routes?.type !== "composite_literal") return [];
  const type = routes.childForFieldName("type");
  const element = method === "AddRoutes"
    ? (type?.type === "slice_type" ? type.childForFieldName("element") : null)
    : type;
  if (!isRestRoute(element, project)) return [];
  let prefix = groupPrefix(callee?.childForFieldName("operand"), project, 0);
  if (!prefix) return [];
  for (const option of options) {
    if (option.type !== "call_expression") continue;
    const q = project.qualified(option.childForFieldName("function"));
    if (q && isRest(q[0]) && q[1] === "WithPrefix") {
      const value = project.evalString(argumentsOf(option)[0]);
      if (!value) return [];
      prefix = joinPaths(prefix, value);
    }
  }
  const literals = method === "AddRoute"
    ? [routes]
    : namedChildren(routes.childForFieldName("body") ?? routes)
      .map((e) => e.type === "literal_element" ? namedChildren(e)[0] : e)
      .filter((e): e is Node => e !== undefined)
      .slice(0, MAX_ROUTES);
  const out: ExtractedPort[] = [];
  for (const route of literals) {
    const fields = fieldsOf(route);
    const path = project.evalString(fields.get("Path"));
    if (!path) continue;
    const verb = exactText(project.evalString(fields.get("Method")));
    const known = verb !== undefined && /^[A-Za-z]+$/.test(verb);
    const port = goRoutePort(project, {
      at: route,
      owner: call,
      method: known ? verb.toUpperCase() : undefined,
      path: prefixedRoutePath(prefix, path),
      framework: "go-zero",
    });
    if (port) out.push(port);
  }
  return out;
}

function isRest(importPath: string): boolean {
  return REST.includes(normalizeImport(importPath));
}

function isRestRoute(
  type: Node | null | undefined,
  project: GoProject,
): boolean {
  const resolved = project.typeFromNode(type);
  return resolved !== undefined && isRest(resolved.pkg) &&
    resolved.name === "Route";
}

/** The prefix of a receiver made by `server.Group("/x")` (nested). */
function groupPrefix(
  receiver: Node | null | undefined,
  project: GoProject,
  depth: number,
): Value | undefined {
  if (receiver?.type !== "identifier" || depth > 4) return literal("");
  const declaration = project.declarationOf(receiver);
  const value = declaration?.kind === "value" && declaration.single
    ? declaration.node
    : undefined;
  const callee = value?.type === "call_expression"
    ? value.childForFieldName("function")
    : undefined;
  if (
    !value || callee?.type !== "selector_expression" ||
    callee.childForFieldName("field")?.text !== "Group"
  ) return literal("");
  const outer = groupPrefix(
    callee.childForFieldName("operand"),
    project,
    depth + 1,
  );
  const own = project.evalString(argumentsOf(value)[0]);
  return outer && own ? joinPaths(outer, own) : undefined;
}
