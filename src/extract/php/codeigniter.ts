// CodeIgniter 4 routes: `$routes->get('users/(:num)', ...)` in a
// `Config/Routes.php`, `match`, `add`, `resource`, `presenter`, and the
// prefixes of `$routes->group('admin', ...)`.
import type { Node } from "web-tree-sitter";
import { literal } from "../_value/mod.ts";
import { resourceActions } from "../_port/http.ts";
import { emitServer, methodList } from "./laravel.ts";
import { VERB_METHODS, verbOf } from "./verbs.ts";
import { arrayEntries, arrayValue, positional, textValue } from "./project.ts";
import type { PhpFile } from "./project.ts";

/** `$routes-><verb>(path, handler)`: the method each registers. */
const VERBS: Readonly<Record<string, string>> = {
  ...VERB_METHODS,
  add: "ANY",
};

/** `$routes->resource('photos')`: action, method, path suffix. */
const RESOURCE = resourceActions({
  names: { destroy: "delete" },
  member: "/{id}",
});

/** `$routes->presenter('photos')`: action, method, path suffix. */
const PRESENTER: ReadonlyArray<[string, string, string]> = [
  ["index", "GET", ""],
  ["show", "GET", "/show/{id}"],
  ["show", "GET", "/{id}"],
  ["new", "GET", "/new"],
  ["create", "POST", "/create"],
  ["create", "POST", ""],
  ["edit", "GET", "/edit/{id}"],
  ["update", "POST", "/update/{id}"],
  ["remove", "GET", "/remove/{id}"],
  ["delete", "POST", "/delete/{id}"],
];

/** CodeIgniter's `(:num)`, `(:segment)`... placeholders as `{}` parameters. */
function placeholders(path: string): string {
  return path.replace(/\(:[a-z]+\)/g, "{}");
}

/** Whether a file holds CodeIgniter routes (`Config/Routes.php`). */
export function isCodeIgniterRoutes(c: PhpFile): boolean {
  return /(^|\/)Config\/Routes\.php$/.test(c.file.path) ||
    c.file.text.includes("CodeIgniter\\Router\\RouteCollection");
}

/**
 * A route registered on `$routes` in a CodeIgniter routes file; `false`
 * when the call is not one (for the other PHP routers to try).
 */
export function codeIgniterCall(c: PhpFile, call: Node): boolean {
  const object = call.childForFieldName("object");
  if (object?.type !== "variable_name" || object.text !== "$routes") {
    return false;
  }
  const name = call.childForFieldName("name")?.text ?? "";
  const args = positional(call);
  const verb = verbOf(VERBS, name);
  if (verb && args.length >= 2) {
    emit(c, call, [verb], args[0]!);
  } else if (name === "match" && args.length >= 3) {
    emit(c, call, methodList(c, args[0]), args[1]!);
  } else if ((name === "resource" || name === "presenter") && args[0]) {
    const only = listOption(c, args[1], "only");
    const except = listOption(c, args[1], "except");
    const actions = (name === "resource" ? RESOURCE : PRESENTER).filter((
      [action],
    ) => (!only || only.includes(action)) && !except?.includes(action));
    for (const [, method, suffix] of actions) {
      emit(c, call, [method], args[0], suffix);
    }
  }
  return true;
}

function emit(
  c: PhpFile,
  call: Node,
  verbs: readonly string[],
  path: Node,
  suffix = "",
): void {
  const parts = [c.evaluate(path), ...(suffix ? [literal(suffix)] : [])];
  emitServer(c, call, verbs, parts, "codeigniter", true, placeholders);
}

/** `['only' => ['index', 'show']]` or `['only' => 'index,show']`. */
function listOption(
  c: PhpFile,
  options: Node | undefined,
  key: string,
): string[] | undefined {
  const value = arrayValue(c, options, key);
  if (!value) return undefined;
  const values = value.type === "array_creation_expression"
    ? arrayEntries(value).map((e) => textValue(c, e.value))
    : (textValue(c, value) ?? "").split(",");
  return values.map((v) => v?.trim() ?? "");
}
