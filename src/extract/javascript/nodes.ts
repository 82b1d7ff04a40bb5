// Small readers of JavaScript/TypeScript syntax nodes shared by the
// collectors: arguments, object literal keys, path and method arguments.
import {
  findAncestor,
  namedChildren,
  type Node,
  stringValue,
} from "../_syntax/tree.ts";
import { fillHoles, hole, literal, type Value } from "../_value/mod.ts";
import type { ImportBinding } from "./facts.ts";
import { unwrap, valueOf } from "./values.ts";
import { CAPITALISED_METHODS, HTTP_METHODS } from "../_port/http.ts";

/** The local name standing for a CommonJS module's `module.exports`. */
export const CJS = "module.exports";

export { HTTP_METHODS };

export const ROUTE_METHODS: Readonly<Record<string, string>> = {
  get: "GET",
  post: "POST",
  put: "PUT",
  delete: "DELETE",
  del: "DELETE",
  patch: "PATCH",
  head: "HEAD",
  options: "OPTIONS",
  all: "ANY",
  // the HTTP QUERY method (Express 5 on Node 22+, Hono, fastify's addHttpMethod)
  query: "QUERY",
};

export const CLIENT_METHODS: Readonly<Record<string, string>> = {
  get: "GET",
  post: "POST",
  put: "PUT",
  delete: "DELETE",
  patch: "PATCH",
  head: "HEAD",
  options: "OPTIONS",
};

export const NEST_DECORATORS: Readonly<Record<string, string>> = {
  ...CAPITALISED_METHODS,
  All: "ANY",
  Search: "SEARCH",
  QueryMethod: "QUERY",
  // server-sent events: a GET route
  Sse: "GET",
};

export const FETCH_MODULES: ReadonlySet<string> = new Set([
  "node-fetch",
  "cross-fetch",
  "undici",
  "isomorphic-fetch",
]);

export const KOA_ROUTER_MODULES: ReadonlySet<string> = new Set([
  "@koa/router",
  "koa-router",
]);

/** Oak's modules: npm, JSR and deno.land URLs. */
export const OAK_MODULE = /(^|[:/])@?oak(\/oak)?(@[^/]*)?(\/mod\.ts)?$/;

/** Functions written as values: callbacks, `const f = () => ...`. */
export const FUNCTION_EXPRESSIONS: ReadonlySet<string> = new Set([
  "function_expression",
  "function",
  "arrow_function",
]);

export const FUNCTION_TYPES: ReadonlySet<string> = new Set([
  "function_declaration",
  "generator_function_declaration",
  ...FUNCTION_EXPRESSIONS,
  "generator_function",
  "method_definition",
]);

export function argList(call: Node): Node[] {
  const args = call.childForFieldName("arguments");
  if (!args) return [];
  return namedChildren(args).filter((n) => n.type !== "comment");
}

export function constructorName(node: Node): string | undefined {
  const ctor = node.childForFieldName("constructor");
  return ctor?.type === "identifier" ? ctor.text : undefined;
}

/** `require("x")` -> the binding of its default export. */
export function bindingOfRequire(node: Node): ImportBinding | undefined {
  const source = requireSource(node);
  return source === undefined ? undefined : { source, name: "default" };
}

export function requireSource(node: Node): string | undefined {
  if (node.type !== "call_expression") return undefined;
  const callee = node.childForFieldName("function");
  if (callee?.type !== "identifier" || callee.text !== "require") {
    return undefined;
  }
  const first = argList(node)[0];
  return first ? stringValue(first) : undefined;
}

/**
 * Whether an import names a module of the project: a relative path, or
 * the `@/` and `~/` aliases bundlers and `tsconfig` paths give the root.
 */
export function isRelative(source: string): boolean {
  return source.startsWith("./") || source.startsWith("../") ||
    source.startsWith("@/") || source.startsWith("~/");
}

export function isStringish(node: Node): boolean {
  switch (node.type) {
    case "string":
    case "template_string":
    case "binary_expression":
    case "identifier":
    case "member_expression":
      return true;
    default:
      return false;
  }
}

/** A route path argument: a string, template, concatenation or constant. */
export function isPathish(node: Node): boolean {
  const v = unwrap(node);
  if (v.type === "array") return namedChildren(v).some(isPathish);
  if (v.type === "string" || v.type === "template_string") {
    const value = valueOf(v);
    const head = value.parts[0];
    return typeof head !== "string" || head.startsWith("/") ||
      value.parts.length > 1;
  }
  return v.type === "binary_expression" || v.type === "identifier" ||
    v.type === "member_expression";
}

