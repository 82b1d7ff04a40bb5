// Java extractor: Spring MVC / WebFlux controllers (class `@RequestMapping`
// prefix + method mappings), JAX-RS / Jakarta REST resources, Feign and
// MicroProfile REST clients, and HTTP clients (RestTemplate, WebClient /
// RestClient, java.net.http.HttpRequest).
import type { Node } from "web-tree-sitter";
import type {
  ExtractResult,
  LanguageExtractor,
  SourceFile,
} from "../extractor.ts";
import type { ExtractedPort } from "../types.ts";
import {
  clientPath,
  composed,
  concat,
  exactText,
  formatPlaceholders,
  hole,
  joinPaths,
  literal,
  routePath,
  type Value,
} from "../_value/mod.ts";
import { HTTP_METHODS, httpPort } from "../_port/http.ts";
import { twoPasses } from "../_syntax/passes.ts";
import { evaluateConcatenation } from "../_value/literals.ts";
import { ownerOf } from "../_syntax/owner.ts";
import { anchorOf, stringParts, walk } from "../_syntax/tree.ts";
import { jaxRsImports, JaxRsIndex, jaxRsPorts } from "./jaxrs.ts";

const MAPPING_METHOD: Record<string, string> = {
  GetMapping: "GET",
  PostMapping: "POST",
  PutMapping: "PUT",
  DeleteMapping: "DELETE",
  PatchMapping: "PATCH",
  RequestMapping: "ANY",
};

const REST_TEMPLATE_METHOD: Record<string, string> = {
  getForObject: "GET",
  getForEntity: "GET",
  postForObject: "POST",
  postForEntity: "POST",
  postForLocation: "POST",
  put: "PUT",
  delete: "DELETE",
  patchForObject: "PATCH",
  headForHeaders: "HEAD",
  optionsForAllow: "OPTIONS",
  exchange: "",
  execute: "",
};

const FLUENT_CLIENT_TYPES = new Set(["WebClient", "RestClient"]);
const FLUENT_VERBS = new Set([
  "get",
  "post",
  "put",
  "delete",
  "patch",
  "head",
  "options",
]);

/** The value of a Java string literal (interpolations become `{}`). */
function javaString(node: Node): string {
  const parts = stringParts(node) ?? [];
  const text = parts.map((p) => typeof p === "string" ? p : "{}").join("");
  return node.text.startsWith('"""') ? text.trim() : text;
}

/** Annotation name (last segment of a qualified name). */
export function annotationName(node: Node): string {
  const name = node.childForFieldName("name")?.text ?? "";
  const dot = name.lastIndexOf(".");
  return dot < 0 ? name : name.slice(dot + 1);
}

/** The annotations in a declaration's modifiers. */
export function annotationsOf(decl: Node): Node[] {
  const out: Node[] = [];
  for (const child of decl.namedChildren) {
    if (child?.type !== "modifiers") continue;
    for (const m of child.namedChildren) {
      if (m && (m.type === "annotation" || m.type === "marker_annotation")) {
        out.push(m);
      }
    }
  }
  return out;
}

/** The value nodes of an annotation element (`value`/`path` or positional). */
export function annotationElement(
  annotation: Node,
  keys: readonly string[],
): Node | undefined {
  const args = annotation.childForFieldName("arguments");
  if (!args) return undefined;
  for (const child of args.namedChildren) {
    if (!child) continue;
    if (child.type === "element_value_pair") {
      const key = child.childForFieldName("key")?.text ?? "";
      if (keys.includes(key)) {
        return child.childForFieldName("value") ?? undefined;
      }
    } else if (keys.includes("value")) {
      return child;
    }
  }
  return undefined;
}

/** Expands `{a, b}` array initializers into their elements. */
export function elements(node: Node | undefined): Node[] {
  if (!node) return [];
  if (node.type === "element_value_array_initializer") {
    return node.namedChildren.filter((n): n is Node => n !== null);
  }
  return [node];
}

