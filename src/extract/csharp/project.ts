// C# extractor: ASP.NET Core minimal APIs (`MapGet`, `MapGroup` prefixes),
// attribute-routed controllers (`[Route("api/[controller]")]` +
// `[HttpGet("{id}")]`), conventionally routed controllers
// (`MapControllerRoute`, `MapRoute`) and HttpClient calls.
import type { Node } from "web-tree-sitter";
import type { SourceFile } from "../extractor.ts";
import type { ExtractedPort } from "../types.ts";
import type { Value } from "../_value/mod.ts";
import { composed, exactText, hole } from "../_value/mod.ts";
import { evaluateStringExpression, formatValue } from "../_value/literals.ts";
import type { ConstantTable, DeclaredConstant } from "../_value/constants.ts";
import {
  collectDeclaredConstants,
  memberConstant,
} from "../_value/constants.ts";
import { anchorOf, namedChildren, walk } from "../_syntax/tree.ts";
import { HTTP_METHODS } from "../_port/http.ts";
import type { ConventionalRoute } from "./conventional.ts";
import { emitClient, requestMessage } from "./clients.ts";
import { controller } from "./controllers.ts";
import { fastEndpoint } from "./fast_endpoints.ts";
import { httpListenerRoutes } from "./http_listener.ts";
import { serviceStackDto, serviceStackRoutesAdd } from "./service_stack.ts";
import { minimalApi } from "./minimal_api.ts";
import type { CSharpIndex } from "./index.ts";
import { CSharpCalls } from "./flow.ts";

export const MAP_METHOD: Record<string, string> = {
  MapGet: "GET",
  MapPost: "POST",
  MapPut: "PUT",
  MapDelete: "DELETE",
  MapPatch: "PATCH",
  Map: "ANY",
  MapMethods: "",
};

export const HTTP_ATTRIBUTE: Record<string, string> = {
  HttpGet: "GET",
  HttpPost: "POST",
  HttpPut: "PUT",
  HttpDelete: "DELETE",
  HttpPatch: "PATCH",
  HttpHead: "HEAD",
  HttpOptions: "OPTIONS",
};

/** The methods a route may name: the standard ones and QUERY (.NET 10). */
export const ROUTE_METHODS: ReadonlySet<string> = new Set([
  ...HTTP_METHODS,
  "QUERY",
]);

/**
 * The HTTP method a route argument names: a string (`"PUT"`) or an
 * `HttpMethods.Put` / `HttpMethod.Put` / `Http.PUT` (FastEndpoints) member,
 * upper case; else undefined.
 */
export function routeMethod(c: CSharpFile, node: Node): string | undefined {
  const n = unwrap(node);
  let text: string | undefined;
  if (n.type === "member_access_expression") {
    const owner = simpleName(n.childForFieldName("expression")?.text ?? "");
    if (owner === "HttpMethods" || owner === "HttpMethod" || owner === "Http") {
      text = n.childForFieldName("name")?.text;
    }
  } else text = exactText(c.evaluate(n));
  const upper = text?.toUpperCase();
  return upper && ROUTE_METHODS.has(upper) ? upper : undefined;
}

export const CLIENT_METHOD: Record<string, string> = {
  GetAsync: "GET",
  GetStringAsync: "GET",
  GetStreamAsync: "GET",
  GetByteArrayAsync: "GET",
  GetFromJsonAsync: "GET",
  PostAsync: "POST",
  PostAsJsonAsync: "POST",
  PutAsync: "PUT",
  PutAsJsonAsync: "PUT",
  PatchAsync: "PATCH",
  PatchAsJsonAsync: "PATCH",
  DeleteAsync: "DELETE",
  DeleteFromJsonAsync: "DELETE",
};

/** The value of a variable declarator (`x = value`). */
export function declaratorValue(declarator: Node): Node | undefined {
  const named = namedChildren(declarator);
  const name = declarator.childForFieldName("name");
  const value = named.find((n) => n.id !== name?.id);
  return value?.type === "equals_value_clause"
    ? value.namedChild(0) ?? undefined
    : value;
}

/** Last segment of a (qualified, generic) type or attribute name. */
export function simpleName(text: string): string {
  let t = text;
  const lt = t.indexOf("<");
  if (lt >= 0) t = t.slice(0, lt);
  t = t.slice(t.lastIndexOf(".") + 1).trim();
  return t.endsWith("Attribute") ? t.slice(0, -"Attribute".length) : t;
}

