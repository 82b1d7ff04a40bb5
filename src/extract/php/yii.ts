// Yii 2 routes: the `urlManager` rules of an application's config
// (`'GET posts/<id:\d+>' => 'post/view'`, rule arrays, `yii\rest\UrlRule`)
// and the `controller/action` URLs of its web controllers (the REST
// actions of an `ActiveController`, methods narrowed by a `VerbFilter`).
import type { Node } from "web-tree-sitter";
import { HTTP_METHODS, routePorts } from "../_port/http.ts";
import { ownerOf } from "../_syntax/owner.ts";
import { namedChildren, walk } from "../_syntax/tree.ts";
import { literal, type Value } from "../_value/mod.ts";
import {
  arrayEntries,
  arrayValue,
  joinedWords,
  type PhpFile,
  textValue,
} from "./project.ts";

/** Confidence of a `controller/action` URL no rule declares. */
const AUTO_ROUTE_CONFIDENCE = 0.7;

/** `yii\rest\UrlRule`'s routes: methods, path after the collection's. */
const REST_RULES: ReadonlyArray<[string[], string]> = [
  [["GET", "HEAD"], ""],
  [["POST"], ""],
  [["GET", "HEAD"], "/{id}"],
  [["PUT", "PATCH"], "/{id}"],
  [["DELETE"], "/{id}"],
  [["OPTIONS"], ""],
  [["OPTIONS"], "/{id}"],
];

/** An `ActiveController`'s actions and the methods its `verbs()` allow. */
const ACTIVE_ACTIONS: ReadonlyArray<[string, string[]]> = [
  ["index", ["GET", "HEAD"]],
  ["view", ["GET", "HEAD"]],
  ["create", ["POST"]],
  ["update", ["PUT", "PATCH"]],
  ["delete", ["DELETE"]],
  ["options", ["OPTIONS"]],
];

/** `<id:\d+>` / `<slug>` parameters as `{}`. */
function placeholders(path: string): string {
  return path.replace(/<\w+(?::(?:[^<>]|<[^<>]*>)*)?>/g, "{}");
}

/** `BlogPost` -> `blog-post`: Yii's id of a controller or action. */
function id(name: string): string {
  return joinedWords(name, "-");
}

/** A crude English plural, as `yii\rest\UrlRule` pluralizes ids. */
function plural(word: string): string {
  if (/[^aeiou]y$/.test(word)) return word.slice(0, -1) + "ies";
  if (/(s|x|z|ch|sh)$/.test(word)) return word + "es";
  return word + "s";
}

function emit(
  c: PhpFile,
  node: Node,
  methods: readonly string[],
  path: string,
  confidence?: number,
): void {
  const route: Value = literal(placeholders(path));
  c.ports.push(...routePorts({
    methods,
    path: route,
    prefixed: false,
    node,
    owner: ownerOf(node, c.file.path, "php"),
    filePath: c.file.path,
    framework: "yii",
    ...(confidence ? { confidence } : {}),
  }));
}

/** `'GET,HEAD posts'` -> methods and pattern (any method without a verb). */
function splitVerb(key: string): [string[], string] {
  const m = /^([A-Z,]+)\s+(\S+)$/.exec(key.trim());
  if (!m) return [["ANY"], key.trim()];
  return [m[1]!.split(",").filter((v) => HTTP_METHODS.has(v)), m[2]!];
}

/** A pattern that names endpoints (not a `<controller>/<action>` template). */
function concrete(pattern: string): string | undefined {
  if (/<(controller|action|module)\b/.test(pattern)) return undefined;
  return pattern.replace(/^(https?:)?\/\/[^/]*/, "");
}

/** The rules of a `'urlManager' => [..., 'rules' => [...]]` config entry. */
export function yiiUrlManager(c: PhpFile, entry: Node): void {
  const [key, value] = namedChildren(entry);
  if (!key || !value || textValue(c, key) !== "urlManager") return;
  for (const rule of arrayEntries(arrayValue(c, value, "rules"))) {
    if (rule.key) {
      const [methods, pattern] = splitVerb(textValue(c, rule.key) ?? "");
      const path = concrete(pattern);
      if (path !== undefined && methods.length) {
        emit(c, rule.key, methods, path);
      }
      continue;
    }
    const cls = arrayValue(c, rule.value, "class");
    if (cls && /rest\\UrlRule\b|^UrlRule::class$/.test(cls.text)) {
      restRule(c, rule.value);
      continue;
    }
    const pattern = textValue(c, arrayValue(c, rule.value, "pattern"));
    const path = pattern === undefined ? undefined : concrete(pattern);
    if (path === undefined) continue;
    const verbNode = arrayValue(c, rule.value, "verb");
    const verbs = verbNode?.type === "array_creation_expression"
      ? arrayEntries(verbNode).map((e) => textValue(c, e.value) ?? "")
      : (textValue(c, verbNode) ?? "").split(",");
    const methods = verbs.map((v) => v.trim().toUpperCase())
      .filter((v) => HTTP_METHODS.has(v));
    emit(c, rule.value, verbNode ? methods : ["ANY"], path);
  }
}