/** One Java file being scanned: string evaluation and declared types. */
export class JavaFile {
  readonly file: SourceFile;
  readonly constants: Map<string, Value>;
  readonly ports: ExtractedPort[];
  /**
   * Interfaces implemented by controllers, with the controller's literal
   * class-level prefix (null when it has none).
   */
  readonly implementers: Map<string, string | null>;
  /** JAX-RS facts of the scan root (resources, locators, clients). */
  readonly jaxrs: JaxRsIndex | undefined;

  constructor(
    file: SourceFile,
    constants: Map<string, Value>,
    ports: ExtractedPort[],
    implementers: Map<string, string | null> = new Map(),
    jaxrs?: JaxRsIndex,
  ) {
    this.file = file;
    this.constants = constants;
    this.ports = ports;
    this.implementers = implementers;
    this.jaxrs = jaxrs;
  }

  /** Evaluates a string expression (literals, `+`, constants, format). */
  evaluate(node: Node | null | undefined, depth = 0): Value {
    if (!node || depth > 8) return hole("?");
    switch (node.type) {
      case "string_literal": {
        return literal(javaString(node));
      }
      case "parenthesized_expression":
        return this.evaluate(node.namedChild(0), depth + 1);
      case "binary_expression":
        return evaluateConcatenation(
          node,
          "+",
          (operand) => this.evaluate(operand, depth + 1),
        );
      case "identifier":
        return this.resolveName(node.text, node, depth) ?? hole(node.text);
      case "field_access": {
        const object = node.childForFieldName("object")?.text ?? "";
        const field = node.childForFieldName("field")?.text ?? "";
        const found = object === "this"
          ? this.resolveName(field, node, depth)
          : this.constants.get(`${object}.${field}`);
        return found ? composed(found) : hole(node.text);
      }
      case "method_invocation": {
        const name = node.childForFieldName("name")?.text;
        const object = node.childForFieldName("object");
        const args = node.childForFieldName("arguments")?.namedChildren ?? [];
        if (name === "format" && object?.text === "String" && args[0]) {
          return this.formatted(args[0], depth);
        }
        if (name === "formatted" && object) {
          return this.formatted(object, depth);
        }
        if (name === "create" && object?.text === "URI" && args[0]) {
          return this.evaluate(args[0], depth + 1);
        }
        if (name === "concat" && object && args[0]) {
          return concat([
            this.evaluate(object, depth + 1),
            this.evaluate(args[0], depth + 1),
          ]);
        }
        return hole(node.text);
      }
      default:
        return hole(node.text);
    }
  }

  formatted(format: Node, depth: number): Value {
    const value = this.evaluate(format, depth + 1);
    return exactText(value) === undefined ? value : formatPlaceholders(value);
  }

  /** Resolves a name to a local variable, field, or constant. */
  resolveName(
    name: string,
    at: Node,
    depth: number,
  ): Value | undefined {
    const decl = this.findDeclaration(name, at);
    if (decl) {
      const value = decl.declarator.childForFieldName("value");
      if (!value) return undefined;
      const result = this.evaluate(value, depth + 1);
      return composed(result);
    }
    const constant = this.constants.get(name);
    return constant ? composed(constant) : undefined;
  }

