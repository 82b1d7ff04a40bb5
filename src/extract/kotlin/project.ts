// One Kotlin file of a scan root: string values (templates, `+`,
// constants of objects and companions across files, Spring placeholders),
// declarations in scope, and the types of receivers.
import type { Node } from "web-tree-sitter";
import type { SourceFile } from "../extractor.ts";
import type { ExtractedPort } from "../types.ts";
import {
  composed,
  concat,
  exactText,
  formatPlaceholders,
  hole,
  literal,
  type Value,
} from "../_value/mod.ts";
import { namedChildren, walk } from "../_syntax/tree.ts";
import { type KeptTrees, TreeFile } from "../_syntax/passes.ts";
import type { SpringSettings } from "../_spring/settings.ts";
import {
  annotationsIn,
  annotationsOf,
  callOf,
  type KtAnnotation,
  nameOf,
  ownAnnotations,
  templateParts,
  typeText,
} from "./nodes.ts";

/** How deep an expression is evaluated (a bound on hostile input). */
const MAX_DEPTH = 12;

/** A name's declaration in scope. */
export interface KtDeclaration {
  /** The `property_declaration`, `class_parameter`, `parameter`... node. */
  node: Node;
  /** The declared type's text (`WebClient.Builder`), or `""`. */
  type: string;
  /** The initializer, if any. */
  value: Node | undefined;
  /** A function's or a lambda's parameter: its callers supply it. */
  parameter: boolean;
  annotations: KtAnnotation[];
}

/** The facts of a Kotlin scan root shared by its files. */
export interface KtRoot {
  /** `const val`/top-level `val` strings: `NAME` and `Holder.NAME`. */
  constants: Map<string, Value>;
  settings: SpringSettings;
  /** Interfaces implemented by Spring controllers, with the class's prefix. */
  implementers: Map<string, Node | null>;
}

/** One Kotlin file being scanned. */
export class KtFile extends TreeFile {
  readonly root: KtRoot;

  constructor(
    file: SourceFile,
    root: KtRoot,
    ports: ExtractedPort[],
    kept?: KeptTrees,
  ) {
    super(file, root.constants, ports, kept);
    this.root = root;
  }

  /** The calls named `name` across the root's kept trees and this file. */
  calls(name: string): Node[] {
    const root = this.#root;
    if (this.kept) return this.kept.calls(kotlinCalledName).calls(name, root);
    const out: Node[] = [];
    if (root) {
      walk(root, (node) => {
        if (kotlinCalledName(node) === name) out.push(node);
      });
    }
    return out;
  }

  /** Sets the tree of this file (before it is read). */
  setRoot(root: Node): void {
    this.#root = root;
  }
  #root: Node | undefined;

  /**
   * The base URL a client receiver was built with: `baseUrl(...)` of a
   * WebClient, RestClient or Retrofit builder, `rootUri(...)` of a
   * RestTemplateBuilder, Ktor's `defaultRequest { url(...) }`.
   */
  clientBase(receiver: Node): Value | undefined {
    let expr: Node | undefined = receiver;
    const decl = this.receiverDeclaration(receiver);
    if (decl) expr = decl.value;
    for (let i = 0; expr && i < 16; i++) {
      const call = callOf(expr);
      if (!call) return undefined;
      if (
        (call.name === "baseUrl" || call.name === "rootUri") && call.args[0]
      ) {
        return this.evaluate(call.args[0].value);
      }
      if (call.lambda) {
        const url = defaultRequestUrl(call.lambda);
        if (url) return this.evaluate(url);
      }
      expr = call.receiver;
    }
    return undefined;
  }

  /** A literal text with its Spring `${key:default}` placeholders resolved. */
  placeholders(text: string, at?: Node): Value {
    const path = at ? this.pathOf(at) : this.file.path;
    return this.root.settings.resolve(path, text);
  }

