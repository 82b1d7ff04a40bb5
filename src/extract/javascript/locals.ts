// Local variables of the function around a call: `var url = "/api/cart/" +
// id; $http({ url: url })` reads the URL from the declaration in the same
// function (or an enclosing one) when the function never assigns the name
// again. File-wide constants are one name for the whole file; locals of
// the same name in different functions are told apart here.
import { fillHoles, type Value } from "../_value/mod.ts";
import type { Node } from "../_syntax/tree.ts";
import { isStringish } from "./nodes.ts";
import { unwrap, valueOf } from "./values.ts";

const FUNCTIONS: ReadonlySet<string> = new Set([
  "function_declaration",
  "function_expression",
  "function",
  "arrow_function",
  "method_definition",
  "generator_function_declaration",
]);

/** Nodes one lookup may visit in a function body (a bound on hostile input). */
const MAX_VISITS = 20_000;

/**
 * The value `name` is declared with directly in `fn` (not in a nested
 * function), when the function never assigns the name again.
 */
function declaredValue(fn: Node, name: string): Node | undefined {
  let found: Node | undefined;
  let assigned = 0;
  let visits = 0;
  const visit = (node: Node): void => {
    if (++visits > MAX_VISITS) return;
    for (let i = 0; i < node.namedChildCount; i++) {
      const child = node.namedChild(i);
      if (!child || FUNCTIONS.has(child.type)) continue;
      if (
        child.type === "variable_declarator" &&
        child.childForFieldName("name")?.text === name
      ) {
        found = found === undefined ? child : undefined;
        assigned++;
      } else if (
        (child.type === "assignment_expression" ||
          child.type === "augmented_assignment_expression") &&
        child.childForFieldName("left")?.text === name
      ) assigned += 2;
      visit(child);
    }
  };
  const body = fn.childForFieldName("body");
  if (body) visit(body);
  if (visits > MAX_VISITS || assigned !== 1 || !found) return undefined;
  return found.childForFieldName("value") ?? undefined;
}

/** A string-like declaration of `name` made directly in `fn`. */
function declared(fn: Node, name: string): Node | undefined {
  const value = declaredValue(fn, name);
  return value && isStringish(unwrap(value)) ? value : undefined;
}

/**
 * The object literal a local holds where `at` reads it: declared as one
 * (`const init = { method: "POST" }`), or as the result of a function of
 * the file or a method of the same class that returns one
 * (`const request = this.createRequest(car)`); `undefined` otherwise.
 */
export function localObject(at: Node, name: string): Node | undefined {
  for (let scope = at.parent; scope; scope = scope.parent) {
    if (!FUNCTIONS.has(scope.type)) continue;
    const value = declaredValue(scope, name);
    if (!value) continue;
    const v = unwrap(value);
    if (v.type === "object") return v;
    if (v.type !== "call_expression") return undefined;
    const fn = calledFunction(v);
    const result = fn ? returnedObject(fn) : undefined;
    return result;
  }
  return undefined;
}

/** The function of the file (or method of the class) a call names. */
function calledFunction(call: Node): Node | undefined {
  const callee = unwrap(call.childForFieldName("function") ?? call);
  if (
    callee.type === "member_expression" &&
    callee.childForFieldName("object")?.type === "this"
  ) {
    const name = callee.childForFieldName("property")?.text;
    for (let p = call.parent; p; p = p.parent) {
      if (p.type !== "class_body") continue;
      for (let i = 0; i < p.namedChildCount; i++) {
        const member = p.namedChild(i);
        if (
          member?.type === "method_definition" &&
          member.childForFieldName("name")?.text === name
        ) return member;
      }
      return undefined;
    }
    return undefined;
  }
  if (callee.type !== "identifier") return undefined;
  let root = call;
  while (root.parent) root = root.parent;
  for (let i = 0; i < root.namedChildCount; i++) {
    let top = root.namedChild(i);
    if (top?.type === "export_statement") {
      top = top.childForFieldName("declaration") ?? top;
    }
    if (
      top?.type === "function_declaration" &&
      top.childForFieldName("name")?.text === callee.text
    ) return top;
  }
  return undefined;
}

/** The object literal a function returns, when its only `return` is one. */
function returnedObject(fn: Node): Node | undefined {
  const body = fn.childForFieldName("body");
  if (!body) return undefined;
  if (body.type !== "statement_block") {
    const v = unwrap(body);
    return v.type === "object" ? v : undefined;
  }
  let found: Node | undefined;
  for (let i = 0; i < body.namedChildCount; i++) {
    const stmt = body.namedChild(i);
    if (stmt?.type !== "return_statement") continue;
    if (found !== undefined) return undefined;
    const returned = stmt.namedChild(0);
    const v = returned ? unwrap(returned) : undefined;
    if (v?.type === "identifier") {
      const local = declaredValue(fn, v.text);
      found = local ? unwrap(local) : undefined;
    } else found = v;
    if (found?.type !== "object") return undefined;
  }
  return found;
}

/** `url` with the `constant` holes that name locals of the functions around `at` filled. */
export function withLocals(at: Node, url: Value, depth = 0): Value {
  if (depth > 4) return url;
  return fillHoles(url, "constant", (name) => {
    if (!/^[A-Za-z_$][\w$]*$/.test(name)) return undefined;
    for (let scope = at.parent; scope; scope = scope.parent) {
      if (!FUNCTIONS.has(scope.type)) continue;
      const value = declared(scope, name);
      if (value) return withLocals(value, valueOf(value), depth + 1);
    }
    return undefined;
  });
}
