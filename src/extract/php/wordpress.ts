// WordPress routes: `register_rest_route('ns/v1', '/books/(?P<id>\d+)',
// [...])` under `/wp-json` (methods from `'methods'`, the
// `WP_REST_Server::READABLE`... constants, one route or a list of them),
// and the `admin-ajax.php` / `admin-post.php` entry points a plugin's
// `wp_ajax_*` / `admin_post_*` actions answer on.
import type { Node } from "web-tree-sitter";
import { HTTP_METHODS, routePorts } from "../_port/http.ts";
import { ownerOf } from "../_syntax/owner.ts";
import { exactText, literal } from "../_value/mod.ts";
import { arrayEntries, arrayValue, positional, textValue } from "./project.ts";
import type { PhpFile } from "./project.ts";

/** `WP_REST_Server`'s method constants. */
const SERVER_METHODS: Readonly<Record<string, string[]>> = {
  READABLE: ["GET"],
  CREATABLE: ["POST"],
  EDITABLE: ["POST", "PUT", "PATCH"],
  DELETABLE: ["DELETE"],
  ALLMETHODS: ["GET", "POST", "PUT", "PATCH", "DELETE"],
};

/** How many `(?:...)?` optional groups of one route are expanded, at most. */
const MAX_OPTIONAL = 4;

/** Whether a file may register WordPress routes or actions. */
export function isWordPress(c: PhpFile): boolean {
  return /\b(register_rest_route|add_action)\s*\(/.test(c.file.text);
}

/** The end of the group opening at `start` (`(`), or -1. */
function groupEnd(text: string, start: number): number {
  let depth = 0;
  for (let i = start; i < text.length; i++) {
    if (text[i] === "\\") i++;
    else if (text[i] === "(") depth++;
    else if (text[i] === ")" && --depth === 0) return i;
  }
  return -1;
}

/**
 * The paths a route regex matches: named groups `(?P<id>...)` as `{id}`,
 * each optional `(?:...)?` group left out or kept.
 */
export function regexPaths(route: string): string[] {
  let text = route;
  for (let at = text.indexOf("(?P<"); at !== -1; at = text.indexOf("(?P<")) {
    const end = groupEnd(text, at);
    const name = /^\(\?P<(\w+)>/.exec(text.slice(at))?.[1];
    if (end === -1 || !name) return [];
    text = `${text.slice(0, at)}{${name}}${text.slice(end + 1)}`;
  }
  let paths = [text];
  for (let i = 0; i < MAX_OPTIONAL; i++) {
    const next: string[] = [];
    for (const p of paths) {
      const at = p.indexOf("(?:");
      const end = at === -1 ? -1 : groupEnd(p, at);
      if (end === -1) {
        next.push(p);
        continue;
      }
      const inner = p.slice(at + 3, end);
      const optional = p[end + 1] === "?";
      const rest = p.slice(end + (optional ? 2 : 1));
      if (optional) next.push(p.slice(0, at) + rest);
      next.push(p.slice(0, at) + inner + rest);
    }
    paths = next;
  }
  // anything regex left over (alternations, classes) is no literal path
  return paths.filter((p) => !/[()[\]|*+?^$\\]/.test(p));
}

function methodsOf(c: PhpFile, args: Node | undefined): string[] {
  const value = arrayValue(c, args, "methods");
  if (!value) return ["GET"];
  const constant = /WP_REST_Server::(\w+)$/.exec(value.text)?.[1];
  if (constant) return SERVER_METHODS[constant] ?? [];
  const values = value.type === "array_creation_expression"
    ? arrayEntries(value).map((e) => textValue(c, e.value))
    : (textValue(c, value) ?? "").split(",");
  return values.map((v) => v?.trim().toUpperCase() ?? "")
    .filter((v) => HTTP_METHODS.has(v));
}

function emit(c: PhpFile, call: Node, methods: string[], path: string): void {
  c.ports.push(...routePorts({
    methods,
    path: literal(path),
    prefixed: false,
    node: call,
    owner: ownerOf(call, c.file.path, "php"),
    filePath: c.file.path,
    framework: "wordpress",
  }));
}

/** `register_rest_route(...)` and `add_action('wp_ajax_...', ...)`. */
export function wordPressCall(c: PhpFile, call: Node): void {
  const fn = call.childForFieldName("function")?.text ?? "";
  const [first, second, third] = positional(call);
  if (fn === "register_rest_route" && first && second) {
    const ns = exactText(c.evaluate(first));
    const route = exactText(c.evaluate(second));
    if (ns === undefined || route === undefined) return;
    // one endpoint's arguments, or a list of them
    const endpoints = arrayEntries(third).some((e) =>
        !e.key && e.value.type === "array_creation_expression"
      )
      ? arrayEntries(third).map((e) =>
        e.value
      )
      : [third];
    const methods = [...new Set(endpoints.flatMap((e) => methodsOf(c, e)))];
    const base = `/wp-json/${ns.replace(/^\/|\/$/g, "")}`;
    for (const path of regexPaths(route)) {
      emit(c, call, methods, `${base}/${path.replace(/^\//, "")}`);
    }
  } else if (fn === "add_action" && first) {
    const hook = exactText(c.evaluate(first)) ?? "";
    const entry = /^wp_ajax_/.test(hook)
      ? "admin-ajax.php"
      : /^admin_post_/.test(hook)
      ? "admin-post.php"
      : undefined;
    if (entry) emit(c, call, ["GET", "POST"], `/wp-admin/${entry}`);
  }
}
