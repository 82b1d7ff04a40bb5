// CakePHP routes: `$builder->get('/about', [...])`, `connect()` (any
// method unless `->setMethods([...])` or a `_method` default narrows it),
// `resources('Articles')`, and the paths of enclosing `scope()`,
// `prefix()` and `plugin()` closures (`Router::scope` too).
import type { Node } from "web-tree-sitter";
import { exactText, literal, type Value } from "../_value/mod.ts";
import { PHP_FUNCTIONS } from "./flow.ts";
import { chainedMethods, emitServer, methodList } from "./laravel.ts";
import { VERB_METHODS, verbOf } from "./verbs.ts";
import {
  arrayEntries,
  arrayValue,
  joinedWords,
  type PhpFile,
  positional,
} from "./project.ts";

/** `resources()`: the action `only` names, the method, the path suffix. */
const RESOURCE: ReadonlyArray<[string, string, string]> = [
  ["index", "GET", ""],
  ["view", "GET", "/{id}"],
  ["create", "POST", ""],
  ["update", "PUT", "/{id}"],
  ["update", "PATCH", "/{id}"],
  ["delete", "DELETE", "/{id}"],
];

/** Whether a file uses CakePHP's routing. */
export function isCakeRoutes(c: PhpFile): boolean {
  return c.file.text.includes("Cake\\Routing");
}

/** CakePHP's dasherized URL form of a name: `BlogPosts` -> `blog-posts`. */
function dasherize(name: string): string {
  return joinedWords(name, "-").replace(/_/g, "-");
}

/** `:id` parameters and a trailing `*` / `**` (passed arguments) as `{}`. */
function placeholders(path: string): string {
  return path.replace(/(^|\/):[A-Za-z_]\w*/g, "$1{}")
    .replace(/\/\*\*?$/, "/{}");
}

/**
 * A route registered on a route builder in a CakePHP routes file; `false`
 * when the call is not one (for the other PHP routers to try).
 */
export function cakeCall(c: PhpFile, call: Node): boolean {
  if (call.childForFieldName("object")?.type !== "variable_name") return false;
  const name = call.childForFieldName("name")?.text ?? "";
  const args = positional(call);
  const verb = verbOf(VERB_METHODS, name);
  if (verb && args.length >= 2) {
    emit(c, call, [verb], [c.evaluate(args[0])]);
  } else if (name === "connect" && args[0]) {
    emit(c, call, connectMethods(c, call, args[1]), [c.evaluate(args[0])]);
  } else if (name === "resources" && args[0]) {
    const options = args[1]?.type === "array_creation_expression"
      ? args[1]
      : undefined;
    const only = arrayEntries(arrayValue(c, options, "only"))
      .map((e) => exactText(c.evaluate(e.value)) ?? "");
    const given = arrayValue(c, options, "path");
    const text = exactText(c.evaluate(args[0]));
    const path = given
      ? c.evaluate(given)
      : text !== undefined
      ? literal(dasherize(text))
      : c.evaluate(args[0]);
    for (const [action, method, suffix] of RESOURCE) {
      if (only.length && !only.includes(action)) continue;
      emit(c, call, [method], [path, literal(suffix)]);
    }
  } else {
    return false;
  }
  return true;
}

/** `connect()`'s methods: `->setMethods([...])`, a `_method` default, or any. */
function connectMethods(
  c: PhpFile,
  call: Node,
  defaults: Node | undefined,
): string[] {
  const chained = chainedMethods(c, call, "setMethods");
  if (chained) return chained;
  const method = arrayValue(c, defaults, "_method");
  return method ? methodList(c, method) : ["ANY"];
}

function emit(
  c: PhpFile,
  call: Node,
  verbs: readonly string[],
  parts: readonly Value[],
): void {
  emitServer(
    c,
    call,
    verbs,
    [...scopes(c, call), ...parts],
    "cakephp",
    false,
    placeholders,
  );
}

/**
 * The paths of the `scope('/admin', fn)`, `prefix('Admin', fn)` (its
 * dasherized name or `['path' => ...]`) and `plugin('Blog', fn)` closures
 * around a call, outermost first.
 */
function scopes(c: PhpFile, call: Node): Value[] {
  const out: Value[] = [];
  for (let n: Node | null = call.parent; n; n = n.parent) {
    if (PHP_FUNCTIONS.has(n.type)) break;
    if (n.type !== "anonymous_function" && n.type !== "arrow_function") {
      continue;
    }
    const outer = n.parent?.type === "argument"
      ? n.parent.parent?.parent
      : null;
    if (
      outer?.type !== "member_call_expression" &&
      outer?.type !== "scoped_call_expression"
    ) continue;
    const kind = outer.childForFieldName("name")?.text ?? "";
    const [first, second] = positional(outer);
    if (!first || !["scope", "prefix", "plugin"].includes(kind)) continue;
    const given = arrayValue(c, second, "path");
    const text = exactText(c.evaluate(first));
    out.push(
      given
        ? c.evaluate(given)
        : kind !== "scope" && text !== undefined
        ? literal(dasherize(text))
        : c.evaluate(first),
    );
  }
  return out.reverse();
}
