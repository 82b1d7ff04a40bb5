// ThinkPHP routes: `Route::get/post/.../any`, `Route::rule(path, route,
// 'GET|POST')`, the seven `Route::resource` routes, `Route::group('admin',
// ...)` prefixes, an application's `app/<name>/route/` prefix; and in
// controllers, `#[Route('x', 'GET')]` / `@Route("x", "GET|POST")` routes
// and the `controller/action` URLs ThinkPHP serves without a route.
import type { Node } from "web-tree-sitter";
import { HTTP_METHODS, routePorts } from "../_port/http.ts";
import { ownerOf } from "../_syntax/owner.ts";
import { namedChildren } from "../_syntax/tree.ts";
import { exactText, literal, type Value } from "../_value/mod.ts";
import { emitServer } from "./laravel.ts";
import {
  attributes,
  joinedWords,
  lastName,
  type PhpFile,
  positional,
  ROUTE_VERBS,
} from "./project.ts";
import { verbOf } from "./verbs.ts";

/** `Route::resource`: method, path suffix after the resource's. */
const RESOURCE: ReadonlyArray<[string, string]> = [
  ["GET", ""],
  ["GET", "/create"],
  ["POST", ""],
  ["GET", "/{id}"],
  ["GET", "/{id}/edit"],
  ["PUT", "/{id}"],
  ["DELETE", "/{id}"],
];

/** Confidence of a `controller/action` URL no route declares. */
const AUTO_ROUTE_CONFIDENCE = 0.7;

/** Whether a file registers routes on ThinkPHP's `Route` facade. */
export function isThinkRoutes(c: PhpFile): boolean {
  return /\bthink\\(facade\\)?Route\b/.test(c.file.text);
}

/** Whether a file may hold a ThinkPHP controller (it uses `think\`). */
export function isThinkController(c: PhpFile): boolean {
  return /\bthink\\|\bBaseController\b/.test(c.file.text);
}

/** `:name`, `<name>` and optional `[:name]` parameters as `{}`. */
function placeholders(path: string): string {
  return path.replace(/\[\/?:\w+\]/g, "/{}").replace(/:\w+|<\w+\??>/g, "{}");
}

/** `'GET|POST'`, `'get'` or `'*'` (any): the methods a rule serves. */
function methods(text: string | undefined): string[] {
  if (text === undefined || text.trim() === "" || text.trim() === "*") {
    return ["ANY"];
  }
  return text.split(/[|,]/).map((m) => m.trim().toUpperCase())
    .filter((m) => HTTP_METHODS.has(m));
}

/**
 * The path rewrite of a routes file: placeholders, and an application's
 * `app/<name>/route/` routes under `/<name>` (outside its groups).
 */
function rewriter(file: string): (path: string) => string {
  const app = /(?:^|\/)app\/(\w+)\/route\/[^/]+\.php$/.exec(file)?.[1];
  return (path) =>
    placeholders(app ? `/${app}/${path.replace(/^\//, "")}` : path);
}

/**
 * A `Route::` call in a ThinkPHP routes file; `false` when it is not a
 * route registration (for the other PHP routers to try).
 */
export function thinkCall(c: PhpFile, call: Node): boolean {
  if (lastName(call.childForFieldName("scope")?.text ?? "") !== "Route") {
    return false;
  }
  const name = call.childForFieldName("name")?.text ?? "";
  const args = positional(call);
  const path = args[0];
  if (!path || args.length < 2) return name === "group";
  const emit = (verbs: readonly string[], suffix = "", base?: Value) =>
    emitServer(
      c,
      call,
      verbs,
      [base ?? c.evaluate(path), literal(suffix)],
      "thinkphp",
      false,
      rewriter(c.file.path),
    );
  const verb = verbOf(ROUTE_VERBS, name);
  if (verb) emit([verb]);
  else if (name === "rule") {
    emit(methods(args[2] ? exactText(c.evaluate(args[2])) : "*"));
  } else if (name === "resource") {
    const text = exactText(c.evaluate(path));
    // `blog.comment`: /blog/{}/comment
    const nested = text?.includes(".")
      ? text.split(".").join("/{id}/")
      : undefined;
    for (const [method, suffix] of RESOURCE) {
      emit(
        [method],
        suffix,
        nested === undefined ? undefined : literal(nested),
      );
    }
  } else return name === "group";
  return true;
}