  /** Finds the declaration of a name in scope at a node. */
  findDeclaration(
    name: string,
    at: Node,
  ):
    | { declarator: Node; type: string; field: boolean; final: boolean }
    | undefined {
    for (let scope: Node | null = at.parent; scope; scope = scope.parent) {
      if (
        scope.type === "block" || scope.type === "class_body" ||
        scope.type === "constructor_body"
      ) {
        for (const stmt of scope.namedChildren) {
          if (!stmt) continue;
          if (
            stmt.type !== "local_variable_declaration" &&
            stmt.type !== "field_declaration"
          ) continue;
          if (
            stmt.type === "local_variable_declaration" &&
            stmt.startIndex > at.startIndex
          ) {
            continue;
          }
          for (const d of stmt.childrenForFieldName("declarator")) {
            if (d?.childForFieldName("name")?.text === name) {
              return {
                declarator: d,
                type: typeName(stmt.childForFieldName("type")),
                field: stmt.type === "field_declaration",
                final: /\bfinal\b/.test(
                  stmt.namedChildren.find((c) => c?.type === "modifiers")
                    ?.text ?? "",
                ),
              };
            }
          }
        }
      }
      // A record component is a final field; a parameter is neither.
      const record = scope.type === "record_declaration";
      if (
        record ||
        scope.type === "method_declaration" ||
        scope.type === "constructor_declaration" ||
        scope.type === "lambda_expression"
      ) {
        const params = scope.childForFieldName("parameters");
        for (const p of params?.namedChildren ?? []) {
          if (p?.childForFieldName("name")?.text === name) {
            return {
              declarator: p,
              type: typeName(p.childForFieldName("type")),
              field: record,
              final: record,
            };
          }
        }
      }
    }
    return undefined;
  }

  /** The declared type of a receiver expression (`x`, `this.x`). */
  receiverType(node: Node | null): string | undefined {
    if (!node) return undefined;
    let name: string | undefined;
    if (node.type === "identifier") name = node.text;
    else if (
      node.type === "field_access" &&
      node.childForFieldName("object")?.text === "this"
    ) {
      name = node.childForFieldName("field")?.text;
    }
    if (!name) return undefined;
    const decl = this.findDeclaration(name, node);
    if (!decl) return undefined;
    if (decl.type !== "var") return decl.type;
    const value = decl.declarator.childForFieldName("value");
    return value ? this.expressionType(value) : undefined;
  }

  /** The type a `new T(...)`/`T.create()`/`T.builder()...build()` makes. */
  expressionType(node: Node): string | undefined {
    if (node.type === "object_creation_expression") {
      return typeName(node.childForFieldName("type"));
    }
    if (node.type === "method_invocation") {
      let root: Node = node;
      while (root.type === "method_invocation") {
        const object = root.childForFieldName("object");
        if (!object) break;
        root = object;
      }
      if (root.type === "identifier" && FLUENT_CLIENT_TYPES.has(root.text)) {
        return root.text;
      }
      if (root.type === "identifier" && root.text === "RestTemplate") {
        return "RestTemplate";
      }
    }
    return undefined;
  }

  run(root: Node): void {
    const functional =
      this.file.text.includes("org.springframework.web.reactive.function") ||
      this.file.text.includes("org.springframework.web.servlet.function");
    const jaxrs = this.jaxrs && JaxRsIndex.mentions(this.file.text)
      ? this.jaxrs
      : undefined;
    const imports = jaxrs ? jaxRsImports(root) : undefined;
    walk(root, (node) => {
      if (
        node.type === "class_declaration" ||
        node.type === "interface_declaration"
      ) {
        this.controller(node);
        if (jaxrs && imports) {
          jaxRsPorts(
            node,
            jaxrs,
            this.constants,
            imports,
            this.file.path,
            this.ports,
          );
        }
      } else if (node.type === "method_invocation") {
        this.clientCall(node);
        if (functional) this.functionalRoute(node);
      }
    });
  }

