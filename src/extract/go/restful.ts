// go-restful routes: `ws.Route(ws.GET("/{id}").To(h)...)` on a
// `*restful.WebService`, under the root path its function gives it with
// `ws.Path("/users")`. Each route is reported at its `Route` call.
import { findAll, type Node } from "../_syntax/compact_tree.ts";
import type { Value } from "../_value/mod.ts";
import { exactText, literal } from "../_value/mod.ts";
import { goRoutePort, prefixedRoutePath } from "./route_port.ts";
import type { ExtractedPort } from "../types.ts";
import type { GoProject } from "./project.ts";
import { normalizeImport } from "./declarations.ts";
import { receiverOf } from "./callees.ts";
import { argumentsOf, UPPER_VERBS } from "./routers.ts";

const RESTFUL = ["github.com/emicklei/go-restful"];
const CALLS: ReadonlySet<string> = new Set(["call_expression"]);
const FUNCTIONS: ReadonlySet<string> = new Set([
  "function_declaration",
  "method_declaration",
  "func_literal",
]);
const MAX_STEPS = 32;

/** The route a `ws.Route(...)` call of go-restful registers. */
export function goRestfulRoutes(
  call: Node,
  project: GoProject,
): ExtractedPort[] {
  const service = receiverOf(call, "Route");
  if (!service) return [];
  const type = project.typeOf(service);
  if (
    !type || !RESTFUL.includes(normalizeImport(type.pkg)) ||
    type.name !== "WebService"
  ) return [];
  const builder = builderOf(argumentsOf(call)[0], project);
  if (!builder) return [];
  const root = rootPath(service, call, project);
  if (!root) return [];
  const port = goRoutePort(project, {
    at: call,
    method: builder.method,
    path: prefixedRoutePath(root, builder.path),
    framework: "go-restful",
  });
  return port ? [port] : [];
}

/** `ws.GET("/x")...`, `ws.Method("GET").Path("/x")...`: method and path. */
function builderOf(
  expr: Node | undefined,
  project: GoProject,
): { method: string | undefined; path: Value } | undefined {
  let current = expr;
  let method: string | undefined;
  let path: Value | undefined;
  for (let steps = 0; steps < MAX_STEPS; steps++) {
    if (current?.type !== "call_expression") return undefined;
    const callee = current.childForFieldName("function");
    if (callee?.type !== "selector_expression") return undefined;
    const field = callee.childForFieldName("field")?.text ?? "";
    const args = argumentsOf(current);
    if (UPPER_VERBS.has(field)) {
      const value = project.evalString(args[0]);
      return value
        ? { method: method ?? field, path: path ?? value }
        : undefined;
    }
    if (field === "Method") {
      const verb = exactText(project.evalString(args[0]));
      method ??= verb && /^[A-Za-z]+$/.test(verb)
        ? verb.toUpperCase()
        : undefined;
    } else if (field === "Path") {
      path ??= project.evalString(args[0]);
    }
    const operand = callee.childForFieldName("operand");
    if (operand?.type !== "call_expression") {
      // ws.Method("GET").Path("/x"): the chain starts on the service
      return path ? { method, path } : undefined;
    }
    current = operand;
  }
  return undefined;
}

/** The root path the enclosing function gives the service: `ws.Path(p)`. */
function rootPath(
  service: Node,
  at: Node,
  project: GoProject,
): Value | undefined {
  let scope = at.parent;
  while (scope && !FUNCTIONS.has(scope.type)) scope = scope.parent;
  if (!scope) return literal("");
  for (const call of findAll(scope, CALLS)) {
    const callee = call.childForFieldName("function");
    if (
      callee?.type === "selector_expression" &&
      callee.childForFieldName("field")?.text === "Path" &&
      callee.childForFieldName("operand")?.text === service.text
    ) return project.evalString(argumentsOf(call)[0]);
  }
  return literal("");
}