/** `['class' => 'yii\rest\UrlRule', 'controller' => 'user']`. */
function restRule(c: PhpFile, rule: Node): void {
  const controllers = arrayValue(c, rule, "controller");
  const ids = controllers?.type === "array_creation_expression"
    ? arrayEntries(controllers).map((e) =>
      e.key
        ? [textValue(c, e.key), true] as const
        : [textValue(c, e.value), false] as const
    )
    : [[textValue(c, controllers), false] as const];
  const pluralize =
    arrayValue(c, rule, "pluralize")?.text.toLowerCase() !== "false";
  const prefix = textValue(c, arrayValue(c, rule, "prefix")) ?? "";
  for (const [name, aliased] of ids) {
    if (!name) continue;
    const last = name.split("/").at(-1)!;
    const url = aliased ? name : pluralize ? plural(last) : last;
    for (const [methods, suffix] of REST_RULES) {
      emit(c, rule, methods, `${prefix}/${url}${suffix}`);
    }
  }
}

/** Whether a file holds a Yii web controller (not a console one). */
export function isYiiController(c: PhpFile): boolean {
  return /\byii\\(web|rest)\\/.test(c.file.text) &&
    /^\s*namespace\s+[\w\\]*\\controllers\b/m.test(c.file.text);
}

/** The methods a controller's `VerbFilter` allows, by action id. */
function verbFilter(c: PhpFile, cls: Node): Map<string, string[]> {
  const out = new Map<string, string[]>();
  walk(cls, (n) => {
    if (n.type !== "array_element_initializer") return;
    const [key, value] = namedChildren(n);
    if (!key || textValue(c, key) !== "actions") return;
    for (const action of arrayEntries(value)) {
      const name = textValue(c, action.key);
      const verbs = arrayEntries(action.value)
        .map((e) => textValue(c, e.value)?.toUpperCase() ?? "")
        .filter((v) => HTTP_METHODS.has(v));
      if (name && verbs.length) out.set(name, verbs);
    }
    return false;
  });
  return out;
}

/** A web controller's `controller/action` URLs. */
export function yiiController(c: PhpFile, cls: Node): void {
  const name = cls.childForFieldName("name")?.text;
  const parent = namedChildren(cls).find((n) => n.type === "base_clause")
    ?.text ?? "";
  if (!name?.endsWith("Controller") || !/Controller\b/.test(parent)) return;
  const ns = /^\s*namespace\s+[\w\\]*?\\controllers((?:\\\w+)*)\s*;/m
    .exec(c.file.text)?.[1] ?? "";
  const module = /(?:^|\/)modules\/([\w-]+)\/controllers\//.exec(c.file.path)
    ?.[1];
  const base = [
    ...(module ? [module] : []),
    ...ns.split("\\").filter(Boolean).map(id),
    id(name.replace(/Controller$/, "")),
  ].join("/");
  const verbs = verbFilter(c, cls);
  if (/\bActiveController\b/.test(parent)) {
    for (const [action, methods] of ACTIVE_ACTIONS) {
      emit(c, cls, verbs.get(action) ?? methods, `/${base}/${action}`);
    }
  }
  const body = cls.childForFieldName("body");
  for (const method of body ? namedChildren(body) : []) {
    if (method.type !== "method_declaration") continue;
    const fn = method.childForFieldName("name")?.text ?? "";
    const m = /^action([A-Z]\w*)$/.exec(fn);
    const visibility = namedChildren(method).find((n) =>
      n.type === "visibility_modifier"
    )?.text;
    if (!m || (visibility && visibility !== "public")) continue;
    const action = id(m[1]!);
    const methods = verbs.get(action) ?? ["ANY"];
    emit(c, method, methods, `/${base}/${action}`, AUTO_ROUTE_CONFIDENCE);
    if (action === "index") {
      emit(c, method, methods, `/${base}`, AUTO_ROUTE_CONFIDENCE);
    }
  }
}