  /**
   * Spring functional endpoints (WebFlux `RouterFunctions`, WebMvc.fn):
   * `route(GET("/x"), h)`, `.andRoute(POST("/x"), h)`, builder
   * `.GET("/x", h)`, with `.path("/api", b -> ...)` and `nest(path("/api"),
   * ...)` prefixes.
   */
  functionalRoute(call: Node): void {
    const name = call.childForFieldName("name")?.text ?? "";
    if (!HTTP_METHODS.has(name)) return;
    const args = (call.childForFieldName("arguments")?.namedChildren ?? [])
      .filter((n): n is Node => n !== null);
    const first = args[0];
    if (!first) return;
    const path = this.evaluate(first);
    const head = path.parts[0];
    if (typeof head !== "string" || !head.startsWith("/")) return;
    // A predicate `GET("/x")` counts inside `route(...)`/`andRoute(...)`/
    // `nest(...)`; a builder call `.GET("/x", handler)` on its own.
    if (args.length < 2 && !this.insideRoute(call)) return;
    const prefixes: Value[] = [];
    for (let n: Node | null = call.parent; n; n = n?.parent ?? null) {
      if (n.type !== "lambda_expression" && n.type !== "argument_list") {
        continue;
      }
      const outer = n.type === "lambda_expression"
        ? n.parent?.parent
        : n.parent;
      if (outer?.type !== "method_invocation") continue;
      const outerName = outer.childForFieldName("name")?.text;
      const outerArgs = (outer.childForFieldName("arguments")?.namedChildren ??
        []).filter((a): a is Node => a !== null);
      const inFirst = outerArgs[0] !== undefined &&
        outerArgs[0].startIndex <= call.startIndex &&
        call.endIndex <= outerArgs[0].endIndex;
      if (inFirst || outerArgs.length < 2) continue;
      if (outerName === "path" && n.type === "lambda_expression") {
        prefixes.unshift(this.evaluate(outerArgs[0]));
      } else if (outerName === "nest" || outerName === "andNest") {
        const predicate = outerArgs[0]!;
        if (
          predicate.type === "method_invocation" &&
          predicate.childForFieldName("name")?.text === "path"
        ) {
          const p = predicate.childForFieldName("arguments")?.namedChild(0);
          if (p) prefixes.unshift(this.evaluate(p));
        }
      }
      if (n.type === "lambda_expression") n = n.parent;
    }
    const route = routePath(joinPaths(...prefixes, path), prefixes.length > 0);
    const port = httpPort({
      role: "server",
      method: name,
      path: route.path,
      node: anchorOf(call, call.childForFieldName("name") ?? call),
      owner: ownerOf(call, this.file.path, "java"),
      filePath: this.file.path,
      confidence: route.confidence,
      framework: "spring-functional",
    });
    if (port) this.ports.push(port);
  }

  /** Whether a predicate call is an argument of `route`/`andRoute`/`nest`. */
  insideRoute(call: Node): boolean {
    for (let n: Node | null = call.parent; n; n = n.parent) {
      if (n.type === "method_invocation") {
        const name = n.childForFieldName("name")?.text ?? "";
        if (
          name === "route" || name === "andRoute" || name === "nest" ||
          name === "andNest"
        ) {
          return true;
        }
        if (name !== "and" && name !== "or" && name !== "negate") return false;
      }
    }
    return false;
  }

  /** Spring controllers and Feign clients. */
  controller(cls: Node): void {
    const annotations = annotationsOf(cls);
    let prefixes: Value[] = [literal("")];
    let role: "server" | "client" = "server";
    let framework = "spring";
    for (const a of annotations) {
      const name = annotationName(a);
      if (name === "RequestMapping") {
        const values = elements(annotationElement(a, ["value", "path"]));
        if (values.length > 0) prefixes = values.map((v) => this.evaluate(v));
      } else if (name === "FeignClient") {
        role = "client";
        framework = "feign";
        const path = annotationElement(a, ["path"]);
        if (path) prefixes = [this.evaluate(path)];
      } else if (name === "HttpExchange") {
        role = "client";
        framework = "spring-http-interface";
        const values = elements(annotationElement(a, ["value", "url"]));
        if (values.length > 0) prefixes = values.map((v) => this.evaluate(v));
      }
    }
    if (cls.type === "interface_declaration" && role === "server") {
      // A mapped interface (often generated from OpenAPI) serves routes
      // when a controller implements it; its class prefix wins.
      const name = cls.childForFieldName("name")?.text ?? "";
      if (!this.implementers.has(name)) return;
      const prefix = this.implementers.get(name);
      if (prefix !== null && prefix !== undefined) prefixes = [literal(prefix)];
    }
    const body = cls.childForFieldName("body");
    for (const member of body?.namedChildren ?? []) {
      if (member?.type !== "method_declaration") continue;
      for (const a of annotationsOf(member)) {
        this.mapping(member, a, prefixes, role, framework);
      }
    }
  }