/** Whether a class is a ThinkPHP controller (`app\...\controller`). */
function controllerPath(c: PhpFile): string[] | undefined {
  const ns = /^\s*namespace\s+app\\([\w\\]*?)\s*;/m.exec(c.file.text)?.[1];
  if (ns === undefined) return undefined;
  const parts = ns.split("\\");
  const at = parts.indexOf("controller");
  if (at === -1) return undefined;
  return parts.slice(at + 1);
}

/** `BlogPost` -> `blog_post`: ThinkPHP's URL form of a controller. */
function snake(name: string): string {
  return joinedWords(name, "_");
}

/** The `#[Route('x', 'GET')]` and `@Route("x", "GET|POST")` of a method. */
function annotated(
  c: PhpFile,
  method: Node,
): Array<{ path: string; verbs: string[] }> {
  const out: Array<{ path: string; verbs: string[] }> = [];
  for (const attribute of attributes(method)) {
    if (attribute.name !== "Route") continue;
    const [path, verb] = positional(attribute.node).map((a) =>
      exactText(c.evaluate(a))
    );
    if (path !== undefined) out.push({ path, verbs: methods(verb) });
  }
  const doc = method.previousNamedSibling;
  if (doc?.type === "comment") {
    for (
      const m of doc.text.matchAll(/@Route\(\s*"([^"]*)"(?:\s*,\s*"([^"]*)")?/g)
    ) {
      out.push({ path: m[1]!, verbs: methods(m[2]) });
    }
  }
  return out;
}

/**
 * A ThinkPHP controller's routes: its annotated methods and, for each
 * public action, the `controller/action` URL (and `controller` for
 * `index`) ThinkPHP dispatches when no route is forced.
 */
export function thinkController(c: PhpFile, cls: Node): void {
  const dirs = controllerPath(c);
  const className = cls.childForFieldName("name")?.text;
  if (!dirs || !className) return;
  const base = snake(className.replace(/Controller$/, ""));
  const controller = [...dirs.map(snake), base].join(".");
  const app = /(?:^|\/)app\/(\w+)\/controller\//.exec(c.file.path)?.[1];
  const prefix = app ? `/${app}` : "";
  const body = cls.childForFieldName("body");
  for (const method of body ? namedChildren(body) : []) {
    if (method.type !== "method_declaration") continue;
    const action = method.childForFieldName("name")?.text ?? "";
    const modifiers = namedChildren(method).filter((n) =>
      n.type === "visibility_modifier" || n.type === "static_modifier"
    ).map((n) => n.text);
    if (!modifiers.includes("public") || modifiers.includes("static")) continue;
    if (action.startsWith("_")) continue;
    const emit = (verbs: string[], path: string, confidence?: number) =>
      c.ports.push(...routePorts({
        methods: verbs,
        path: literal(placeholders(path)),
        prefixed: false,
        node: method,
        owner: ownerOf(method, c.file.path, "php"),
        filePath: c.file.path,
        framework: "thinkphp",
        ...(confidence ? { confidence } : {}),
      }));
    for (const route of annotated(c, method)) {
      emit(route.verbs, `${prefix}/${route.path.replace(/^\//, "")}`);
    }
    const paths = [`${prefix}/${controller}/${action.toLowerCase()}`];
    if (action === "index") paths.push(`${prefix}/${controller}`);
    for (const path of paths) emit(["ANY"], path, AUTO_ROUTE_CONFIDENCE);
  }
}
