// huma operations: `huma.Get(api, "/users/{id}", h)` and friends, and
// `huma.Register(api, huma.Operation{Method: http.MethodGet, Path: "/x"}, h)`.
import type { Node } from "../_syntax/compact_tree.ts";
import { exactText, routePath } from "../_value/mod.ts";
import { goRoutePort } from "./route_port.ts";
import type { ExtractedPort } from "../types.ts";
import type { GoProject } from "./project.ts";
import { normalizeImport } from "./declarations.ts";
import { fieldsOf } from "./composite.ts";
import { argumentsOf, CHI_VERBS } from "./routers.ts";

const HUMA = "github.com/danielgtaylor/huma";

/** The operation a huma registration call declares. */
export function humaRoutes(call: Node, project: GoProject): ExtractedPort[] {
  const qualified = project.qualified(call.childForFieldName("function"));
  if (!qualified || normalizeImport(qualified[0]) !== HUMA) return [];
  const args = argumentsOf(call);
  let method: string | undefined;
  let pathNode: Node | undefined;
  if (CHI_VERBS.has(qualified[1])) {
    method = qualified[1].toUpperCase();
    pathNode = args[1];
  } else if (qualified[1] === "Register") {
    const operation = args[1];
    if (operation?.type !== "composite_literal") return [];
    const type = project.typeFromNode(operation.childForFieldName("type"));
    if (
      !type || normalizeImport(type.pkg) !== HUMA || type.name !== "Operation"
    ) return [];
    const fields = fieldsOf(operation);
    const verb = exactText(project.evalString(fields.get("Method")));
    method = verb && /^[A-Za-z]+$/.test(verb) ? verb.toUpperCase() : undefined;
    pathNode = fields.get("Path");
  } else return [];
  const path = project.evalString(pathNode);
  if (!path) return [];
  const result = routePath(path);
  const port = goRoutePort(project, {
    at: call,
    method,
    path: result,
    framework: "huma",
  });
  return port ? [port] : [];
}