  mapping(
    method: Node,
    annotation: Node,
    prefixes: readonly Value[],
    role: "server" | "client",
    framework: string,
  ): void {
    const name = annotationName(annotation);
    let verbs: string[];
    const fixed = MAPPING_METHOD[name];
    const exchange = /^(Get|Post|Put|Delete|Patch)Exchange$/.exec(name);
    if (fixed === "ANY") {
      const declared = elements(annotationElement(annotation, ["method"]))
        .map((n) => n.text.slice(n.text.lastIndexOf(".") + 1).toUpperCase())
        .filter((m) => HTTP_METHODS.has(m));
      verbs = declared.length > 0 ? declared : ["ANY"];
    } else if (fixed) {
      verbs = [fixed];
    } else if (exchange) {
      verbs = [exchange[1]!.toUpperCase()];
      role = "client";
      framework = "spring-http-interface";
    } else if (name === "HttpExchange") {
      const m = annotationElement(annotation, ["method"]);
      const text = m ? exactText(this.evaluate(m))?.toUpperCase() : undefined;
      verbs = [text && HTTP_METHODS.has(text) ? text : "ANY"];
      role = "client";
      framework = "spring-http-interface";
    } else {
      return;
    }
    const keys = exchange || name === "HttpExchange"
      ? ["value", "url"]
      : ["value", "path"];
    const pathNodes = elements(annotationElement(annotation, keys));
    const paths = pathNodes.length > 0
      ? pathNodes.map((n) => this.evaluate(n))
      : [literal("")];
    const owner = ownerOf(method, this.file.path, "java");
    for (const prefix of prefixes) {
      for (const path of paths) {
        const hasPrefix = (exactText(prefix) ?? "x") !== "";
        const route = routePath(joinPaths(prefix, path), hasPrefix);
        for (const verb of verbs) {
          const port = httpPort({
            role,
            method: verb,
            path: route.path,
            node: annotation,
            owner,
            filePath: this.file.path,
            confidence: route.confidence,
            framework,
          });
          if (port) this.ports.push(port);
        }
      }
    }
  }

  /** RestTemplate, WebClient/RestClient and java.net.http calls. */
  clientCall(call: Node): void {
    const name = call.childForFieldName("name")?.text ?? "";
    const object = call.childForFieldName("object");
    const args = (call.childForFieldName("arguments")?.namedChildren ?? [])
      .filter((n): n is Node => n !== null);
    if (name in REST_TEMPLATE_METHOD && object) {
      const type = this.receiverType(object) ??
        (object.type === "method_invocation"
          ? this.expressionType(object)
          : undefined);
      if (type !== "RestTemplate") return;
      let method = REST_TEMPLATE_METHOD[name]!;
      if (method === "") {
        const m = args[1]?.text ?? "";
        method = m.slice(m.lastIndexOf(".") + 1).toUpperCase();
        if (!HTTP_METHODS.has(method)) return;
      }
      const at = anchorOf(call, call.childForFieldName("name") ?? call);
      this.emitClient(at, method, args[0], "resttemplate");
      return;
    }
    if (name === "uri" && object?.type === "method_invocation") {
      const verbCall = object;
      const verb = verbCall.childForFieldName("name")?.text ?? "";
      const receiver = verbCall.childForFieldName("object");
      let method: string | undefined;
      if (FLUENT_VERBS.has(verb)) method = verb.toUpperCase();
      else if (verb === "method") {
        const m =
          verbCall.childForFieldName("arguments")?.namedChild(0)?.text ?? "";
        method = m.slice(m.lastIndexOf(".") + 1).toUpperCase();
        if (!HTTP_METHODS.has(method)) return;
      } else return;
      const type = this.receiverType(receiver) ??
        (receiver ? this.expressionType(receiver) : undefined);
      if (!type || !FLUENT_CLIENT_TYPES.has(type)) return;
      let target: Node | undefined = args[0];
      if (target?.type === "lambda_expression") {
        target = this.uriBuilderPath(target);
        if (!target) return;
      }
      const at = anchorOf(call, verbCall.childForFieldName("name") ?? call);
      this.emitClient(
        at,
        method,
        target,
        type === "WebClient" ? "webclient" : "restclient",
      );
      return;
    }
    if (
      name === "newBuilder" && object?.text === "HttpRequest"
    ) {
      this.httpRequestBuilder(call, args[0]);
    }
  }

