// poem: `Route::new().at("/users/:id", get(show).put(edit))` (a bare
// endpoint answers every method), prefixes from `.nest("/api", route)`
// (see `mounts.ts`), and poem-openapi's `#[OpenApi] impl Api { #[oai(path
// = "/x", method = "get")] ... }` under the prefix its `OpenApiService::new
// (Api, ..)` is nested at (and the impl's `prefix_path`).
import { namedChildren, type Node, walk } from "../_syntax/tree.ts";
import { stringValue } from "../_syntax/tree.ts";
import { joinPaths, literal, type Value } from "../_value/mod.ts";
import { HTTP_VERBS } from "../_port/http.ts";
import { argsOf, chainTop, lastSegment, methodCall, unwrap } from "./nodes.ts";
import { prefixes } from "./mounts.ts";
import { bindingUses } from "./value_uses.ts";
import { isTestItem } from "./test_code.ts";
import type { MethodSite, RustFile, RustScan } from "./project.ts";
import { hasPath } from "./project.ts";

/** Whether a file uses poem or poem-openapi. */
export function usesPoem(f: RustFile): boolean {
  return f.useTexts.some((t) => /\bpoem(_openapi)?::/.test(t));
}

/** poem's method routers: `get(h).post(h2)`, `poem::get(h)`. */
function poemVerbs(node: Node): string[] {
  const verbs: string[] = [];
  let n = unwrap(node);
  for (let m = methodCall(n); m; m = methodCall(n)) {
    if (HTTP_VERBS.has(m.name)) verbs.push(m.name.toUpperCase());
    else if (m.name !== "with" && m.name !== "around") return ["ANY"];
    n = unwrap(m.receiver);
  }
  if (n.type === "call_expression") {
    const fn = n.childForFieldName("function");
    const name = lastSegment(fn);
    const qualified = fn?.type !== "scoped_identifier" ||
      /^(::)?poem::/.test(fn.text);
    if (qualified && HTTP_VERBS.has(name)) verbs.push(name.toUpperCase());
  }
  return verbs.length > 0 ? verbs.reverse() : ["ANY"];
}

/** `Route::new().at(path, endpoint)`. */
export function poemAt(c: RustScan, f: RustFile, site: MethodSite): void {
  const { call, name } = site;
  if (name !== "at") return;
  const [path, endpoint] = argsOf(call);
  if (!path || !endpoint || argsOf(call).length !== 2) return;
  let root = unwrap(call);
  for (let m = methodCall(root); m; m = methodCall(root)) {
    root = unwrap(m.receiver);
  }
  const fn = root.type === "call_expression"
    ? root.childForFieldName("function")?.text ?? ""
    : "";
  if (!/(^|::)Route::(new|default)$/.test(fn)) return;
  c.emitServer(f, call, path, poemVerbs(endpoint), "poem");
}

/** The `key = "value"` pairs of an attribute's arguments. */
function attributePairs(attribute: Node): Map<string, string> {
  const out = new Map<string, string>();
  const tokens = attribute.childForFieldName("arguments");
  const parts = tokens ? namedChildren(tokens) : [];
  for (let i = 0; i + 1 < parts.length; i++) {
    const value = parts[i + 1]!;
    if (parts[i]!.type === "identifier" && value.type === "string_literal") {
      const text = stringValue(value);
      if (text !== undefined && !out.has(parts[i]!.text)) {
        out.set(parts[i]!.text, text);
      }
    }
  }
  return out;
}

/** The attribute named `name` among the attribute items before an item. */
function attributeBefore(item: Node, name: RegExp): Node | undefined {
  for (
    let a = item.previousNamedSibling;
    a?.type === "attribute_item";
    a = a.previousNamedSibling
  ) {
    const attribute = namedChildren(a).find((n) => n.type === "attribute");
    const head = attribute ? namedChildren(attribute)[0] : undefined;
    if (head && name.test(head.text)) return attribute;
  }
  return undefined;
}

/** poem-openapi `#[OpenApi] impl Api { #[oai(path, method)] fn .. }`. */
export function poemOpenApi(c: RustScan, f: RustFile): void {
  walk(f.tree.rootNode, (item) => {
    if (isTestItem(item)) return false;
    if (item.type !== "impl_item") return;
    const api = attributeBefore(item, /^(poem_openapi::)?OpenApi$/);
    const type = lastSegment(item.childForFieldName("type"));
    const body = item.childForFieldName("body");
    if (!api || !type || !body) return false;
    const own = literal(attributePairs(api).get("prefix_path") ?? "");
    const mounts = serviceMounts(c, type);
    for (const fn of namedChildren(body)) {
      if (fn.type !== "function_item") continue;
      const oai = attributeBefore(fn, /^(poem_openapi::)?oai$/);
      const pairs = oai ? attributePairs(oai) : undefined;
      const path = pairs?.get("path");
      const method = pairs?.get("method")?.toLowerCase();
      if (!oai || path === undefined || !method || !HTTP_VERBS.has(method)) {
        continue;
      }
      const seen = new Set<string>();
      for (const prefix of mounts) {
        const full = joinPaths(prefix, own);
        c.emitComposed(
          f,
          fn,
          joinPaths(full, literal(path)),
          [method.toUpperCase()],
          "poem",
          seen,
          oai.parent ?? oai,
          hasPath(full),
        );
      }
    }
    return false;
  });
}

/** The prefixes `OpenApiService::new(Type, ..)` values are nested at. */
function serviceMounts(c: RustScan, type: string): Value[] {
  const out: Value[] = [];
  for (const f of c.files) {
    if (!f.file.text.includes("OpenApiService")) continue;
    walk(f.tree.rootNode, (n) => {
      if (n.type !== "call_expression") return;
      const fn = n.childForFieldName("function")?.text ?? "";
      const first = argsOf(n)[0];
      if (
        /(^|::)OpenApiService::new$/.test(fn) &&
        (first?.text === type ||
          (first?.type === "tuple_expression" &&
            namedChildren(first).some((e) => e.text === type)))
      ) {
        out.push(...servicePrefixes(c, chainTop(n)));
      }
    });
  }
  return out.length > 0 ? out : [literal("")];
}

/**
 * The prefixes of a service value: nested directly, or bound by `let` and
 * given to `.nest(..)` by name (`api.swagger_ui()` is another endpoint).
 */
function servicePrefixes(c: RustScan, value: Node): Value[] {
  const binding = value.parent;
  if (binding?.type !== "let_declaration") return prefixes(c, value);
  return bindingUses(binding)
    .filter((n) => n.parent?.type === "arguments")
    .flatMap((n) => prefixes(c, n));
}