export function pathValues(node: Node): Value[] {
  const v = unwrap(node);
  if (v.type === "array") {
    return namedChildren(v).filter(isPathish).map((n) => valueOf(n));
  }
  return [valueOf(v)];
}

export function methodValues(node: Node): string[] | undefined {
  const v = unwrap(node);
  const items = v.type === "array" ? namedChildren(v) : [v];
  const out: string[] = [];
  for (const item of items) {
    const method = stringValue(unwrap(item))?.toUpperCase();
    if (!method) return undefined;
    out.push(method === "ALL" || method === "*" ? "ANY" : method);
  }
  return out.length ? out : undefined;
}

export function propertyKey(node: Node | null): string | undefined {
  if (!node) return undefined;
  if (node.type === "property_identifier" || node.type === "identifier") {
    return node.text;
  }
  return stringValue(node);
}

/** The key of an object literal member: `key: value` or shorthand `key`. */
export function memberKey(part: Node): string | undefined {
  return part.type === "pair"
    ? propertyKey(part.childForFieldName("key"))
    : part.type === "shorthand_property_identifier"
    ? part.text
    : undefined;
}

/** The value node of `key: value` (or shorthand `key`) in an object literal. */
export function pairValue(object: Node, key: string): Node | undefined {
  for (const part of namedChildren(object)) {
    if (
      part.type === "pair" && propertyKey(part.childForFieldName("key")) === key
    ) {
      return part.childForFieldName("value") ?? undefined;
    }
    if (part.type === "shorthand_property_identifier" && part.text === key) {
      return part;
    }
  }
  return undefined;
}

/** `{ prefix: "/x" }` -> the value of `key`, or an empty value. */
export function optionValue(options: Node | undefined, key: string): Value {
  if (!options) return literal("");
  const v = unwrap(options);
  if (v.type !== "object") return literal("");
  const value = pairValue(v, key);
  return value ? valueOf(value) : literal("");
}

/** An HTTP method written as a string literal (`"post"`), upper-cased. */
export function methodLiteral(node: Node): string | undefined {
  const text = stringValue(unwrap(node))?.toUpperCase();
  return text && HTTP_METHODS.has(text) ? text : undefined;
}

/**
 * The method of a request init or config object: `GET` when none is set,
 * `undefined` when it is not a literal.
 */
export function methodOption(options: Node): string | undefined {
  const v = unwrap(options);
  if (v.type !== "object") return undefined;
  const method = pairValue(v, "method");
  if (!method) {
    return namedChildren(v).some((n) => n.type === "spread_element")
      ? undefined
      : "GET";
  }
  return methodLiteral(method);
}

/** `req.method === "GET"` somewhere in an `&&` chain. */
export function methodTest(node: Node): string | undefined {
  const v = unwrap(node);
  if (v.type !== "binary_expression") return undefined;
  const operator = v.childForFieldName("operator")?.text;
  const left = v.childForFieldName("left");
  const right = v.childForFieldName("right");
  if (!left || !right) return undefined;
  if (operator === "&&") return methodTest(left) ?? methodTest(right);
  if (operator !== "===" && operator !== "==") return undefined;
  const [member, literal] = /\.method$/.test(unwrap(left).text)
    ? [left, right]
    : [right, left];
  if (!/\.method$/.test(unwrap(member).text)) return undefined;
  return methodLiteral(literal);
}

/** The local an `export default x` / `module.exports = x` stands for. */
export function exportedLocal(node: Node): string | undefined {
  const v = unwrap(node);
  if (v.type === "identifier") return v.text;
  if (FUNCTION_TYPES.has(v.type)) {
    const name = v.childForFieldName("name")?.text;
    return `fn:${name ?? "default"}`;
  }
  if (v.type === "call_expression") {
    const args = argList(v);
    // export default fp(plugin)
    if (args[0] && args.length === 1) return exportedLocal(args[0]);
    // module.exports = router.routes() (koa-router)
    const member = memberOf(unwrap(v.childForFieldName("function")!));
    if (
      args.length === 0 &&
      (member?.method === "routes" || member?.method === "middleware")
    ) return exportedLocal(member.object);
  }
  return undefined;
}

