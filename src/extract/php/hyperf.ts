// Hyperf routes: `Router::get(...)`, `Router::addRoute([...], ...)` and
// `Router::addGroup('/api', ...)` prefixes in `config/routes.php`; and the
// `#[Controller(prefix: ...)]` / `#[AutoController]` classes with
// `#[GetMapping(path: ...)]`, `#[RequestMapping(path, methods)]` methods.
import type { Node } from "web-tree-sitter";
import { HTTP_METHODS, routePorts } from "../_port/http.ts";
import { ownerOf } from "../_syntax/owner.ts";
import { namedChildren } from "../_syntax/tree.ts";
import { exactText, literal } from "../_value/mod.ts";
import { emitServer, methodList } from "./laravel.ts";
import {
  attributes,
  joinedWords,
  lastName,
  named,
  type PhpFile,
  positional,
  ROUTE_VERBS,
} from "./project.ts";
import { verbOf } from "./verbs.ts";

/** `#[XMapping]`: the methods each maps (`RequestMapping`: its default). */
const MAPPINGS: Readonly<Record<string, string[]>> = {
  GetMapping: ["GET"],
  PostMapping: ["POST"],
  PutMapping: ["PUT"],
  PatchMapping: ["PATCH"],
  DeleteMapping: ["DELETE"],
  RequestMapping: ["GET", "POST"],
};

/** Whether a file uses Hyperf's HTTP server (its router or annotations). */
export function isHyperf(c: PhpFile): boolean {
  return c.file.text.includes("Hyperf\\HttpServer\\");
}

/**
 * A `Router::` call in a Hyperf file; `false` when it is not a route
 * registration (for the other PHP routers to try).
 */
export function hyperfCall(c: PhpFile, call: Node): boolean {
  if (lastName(call.childForFieldName("scope")?.text ?? "") !== "Router") {
    return false;
  }
  const name = call.childForFieldName("name")?.text ?? "";
  const args = positional(call);
  const verb = verbOf(ROUTE_VERBS, name);
  if (verb && verb !== "ANY" && args.length >= 2) {
    emitServer(c, call, [verb], [c.evaluate(args[0])], "hyperf");
  } else if (name === "addRoute" && args.length >= 3) {
    emitServer(
      c,
      call,
      methodList(c, args[0]),
      [c.evaluate(args[1])],
      "hyperf",
    );
  } else return name === "addGroup";
  return true;
}

function argument(
  c: PhpFile,
  attribute: Node,
  key: string,
  index: number,
): string | undefined {
  const node = named(attribute, key) ?? positional(attribute)[index];
  return node ? exactText(c.evaluate(node)) : undefined;
}

/** `App\Controller\Admin\UserController` -> `/admin/user` (no prefix given). */
function defaultPrefix(c: PhpFile, cls: string): string {
  const ns = /^\s*namespace\s+([\w\\]+)\s*;/m.exec(c.file.text)?.[1] ?? "";
  const after = `${ns}\\${cls}`.split(/\\Controllers?\\/).slice(1).join("\\");
  return after.replace(/Controller$/, "").split("\\")
    .map((p) => joinedWords(p, "_"))
    .join("/");
}

/** A Hyperf controller class's annotated routes. */
export function hyperfController(c: PhpFile, cls: Node): void {
  const name = cls.childForFieldName("name")?.text ?? "";
  const marker = attributes(cls).find((a) =>
    a.name === "Controller" || a.name === "AutoController"
  );
  if (!marker) return;
  const given = argument(c, marker.node, "prefix", 0);
  let prefix = given || defaultPrefix(c, name);
  if (!prefix.startsWith("/")) prefix = `/${prefix}`;
  const body = cls.childForFieldName("body");
  for (const method of body ? namedChildren(body) : []) {
    if (method.type !== "method_declaration") continue;
    const action = method.childForFieldName("name")?.text ?? "";
    const emit = (methods: readonly string[], path: string) =>
      c.ports.push(...routePorts({
        methods,
        path: literal(path),
        prefixed: path !== "" && path.startsWith(prefix),
        node: method,
        owner: ownerOf(method, c.file.path, "php"),
        filePath: c.file.path,
        framework: "hyperf",
      }));
    if (marker.name === "AutoController") {
      const visibility = namedChildren(method).find((n) =>
        n.type === "visibility_modifier"
      )?.text;
      if (visibility !== "public" || action.startsWith("__")) continue;
      emit(["GET"], `${prefix}/${action}`);
      if (action === "index") emit(["GET"], prefix);
      continue;
    }
    for (const mapping of attributes(method)) {
      const defaults = MAPPINGS[mapping.name];
      if (!defaults) continue;
      const path = argument(c, mapping.node, "path", 0) ?? "";
      const listed = named(mapping.node, "methods") ??
        positional(mapping.node)[1];
      const methods = listed?.type === "array_creation_expression"
        ? methodList(c, listed)
        : (listed ? exactText(c.evaluate(listed)) ?? "" : "").split(",")
          .map((m) => m.trim().toUpperCase()).filter((m) =>
            HTTP_METHODS.has(m)
          );
      // `/x` is absolute; `x` is under the prefix; `` is the prefix
      const full = path === ""
        ? prefix
        : path.startsWith("/")
        ? path
        : `${prefix}/${path}`;
      emit(
        methods.length && mapping.name === "RequestMapping"
          ? methods
          : defaults,
        full,
      );
    }
  }
}
