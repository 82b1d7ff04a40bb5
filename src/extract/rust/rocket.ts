// Rocket for the Rust extractor: route attributes (`#[get("/x")]`,
// `#[route(GET, uri = "/x")]`), `routes![...]` lists and the crate-level
// evidence that a file's attributes are Rocket's.
import type { Node } from "web-tree-sitter";
import { HTTP_METHODS } from "../_port/http.ts";
import { namedChildren, stringValue } from "../_syntax/tree.ts";

/** Rocket's method attributes (`route` takes the method as an argument). */
const ROCKET_ATTRIBUTES = new Set([
  "get",
  "put",
  "post",
  "delete",
  "patch",
  "head",
  "options",
  "route",
]);

/** A Rocket route attribute: its methods and its path without the query. */
export interface RocketRoute {
  /** The attribute's name (`get`, `route`...). */
  name: string;
  /** Upper-case HTTP methods. */
  verbs: string[];
  /** The route path, `?<query>` parts dropped. */
  path: string;
  /** Whether the attribute is written `rocket::get`. */
  qualified: boolean;
}

/**
 * Reads a Rocket route attribute: `#[get("/x", data = "<d>")]`,
 * `#[rocket::post("/x")]`, `#[route(GET, uri = "/x")]`. Returns undefined
 * for any other attribute (or an attribute qualified by another crate).
 */
export function rocketRoute(item: Node): RocketRoute | undefined {
  const attribute = namedChildren(item).find((c) => c.type === "attribute");
  if (!attribute) return undefined;
  const head = namedChildren(attribute)[0];
  if (!head) return undefined;
  let name = head.text;
  let qualified = false;
  if (head.type === "scoped_identifier") {
    if (!/^(::)?rocket::\w+$/.test(head.text)) return undefined;
    name = head.childForFieldName("name")?.text ?? "";
    qualified = true;
  } else if (head.type !== "identifier") return undefined;
  if (!ROCKET_ATTRIBUTES.has(name)) return undefined;
  const tokens = attribute.childForFieldName("arguments");
  if (!tokens) return undefined;
  const parts = namedChildren(tokens);
  let verbs: string[];
  let pathNode: Node | undefined;
  if (name === "route" && parts[0]?.type === "string_literal") {
    // `#[route("/x", method = POST)]`
    pathNode = parts[0];
    const at = parts.findIndex((p) => p.text === "method");
    const verb = at > 0 ? parts[at + 1]?.text ?? "" : "";
    if (!HTTP_METHODS.has(verb)) return undefined;
    verbs = [verb];
  } else if (name === "route") {
    const verb = parts[0]?.type === "identifier" ? parts[0].text : "";
    if (!HTTP_METHODS.has(verb)) return undefined;
    verbs = [verb];
    for (let i = 1; i < parts.length; i++) {
      const p = parts[i]!;
      if (
        p.type === "identifier" && (p.text === "uri" || p.text === "path") &&
        parts[i + 1]?.type === "string_literal"
      ) {
        pathNode = parts[i + 1];
        break;
      }
      if (p.type === "string_literal" && i === 1) {
        pathNode = p;
        break;
      }
    }
  } else {
    verbs = [name.toUpperCase()];
    pathNode = parts[0]?.type === "string_literal" ? parts[0] : undefined;
  }
  const raw = pathNode ? stringValue(pathNode) : undefined;
  if (raw === undefined || !raw.startsWith("/")) return undefined;
  const query = raw.indexOf("?");
  return {
    name,
    verbs,
    path: query < 0 ? raw : raw.slice(0, query),
    qualified,
  };
}

/** The handler paths of a `routes![a, b, module::c]` invocation. */
export function routesList(macro: Node): string[][] | undefined {
  const name = macro.childForFieldName("macro");
  const last = name?.type === "scoped_identifier"
    ? name.childForFieldName("name")?.text
    : name?.text;
  if (last !== "routes") return undefined;
  if (name?.type === "scoped_identifier" && !/^rocket::/.test(name.text)) {
    return undefined;
  }
  const tokens = namedChildren(macro).find((c) => c.type === "token_tree");
  if (!tokens) return undefined;
  const inner = tokens.text.slice(1, -1);
  const out: string[][] = [];
  for (const item of inner.split(",")) {
    const segments = item.split("::").map((s) => s.trim());
    if (segments.every((s) => /^[A-Za-z_][A-Za-z0-9_]*$/.test(s))) {
      out.push(segments);
    }
  }
  return out;
}

/**
 * Whether the root of a `.mount(...)` chain may be a Rocket instance: a
 * variable, field or parameter, or a call of `rocket::build()`,
 * `rocket::custom(..)`, `Rocket::build()`... (not another constructor).
 */
export function rocketReceiver(root: Node): boolean {
  if (root.type !== "call_expression") return true;
  const fn = root.childForFieldName("function")?.text ?? "";
  return /^(::)?(rocket::|Rocket::)(build|custom|ignite)$/.test(fn) ||
    /^(build|custom|ignite)$/.test(fn);
}

/**
 * The crate a source file belongs to: its path up to the last `src/`
 * (`shop/src/users.rs` → `shop/`), or the scan root.
 */
export function crateOf(path: string): string {
  const at = path.lastIndexOf("src/");
  return at < 0 ? "" : path.slice(0, at);
}

/**
 * Whether a file's `use` declarations import the attribute `name` from
 * another crate than Rocket (`use cache_macros::get;`).
 */
export function importsForeign(
  useTexts: readonly string[],
  name: string,
): boolean {
  for (const text of useTexts) {
    if (/\brocket\b/.test(text)) continue;
    if (text.split(/[^A-Za-z0-9_]+/).includes(name)) return true;
  }
  return false;
}
