// fasthttp without a router: a `fasthttp.RequestHandler` dispatching on
// the request path, `switch string(ctx.Path()) { case "/users": ... }`
// (also `ctx.URI().Path()`, `ctx.RequestURI()`). Each case serves its
// paths; a case that tests the method (`ctx.IsGet()`, `ctx.IsPost()`, ...)
// serves those methods, any other every method.
import { findAll, namedChildren, type Node } from "../_syntax/compact_tree.ts";
import { exactText, routePath } from "../_value/mod.ts";
import type { ExtractedPort } from "../types.ts";
import type { GoProject } from "./project.ts";
import { normalizeImport } from "./declarations.ts";
import { goRoutePort } from "./route_port.ts";

const FASTHTTP = "github.com/valyala/fasthttp";
const SWITCHES: ReadonlySet<string> = new Set(["expression_switch_statement"]);
const CALLS: ReadonlySet<string> = new Set(["call_expression"]);
const PATH_METHODS: ReadonlySet<string> = new Set(["Path", "RequestURI"]);
const METHOD_TESTS: ReadonlyMap<string, string> = new Map(
  [
    "Get",
    "Post",
    "Put",
    "Patch",
    "Delete",
    "Head",
    "Options",
    "Connect",
    "Trace",
  ]
    .map((m) => [`Is${m}`, m.toUpperCase()]),
);
const MAX_ROUTES = 1000;

/** The routes of the path switches of the fasthttp handlers of a project. */
export function fasthttpSwitchRoutes(project: GoProject): ExtractedPort[] {
  const out: ExtractedPort[] = [];
  for (const file of project.files) {
    if (
      ![...file.imports.values()].some((i) => normalizeImport(i) === FASTHTTP)
    ) {
      continue;
    }
    for (const statement of findAll(file.tree.rootNode, SWITCHES)) {
      const ctx = requestOf(statement.childForFieldName("value"), project);
      if (!ctx) continue;
      // the cases of this switch: its children (not those of nested ones)
      for (const clause of namedChildren(statement)) {
        if (clause.type !== "expression_case") continue;
        const methods = methodsTested(clause, ctx, project);
        const seen = new Set<string>();
        for (
          const value of namedChildren(
            clause.childForFieldName("value") ?? clause,
          )
        ) {
          const path = project.evalString(value);
          if (!exactText(path)?.startsWith("/") || !path) continue;
          for (const method of methods) {
            if (out.length >= MAX_ROUTES) return out;
            const port = goRoutePort(project, {
              at: value,
              method,
              path: routePath(path, false),
              framework: "fasthttp",
            });
            if (!port || seen.has(port.ref.key)) continue;
            seen.add(port.ref.key);
            out.push(port);
          }
        }
      }
    }
  }
  return out;
}

/**
 * The request variable of `string(ctx.Path())`, `ctx.Path()` or
 * `string(ctx.URI().Path())` when `ctx` is a `*fasthttp.RequestCtx`.
 */
function requestOf(
  value: Node | null | undefined,
  project: GoProject,
): string | undefined {
  let expr = value;
  if (
    expr?.type === "call_expression" &&
    expr.childForFieldName("function")?.text === "string"
  ) {
    expr = namedChildren(expr.childForFieldName("arguments") ?? expr)[0];
  }
  const callee = expr?.type === "call_expression"
    ? expr.childForFieldName("function")
    : undefined;
  if (
    callee?.type !== "selector_expression" ||
    !PATH_METHODS.has(callee.childForFieldName("field")?.text ?? "")
  ) return undefined;
  let operand = callee.childForFieldName("operand");
  // ctx.URI().Path()
  const inner = operand?.type === "call_expression"
    ? operand.childForFieldName("function")
    : undefined;
  if (
    inner?.type === "selector_expression" &&
    inner.childForFieldName("field")?.text === "URI"
  ) operand = inner.childForFieldName("operand");
  if (operand?.type !== "identifier") return undefined;
  const type = project.typeOf(operand);
  return type && normalizeImport(type.pkg) === FASTHTTP &&
      type.name === "RequestCtx"
    ? operand.text
    : undefined;
}

/** The methods a case tests with `ctx.IsGet()` and such, else `ANY`. */
function methodsTested(
  clause: Node,
  ctx: string,
  project: GoProject,
): string[] {
  const methods = new Set<string>();
  for (const call of findAll(clause, CALLS)) {
    const callee = call.childForFieldName("function");
    if (callee?.type !== "selector_expression") continue;
    const method = METHOD_TESTS.get(
      callee.childForFieldName("field")?.text ?? "",
    );
    const operand = callee.childForFieldName("operand");
    if (method && operand?.text === ctx && project.typeOf(operand)) {
      methods.add(method);
    }
  }
  return methods.size ? [...methods] : ["ANY"];
}
