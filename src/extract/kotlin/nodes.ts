// Kotlin syntax helpers over the tree-sitter-kotlin grammar: calls (callee,
// receiver, arguments, trailing lambda), annotations (with the grammar's
// misreading of a top-level class's annotations repaired), declarations
// and their members.
import type { Node } from "web-tree-sitter";
import { namedChildren, unescapeString } from "../_syntax/tree.ts";

/** The parts of a call `receiver.name<T>(args) { lambda }`. */
export interface KtCall {
  node: Node;
  /** The called name (`get` of `client.get(...)`). */
  name: string;
  /** The receiver expression, when the callee is `receiver.name`. */
  receiver: Node | undefined;
  /** The value arguments, in order (named ones too). */
  args: KtArgument[];
  /** The trailing lambda's `lambda_literal`, if any. */
  lambda: Node | undefined;
}

/** One value argument: `name = value` or a positional value. */
export interface KtArgument {
  name: string | undefined;
  value: Node;
}

/** The parts of a `call_expression`, or undefined for another node. */
export function callOf(node: Node): KtCall | undefined {
  if (node.type !== "call_expression") return undefined;
  const children = namedChildren(node);
  const callee = children[0];
  if (!callee) return undefined;
  let name: string | undefined;
  let receiver: Node | undefined;
  let args: KtArgument[] = [];
  let lambda: Node | undefined;
  // `get("/x") { ... }` is a call of a call: the inner one has the arguments.
  if (callee.type === "call_expression") {
    const innerCall = callOf(callee);
    if (!innerCall || innerCall.lambda) return undefined;
    name = innerCall.name;
    receiver = innerCall.receiver;
    args = innerCall.args;
  } else if (callee.type === "identifier") {
    name = callee.text;
  } else if (callee.type === "navigation_expression") {
    const parts = namedChildren(callee);
    const last = parts[parts.length - 1];
    if (last?.type !== "identifier" || parts.length < 2) return undefined;
    name = last.text;
    receiver = parts[0];
  } else {
    return undefined;
  }
  for (const child of children.slice(1)) {
    if (child.type === "value_arguments") args = argumentsOf(child);
    else if (child.type === "annotated_lambda") {
      lambda = namedChildren(child).find((c) => c.type === "lambda_literal");
    }
  }
  return { node, name, receiver, args, lambda };
}

/** The arguments of a `value_arguments` node. */
export function argumentsOf(list: Node): KtArgument[] {
  const out: KtArgument[] = [];
  for (const arg of namedChildren(list)) {
    if (arg.type !== "value_argument") continue;
    const parts = namedChildren(arg);
    const named = parts.length >= 2 && parts[0]?.type === "identifier" &&
      arg.children.some((c) => c?.type === "=");
    const value = parts[parts.length - 1];
    if (!value) continue;
    out.push({ name: named ? parts[0]!.text : undefined, value });
  }
  return out;
}

/** An argument by name, else the positional one at `index`. */
export function argument(
  args: readonly KtArgument[],
  names: readonly string[],
  index: number,
): Node | undefined {
  const named = args.find((a) =>
    a.name !== undefined && names.includes(a.name)
  );
  if (named) return named.value;
  const positional = args.filter((a) => a.name === undefined);
  return positional[index]?.value;
}

/** One annotation: its simple name and arguments. */
export interface KtAnnotation {
  node: Node;
  /** The simple name (`RequestMapping` of `@org.x.RequestMapping`). */
  name: string;
  args: KtArgument[];
}

/** Reads an `annotation` node. */
export function annotationOf(node: Node): KtAnnotation | undefined {
  const body = namedChildren(node).find((c) =>
    c.type === "user_type" || c.type === "constructor_invocation"
  );
  if (!body) return undefined;
  const type = body.type === "user_type"
    ? body
    : namedChildren(body).find((c) => c.type === "user_type");
  const list = body.type === "constructor_invocation"
    ? namedChildren(body).find((c) => c.type === "value_arguments")
    : undefined;
  return {
    node,
    name: simpleTypeName(type),
    args: list ? argumentsOf(list) : [],
  };
}

/** The simple name of a type node (`B` of `a.B<C>`). */
export function simpleTypeName(type: Node | undefined | null): string {
  if (!type) return "";
  const ids = namedChildren(type).filter((c) => c.type === "identifier");
  return ids[ids.length - 1]?.text ?? type.text.replace(/<.*$/s, "").trim();
}

/** The text of a type with generics and nullability dropped (`WebClient.Builder`). */
export function typeText(type: Node | undefined | null): string {
  if (!type) return "";
  let node: Node | undefined = type;
  while (node && node.type !== "user_type") {
    node = namedChildren(node).find((c) =>
      c.type === "user_type" || c.type === "nullable_type" ||
      c.type === "non_nullable_type"
    );
  }
  if (!node) return "";
  return namedChildren(node).filter((c) => c.type === "identifier")
    .map((c) => c.text).join(".");
}

/** The annotations in a declaration's `modifiers` (or `parameter_modifiers`). */
export function ownAnnotations(decl: Node): KtAnnotation[] {
  const out: KtAnnotation[] = [];
  for (const child of namedChildren(decl)) {
    if (child.type === "modifiers" || child.type === "parameter_modifiers") {
      out.push(...annotationsIn(child));
    }
  }
  return out;
}

/** The annotations of one `modifiers` node. */
export function annotationsIn(modifiers: Node): KtAnnotation[] {
  const out: KtAnnotation[] = [];
  for (const m of namedChildren(modifiers)) {
    if (m.type !== "annotation") continue;
    const a = annotationOf(m);
    if (a) out.push(a);
  }
  return out;
}

