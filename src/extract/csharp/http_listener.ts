// System.Net.HttpListener servers: the handler compares the request path
// (`request.Url.AbsolutePath`, `RawUrl`) with literals and the method
// (`request.HttpMethod`) with verbs, in `if` conditions, `.Equals` calls and
// `switch` statements (also on a `(method, path)` tuple).
import type { Node } from "web-tree-sitter";
import { httpPort } from "../_port/http.ts";
import { ownerOf } from "../_syntax/owner.ts";
import { ancestorsOf, namedChildren, walk } from "../_syntax/tree.ts";
import { CONFIDENCE, exactText } from "../_value/mod.ts";
import { callArgs, type CSharpFile, ROUTE_METHODS, unwrap } from "./project.ts";

type Kind = "path" | "method";

/** Calls that keep what a value is (`path.ToLowerInvariant()`). */
const KEEPS =
  /^(ToLower|ToLowerInvariant|ToUpper|ToUpperInvariant|Trim|TrimEnd|TrimStart)$/;

/** Whether an expression is the request's path or method. */
function kindOf(c: CSharpFile, node: Node, depth = 0): Kind | undefined {
  if (depth > 6) return undefined;
  const n = unwrap(node);
  if (n.type === "binary_expression" && operator(n) === "??") {
    const left = n.childForFieldName("left");
    return left ? kindOf(c, left, depth + 1) : undefined;
  }
  if (n.type === "invocation_expression") {
    const fn = n.childForFieldName("function");
    const receiver = fn?.childForFieldName("expression");
    return fn?.type === "member_access_expression" && receiver &&
        KEEPS.test(fn.childForFieldName("name")?.text ?? "")
      ? kindOf(c, receiver, depth + 1)
      : undefined;
  }
  if (n.type === "identifier") {
    const value = c.declaration(n.text, n)?.value;
    return value ? kindOf(c, value, depth + 1) : undefined;
  }
  const text = n.text.replace(/\s+/g, "");
  if (/\.Url\??\.(AbsolutePath|LocalPath)$|\.RawUrl$/.test(text)) return "path";
  if (/\.HttpMethod$/.test(text)) return "method";
  return undefined;
}

function operator(n: Node): string | undefined {
  return n.childForFieldName("operator")?.type ?? n.child(1)?.type;
}

function literalOf(c: CSharpFile, node: Node): string | undefined {
  const n = unwrap(node);
  return n.type === "string_literal" || n.type === "verbatim_string_literal"
    ? exactText(c.evaluate(n))
    : undefined;
}

/** `x == "lit"`, `x.Equals("lit")`, `"lit".Equals(x)`, `string.Equals(x, "lit")`. */
function comparison(
  c: CSharpFile,
  n: Node,
): { kind: Kind; value: string } | undefined {
  let pair: Array<Node | null | undefined> = [];
  if (n.type === "binary_expression" && operator(n) === "==") {
    pair = [n.childForFieldName("left"), n.childForFieldName("right")];
  } else if (n.type === "invocation_expression") {
    const fn = n.childForFieldName("function");
    if (
      fn?.type !== "member_access_expression" ||
      fn.childForFieldName("name")?.text !== "Equals"
    ) return undefined;
    const receiver = fn.childForFieldName("expression");
    const args = callArgs(n);
    pair = /^(string|String)$/.test(receiver?.text ?? "")
      ? [args[0], args[1]]
      : [receiver, args[0]];
  } else return undefined;
  const [a, b] = pair;
  if (!a || !b) return undefined;
  for (const [x, y] of [[a, b], [b, a]] as const) {
    const kind = kindOf(c, x);
    const value = kind ? literalOf(c, y) : undefined;
    if (kind && value !== undefined) return { kind, value };
  }
  return undefined;
}

/** The methods compared anywhere in an expression. */
function methodsIn(c: CSharpFile, expr: Node, out: Set<string>): void {
  walk(expr, (n) => {
    const found = comparison(c, n);
    if (found?.kind === "method") {
      const verb = found.value.toUpperCase();
      if (ROUTE_METHODS.has(verb)) out.add(verb);
    }
  });
}