  /** `uriBuilder -> uriBuilder.path("/x")...build()` → the path argument. */
  uriBuilderPath(lambda: Node): Node | undefined {
    let n: Node | null = lambda.childForFieldName("body");
    while (n?.type === "method_invocation") {
      if (n.childForFieldName("name")?.text === "path") {
        return n.childForFieldName("arguments")?.namedChild(0) ?? undefined;
      }
      n = n.childForFieldName("object");
    }
    return undefined;
  }

  /** `HttpRequest.newBuilder(uri)...GET()/POST(..)/method("X", ..)`. */
  httpRequestBuilder(start: Node, uriArg: Node | undefined): void {
    let uri = uriArg;
    let method = "GET";
    let n: Node = start;
    while (
      n.parent?.type === "method_invocation" &&
      n.parent.childForFieldName("object")?.id === n.id
    ) {
      const outer: Node = n.parent;
      const name = outer.childForFieldName("name")?.text ?? "";
      const first = outer.childForFieldName("arguments")?.namedChild(0) ??
        undefined;
      if (name === "uri" && first) uri = first;
      else if (HTTP_METHODS.has(name)) method = name;
      else if (name === "method" && first) {
        const m = exactText(this.evaluate(first))?.toUpperCase();
        if (m && HTTP_METHODS.has(m)) method = m;
      }
      n = outer;
    }
    if (!uri) return;
    this.emitClient(start, method, uri, "java.net.http");
  }

  emitClient(
    call: Node,
    method: string,
    urlNode: Node | undefined,
    framework: string,
  ): void {
    if (!urlNode) return;
    const url = this.evaluate(urlNode);
    const path = clientPath(url);
    if (!path) return;
    const port = httpPort({
      role: "client",
      method,
      path: path.path,
      node: call,
      owner: ownerOf(call, this.file.path, "java"),
      filePath: this.file.path,
      confidence: path.confidence,
      framework,
      extra: { raw: urlNode.text },
    });
    if (port) this.ports.push(port);
  }
}

/** The simple name of a type node (generics and packages stripped). */
export function typeName(node: Node | null): string {
  if (!node) return "";
  let text = node.text;
  const lt = text.indexOf("<");
  if (lt >= 0) text = text.slice(0, lt);
  return text.slice(text.lastIndexOf(".") + 1).trim();
}

/** Collects `static final String` constants of every class: `X`, `C.X`. */
export function collectConstants(
  root: Node,
  constants: Map<string, Value>,
): void {
  walk(root, (node) => {
    if (node.type !== "field_declaration") return;
    const modifiers = node.namedChildren.find((c) => c?.type === "modifiers")
      ?.text ?? "";
    const cls = node.parent?.parent;
    const inInterface = cls?.type === "interface_declaration";
    if (!inInterface && !/\bfinal\b/.test(modifiers)) return;
    if (typeName(node.childForFieldName("type")) !== "String") return;
    const className = cls?.childForFieldName("name")?.text;
    for (const d of node.childrenForFieldName("declarator")) {
      const value = d?.childForFieldName("value");
      const name = d?.childForFieldName("name")?.text;
      if (!name || value?.type !== "string_literal") continue;
      const v = literal(javaString(value));
      if (className) constants.set(`${className}.${name}`, v);
      if (!constants.has(name)) constants.set(name, v);
    }
  });
}

