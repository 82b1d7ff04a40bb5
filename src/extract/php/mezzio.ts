// Mezzio (Laminas' middleware framework, formerly Zend Expressive) routes:
// `$app->get('/users/{id:\d+}', ...)`, `any`, and `$app->route(path,
// handler, ['GET', 'PATCH'])` (any method without a list).
import type { Node } from "web-tree-sitter";
import { emitServer, methodList } from "./laravel.ts";
import { VERB_METHODS, verbOf } from "./verbs.ts";
import { type PhpFile, positional } from "./project.ts";

const VERBS: Readonly<Record<string, string>> = {
  ...VERB_METHODS,
  any: "ANY",
};

/** Whether a file uses Mezzio's (or Zend Expressive's) application. */
export function isMezzioApp(c: PhpFile): boolean {
  return /\b(Mezzio|Zend\\Expressive)\\/.test(c.file.text);
}

/**
 * A route registered on `$app` in a Mezzio file; `false` when the call
 * is not one (for the other PHP routers to try).
 */
export function mezzioCall(c: PhpFile, call: Node): boolean {
  const object = call.childForFieldName("object");
  if (object?.type !== "variable_name" || object.text !== "$app") return false;
  const name = call.childForFieldName("name")?.text ?? "";
  const [path, handler, methods] = positional(call);
  if (!path || !handler) return false;
  const verb = verbOf(VERBS, name);
  if (verb) {
    emitServer(c, call, [verb], [c.evaluate(path)], "mezzio", true);
  } else if (name === "route") {
    // `null` or `Route::HTTP_METHOD_ANY`: any method
    const verbs = methods?.type === "array_creation_expression"
      ? methodList(c, methods)
      : ["ANY"];
    emitServer(c, call, verbs, [c.evaluate(path)], "mezzio", true);
  } else return false;
  return true;
}