/** The base types a class declares (`: ControllerBase, IDisposable`). */
export function basesOf(cls: Node): Node[] {
  const list = namedChildren(cls).find((n) => n.type === "base_list");
  return list ? namedChildren(list) : [];
}

/**
 * The simple name of the one type argument of a generic name
 * (`IConsumer<OrderSubmitted>`, `Group<Admin>`), else undefined.
 */
export function typeArgument(node: Node | null): string | undefined {
  if (node?.type !== "generic_name") return undefined;
  const list = namedChildren(node).find((c) => c.type === "type_argument_list");
  const args = list ? namedChildren(list) : [];
  return args.length === 1 ? simpleName(args[0]!.text) : undefined;
}

/** The attributes (with their lists) of a declaration. */
export function attributesOf(decl: Node): Node[] {
  const out: Node[] = [];
  for (const list of namedChildren(decl)) {
    if (list.type !== "attribute_list") continue;
    for (const a of namedChildren(list)) {
      if (a.type === "attribute") out.push(a);
    }
  }
  return out;
}

/** Positional (unnamed) arguments of an attribute. */
export function attributeArgs(attribute: Node): Node[] {
  const list = namedChildren(attribute).find((n) =>
    n.type === "attribute_argument_list"
  );
  if (!list) return [];
  const out: Node[] = [];
  for (const arg of namedChildren(list)) {
    const named = namedChildren(arg);
    // `Name = value` / `name: value` arguments are not templates.
    if (named.length !== 1 || named[0]!.type === "assignment_expression") {
      continue;
    }
    out.push(named[0]!);
  }
  return out;
}

/** The value of an attribute's `Name = value` argument, if any. */
export function namedAttributeArg(
  attribute: Node,
  name: string,
): Node | undefined {
  const list = namedChildren(attribute).find((n) =>
    n.type === "attribute_argument_list"
  );
  for (const arg of list ? namedChildren(list) : []) {
    const value = namedChildren(arg)[0];
    if (
      value?.type === "assignment_expression" &&
      value.childForFieldName("left")?.text === name
    ) return value.childForFieldName("right") ?? undefined;
  }
  return undefined;
}

/** Arguments of an invocation or object creation, unwrapped. */
export function callArgs(call: Node): Node[] {
  const list = call.childForFieldName("arguments");
  if (!list) return [];
  const out: Node[] = [];
  for (const arg of namedChildren(list)) {
    if (arg.type !== "argument") continue;
    const named = namedChildren(arg);
    const value = named[named.length - 1];
    if (value) out.push(value);
  }
  return out;
}

/** Unwraps `await x`, `(x)`, `x!`. */
export function unwrap(node: Node): Node {
  let n = node;
  while (
    n.type === "await_expression" || n.type === "parenthesized_expression" ||
    n.type === "postfix_unary_expression"
  ) {
    const inner = n.namedChild(0);
    if (!inner) break;
    n = inner;
  }
  return n;
}

export interface Declaration {
  type: string;
  value: Node | undefined;
  /** A parameter of a method (its callers supply it). */
  parameter?: boolean;
}

/** One C# file being scanned: string evaluation and declared types. */
export class CSharpFile {
  readonly file: SourceFile;
  readonly constants: Map<string, Value>;
  readonly ports: ExtractedPort[];

  /** Conventional routes registered in the scan (`MapControllerRoute`...). */
  readonly conventional: readonly ConventionalRoute[];

  /** The parsed files of the scan root (calls and classes across files). */
  readonly index: CSharpIndex | undefined;

  constructor(
    file: SourceFile,
    constants: Map<string, Value>,
    ports: ExtractedPort[],
    index?: CSharpIndex,
    conventional: readonly ConventionalRoute[] = [],
  ) {
    this.file = file;
    this.constants = constants;
    this.ports = ports;
    this.index = index;
    this.conventional = conventional;
  }

  /** Class declarations of the scan by simple name (base controllers). */
  get classes(): ((name: string) => Node[]) | undefined {
    const index = this.index;
    return index ? (name) => index.classes(name) : undefined;
  }

  /** The `x.Name(...)` calls of the scan (extension methods). */
  get invocations(): ((name: string) => Node[]) | undefined {
    const index = this.index;
    return index ? (name) => index.calls(name, true) : undefined;
  }

