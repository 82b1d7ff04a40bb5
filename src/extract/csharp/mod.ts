// C# extractor: ASP.NET Core minimal APIs (`MapGet`, `MapGroup` prefixes),
// attribute-routed controllers (`[Route("api/[controller]")]` +
// `[HttpGet("{id}")]`), conventionally routed controllers
// (`MapControllerRoute`, `MapRoute`) and HttpClient calls.
import type { Node, Tree } from "web-tree-sitter";
import { parseSource } from "../_syntax/parser.ts";
import type {
  ExtractDiagnostic,
  ExtractResult,
  LanguageExtractor,
  SourceFile,
} from "../extractor.ts";
import type { ExtractedPort } from "../types.ts";
import {
  clientPath,
  composed,
  concat,
  CONFIDENCE,
  exactText,
  formatPlaceholders,
  hole,
  joinPaths,
  literal,
  mapText,
  routePath,
  type Value,
} from "../_value/mod.ts";
import { HTTP_METHODS, httpPort } from "../_port/http.ts";
import { eachFile, syntaxWarning } from "../_syntax/passes.ts";
import {
  evaluateConcatenation,
  evaluateStringNode,
  literalString,
} from "../_value/literals.ts";
import { ownerOf } from "../_syntax/owner.ts";
import { anchorOf, namedChildren, walk } from "../_syntax/tree.ts";
import {
  conventionalPaths,
  type ConventionalRoute,
  conventionalRoute,
} from "./conventional.ts";

const MAP_METHOD: Record<string, string> = {
  MapGet: "GET",
  MapPost: "POST",
  MapPut: "PUT",
  MapDelete: "DELETE",
  MapPatch: "PATCH",
  Map: "ANY",
  MapMethods: "",
};

const HTTP_ATTRIBUTE: Record<string, string> = {
  HttpGet: "GET",
  HttpPost: "POST",
  HttpPut: "PUT",
  HttpDelete: "DELETE",
  HttpPatch: "PATCH",
  HttpHead: "HEAD",
  HttpOptions: "OPTIONS",
};

