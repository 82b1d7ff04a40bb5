// Phalcon routes: a Micro app's `$app->get('/x', ...)` / `map()->via()`
// and its collections' `setPrefix`; the MVC router's `add(path, handler,
// methods)` / `addGet` / `->via([...])` and its groups' `setPrefix`; and
// in controllers, `@RoutePrefix` + `@Get('/x')` / `@Route('/x',
// methods={...})` annotations, or (without any) the `controller/action`
// URLs of Phalcon's default routes.
import type { Node } from "web-tree-sitter";
import { HTTP_METHODS, routePorts } from "../_port/http.ts";
import { ownerOf } from "../_syntax/owner.ts";
import { namedChildren, walk } from "../_syntax/tree.ts";
import { literal, type Value } from "../_value/mod.ts";
import { chainedMethods, emitServer, methodList } from "./laravel.ts";
import { VERB_METHODS, verbOf } from "./verbs.ts";
import { joinedWords, type PhpFile, positional } from "./project.ts";

/** Micro apps and collections: `get`..., `map` (any method). */
const MICRO_VERBS: Readonly<Record<string, string>> = {
  ...VERB_METHODS,
  map: "ANY",
};

/** Routers and groups: `add` (any method unless given), `addGet`... */
const ROUTER_VERBS: Readonly<Record<string, string>> = {
  add: "ANY",
  addGet: "GET",
  addPost: "POST",
  addPut: "PUT",
  addPatch: "PATCH",
  addDelete: "DELETE",
  addHead: "HEAD",
  addOptions: "OPTIONS",
};

/** Confidence of a default `controller/action` URL. */
const AUTO_ROUTE_CONFIDENCE = 0.7;

/** Whether a file uses Phalcon. */
export function isPhalcon(c: PhpFile): boolean {
  return c.file.text.includes("Phalcon\\");
}

/** What a receiver variable holds: a Micro app/collection or a router/group. */
function receiverKind(c: PhpFile, object: Node): "micro" | "router" | null {
  if (object.type !== "variable_name") return null;
  const made = /^new\s+\\?(?:[\w\\]*\\)?(\w+)/.exec(
    c.localValue(object)?.text ?? "",
  )?.[1];
  if (made === "Micro" || /Collection$/.test(made ?? "")) return "micro";
  if (made && /^(Router|RouterGroup|Group|Annotations)$/.test(made)) {
    return "router";
  }
  return null;
}

/** Each file's `$x->setPrefix('/p')` arguments, by variable (read once). */
const SET_PREFIXES = new WeakMap<PhpFile, Map<string, Node>>();

/** The `$x->setPrefix('/p')` of a collection or group variable. */
function prefixOf(c: PhpFile, object: Node): Value[] {
  let prefixes = SET_PREFIXES.get(c);
  if (!prefixes) {
    const found = new Map<string, Node>();
    walk(c.rootNode!, (n) => {
      if (
        n.type !== "member_call_expression" ||
        n.childForFieldName("name")?.text !== "setPrefix"
      ) return;
      const name = n.childForFieldName("object")?.text ?? "";
      const first = positional(n)[0];
      if (first && !found.has(name)) found.set(name, first);
    });
    SET_PREFIXES.set(c, prefixes = found);
  }
  const found = prefixes.get(object.text);
  return found ? [c.evaluate(found)] : [];
}

/**
 * A route on a Phalcon app, collection, router or group; `false` when the
 * call is not one (for the other PHP routers to try).
 */
export function phalconCall(c: PhpFile, call: Node): boolean {
  const object = call.childForFieldName("object");
  const name = call.childForFieldName("name")?.text ?? "";
  const [path, handler, methods] = positional(call);
  // the cheap tests first: finding the receiver's value walks its scope
  const named = verbOf(MICRO_VERBS, name) ?? verbOf(ROUTER_VERBS, name);
  if (!object || !named || !path || !handler) return false;
  const kind = receiverKind(c, object);
  if (!kind) return false;
  const verb = verbOf(kind === "micro" ? MICRO_VERBS : ROUTER_VERBS, name);
  if (!verb) return false;
  const given = kind === "router" && name === "add" && methods
    ? methodList(c, methods)
    : undefined;
  emitServer(
    c,
    call,
    chainedMethods(c, call, "via") ?? given ?? [verb],
    [...prefixOf(c, object), c.evaluate(path)],
    "phalcon",
    true,
  );
  return true;
}

/** `@Get('/x')`, `@Route('/x', methods={'POST', 'PUT'})` in a docblock. */
function annotations(doc: string): Array<{ path: string; verbs: string[] }> {
  const out: Array<{ path: string; verbs: string[] }> = [];
  const pattern =
    /@(Get|Post|Put|Patch|Delete|Options|Head|Route)\(\s*['"]([^'"]*)['"]([^)]*)\)/g;
  for (const m of doc.matchAll(pattern)) {
    const listed = /methods\s*=\s*\{([^}]*)\}|methods\s*=\s*['"](\w+)['"]/
      .exec(m[3]!);
    const verbs = m[1] === "Route"
      ? (listed?.[1] ?? listed?.[2] ?? "").split(",")
        .map((v) => v.trim().replace(/['"]/g, "").toUpperCase())
        .filter((v) => HTTP_METHODS.has(v))
      : [m[1]!.toUpperCase()];
    out.push({ path: m[2]!, verbs: verbs.length ? verbs : ["ANY"] });
  }
  return out;
}

function docOf(node: Node): string {
  const doc = node.previousNamedSibling;
  return doc?.type === "comment" ? doc.text : "";
}

/** A Phalcon MVC controller: its annotated routes or default URLs. */
export function phalconController(c: PhpFile, cls: Node): void {
  const name = cls.childForFieldName("name")?.text ?? "";
  if (!/\w+Controller$/.test(name)) return;
  const prefix = /@RoutePrefix\(\s*['"]([^'"]*)['"]/.exec(docOf(cls))?.[1];
  const body = cls.childForFieldName("body");
  const methods = (body ? namedChildren(body) : []).filter((m) =>
    m.type === "method_declaration" &&
    /\w+Action$/.test(m.childForFieldName("name")?.text ?? "")
  );
  const routes = methods.map((m) => annotations(docOf(m)));
  const annotated = prefix !== undefined || routes.some((r) => r.length);
  const controller = joinedWords(name.replace(/Controller$/, ""), "_");
  methods.forEach((method, i) => {
    const emit = (verbs: string[], path: string, confidence?: number) =>
      c.ports.push(...routePorts({
        methods: verbs,
        path: literal(path),
        prefixed: prefix !== undefined,
        node: method,
        owner: ownerOf(method, c.file.path, "php"),
        filePath: c.file.path,
        framework: "phalcon",
        ...(confidence ? { confidence } : {}),
      }));
    if (annotated) {
      for (const r of routes[i]!) emit(r.verbs, `${prefix ?? ""}${r.path}`);
      return;
    }
    const action = (method.childForFieldName("name")?.text ?? "")
      .replace(/Action$/, "");
    const params = method.childForFieldName("parameters");
    const args = (params ? namedChildren(params) : [])
      .filter((p) => p.childForFieldName("default_value") === null)
      .map(() => "/{}").join("");
    const base = `/${controller}/${action.toLowerCase()}`;
    emit(["ANY"], base + args, AUTO_ROUTE_CONFIDENCE);
    if (action === "index") {
      emit(["ANY"], `/${controller}`, AUTO_ROUTE_CONFIDENCE);
    }
  });
}