/** A declarator that names one value: `const name = value`. */
export interface NamedValue {
  /** The name (an identifier). */
  name: Node;
  /** The value, as written (not unwrapped). */
  value: Node;
}

/**
 * The name and value of a declarator `name = value` whose name is an
 * identifier (not a destructuring pattern, nor `let x;`), else `undefined`.
 */
export function namedValue(declarator: Node): NamedValue | undefined {
  const name = declarator.childForFieldName("name");
  const value = declarator.childForFieldName("value");
  return name?.type === "identifier" && value ? { name, value } : undefined;
}

/** {@linkcode namedValue} of each declarator that names one value. */
export function namedValues(declarators: readonly Node[]): NamedValue[] {
  return declarators.flatMap((d) => namedValue(d) ?? []);
}

/**
 * A call on a member, `object.method(...args)` or `object["method"](...)`:
 * what the readers of such calls (routers, clients, frameworks) are given.
 */
export interface MemberCall {
  /** The call expression. */
  node: Node;
  /** The receiver, as written (not unwrapped). */
  object: Node;
  /** The member's name. */
  method: string;
  /** The arguments. */
  args: Node[];
}

/**
 * The object and method name of a member callee: `a.b` and `a["b"]` (a
 * literal key), or `undefined`.
 */
export function memberOf(
  callee: Node,
): { object: Node; method: string } | undefined {
  if (callee.type === "member_expression") {
    const object = callee.childForFieldName("object");
    const method = callee.childForFieldName("property")?.text ?? "";
    return object ? { object, method } : undefined;
  }
  if (callee.type === "subscript_expression") {
    const object = callee.childForFieldName("object");
    const index = callee.childForFieldName("index");
    const method = index ? stringValue(index) : undefined;
    return object && method !== undefined ? { object, method } : undefined;
  }
  return undefined;
}

/**
 * The elements an identifier stands for when it is the first parameter of
 * a callback run over an array literal (`ROUTES.forEach((r) => ...)`,
 * `.map`), the array bound to a name in the same file; else `undefined`.
 */
export function callbackElements(
  identifier: Node,
  arrays: ReadonlyMap<string, Node>,
): Node[] | undefined {
  const fn = findAncestor(identifier, FUNCTION_TYPES);
  const call = fn?.parent?.parent;
  if (
    !fn || fn.parent?.type !== "arguments" || call?.type !== "call_expression"
  ) {
    return undefined;
  }
  const params = fn.childForFieldName("parameters");
  const first = fn.childForFieldName("parameter") ??
    (params ? namedChildren(params)[0] : undefined);
  const name = first?.type === "identifier"
    ? first
    : first?.childForFieldName("pattern");
  if (name?.text !== identifier.text) return undefined;
  const member = memberOf(unwrap(call.childForFieldName("function")!));
  if (member?.method !== "forEach" && member?.method !== "map") {
    return undefined;
  }
  const array = unwrap(member.object);
  const literal = array.type === "array"
    ? array
    : array.type === "identifier"
    ? arrays.get(array.text)
    : undefined;
  return literal ? namedChildren(literal).map(unwrap) : undefined;
}

/**
 * Whether `name` is a parameter of the function enclosing `node`: its index
 * and the function's name (`undefined` for an anonymous function).
 */
export function parameterOf(
  node: Node,
  name: string,
): { index: number; name: string | undefined } | undefined {
  const fn = findAncestor(node, FUNCTION_TYPES);
  if (!fn) return undefined;
  const index = parameterIndex(fn, name);
  if (index === undefined) return undefined;
  let own = fn.childForFieldName("name")?.text;
  if (!own && fn.parent?.type === "variable_declarator") {
    own = fn.parent.childForFieldName("name")?.text;
  }
  return { index, name: own };
}

/**
 * The value with each `constant` hole that names a parameter of a function
 * around `node` made a `parameter` hole named by the parameter's position
 * (`"1"`): what a plugin function's callers pass (see `MountRec.args`).
 */
export function parameterHoles(node: Node, value: Value): Value {
  return fillHoles(value, "constant", (name) => {
    if (!/^[A-Za-z_$][\w$]*$/.test(name)) return undefined;
    for (
      let fn = findAncestor(node, FUNCTION_TYPES);
      fn;
      fn = findAncestor(fn, FUNCTION_TYPES)
    ) {
      const index = parameterIndex(fn, name);
      if (index !== undefined) return hole(String(index), "parameter");
    }
    return undefined;
  });
}