const CLIENT_METHOD: Record<string, string> = {
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
function declaratorValue(declarator: Node): Node | undefined {
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
    if (named.length !== 1) continue;
    out.push(named[0]!);
  }
  return out;
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
function unwrap(node: Node): Node {
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

interface Declaration {
  type: string;
  value: Node | undefined;
}

/** One C# file being scanned: string evaluation and declared types. */
export class CSharpFile {
  readonly file: SourceFile;
  readonly constants: Map<string, Value>;
  readonly ports: ExtractedPort[];

  /** Invocations `x.Name(...)` of a method name across the scan. */
  readonly invocations: ((name: string) => Node[]) | undefined;

  /** Conventional routes registered in the scan (`MapControllerRoute`...). */
  readonly conventional: readonly ConventionalRoute[];

  /** Class declarations of the scan by simple name (base controllers). */
  readonly classes: ((name: string) => Node[]) | undefined;

  constructor(
    file: SourceFile,
    constants: Map<string, Value>,
    ports: ExtractedPort[],
    invocations?: (name: string) => Node[],
    conventional: readonly ConventionalRoute[] = [],
    classes?: (name: string) => Node[],
  ) {
    this.file = file;
    this.constants = constants;
    this.ports = ports;
    this.invocations = invocations;
    this.conventional = conventional;
    this.classes = classes;
  }

  /**
   * The `[Route]` templates and `[ApiController]` a controller inherits from
   * its base classes in the scan (both attributes are inherited).
   */
  inheritedRouting(cls: Node): { templates: Node[]; api: boolean } {
    const out = { templates: [] as Node[], api: false };
    const seen = new Set<number>([cls.id]);
    let current: Node | undefined = cls;
    for (let depth = 0; current && depth < 8; depth++) {
      const bases: Node | undefined = namedChildren(current).find((c) =>
        c.type === "base_list"
      );
      const first: Node | undefined = bases
        ? namedChildren(bases)[0]
        : undefined;
      const name: string = first ? simpleName(first.text) : "";
      const base: Node | undefined = name
        ? this.classes?.(name).find((c) => !seen.has(c.id))
        : undefined;
      if (!base) break;
      seen.add(base.id);
      for (const a of attributesOf(base)) {
        const attr = simpleName(a.childForFieldName("name")?.text ?? "");
        if (attr === "ApiController") out.api = true;
        else if (attr === "Route" && out.templates.length === 0) {
          const template = attributeArgs(a)[0];
          if (template) out.templates.push(template);
        }
      }
      current = base;
    }
    return out;
  }

  /** The conventional routes a file's invocations register. */
  conventionalRoutes(root: Node): ConventionalRoute[] {
    const out: ConventionalRoute[] = [];
    walk(root, (n) => {
      if (n.type !== "invocation_expression") return;
      const route = conventionalRoute(
        n,
        (x) => this.evaluate(x),
        (x) => this.typeOf(x),
      );
      if (route) out.push(route);
    });
    return out;
  }

  evaluate(node: Node | null | undefined, depth = 0): Value {
    if (!node || depth > 8) return hole("?");
    const n = unwrap(node);
    const str = evaluateStringNode(n, (e) => this.evaluate(e, depth + 1));
    if (str) return str;
    switch (n.type) {
      case "binary_expression":
        return evaluateConcatenation(
          n,
          "+",
          (operand) => this.evaluate(operand, depth + 1),
        );
      case "identifier": {
        const decl = this.declaration(n.text, n);
        if (decl?.value) {
          return composed(this.evaluate(decl.value, depth + 1));
        }
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
          const format = this.evaluate(args[0], depth + 1);
          const text = exactText(format);
          return text === undefined ? format : formatPlaceholders(format);
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
    walk(root, (node) => {
      switch (node.type) {
        case "class_declaration":
          this.controller(node);
          break;
        case "invocation_expression":
          this.invocation(node);
          break;
        case "object_creation_expression":
          this.requestMessage(node);
          break;
      }
    });
  }

  /** `[Route]` prefixes + `[HttpGet("{id}")]` actions of a controller. */
  controller(cls: Node): void {
    const className = cls.childForFieldName("name")?.text ?? "";
    const controllerName = className.endsWith("Controller")
      ? className.slice(0, -"Controller".length)
      : className;
    const prefixes: Value[] = [];
    let isController = className.endsWith("Controller");
    let area = "{}";
    let areaName: string | undefined;
    let api = false;
    let nonController = false;
    for (const a of attributesOf(cls)) {
      const name = simpleName(a.childForFieldName("name")?.text ?? "");
      if (name === "ApiController" || name === "Controller") {
        isController = true;
        api ||= name === "ApiController";
      } else if (name === "NonController") {
        nonController = true;
      } else if (name === "Area") {
        const value = attributeArgs(a)[0];
        const text = value ? exactText(this.evaluate(value)) : undefined;
        if (text) area = areaName = text;
      } else if (name === "Route") {
        const template = attributeArgs(a)[0];
        if (template) prefixes.push(this.evaluate(template));
        isController = true;
      }
    }
    if (!isController || nonController) return;
    if (this.classes && prefixes.length === 0) {
      const inherited = this.inheritedRouting(cls);
      api ||= inherited.api;
      for (const t of inherited.templates) prefixes.push(this.evaluate(t));
    }
    // Without a class `[Route]`, only actions with their own template are
    // attribute-routed; the others follow the conventional routes.
    const classRouted = prefixes.length > 0;
    if (prefixes.length === 0) prefixes.push(literal(""));
    const modifiers = modifiersOf(cls);
    const conventional = !classRouted && !api &&
      modifiers.has("public") && !modifiers.has("abstract") &&
      !modifiers.has("static") && this.conventional.length > 0 &&
      !namedChildren(cls).some((c) => c.type === "type_parameter_list");
    const body = cls.childForFieldName("body");
    for (const member of body ? namedChildren(body) : []) {
      if (member.type !== "method_declaration") continue;
      const action = member.childForFieldName("name")?.text ?? "";
      const routes: Array<{ node: Node; verb: string; template?: Node }> = [];
      const localRoutes: Node[] = [];
      for (const a of attributesOf(member)) {
        const name = simpleName(a.childForFieldName("name")?.text ?? "");
        const verb = HTTP_ATTRIBUTE[name];
        if (verb) {
          const template = attributeArgs(a)[0];
          routes.push(
            template ? { node: a, verb, template } : { node: a, verb },
          );
        } else if (name === "Route") {
          const template = attributeArgs(a)[0];
          if (template) localRoutes.push(template);
        } else if (name === "AcceptVerbs") {
          for (const arg of attributeArgs(a)) {
            const m = exactText(this.evaluate(arg))?.toUpperCase();
            if (m && HTTP_METHODS.has(m)) routes.push({ node: a, verb: m });
          }
        }
      }
      if (routes.length === 0 && localRoutes.length > 0) {
        for (const template of localRoutes) {
          routes.push({ node: template, verb: "ANY", template });
        }
      } else if (localRoutes.length > 0) {
        // `[HttpGet] [Route("x")]`: the verb applies to each route template.
        const verbs = routes.filter((r) => !r.template);
        for (const r of verbs) {
          routes.splice(routes.indexOf(r), 1);
          for (const template of localRoutes) {
            routes.push({ node: r.node, verb: r.verb, template });
          }
        }
      }
      const owner = ownerOf(member, this.file.path, "c-sharp");
      if (!classRouted && !routes.some((r) => r.template)) {
        if (conventional) {
          this.conventionalAction(member, routes, controllerName, areaName);
        }
        continue;
      }
      for (const route of routes) {
        const template = route.template
          ? this.evaluate(route.template)
          : literal("");
        const templateText = exactText(template) ?? "";
        const absolute = templateText.startsWith("/") ||
          templateText.startsWith("~/");
        for (const prefix of absolute ? [literal("")] : prefixes) {
          const joined = mapText(
            joinPaths(prefix, template),
            (text) =>
              text.replace(/^\/*~/, "")
                .replaceAll("[controller]", controllerName)
                .replaceAll("[action]", action)
                .replaceAll("[area]", area),
          );
          const prefixed = (exactText(prefix) ?? "x") !== "";
          const path = routePath(joined, prefixed);
          const port = httpPort({
            role: "server",
            method: route.verb,
            path: path.path,
            node: route.node.parent ?? route.node,
            owner,
            filePath: this.file.path,
            confidence: path.confidence,
            framework: "aspnetcore",
          });
          if (port) this.ports.push(port);
        }
      }
    }
  }

  /**
   * The ports of a public action of a controller that is not
   * attribute-routed: one per HTTP method (`[HttpPost]` without a template;
   * none: `ANY`) and per URL form of each conventional route that reaches it
   * (see {@linkcode conventionalPaths}).
   */
  conventionalAction(
    method: Node,
    verbs: ReadonlyArray<{ node: Node; verb: string }>,
    controller: string,
    area: string | undefined,
  ): void {
    const modifiers = modifiersOf(method);
    if (
      !modifiers.has("public") || modifiers.has("static") ||
      modifiers.has("abstract") || modifiers.has("override") ||
      method.childForFieldName("type_parameters") ||
      namedChildren(method).some((c) => c.type === "type_parameter_list")
    ) return;
    const nameNode = method.childForFieldName("name");
    if (!nameNode) return;
    let action = nameNode.text;
    if (action.endsWith("Async") && action.length > 5) {
      action = action.slice(0, -5);
    }
    for (const a of attributesOf(method)) {
      const name = simpleName(a.childForFieldName("name")?.text ?? "");
      if (name === "NonAction") return;
      if (name === "ActionName") {
        const value = attributeArgs(a)[0];
        const text = value ? exactText(this.evaluate(value)) : undefined;
        if (text) action = text;
      }
    }
    const params = method.childForFieldName("parameters");
    const parameters = new Set(
      (params ? namedChildren(params) : []).map((p) =>
        p.childForFieldName("name")?.text.toLowerCase() ?? ""
      ),
    );
    const owner = ownerOf(method, this.file.path, "c-sharp");
    const anchors = verbs.length > 0
      ? verbs.map((v) => ({ node: v.node.parent ?? v.node, verb: v.verb }))
      : [{ node: nameNode, verb: "ANY" }];
    const seen = new Set<string>();
    for (const route of this.conventional) {
      const paths = conventionalPaths(route, {
        controller,
        action,
        parameters,
        ...(area === undefined ? {} : { area }),
      });
      for (const path of paths) {
        for (const { node, verb } of anchors) {
          const port = httpPort({
            role: "server",
            method: verb,
            path,
            node,
            owner,
            filePath: this.file.path,
            confidence: CONFIDENCE.composed,
            framework: "aspnetcore",
            extra: {
              routing: "conventional",
              route: route.name,
              pattern: route.pattern,
            },
          });
          if (!port || seen.has(port.ref.key)) continue;
          seen.add(port.ref.key);
          this.ports.push(port);
        }
      }
    }
  }

  /**
   * The prefixes a `MapGroup` receiver chain adds: followed through
   * variables, fluent configuration calls and, for the `this` parameter of
   * an extension method (`MapTodos(this RouteGroupBuilder group)`), every
   * call site of that method in the scan.
   */
  groupPrefixes(node: Node | null | undefined, depth = 0): Value[] {
    if (!node || depth > 8) return [literal("")];
    const n = unwrap(node);
    if (n.type === "invocation_expression") {
      const fn = n.childForFieldName("function");
      if (fn?.type !== "member_access_expression") return [literal("")];
      const name = fn.childForFieldName("name")?.text ?? "";
      const receiver = fn.childForFieldName("expression");
      const above = this.groupPrefixes(receiver, depth + 1);
      if (name !== "MapGroup") return above; // `.RequireAuthorization()`...
      const arg = callArgs(n)[0];
      const own = arg ? this.evaluate(arg) : hole("?");
      return above.map((a) => joinPaths(a, own));
    }
    if (n.type !== "identifier") return [literal("")];
    const decl = this.declaration(n.text, n);
    if (decl?.value) return this.groupPrefixes(decl.value, depth + 1);
    const method = this.extensionMethodOf(n);
    if (!method || !this.invocations) return [literal("")];
    const out: Value[] = [];
    for (const site of this.invocations(method)) {
      const fn = site.childForFieldName("function");
      out.push(
        ...this.groupPrefixes(fn?.childForFieldName("expression"), depth + 1),
      );
    }
    return out.length > 0 ? out : [literal("")];
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
    const name = simpleName(fn.childForFieldName("name")?.text ?? "");
    const receiver = fn.childForFieldName("expression");
    const args = callArgs(call);
    if (name in MAP_METHOD) {
      this.minimalApi(call, name, receiver, args);
      return;
    }
    const method = CLIENT_METHOD[name];
    if (method && args[0] && this.typeOf(receiver) === "HttpClient") {
      const at = anchorOf(call, fn.childForFieldName("name") ?? call);
      this.emitClient(at, method, args[0], "httpclient");
    }
  }

  minimalApi(
    call: Node,
    name: string,
    receiver: Node | null,
    args: Node[],
  ): void {
    const pattern = args[0];
    if (!pattern) return;
    const handlerCount = name === "MapMethods" ? 3 : 2;
    if (args.length < handlerCount) return;
    let verbs: string[];
    if (name === "MapMethods") {
      const list = args[1]!;
      verbs = [];
      walk(list, (n) => {
        const v = exactText(
          evaluateStringNode(n, (e) => hole(e.text)) ?? hole(""),
        );
        if (v && HTTP_METHODS.has(v.toUpperCase())) verbs.push(v.toUpperCase());
        return true;
      });
      if (verbs.length === 0) return;
    } else {
      verbs = [MAP_METHOD[name]!];
    }
    // `Map` is also a common name (AutoMapper, dictionaries): require a
    // route pattern literal starting with `/` there.
    const path = this.evaluate(pattern);
    if (name === "Map" && !(exactText(path) ?? "").startsWith("/")) return;
    // An extension method nobody calls in the scan: its group prefix is
    // unknown, so the path is only partly known.
    const method = receiver?.type === "identifier"
      ? this.extensionMethodOf(receiver)
      : undefined;
    const orphan = method !== undefined &&
      (this.invocations?.(method).length ?? 0) === 0;
    const seen = new Set<string>();
    for (const prefix of this.groupPrefixes(receiver)) {
      const prefixed = (exactText(prefix) ?? "x") !== "";
      const route = routePath(joinPaths(prefix, path), prefixed);
      if (seen.has(route.path)) continue;
      seen.add(route.path);
      const confidence = orphan ? CONFIDENCE.partial : route.confidence;
      this.minimalRoute(call, verbs, route.path, confidence);
    }
  }

  minimalRoute(
    call: Node,
    verbs: readonly string[],
    path: string,
    confidence: number,
  ): void {
    for (const verb of verbs) {
      const port = httpPort({
        role: "server",
        method: verb,
        path,
        node: anchorOf(
          call,
          call.childForFieldName("function")?.childForFieldName("name") ??
            call,
        ),
        owner: ownerOf(call, this.file.path, "c-sharp"),
        filePath: this.file.path,
        confidence,
        framework: "aspnetcore-minimal",
      });
      if (port) this.ports.push(port);
    }
  }

  /** `new HttpRequestMessage(HttpMethod.Post, url)`. */
  requestMessage(node: Node): void {
    const type = simpleName(node.childForFieldName("type")?.text ?? "");
    if (type !== "HttpRequestMessage") return;
    const [methodArg, urlArg] = callArgs(node);
    if (!methodArg || !urlArg) return;
    let method: string | undefined;
    const text = methodArg.text;
    if (text.startsWith("HttpMethod.")) {
      method = text.slice("HttpMethod.".length).toUpperCase();
    } else if (methodArg.type === "object_creation_expression") {
      const inner = callArgs(methodArg)[0];
      method = inner
        ? exactText(this.evaluate(inner))?.toUpperCase()
        : undefined;
    }
    if (!method || !HTTP_METHODS.has(method)) return;
    this.emitClient(node, method, urlArg, "httpclient");
  }

  emitClient(
    call: Node,
    method: string,
    urlNode: Node,
    framework: string,
  ): void {
    const url = this.evaluate(urlNode);
    let path = clientPath(url);
    // A relative URI resolves against the client's BaseAddress.
    if (!path && typeof url.parts[0] === "string") {
      const relative = clientPath(concat([literal("/"), url]));
      if (relative) {
        path = { ...relative, holes: true, confidence: CONFIDENCE.partial };
      }
    }
    if (!path) return;
    const port = httpPort({
      role: "client",
      method,
      path: path.path,
      node: call,
      owner: ownerOf(call, this.file.path, "c-sharp"),
      filePath: this.file.path,
      confidence: path.confidence,
      framework,
      extra: { raw: urlNode.text },
    });
    if (port) this.ports.push(port);
  }
}

/** The modifiers (`public`, `static`...) of a declaration. */
function modifiersOf(decl: Node): Set<string> {
  return new Set(
    namedChildren(decl).filter((c) => c.type === "modifier").map((c) => c.text),
  );
}

/** `const string X = "..."` / `static readonly string X = "..."`. */
export function collectConstants(
  root: Node,
  constants: Map<string, Value>,
): void {
  walk(root, (node) => {
    if (node.type !== "field_declaration") return true;
    const modifiers = namedChildren(node).filter((c) => c.type === "modifier")
      .map((c) => c.text);
    if (
      !modifiers.includes("const") &&
      !(modifiers.includes("static") && modifiers.includes("readonly"))
    ) return false;
    const decl = namedChildren(node).find((c) =>
      c.type === "variable_declaration"
    );
    if (!decl) return false;
    const cls = node.parent?.parent?.childForFieldName("name")?.text;
    for (const d of namedChildren(decl)) {
      if (d.type !== "variable_declarator") continue;
      const name = d.childForFieldName("name")?.text;
      const value = declaratorValue(d);
      if (!name || !value) continue;
      const v = literalString(value);
      if (!v) continue;
      if (cls) constants.set(`${cls}.${name}`, v);
      if (!constants.has(name)) constants.set(name, v);
    }
    return false;
  });
}

/**
 * Extracts ASP.NET Core routes and HttpClient calls from C# files.
 *
 * Servers: minimal APIs (`app.MapGet("/x", ...)`, `MapPost`, `MapMethods`,
 * `Map` (`ANY`)) with `MapGroup("/api")` prefixes followed through
 * variables and chains; controllers (a `...Controller` class, `[ApiController]`
 * or a class `[Route]`) with `[controller]`/`[action]` tokens replaced and
 * `[HttpGet("{id}")]`/`[Route]` actions (`~/` or `/` templates ignore the
 * class prefix; a class `[Route]`/`[ApiController]` is inherited from base
 * controllers of the scan). An action is attribute-routed when its class has
 * a `[Route]` or it has its own template; the other public actions (not
 * `[NonAction]`, not static) of a controller without `[ApiController]` follow
 * the conventional routes registered in the scan: `MapControllerRoute`,
 * `MapDefaultControllerRoute`, `MapAreaControllerRoute` (controllers of that
 * `[Area]` only), `UseMvcWithDefaultRoute` and `MapRoute`/`MapAreaRoute` on
 * an MVC route builder (`UseMvc(routes => ...)`, `RouteCollection`). Each
 * URL form of each route that reaches the action is a port (confidence
 * 0.95): the full form and the shorter ones where trailing segments are
 * optional or at their defaults (`HomeController.Index` on
 * `{controller=Home}/{action=Index}/{id?}` is `/Home/Index`, `/Home` and
 * `/`); an optional `{id?}` segment only when the action has an `id`
 * parameter; the method from `[HttpPost]`/`[AcceptVerbs]`, else `ANY`;
 * `[ActionName]` renames an action and an `Async` suffix is dropped. Without
 * such a registration these actions give no ports. Clients: `HttpClient`
 * receivers (declared type, `new
 * HttpClient()`, `IHttpClientFactory.CreateClient()`) calling `GetAsync`,
 * `PostAsJsonAsync`, `GetFromJsonAsync`..., and every `new
 * HttpRequestMessage(HttpMethod.X, url)`.
 *
 * @example Usage
 * ```ts
 * import { csharpExtractor } from "@portcullis/portcullis/extract";
 * import assert from "node:assert/strict";
 *
 * const text = `var api = app.MapGroup("/api");
 * api.MapGet("/orders/{id}", (int id) => id);`;
 * const { ports } = await csharpExtractor.extract([{ path: "Program.cs", text }]);
 * assert.equal(ports[0]?.ref.key, "GET /api/orders/{}");
 * assert.equal(ports[0]?.ref.confidence, 0.95);
 * ```
 */
export const csharpExtractor: LanguageExtractor = {
  name: "csharp",
  accepts(path: string): boolean {
    return path.endsWith(".cs");
  },
  async extract(files: readonly SourceFile[]): Promise<ExtractResult> {
    const diagnostics: ExtractDiagnostic[] = [];
    const ports: ExtractedPort[] = [];
    const constants = new Map<string, Value>();
    await eachFile(files, diagnostics, async (file) => {
      if (!/\bconst\b|\breadonly\b/.test(file.text)) return;
      const tree = await parseSource("c-sharp", file.text);
      try {
        collectConstants(tree.rootNode, constants);
      } finally {
        tree.delete();
      }
    });
    // Trees stay alive until the end: extension methods that map routes
    // take their group prefixes from call sites in other files.
    const trees: Array<{ file: SourceFile; tree: Tree }> = [];
    let classIndex: Map<string, Node[]> | undefined;
    const classes = (name: string): Node[] => {
      if (!classIndex) {
        classIndex = new Map();
        for (const { tree } of trees) {
          walk(tree.rootNode, (n) => {
            if (n.type !== "class_declaration") return;
            const id = n.childForFieldName("name")?.text;
            if (!id) return;
            const list = classIndex!.get(id);
            if (list) list.push(n);
            else classIndex!.set(id, [n]);
          });
        }
      }
      return classIndex.get(name) ?? [];
    };
    const cache = new Map<string, Node[]>();
    const invocations = (name: string): Node[] => {
      let found = cache.get(name);
      if (!found) {
        found = [];
        for (const { tree } of trees) {
          walk(tree.rootNode, (n) => {
            if (n.type !== "invocation_expression") return;
            const fn = n.childForFieldName("function");
            if (
              fn?.type === "member_access_expression" &&
              fn.childForFieldName("name")?.text === name
            ) found!.push(n);
          });
        }
        cache.set(name, found);
      }
      return found;
    };
    try {
      await eachFile(files, diagnostics, async (file) => {
        const tree = await parseSource("c-sharp", file.text);
        trees.push({ file, tree });
        syntaxWarning(tree.rootNode, file.path, diagnostics);
      });
      const conventional: ConventionalRoute[] = [];
      await eachFile(
        trees.map((t) => ({ ...t, path: t.file.path })),
        [],
        (t) => {
          if (/\bMap\w*Route\b|UseMvcWithDefaultRoute/.test(t.file.text)) {
            conventional.push(
              ...new CSharpFile(t.file, constants, ports, invocations)
                .conventionalRoutes(t.tree.rootNode),
            );
          }
          return Promise.resolve();
        },
      );
      await eachFile(
        trees.map((t) => ({ ...t, path: t.file.path })),
        [],
        (t) => {
          new CSharpFile(
            t.file,
            constants,
            ports,
            invocations,
            conventional,
            classes,
          ).run(t.tree.rootNode);
          return Promise.resolve();
        },
      );
    } finally {
      for (const { tree } of trees) tree.delete();
    }
    return { ports, diagnostics };
  },
};
export { csharpGrpc } from "./grpc.ts";
export { dotnetTemporal } from "./temporal.ts";
export { csharpQueuePorts } from "./queue.ts";