  /** The calls of the scan's methods (for values through parameters). */
  get calls(): CSharpCalls {
    return this.#calls ??= new CSharpCalls(this);
  }
  #calls: CSharpCalls | undefined;
  /** The root node of the file's syntax tree, once it is read. */
  rootNode: Node | undefined;

  evaluate(node: Node | null | undefined, depth = 0): Value {
    if (!node || depth > 8) return hole("?");
    const n = unwrap(node);
    const inner = (e: Node | null) => this.evaluate(e, depth + 1);
    const read = evaluateStringExpression(n, "+", inner);
    if (read) return read;
    switch (n.type) {
      case "identifier": {
        const decl = this.declaration(n.text, n);
        if (decl?.value) {
          return composed(this.evaluate(decl.value, depth + 1));
        }
        if (decl?.parameter) return hole(n.text, "parameter");
        const c = this.constants.get(n.text);
        return c ? composed(c) : hole(n.text);
      }
      case "member_access_expression": {
        const c = this.constants.get(
          `${simpleName(n.childForFieldName("expression")?.text ?? "")}.${
            n.childForFieldName("name")?.text ?? ""
          }`,
        );
        return c ? composed(c) : hole(n.text);
      }
      case "invocation_expression": {
        const fn = n.childForFieldName("function");
        const args = callArgs(n);
        if (
          fn?.type === "member_access_expression" &&
          /^(string|String)\.Format$/.test(fn.text) && args[0]
        ) {
          return formatValue(this.evaluate(args[0], depth + 1));
        }
        return hole(n.text);
      }
      case "object_creation_expression": {
        const type = simpleName(n.childForFieldName("type")?.text ?? "");
        const args = callArgs(n);
        if (type === "Uri" && args[0]) return this.evaluate(args[0], depth + 1);
        return hole(n.text);
      }
      default:
        return hole(n.text);
    }
  }

  /** The declaration of a name visible at a node. */
  declaration(name: string, at: Node): Declaration | undefined {
    for (let scope: Node | null = at.parent; scope; scope = scope.parent) {
      switch (scope.type) {
        case "block":
        case "declaration_list":
        case "compilation_unit": {
          for (const stmt of namedChildren(scope)) {
            const found = this.declarationIn(stmt, name, at);
            if (found) return found;
          }
          break;
        }
        case "method_declaration":
        case "constructor_declaration":
        case "local_function_statement":
        case "lambda_expression":
        case "class_declaration":
        case "record_declaration":
        case "struct_declaration": {
          const params = scope.childForFieldName("parameters") ??
            namedChildren(scope).find((c) => c.type === "parameter_list");
          for (const p of params ? namedChildren(params) : []) {
            if (p.childForFieldName("name")?.text === name) {
              return {
                type: simpleName(p.childForFieldName("type")?.text ?? ""),
                value: undefined,
                parameter: METHODS_WITH_CALLERS.has(scope.type),
              };
            }
          }
          break;
        }
      }
    }
    return undefined;
  }

  declarationIn(stmt: Node, name: string, at: Node): Declaration | undefined {
    let holder = stmt;
    if (holder.type === "global_statement") {
      holder = holder.namedChild(0) ?? holder;
    }
    if (holder.type === "property_declaration") {
      if (holder.childForFieldName("name")?.text !== name) return undefined;
      return {
        type: simpleName(holder.childForFieldName("type")?.text ?? ""),
        value: holder.childForFieldName("value") ?? undefined,
      };
    }
    if (
      holder.type !== "local_declaration_statement" &&
      holder.type !== "field_declaration"
    ) return undefined;
    if (
      holder.type === "local_declaration_statement" &&
      holder.startIndex > at.startIndex
    ) return undefined;
    const decl = namedChildren(holder).find((c) =>
      c.type === "variable_declaration"
    );
    if (!decl) return undefined;
    const type = simpleName(decl.childForFieldName("type")?.text ?? "");
    for (const d of namedChildren(decl)) {
      if (d.type !== "variable_declarator") continue;
      if (d.childForFieldName("name")?.text !== name) continue;
      return { type, value: declaratorValue(d) };
    }
    return undefined;
  }