/** One piece of a string template. */
export type TemplatePart =
  | { text: string }
  | { name: string; at: Node }
  | { expression: Node };

/**
 * The pieces of a string literal: text (escapes decoded), `$name` and
 * `${expression}` templates. The grammar reads `$name` in a one-line string
 * as the text `$` then `name...`, and keeps it in a multiline string's text:
 * both are read as templates here (an escaped `\$` stays text).
 */
export function templateParts(string: Node): TemplatePart[] {
  const out: TemplatePart[] = [];
  const text = (t: string): void => {
    const last = out[out.length - 1];
    if (last && "text" in last) last.text += t;
    else out.push({ text: t });
  };
  const raw = string.type === "multiline_string_literal";
  const children = namedChildren(string);
  for (let i = 0; i < children.length; i++) {
    const child = children[i]!;
    if (child.type === "escape_sequence") {
      text(unescapeString(child.text));
    } else if (child.type === "interpolation") {
      const inner = namedChildren(child)[0];
      if (inner?.type === "identifier") {
        out.push({ name: inner.text, at: inner });
      } else if (inner) out.push({ expression: inner });
    } else if (child.type === "string_content") {
      const next = children[i + 1];
      if (!raw && child.text === "$" && next?.type === "string_content") {
        const name = IDENTIFIER.exec(next.text)?.[0];
        if (name) {
          out.push({ name, at: child });
          text(next.text.slice(name.length));
          i++;
          continue;
        }
      }
      if (!raw) {
        text(child.text);
        continue;
      }
      let start = 0;
      for (const m of child.text.matchAll(TEMPLATE_NAME)) {
        text(child.text.slice(start, m.index));
        out.push({ name: m[1]!, at: child });
        start = m.index + m[0].length;
      }
      text(child.text.slice(start));
    }
  }
  return out;
}

const IDENTIFIER = /^[A-Za-z_][A-Za-z0-9_]*/;
const TEMPLATE_NAME = /\$([A-Za-z_][A-Za-z0-9_]*)/g;

/**
 * The annotations of a declaration. The grammar sometimes reads the
 * annotations of a top-level class as an expression of their own before it
 * (`@RequestMapping("/x")` then `class C`: an annotated expression whose
 * last operand is the parenthesized argument): those count too.
 */
export function annotationsOf(decl: Node): KtAnnotation[] {
  const own = ownAnnotations(decl);
  const previous = decl.previousNamedSibling;
  if (previous?.type !== "annotated_expression") return own;
  return [...detachedAnnotations(previous), ...own];
}

/** The annotations of an annotated expression read apart from its class. */
function detachedAnnotations(expression: Node): KtAnnotation[] {
  const out: KtAnnotation[] = [];
  let n: Node | undefined = expression;
  for (let depth = 0; n && depth < 32; depth++) {
    if (n.type !== "annotated_expression") break;
    const children = namedChildren(n);
    const annotation = children.find((c) => c.type === "annotation");
    const operand: Node | undefined = children[children.length - 1];
    const a = annotation ? annotationOf(annotation) : undefined;
    if (!a) break;
    // `@A("/x")`: the argument list was read as a parenthesized operand.
    if (operand?.type === "parenthesized_expression" && a.args.length === 0) {
      const inner = namedChildren(operand)[0];
      if (inner) a.args = [{ name: undefined, value: inner }];
      out.push(a);
      break;
    }
    out.push(a);
    n = operand;
  }
  return out;
}

/** Whether a `class_declaration` declares an interface. */
export function isInterface(decl: Node): boolean {
  return decl.children.some((c) => c?.type === "interface");
}

/** The members of a class, object or companion object body. */
export function membersOf(decl: Node): Node[] {
  const body = namedChildren(decl).find((c) =>
    c.type === "class_body" || c.type === "enum_class_body"
  );
  return body ? namedChildren(body) : [];
}

/** The name of a declaration (`name` field, else its first identifier). */
export function nameOf(decl: Node): string | undefined {
  return (decl.childForFieldName("name") ??
    namedChildren(decl).find((c) => c.type === "identifier"))?.text;
}

/** The supertypes a class declares (`: A, B()`), by simple name. */
export function supertypesOf(decl: Node): string[] {
  const list = namedChildren(decl).find((c) =>
    c.type === "delegation_specifiers"
  );
  const out: string[] = [];
  for (const spec of list ? namedChildren(list) : []) {
    let type: Node | undefined = spec;
    for (let i = 0; type && type.type !== "user_type" && i < 4; i++) {
      type = namedChildren(type).find((c) =>
        c.type === "user_type" || c.type === "constructor_invocation"
      );
    }
    const name = simpleTypeName(type);
    if (name) out.push(name);
  }
  return out;
}

/** The parameters of a function (`parameter` nodes) with their annotations. */
export function parametersOf(
  fn: Node,
): Array<{ node: Node; name: string; annotations: KtAnnotation[] }> {
  const list = namedChildren(fn).find((c) =>
    c.type === "function_value_parameters"
  );
  const out: Array<
    { node: Node; name: string; annotations: KtAnnotation[] }
  > = [];
  let pending: KtAnnotation[] = [];
  for (const child of list ? namedChildren(list) : []) {
    if (child.type === "parameter_modifiers") {
      pending = namedChildren(child).filter((m) => m.type === "annotation")
        .map(annotationOf).filter((a): a is KtAnnotation => a !== undefined);
    } else if (child.type === "parameter") {
      out.push({
        node: child,
        name: nameOf(child) ?? "",
        annotations: pending,
      });
      pending = [];
    }
  }
  return out;
}
