// The HTTP methods a Django view answers, when the view says so: the
// `require_http_methods([...])` / `require_GET` / `require_POST` /
// `require_safe` / DRF `api_view([...])` decorators of a function view, the
// methods its body compares `request.method` with (plus `GET`, which the
// code after those branches serves), or the verb methods of a class-based
// `View` subclass.
import { namedChildren } from "../_syntax/compact_tree.ts";
import { exactText } from "../_value/mod.ts";
import {
  argument,
  attributeObject,
  type PyProject,
  unwrap,
} from "./project.ts";
import { classVerbs, HANDLER_VERBS } from "./classes.ts";
import type { Node } from "../_syntax/compact_tree.ts";

const DECORATORS: ReadonlyMap<string, string[] | "listed"> = new Map<
  string,
  string[] | "listed"
>([
  ["django.views.decorators.http.require_http_methods", "listed"],
  ["django.views.decorators.http.require_GET", ["GET"]],
  ["django.views.decorators.http.require_POST", ["POST"]],
  ["django.views.decorators.http.require_safe", ["GET", "HEAD"]],
  ["rest_framework.decorators.api_view", "listed"],
]);
const VIEW_BASES: ReadonlySet<string> = new Set([
  "django.views.View",
  "django.views.generic.View",
  "django.views.generic.base.View",
  "rest_framework.views.APIView",
]);
/** Django's `View.http_method_names` (no `query`). */
const HTTP_METHOD_NAMES: ReadonlySet<string> = new Set([
  ...HANDLER_VERBS,
  "trace",
]);
const MAX_NODES = 20000;
const METHOD = /^[A-Z]+$/;

/** The methods a Django route's view answers, or undefined for any. */
export function djangoViewMethods(
  project: PyProject,
  view: Node | undefined,
): string[] | undefined {
  if (!view) return undefined;
  let expr = unwrap(view);
  // `Cls.as_view()`: the class's verb methods
  if (expr.type === "call") {
    const object = attributeObject(
      expr.childForFieldName("function"),
      "as_view",
    );
    const target = object ? project.resolveExpr(object) : undefined;
    if (target?.kind !== "class") return undefined;
    const verbs = classVerbs(
      project,
      target,
      VIEW_BASES,
      (name) => HTTP_METHOD_NAMES.has(name) ? name : undefined,
    );
    if (!verbs.known || verbs.definitions.size === 0) return undefined;
    return [...verbs.definitions.keys()].map((v) => v.toUpperCase());
  }
  if (expr.type !== "identifier" && expr.type !== "attribute") return undefined;
  const target = project.resolveExpr(expr);
  if (target?.kind !== "function") return undefined;
  expr = target.node;
  const decorated = expr.parent?.type === "decorated_definition"
    ? expr.parent
    : undefined;
  for (const decorator of decorated ? namedChildren(decorated) : []) {
    if (decorator.type !== "decorator") continue;
    const inner = unwrap(namedChildren(decorator)[0] ?? decorator);
    const call = inner.type === "call" ? inner : undefined;
    const callee = call ? call.childForFieldName("function") : inner;
    const kind = callee
      ? DECORATORS.get(project.externalName(callee) ?? "")
      : undefined;
    if (Array.isArray(kind)) return kind;
    if (kind === "listed" && call) {
      const list = argument(
        call.childForFieldName("arguments"),
        0,
        "http_method_names",
      );
      const listed = list ? project.methodList(list) : undefined;
      if (listed) return listed;
      // DRF's `@api_view()` with no list: GET
      if (!list) return ["GET"];
      return undefined;
    }
  }
  const compared = comparedMethods(project, expr);
  if (!compared || compared.size === 0) return undefined;
  compared.add("GET");
  return [...compared];
}

/**
 * The methods a function compares `request.method` with (`==`, `!=`, `in`),
 * or undefined when one compared value is not a literal method.
 */
function comparedMethods(
  project: PyProject,
  fn: Node,
): Set<string> | undefined {
  const out = new Set<string>();
  const stack: Node[] = [fn];
  let visited = 0;
  while (stack.length > 0 && visited++ < MAX_NODES) {
    const node = stack.pop()!;
    if (node.type === "comparison_operator") {
      const [left, right] = namedChildren(node);
      const other = left && isRequestMethod(left)
        ? right
        : right && isRequestMethod(right)
        ? left
        : undefined;
      if (other) {
        const value = unwrap(other);
        const items = value.type === "string"
          ? [value]
          : value.type === "tuple" || value.type === "list" ||
              value.type === "set"
          ? namedChildren(value)
          : [];
        if (items.length === 0) return undefined;
        for (const item of items) {
          const text = exactText(project.evalString(item))?.toUpperCase();
          if (!text || !METHOD.test(text)) return undefined;
          out.add(text);
        }
      }
    }
    stack.push(...namedChildren(node));
  }
  return out;
}

/** `request.method` (or `self.request.method`). */
function isRequestMethod(node: Node): boolean {
  const value = unwrap(node);
  return value.type === "attribute" &&
    value.childForFieldName("attribute")?.text === "method" &&
    /(^|\.)request$/.test(value.childForFieldName("object")?.text ?? "");
}