  /** The type of a receiver: declared, or made by `new T()`/factories. */
  typeOf(node: Node | null | undefined): string | undefined {
    if (!node) return undefined;
    const n = unwrap(node);
    if (n.type === "object_creation_expression") {
      return simpleName(n.childForFieldName("type")?.text ?? "");
    }
    if (n.type === "invocation_expression") {
      const fn = n.childForFieldName("function");
      if (fn?.childForFieldName("name")?.text === "CreateClient") {
        return "HttpClient";
      }
      return undefined;
    }
    let name: string | undefined;
    if (n.type === "identifier") name = n.text;
    else if (
      n.type === "member_access_expression" &&
      n.childForFieldName("expression")?.type === "this_expression"
    ) name = n.childForFieldName("name")?.text;
    if (!name) return undefined;
    const decl = this.declaration(name, n);
    if (!decl) return undefined;
    if (decl.type !== "" && decl.type !== "var") return decl.type;
    return decl.value ? this.typeOf(decl.value) : undefined;
  }

  run(root: Node): void {
    this.rootNode = root;
    httpListenerRoutes(this, root);
    walk(root, (node) => {
      switch (node.type) {
        case "class_declaration":
          controller(this, node);
          fastEndpoint(this, node);
          serviceStackDto(this, node);
          break;
        case "invocation_expression":
          this.invocation(node);
          break;
        case "object_creation_expression":
          requestMessage(this, node);
          break;
      }
    });
  }

  /** The name of the extension method whose `this` parameter `id` is. */
  extensionMethodOf(id: Node): string | undefined {
    for (let n: Node | null = id.parent; n; n = n.parent) {
      if (n.type !== "method_declaration") continue;
      const params = n.childForFieldName("parameters");
      const first = params ? namedChildren(params)[0] : undefined;
      if (
        first?.childForFieldName("name")?.text === id.text &&
        namedChildren(first).some((c) =>
          c.type === "modifier" && c.text === "this"
        )
      ) return n.childForFieldName("name")?.text;
      return undefined;
    }
    return undefined;
  }

  invocation(call: Node): void {
    const fn = call.childForFieldName("function");
    if (fn?.type !== "member_access_expression") return;
    if (fn.childForFieldName("name")?.type === "generic_name") {
      serviceStackRoutesAdd(this, call);
    }
    const name = simpleName(fn.childForFieldName("name")?.text ?? "");
    const receiver = fn.childForFieldName("expression");
    const args = callArgs(call);
    if (name in MAP_METHOD) {
      minimalApi(this, call, name, receiver, args);
      return;
    }
    const method = CLIENT_METHOD[name];
    if (method && args[0] && this.typeOf(receiver) === "HttpClient") {
      const at = anchorOf(call, fn.childForFieldName("name") ?? call);
      emitClient(this, { call: at, method, url: args[0] });
    }
  }
}

const METHODS_WITH_CALLERS: ReadonlySet<string> = new Set([
  "method_declaration",
  "constructor_declaration",
  "local_function_statement",
]);

/** The modifiers (`public`, `static`...) of a declaration. */
export function modifiersOf(decl: Node): Set<string> {
  return new Set(
    namedChildren(decl).filter((c) => c.type === "modifier").map((c) => c.text),
  );
}

/** A reference to a constant through its class: `C.X`. */
function qualifiedConstant(node: Node): string | undefined {
  if (node.type !== "member_access_expression") return undefined;
  const on = simpleName(node.childForFieldName("expression")?.text ?? "");
  return `${on}.${node.childForFieldName("name")?.text ?? ""}`;
}

/**
 * `const string X = "..."` / `static readonly string X = "..."`; one built
 * from others (`Users = Base + "/users"`) keeps them as `constant` holes
 * until `settleConstants` fills them.
 */
export function collectConstants(root: Node, constants: ConstantTable): void {
  collectDeclaredConstants(root, constants, fieldConstants);
}

/** The constants of a `const` / `static readonly` field: `C.X` and `X`. */
function fieldConstants(node: Node): DeclaredConstant[] | undefined {
  if (node.type !== "field_declaration") return undefined;
  const modifiers = modifiersOf(node);
  if (
    !modifiers.has("const") &&
    !(modifiers.has("static") && modifiers.has("readonly"))
  ) return [];
  const decl = namedChildren(node).find((c) =>
    c.type === "variable_declaration"
  );
  const cls = node.parent?.parent?.childForFieldName("name")?.text;
  return (decl ? namedChildren(decl) : []).flatMap((d) => {
    const name = d.childForFieldName("name")?.text;
    const value = declaratorValue(d);
    if (d.type !== "variable_declarator" || !name || !value) return [];
    return [memberConstant(cls, name, value, qualifiedConstant)];
  });
}