/** Interfaces implemented by `@RestController`/`@Controller` classes. */
function collectImplementers(
  root: Node,
  implementers: Map<string, string | null>,
): void {
  walk(root, (node) => {
    if (node.type !== "class_declaration") return;
    const annotations = annotationsOf(node);
    const names = annotations.map(annotationName);
    if (!names.includes("RestController") && !names.includes("Controller")) {
      return;
    }
    const mapping = annotations.find((a) =>
      annotationName(a) === "RequestMapping"
    );
    const value = mapping
      ? elements(annotationElement(mapping, ["value", "path"]))[0]
      : undefined;
    const prefix = value?.type === "string_literal" ? javaString(value) : null;
    const list = node.childForFieldName("interfaces")?.namedChild(0);
    for (const type of list?.namedChildren ?? []) {
      if (!type) continue;
      const name = typeName(type);
      if (name) implementers.set(name, prefix);
    }
  });
}

/**
 * Extracts Spring server routes and Java HTTP client calls.
 *
 * Servers: method mappings `@GetMapping` ... `@RequestMapping(method =
 * ...)` (no method: `ANY`) of classes, with the class `@RequestMapping`
 * prefix; mapped interfaces (OpenAPI-generated `UsersApi`) count when a
 * `@RestController` of the scan implements them; functional endpoints
 * (`route(GET("/x"), h)`, builder `.GET("/x", h)`, `path`/`nest` prefixes)
 * in files that import Spring's `function.server` packages. Feign clients and
 * Spring HTTP interfaces (`@GetExchange`) are clients. JAX-RS / Jakarta
 * REST: `@GET`/`@POST`... methods of `@Path` classes (`javax.ws.rs` or
 * `jakarta.ws.rs`), joined to the method `@Path`, prefixed by the
 * `@ApplicationPath` of an `Application` subclass and composed through
 * sub-resource locators; `@Path` interfaces count as servers when a class of
 * the scan implements them and as clients when annotated
 * `@RegisterRestClient` or used as a proxy (`build(X.class)`,
 * `@RestClient X`). Clients:
 * RestTemplate (`getForObject`, `postForEntity`, `exchange(url,
 * HttpMethod.X, ...)`), WebClient/RestClient (`.get().uri("/x")`,
 * `.method(HttpMethod.POST).uri(...)`), and
 * `HttpRequest.newBuilder(URI.create(url))...POST(...)`, only on receivers
 * declared with those types.
 *
 * @example Usage
 * ```ts
 * import { javaExtractor } from "@portcullis/portcullis/extract";
 * import assert from "node:assert/strict";
 *
 * const text = `@RestController
 * @RequestMapping("/users")
 * class UserController {
 *   @GetMapping("/{id}") User get(@PathVariable String id) { return null; }
 * }`;
 * const { ports } = await javaExtractor.extract([{ path: "UserController.java", text }]);
 * assert.equal(ports[0]?.ref.key, "GET /users/{}");
 * assert.equal(ports[0]?.ref.line, 4);
 * ```
 */
export const javaExtractor: LanguageExtractor = {
  name: "java",
  accepts(path: string): boolean {
    return path.endsWith(".java");
  },
  async extract(files: readonly SourceFile[]): Promise<ExtractResult> {
    const constants = new Map<string, Value>();
    const implementers = new Map<string, string | null>();
    const jaxrs = new JaxRsIndex();
    // Whether the file the first pass is reading may hold JAX-RS code.
    let jaxrsFile = false;
    let implementsSomething = false;
    return await twoPasses(
      files,
      "java",
      (file) => {
        jaxrsFile = JaxRsIndex.mentions(file.text);
        implementsSomething = /\bimplements\b/.test(file.text);
        return jaxrsFile ||
          /\bfinal\b|\binterface\b|\bimplements\b/.test(file.text);
      },
      (root) => {
        collectConstants(root, constants);
        collectImplementers(root, implementers);
        if (jaxrsFile) jaxrs.collect(root);
        else if (implementsSomething) jaxrs.collectImplementers(root);
      },
      (file, root, ports) =>
        new JavaFile(file, constants, ports, implementers, jaxrs).run(root),
    );
  },
};
export { javaGrpc } from "./grpc.ts";
export { javaTemporal } from "./temporal.ts";
export { javaQueuePorts } from "./queue.ts";
