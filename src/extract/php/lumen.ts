// Lumen routes: `$router->get('/users/{id}', ...)` and `addRoute([...],
// ...)` in a `routes/` file (or on `$app->router`), with the prefixes of
// `$router->group(['prefix' => 'api'], ...)`.
import type { Node } from "web-tree-sitter";
import { emitServer, methodList } from "./laravel.ts";
import { type PhpFile, positional, ROUTE_VERBS } from "./project.ts";
import { verbOf } from "./verbs.ts";

/** Whether a file may hold Lumen routes (a `routes/` file, or Lumen's own). */
export function isLumenRoutes(c: PhpFile): boolean {
  return /(^|\/)routes\/[^/]+\.php$/.test(c.file.path) ||
    c.file.text.includes("Laravel\\Lumen");
}

/** `$router` or `$app->router`: Lumen's router. */
function isRouter(object: Node | null): boolean {
  if (object?.type === "variable_name") return object.text === "$router";
  return object?.type === "member_access_expression" &&
    object.childForFieldName("name")?.text === "router" &&
    object.childForFieldName("object")?.text === "$app";
}

/**
 * A route registered on Lumen's router; `false` when the call is not one
 * (for the other PHP routers to try).
 */
export function lumenCall(c: PhpFile, call: Node): boolean {
  if (!isRouter(call.childForFieldName("object"))) return false;
  const name = call.childForFieldName("name")?.text ?? "";
  const args = positional(call);
  const verb = verbOf(ROUTE_VERBS, name);
  if (verb && args.length >= 2) {
    emitServer(c, call, [verb], [c.evaluate(args[0])], "lumen", true);
  } else if (name === "addRoute" && args.length >= 3) {
    const verbs = methodList(c, args[0]);
    emitServer(c, call, verbs, [c.evaluate(args[1])], "lumen", true);
  }
  return true;
}
