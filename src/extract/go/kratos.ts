// Kratos HTTP bindings from generated code: `RegisterXHTTPServer(s, srv)`,
// as protoc-gen-go-http writes it in `x_http.pb.go`, routes on
// `r := s.Route("/")` (`r.GET("/v1/todos/{id}", _X_GetTodo0_HTTP_Handler(srv))`,
// `r.Handle("GET", ...)`). The generated function is the code that serves,
// so its routes count when it is in the scan root, also when no `.proto`
// declares the service.
import { findAll, namedChildren, type Node } from "../_syntax/compact_tree.ts";
import { exactText } from "../_value/mod.ts";
import type { GoProject } from "./project.ts";
import { argumentsOf, UPPER_VERBS } from "./routers.ts";

const CALLS: ReadonlySet<string> = new Set(["call_expression"]);
const DECLARATIONS: ReadonlySet<string> = new Set(["short_var_declaration"]);
const MAX_ROUTES = 1000;

/** One route of a generated Kratos registration. */
export interface KratosRoute {
  method: string;
  path: string;
  /** `pkg.Service/Method`, from the handler's `SetOperation`. */
  rpc?: string;
}

/** The routes a generated `Register<name>HTTPServer` function serves. */
export function kratosGeneratedRoutes(
  fn: Node,
  project: GoProject,
): KratosRoute[] {
  const dir = project.fileOf(fn)?.dir ?? "";
  const params = namedChildren(fn.childForFieldName("parameters") ?? fn)
    .filter((p) => p.type === "parameter_declaration");
  const server = params[0]?.childrenForFieldName("name")[0]?.text;
  const body = fn.childForFieldName("body");
  if (!server || !body) return [];
  // r := s.Route("/prefix")
  const prefixes = new Map<string, string>();
  for (const declaration of findAll(body, DECLARATIONS)) {
    const left = declaration.childForFieldName("left");
    const right = declaration.childForFieldName("right");
    const call = right ? namedChildren(right)[0] : undefined;
    const callee = call?.type === "call_expression"
      ? call.childForFieldName("function")
      : undefined;
    if (
      callee?.type !== "selector_expression" ||
      callee.childForFieldName("operand")?.text !== server ||
      callee.childForFieldName("field")?.text !== "Route" || !call
    ) continue;
    const prefix = exactText(project.evalString(argumentsOf(call)[0]));
    const name = left ? namedChildren(left)[0]?.text : undefined;
    if (prefix !== undefined && name) prefixes.set(name, prefix);
  }
  const out: KratosRoute[] = [];
  for (const call of findAll(body, CALLS)) {
    if (out.length >= MAX_ROUTES) break;
    const callee = call.childForFieldName("function");
    if (callee?.type !== "selector_expression") continue;
    const prefix = prefixes.get(
      callee.childForFieldName("operand")?.text ?? "",
    );
    if (prefix === undefined) continue;
    const field = callee.childForFieldName("field")?.text ?? "";
    const args = argumentsOf(call);
    const handle = field === "Handle";
    const method = handle ? exactText(project.evalString(args[0])) : field;
    const path = exactText(project.evalString(args[handle ? 1 : 0]));
    if (!method || !UPPER_VERBS.has(method) || path === undefined) continue;
    const rpc = operationOf(args[handle ? 2 : 1], project, dir);
    out.push({
      method,
      path: (prefix.replace(/\/$/, "") + path).replace(/\{[^{}]*\}/g, "{}") ||
        "/",
      ...(rpc ? { rpc } : {}),
    });
  }
  return out;
}

/** `_X_M0_HTTP_Handler(srv)`: the operation its `SetOperation` names. */
function operationOf(
  handler: Node | undefined,
  project: GoProject,
  dir: string,
): string | undefined {
  const callee = handler?.type === "call_expression"
    ? handler.childForFieldName("function")
    : undefined;
  if (callee?.type !== "identifier") return undefined;
  const fn = project.functionsIn(dir).get(callee.text);
  for (const call of fn ? findAll(fn, CALLS) : []) {
    const name = call.childForFieldName("function");
    if (name?.childForFieldName("field")?.text !== "SetOperation") continue;
    const operation = exactText(project.evalString(argumentsOf(call)[1]));
    return operation?.replace(/^\//, "");
  }
  return undefined;
}
