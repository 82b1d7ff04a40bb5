// Symbolic string values for the JavaScript/TypeScript extractor: a value
// is a list of literal pieces, references to constants (resolved later,
// possibly across files) and holes (unknown parts).
import { type Node, stringParts } from "../_syntax/tree.ts";

/** A reference to a constant, `NAME` or `NAME.prop`. */
export interface Ref {
  ref: string;
}

/** An unknown part; `raw` is the source text. */
export interface Hole {
  hole: string;
}

/** One piece of a symbolic string. */
export type Piece = string | Ref | Hole;

/** A symbolic string value. */
export type Val = Piece[];

/** A value after constant resolution. */
export interface Resolved {
  /** Literal text and holes, adjacent literals merged. */
  pieces: Array<string | Hole>;
  /** Whether a constant (or a prefix) was substituted. */
  composed: boolean;
}

const WRAPPERS: ReadonlySet<string> = new Set([
  "parenthesized_expression",
  "as_expression",
  "satisfies_expression",
  "non_null_expression",
  "type_assertion",
]);

/** Strips parentheses and TypeScript-only wrappers (`as`, `!`, `satisfies`). */
export function unwrap(node: Node): Node {
  let current = node;
  while (WRAPPERS.has(current.type)) {
    // `(x)`, `x as T`, `x!`, `x satisfies T`, `<T>x`: the expression is the
    // first named child (a type assertion's is the type)
    const inner = current.type === "type_assertion"
      ? current.namedChild(1)
      : current.namedChild(0);
    if (!inner) break;
    current = inner;
  }
  return current;
}

/**
 * A symbolic value for an expression: string literals, templates, `+`
 * concatenations, identifiers and `A.b` member references, and
 * `process.env.X ?? "default"`.
 */
export function valueOf(node: Node, depth = 0): Val {
  const expr = unwrap(node);
  if (depth > 16) return [{ hole: expr.text }];
  const parts = stringParts(expr);
  if (parts) {
    const out: Val = [];
    for (const part of parts) {
      if (typeof part === "string") out.push(part);
      else out.push(...valueOf(part, depth + 1));
    }
    return out;
  }
  switch (expr.type) {
    case "identifier":
    case "shorthand_property_identifier":
      return [{ ref: expr.text }];
    case "member_expression": {
      const object = expr.childForFieldName("object");
      const property = expr.childForFieldName("property");
      if (
        object?.type === "identifier" &&
        property?.type === "property_identifier"
      ) {
        return [{ ref: `${object.text}.${property.text}` }];
      }
      return [{ hole: expr.text }];
    }
    case "binary_expression": {
      const operator = expr.childForFieldName("operator")?.text;
      const left = expr.childForFieldName("left");
      const right = expr.childForFieldName("right");
      if (!left || !right) return [{ hole: expr.text }];
      if (operator === "+") {
        return [...valueOf(left, depth + 1), ...valueOf(right, depth + 1)];
      }
      if ((operator === "??" || operator === "||") && isEnvRead(left)) {
        return valueOf(right, depth + 1);
      }
      return [{ hole: expr.text }];
    }
    default:
      return [{ hole: expr.text }];
  }
}

/** `process.env.X`, `process.env["X"]`, `Deno.env.get("X")`, `Bun.env.X`. */
export function isEnvRead(node: Node): boolean {
  const text = unwrap(node).text;
  return /^(process\.env|Bun\.env|import\.meta\.env)(\.|\[)/.test(text) ||
    /^Deno\.env\.get\(/.test(text);
}

/**
 * Merges resolved pieces into a path. Holes become `{}`; a leading hole
 * (a base URL held in a variable) and a literal origin
 * (`http://host:8080`) are dropped so only the path part stays; the query
 * and fragment are cut off. Returns `undefined` when no path is left.
 */
export function renderPath(
  pieces: ReadonlyArray<string | Hole>,
): { path: string; holes: boolean } | undefined {
  let text = "";
  let holes = false;
  let leading = true;
  for (const piece of pieces) {
    if (typeof piece === "string") {
      text += piece;
      if (piece !== "") leading = false;
    } else if (leading) {
      // `${BASE}/users`: the base URL is not part of the path
      holes = true;
      leading = false;
      text += "\u0000";
    } else {
      text += "\u0001";
    }
  }
  if (text.startsWith("\u0000")) {
    text = text.slice(1);
    if (text === "" || text.startsWith("\u0001")) return undefined;
    if (!text.startsWith("/")) {
      // `${BASE}users` or `${BASE}?q=1`
      if (/^[?#]/.test(text)) return undefined;
      text = "/" + text;
    }
  }
  // holes in the host or the query do not make the path uncertain
  const origin = /^(?:[a-zA-Z][a-zA-Z0-9+.-]*:)?\/\/[^/?#]*/.exec(text);
  if (origin) {
    text = text.slice(origin[0].length);
    // `${BASE}${path}` with BASE known: the path is all unknown
    if (origin[0].endsWith("\u0001") && !text.startsWith("/")) return undefined;
    text ||= "/";
  }
  const cut = text.search(/[?#]/);
  if (cut !== -1) text = text.slice(0, cut);
  if (!text.startsWith("/")) return undefined;
  if (text.includes("\u0001")) {
    holes = true;
    text = text.replaceAll("\u0001", "{}");
  }
  return { path: text, holes };
}

/**
 * Joins a route prefix and a route path the way routers do: one slash
 * between them, and a route of `/` under a prefix is the prefix itself.
 */
export function joinPaths(prefix: string, path: string): string {
  if (prefix === "" || prefix === "/") {
    return path.startsWith("/") ? path : `/${path}`;
  }
  const head = prefix.startsWith("/") ? prefix : `/${prefix}`;
  const trimmed = head.endsWith("/") ? head.slice(0, -1) : head;
  if (path === "" || path === "/") return trimmed;
  return `${trimmed}${path.startsWith("/") ? "" : "/"}${path}`;
}