  /** Evaluates a string expression to a value. */
  evaluate(node: Node | null | undefined, depth = 0): Value {
    if (!node || depth > MAX_DEPTH) return hole("?");
    switch (node.type) {
      case "string_literal":
      case "multiline_string_literal":
        return this.template(node, depth);
      case "parenthesized_expression":
        return this.evaluate(namedChildren(node)[0], depth + 1);
      case "binary_expression": {
        const [left, right] = namedChildren(node);
        const operator = node.children.find((c) => c && !c.isNamed)?.text;
        if (operator !== "+" || !left || !right) return hole(node.text);
        return concat([
          this.evaluate(left, depth + 1),
          this.evaluate(right, depth + 1),
        ]);
      }
      case "identifier":
        return this.resolveName(node.text, node, depth) ?? hole(node.text);
      case "navigation_expression": {
        const parts = namedChildren(node);
        const object = parts[0];
        const field = parts[parts.length - 1]?.text ?? "";
        if (object?.type === "this_expression") {
          return this.resolveName(field, node, depth) ?? hole(node.text);
        }
        // `Paths.API`, `com.acme.Paths.API`: the holder and the name
        const holder = object?.text.replace(/\s+/g, "").split(".").pop();
        const found = this.constant(`${holder}.${field}`);
        return found ? composed(found) : hole(node.text);
      }
      case "call_expression":
        return this.evaluateCall(node, depth);
      default:
        return hole(node.text);
    }
  }

  /** `"...".format(x)`, `String.format(...)`, `URI(x)`, `URI.create(x)`. */
  evaluateCall(node: Node, depth: number): Value {
    const call = callOf(node);
    if (!call || call.lambda) return hole(node.text);
    const first = call.args[0]?.value;
    if (call.name === "format" && call.receiver) {
      const format = call.receiver.text === "String" ? first : call.receiver;
      const value = this.evaluate(format, depth + 1);
      return exactText(value) === undefined ? value : formatPlaceholders(value);
    }
    if (
      first && call.args.length === 1 &&
      ((call.name === "URI" && !call.receiver) ||
        (call.name === "create" && call.receiver?.text === "URI"))
    ) {
      return this.evaluate(first, depth + 1);
    }
    if (call.name === "trimIndent" || call.name === "trim") {
      return call.receiver ? this.evaluate(call.receiver, depth + 1) : hole();
    }
    return hole(node.text);
  }

  /** A string template: its text, templates and Spring placeholders. */
  template(node: Node, depth: number): Value {
    return concat(
      templateParts(node).map((part) =>
        "text" in part
          ? this.placeholders(part.text, node)
          : "name" in part
          ? this.resolveName(part.name, part.at, depth + 1) ?? hole(part.name)
          : this.evaluate(part.expression, depth + 1)
      ),
    );
  }

  /** Resolves a name to a local, a property, a parameter or a constant. */
  resolveName(name: string, at: Node, depth: number): Value | undefined {
    const decl = this.findDeclaration(name, at);
    if (decl) {
      if (decl.parameter) return hole(name, "parameter");
      const spring = springValue(decl.annotations);
      if (spring) {
        return composed(this.evaluate(spring, depth + 1));
      }
      if (!decl.value) return this.constant(name);
      return composed(this.evaluate(decl.value, depth + 1));
    }
    const constant = this.constant(name);
    return constant ? composed(constant) : undefined;
  }

  /** A constant, as this file's module defines it, else as any file does. */
  constant(key: string): Value | undefined {
    return this.constants.get(`${moduleOf(this.file.path)}|${key}`) ??
      this.constants.get(key);
  }

  /** Finds the declaration of a name in scope at a node. */
  findDeclaration(name: string, at: Node): KtDeclaration | undefined {
    for (let scope: Node | null = at.parent; scope; scope = scope.parent) {
      switch (scope.type) {
        case "block":
        case "lambda_literal":
        case "source_file":
        case "class_body": {
          for (const stmt of namedChildren(scope)) {
            if (
              scope.type !== "class_body" && scope.type !== "source_file" &&
              stmt.startIndex > at.startIndex
            ) break;
            if (stmt.type !== "property_declaration") continue;
            const found = propertyNamed(stmt, name);
            if (found) return found;
          }
          if (scope.type === "lambda_literal") {
            const params = namedChildren(scope).find((c) =>
              c.type === "lambda_parameters"
            );
            for (const p of params ? namedChildren(params) : []) {
              if (p.text === name || nameOf(p) === name) {
                return declaration(p, true);
              }
            }
          }
          break;
        }
        case "function_declaration":
        case "secondary_constructor": {
          const list = namedChildren(scope).find((c) =>
            c.type === "function_value_parameters"
          );
          let pending: KtAnnotation[] = [];
          for (const p of list ? namedChildren(list) : []) {
            if (p.type === "parameter_modifiers") {
              pending = annotationsIn(p);
            } else if (p.type === "parameter") {
              if (nameOf(p) === name) {
                const d = declaration(p, true);
                d.annotations = pending;
                return d;
              }
              pending = [];
            }
          }
          break;
        }
        case "class_declaration": {
          const ctor = namedChildren(scope).find((c) =>
            c.type === "primary_constructor"
          );
          const params = ctor
            ? namedChildren(ctor).find((c) => c.type === "class_parameters")
            : undefined;
          for (const p of params ? namedChildren(params) : []) {
            if (p.type === "class_parameter" && nameOf(p) === name) {
              // a constructor property: injected, its value from Spring
              return declaration(p, false);
            }
          }
          break;
        }
      }
    }
    return undefined;
  }