/** The methods the conditions around a path test require. */
function methodsAround(c: CSharpFile, at: Node): Set<string> {
  const out = new Set<string>();
  // the ancestors, parent first, found in one walk (climbing `parent` by
  // `parent` is quadratic in the depth)
  const up = ancestorsOf(at);
  let k = 0;
  while (
    k < up.length &&
    (up[k]!.type === "parenthesized_expression" ||
      (up[k]!.type === "binary_expression" && operator(up[k]!) === "&&"))
  ) k++;
  const top = k === 0 ? at : up[k - 1]!;
  if (top.id !== at.id) methodsIn(c, top, out);
  for (; k < up.length; k++) {
    const n = k === 0 ? at : up[k - 1]!;
    const p = up[k]!;
    if (p.type === "if_statement") {
      const cond = p.childForFieldName("condition");
      if (
        cond && cond.id !== n.id &&
        n.id === p.childForFieldName("consequence")?.id
      ) {
        methodsIn(c, cond, out);
      }
    } else if (p.type === "switch_section") {
      const value = up[k + 2]?.childForFieldName("value");
      if (value && kindOf(c, value) === "method") {
        for (const label of namedChildren(p)) {
          if (label.type !== "constant_pattern") continue;
          const verb = literalOf(c, label.namedChild(0) ?? label)
            ?.toUpperCase();
          if (verb && ROUTE_METHODS.has(verb)) out.add(verb);
        }
      }
    } else if (
      /^(method_declaration|local_function_statement|lambda_expression)$/.test(
        p.type,
      )
    ) {
      break;
    }
  }
  return out;
}

function emit(
  c: CSharpFile,
  at: Node,
  path: string,
  methods: Iterable<string>,
): void {
  if (!path.startsWith("/")) return;
  const list = [...methods];
  for (const method of list.length > 0 ? list : ["ANY"]) {
    const port = httpPort({
      role: "server",
      method,
      path,
      node: at,
      owner: ownerOf(at, c.file.path, "c-sharp"),
      filePath: c.file.path,
      confidence: CONFIDENCE.composed,
      framework: "httplistener",
    });
    if (port) c.ports.push(port);
  }
}

/** The routes an HttpListener handler of the file dispatches on. */
export function httpListenerRoutes(c: CSharpFile, root: Node): void {
  if (!c.file.text.includes("HttpListener")) return;
  walk(root, (n) => {
    if (n.type === "switch_statement") {
      switchRoutes(c, n);
      return;
    }
    const found = comparison(c, n);
    if (found?.kind === "path") emit(c, n, found.value, methodsAround(c, n));
  });
}

/** `switch (path) { case "/x": ... }` and `switch ((method, path))`. */
function switchRoutes(c: CSharpFile, sw: Node): void {
  const value = sw.childForFieldName("value");
  const body = sw.childForFieldName("body");
  if (!value || !body) return;
  const v = unwrap(value);
  const kinds = v.type === "tuple_expression"
    ? namedChildren(v).map((a) => kindOf(c, a.namedChild(0) ?? a))
    : [kindOf(c, v)];
  if (!kinds.includes("path")) return;
  for (const section of namedChildren(body)) {
    for (const label of namedChildren(section)) {
      if (label.type !== "constant_pattern") continue;
      const inner = label.namedChild(0);
      if (!inner) continue;
      const parts = inner.type === "tuple_expression"
        ? namedChildren(inner).map((a) => a.namedChild(0) ?? a)
        : [inner];
      if (parts.length !== kinds.length) continue;
      let path: string | undefined;
      const methods = new Set<string>();
      parts.forEach((part, k) => {
        const text = literalOf(c, part);
        if (text === undefined) return;
        if (kinds[k] === "path") path = text;
        else if (
          kinds[k] === "method" && ROUTE_METHODS.has(text.toUpperCase())
        ) {
          methods.add(text.toUpperCase());
        }
      });
      if (path === undefined) continue;
      if (methods.size === 0) {
        for (const m of methodsAround(c, sw)) methods.add(m);
      }
      emit(c, label, path, methods);
    }
  }
}