/** The position of a function's parameter of that name. */
function parameterIndex(fn: Node, name: string): number | undefined {
  const single = fn.childForFieldName("parameter");
  const params = fn.childForFieldName("parameters");
  const list = single
    ? [single]
    : params
    ? namedChildren(params).filter((p) => p.type !== "comment")
    : [];
  const index = list.findIndex((p) => {
    const id = p.type === "identifier"
      ? p
      : p.childForFieldName("pattern") ?? p.childForFieldName("left");
    return id?.text === name;
  });
  return index === -1 ? undefined : index;
}

/**
 * The name of the function whose first parameter is `identifier`: the
 * identifier is then that function's router argument (a plugin).
 */
export function pluginOf(identifier: Node): string | undefined {
  // the innermost function that takes the name as its first parameter
  let fn = findAncestor(identifier, FUNCTION_TYPES);
  for (let depth = 0; fn && depth < 8; depth++) {
    if (firstParameter(fn) === identifier.text) break;
    if (declaresParameter(fn, identifier.text)) return undefined;
    fn = findAncestor(fn, FUNCTION_TYPES);
  }
  if (!fn) return undefined;
  const params = fn.childForFieldName("parameters");
  const single = fn.childForFieldName("parameter");
  let first: Node | undefined;
  if (single) first = single;
  else if (params) {
    const p = namedChildren(params)[0];
    first = p?.type === "required_parameter" || p?.type === "optional_parameter"
      ? p.childForFieldName("pattern") ?? undefined
      : p;
  }
  if (first?.type !== "identifier" || first.text !== identifier.text) {
    return undefined;
  }
  const own = fn.childForFieldName("name")?.text;
  if (own) return own;
  let parent = fn.parent;
  while (parent?.type === "parenthesized_expression") parent = parent.parent;
  if (parent?.type === "variable_declarator") {
    return parent.childForFieldName("name")?.text;
  }
  if (parent?.type === "export_statement") return "default";
  if (parent?.type === "assignment_expression") {
    const left = parent.childForFieldName("left")?.text ?? "";
    if (left === "module.exports") return "default";
    const m = /^(?:module\.)?exports\.([A-Za-z_$][\w$]*)$/.exec(left);
    if (m) return m[1];
  }
  if (parent?.type === "arguments") {
    // export default fp(async (app) => { ... })
    const call = parent.parent;
    const holder = call?.parent;
    if (holder?.type === "export_statement") return "default";
    if (holder?.type === "variable_declarator") {
      return holder.childForFieldName("name")?.text;
    }
    // app.register(async (instance, opts) => { ... }, { prefix }),
    const callee = call ? call.childForFieldName("function") : null;
    // Elysia app.group("/v1", (app) => app.get(...))
    const method = callee ? memberOf(unwrap(callee))?.method : undefined;
    if (method === "register" || method === "group") {
      return `@${fn.startIndex}`;
    }
  }
  return undefined;
}

/** The name of a function's first parameter, if it is a plain name. */
function firstParameter(fn: Node): string | undefined {
  const single = fn.childForFieldName("parameter");
  if (single) return single.type === "identifier" ? single.text : undefined;
  const params = fn.childForFieldName("parameters");
  const p = params ? namedChildren(params)[0] : undefined;
  const id =
    p?.type === "required_parameter" || p?.type === "optional_parameter"
      ? p.childForFieldName("pattern")
      : p;
  return id?.type === "identifier" ? id.text : undefined;
}

/** Whether a function declares a parameter of that name. */
function declaresParameter(fn: Node, name: string): boolean {
  const single = fn.childForFieldName("parameter");
  if (single) return single.text === name;
  const params = fn.childForFieldName("parameters");
  return (params ? namedChildren(params) : []).some((p) => {
    const id = p.type === "identifier"
      ? p
      : p.childForFieldName("pattern") ?? p.childForFieldName("left");
    return id?.text === name;
  });
}

/** The name of a function: declared, or the variable it is assigned to. */
export function functionName(fn: Node): string | undefined {
  const own = fn.childForFieldName("name")?.text;
  if (own) return own;
  let parent = fn.parent;
  while (parent?.type === "parenthesized_expression") parent = parent.parent;
  return parent?.type === "variable_declarator"
    ? parent.childForFieldName("name")?.text
    : undefined;
}