  /** The declared type of a receiver (`x`, `this.x`), by its simple text. */
  receiverType(node: Node | undefined): string | undefined {
    if (!node) return undefined;
    const decl = this.receiverDeclaration(node);
    if (!decl) {
      return node.type === "call_expression"
        ? this.expressionType(node)
        : undefined;
    }
    if (decl.type) return decl.type;
    return decl.value ? this.expressionType(decl.value) : undefined;
  }

  /** The declaration of a receiver `x` or `this.x`. */
  receiverDeclaration(node: Node): KtDeclaration | undefined {
    let name: string | undefined;
    if (node.type === "identifier") name = node.text;
    else if (node.type === "navigation_expression") {
      const parts = namedChildren(node);
      if (parts[0]?.type === "this_expression" && parts.length === 2) {
        name = parts[1]?.text;
      }
    }
    return name ? this.findDeclaration(name, node) : undefined;
  }

  /**
   * The type an expression makes: `T(...)`, `T.create()`, `T.builder()...
   * build()`, `builder.build()` of a declared `T.Builder`, `HttpClient(CIO)
   * { ... }`.
   */
  expressionType(node: Node, depth = 0): string | undefined {
    if (depth > 8) return undefined;
    const call = callOf(node);
    if (!call) return undefined;
    if (!call.receiver) {
      return /^[A-Z]/.test(call.name) ? call.name : undefined;
    }
    // the root of a chain: `WebClient.builder()...build()`
    let root: Node = call.receiver;
    for (let i = 0; i < 16; i++) {
      const inner = callOf(root);
      if (!inner?.receiver) break;
      root = inner.receiver;
    }
    if (root.type === "identifier" && /^[A-Z]/.test(root.text)) {
      const decl = this.findDeclaration(root.text, root);
      if (!decl) return root.text;
    }
    const type = this.receiverType(root);
    if (type?.endsWith(".Builder") && call.name === "build") {
      return type.slice(0, -".Builder".length);
    }
    if (type === "RestTemplateBuilder" && call.name === "build") {
      return "RestTemplate";
    }
    return type?.endsWith(".Builder") || type?.endsWith("Builder")
      ? undefined
      : type;
  }
}

/** The name a call expression calls (the outer call of `f(x) { }`). */
export function kotlinCalledName(node: Node): string | undefined {
  if (node.type !== "call_expression") return undefined;
  const parent = node.parent;
  if (
    parent?.type === "call_expression" && parent.namedChild(0)?.id === node.id
  ) {
    return undefined;
  }
  return callOf(node)?.name;
}

/** `defaultRequest { url("http://base/") }` in a Ktor client's configuration. */
function defaultRequestUrl(lambda: Node): Node | undefined {
  for (const stmt of namedChildren(lambda)) {
    const call = callOf(stmt);
    if (call?.name !== "defaultRequest" || !call.lambda) continue;
    for (const inner of namedChildren(call.lambda)) {
      const url = callOf(inner);
      if (url?.name === "url" && !url.receiver && url.args[0]) {
        return url.args[0].value;
      }
    }
  }
  return undefined;
}

/** The `@Value("...")` argument among annotations, if any. */
export function springValue(
  annotations: readonly KtAnnotation[],
): Node | undefined {
  const value = annotations.find((a) => a.name === "Value");
  return value?.args[0]?.value;
}

/** The declaration of `name` by a `property_declaration`, if it is one. */
function propertyNamed(stmt: Node, name: string): KtDeclaration | undefined {
  const variable = namedChildren(stmt).find((c) =>
    c.type === "variable_declaration"
  );
  if (!variable || nameOf(variable) !== name) return undefined;
  const children = namedChildren(stmt);
  const eq = stmt.children.findIndex((c) => c?.type === "=");
  const value = eq < 0
    ? undefined
    : children.find((c) => c.startIndex >= stmt.children[eq]!.endIndex);
  return {
    node: stmt,
    type: typeText(
      namedChildren(variable).find((c) =>
        c.type === "user_type" || c.type === "nullable_type"
      ),
    ),
    value,
    parameter: false,
    annotations: ownAnnotations(stmt),
  };
}

/** A parameter's or a constructor property's declaration. */
function declaration(node: Node, parameter: boolean): KtDeclaration {
  const children = namedChildren(node);
  const type = children.find((c) =>
    c.type === "user_type" || c.type === "nullable_type"
  );
  const eq = node.children.findIndex((c) => c?.type === "=");
  const value = eq < 0
    ? undefined
    : children.find((c) => c.startIndex >= node.children[eq]!.endIndex);
  return {
    node,
    type: typeText(type),
    value,
    parameter,
    annotations: ownAnnotations(node),
  };
}

/**
 * Collects the string constants of a file: `const val`, and `val`s of the
 * top level, objects and companion objects with a string initializer, as
 * `NAME` and `Holder.NAME` (a companion's under its class).
 */
export function collectConstants(
  root: Node,
  constants: Map<string, Value>,
  path = "",
): void {
  const module = moduleOf(path);
  walk(root, (node) => {
    if (
      node.type === "function_declaration" || node.type === "lambda_literal"
    ) return false;
    if (node.type !== "property_declaration") return;
    if (!node.children.some((c) => c?.type === "val")) return;
    const holder = holderOf(node);
    if (holder === undefined) return;
    const name = nameOf(
      namedChildren(node).find((c) => c.type === "variable_declaration") ??
        node,
    );
    const decl = name ? propertyNamed(node, name) : undefined;
    if (!name || !decl?.value) return;
    const value = constantValue(decl.value, holder);
    if (!value) return;
    if (holder) {
      constants.set(`${holder}.${name}`, value);
      constants.set(`${module}|${holder}.${name}`, value);
    }
    if (!constants.has(name)) constants.set(name, value);
    constants.set(`${module}|${name}`, value);
    return false;
  });
}

/** The module of a source file: the path up to its `src/` folder. */
export function moduleOf(path: string): string {
  const at = path.lastIndexOf("src/");
  return at === -1 ? "" : path.slice(0, at);
}

/** `""` at the top level, the object's or class's name, undefined elsewhere. */
function holderOf(property: Node): string | undefined {
  const parent = property.parent;
  if (parent?.type === "source_file") return "";
  if (parent?.type !== "class_body") return undefined;
  const owner = parent.parent;
  if (owner?.type === "object_declaration") return nameOf(owner) ?? "";
  if (owner?.type === "companion_object") {
    const cls = owner.parent?.parent;
    return cls ? nameOf(cls) ?? "" : "";
  }
  return undefined;
}

/** A constant's value: literal templates, `+`, names of other constants. */
function constantValue(
  node: Node,
  holder: string,
  depth = 0,
): Value | undefined {
  if (depth > MAX_DEPTH) return undefined;
  switch (node.type) {
    case "string_literal":
    case "multiline_string_literal": {
      const parts: Value[] = [];
      for (const part of templateParts(node)) {
        if ("text" in part) parts.push(literal(part.text));
        else if ("name" in part) {
          parts.push(
            hole(holder ? `${holder}.${part.name}` : part.name, "constant"),
          );
        } else {
          const v = constantValue(part.expression, holder, depth + 1);
          if (!v) return undefined;
          parts.push(v);
        }
      }
      return concat(parts);
    }
    case "binary_expression": {
      const [left, right] = namedChildren(node);
      const operator = node.children.find((c) => c && !c.isNamed)?.text;
      if (operator !== "+" || !left || !right) return undefined;
      const l = constantValue(left, holder, depth + 1);
      const r = constantValue(right, holder, depth + 1);
      return l && r ? concat([l, r]) : undefined;
    }
    case "identifier":
      return hole(holder ? `${holder}.${node.text}` : node.text, "constant");
    case "navigation_expression": {
      const parts = namedChildren(node);
      if (parts.length !== 2) return undefined;
      const holderName = parts[0]!.text.replace(/\s+/g, "").split(".").pop();
      return hole(`${holderName}.${parts[1]!.text}`, "constant");
    }
    default:
      return undefined;
  }
}

export { annotationsOf };
