// Java extractor: Spring MVC / WebFlux controllers (class `@RequestMapping`
// prefix + method mappings), JAX-RS / Jakarta REST resources, Feign and
// MicroProfile REST clients, and HTTP clients (RestTemplate, WebClient /
// RestClient, java.net.http.HttpRequest).
import type { Node } from "web-tree-sitter";
import type { SourceFile } from "../extractor.ts";
import type { ExtractedPort } from "../types.ts";
import type { Value } from "../_value/mod.ts";
import { composed, concat, fillHoles, hole } from "../_value/mod.ts";
import { evaluateOperators, formatValue } from "../_value/literals.ts";
import type { ConstantTable, DeclaredConstant } from "../_value/constants.ts";
import {
  collectDeclaredConstants,
  memberConstant,
} from "../_value/constants.ts";
import { statementsText, stringParts, walk } from "../_syntax/tree.ts";
import { jaxRsImports, JaxRsIndex, jaxRsPorts } from "./jaxrs.ts";
import { clientCall } from "./clients.ts";
import { apacheRequest, usesApacheHttp } from "./apache.ts";
import { dslRoutes, routerKinds } from "./routers.ts";
import { annotatedRoutes, usesAnnotatedRoutes } from "./micronaut.ts";
import { controller, functionalRoute, resourceHandler } from "./spring.ts";
import type { SpringSettings } from "../_spring/settings.ts";
import {
  FLUENT_CLIENT_TYPES,
  MAPPING_METHOD,
  REST_TEMPLATE_METHOD,
} from "../_spring/names.ts";
import { JavaCalls } from "./flow.ts";
import type { KeptTrees } from "../_syntax/passes.ts";
import { HTTP_VERBS } from "../_port/http.ts";
import { TreeFile } from "../_syntax/passes.ts";
import { resolvePlaceholders } from "../_spring/settings.ts";
import { javaAnnotations } from "./annotations.ts";
import type { ComposedMapping } from "./composed.ts";
import { ArmeriaIndex, armeriaRoutes, usesArmeria } from "./armeria.ts";
import { strutsActions, StrutsIndex } from "./struts.ts";
import { usesWicket, type WicketMapping, wicketRoutes } from "./wicket.ts";
import { jdkServerRoutes, usesJdkHttpServer } from "./httpserver.ts";
import { type ServletMappings, servletRoutes } from "./servlets.ts";
import { HelidonIndex, helidonRoutes, usesHelidonSe } from "./helidon.ts";
import {
  dropwizardAssets,
  DropwizardSettings,
  usesDropwizard,
} from "./dropwizard.ts";

export { FLUENT_CLIENT_TYPES, MAPPING_METHOD, REST_TEMPLATE_METHOD };
export const FLUENT_VERBS = HTTP_VERBS;

/** The value of a Java string literal (interpolations become `{}`). */
export function javaString(node: Node): string {
  const parts = stringParts(node) ?? [];
  const text = parts.map((p) => typeof p === "string" ? p : "{}").join("");
  return node.text.startsWith('"""') ? text.trim() : text;
}

/** One Java file being scanned: string evaluation and declared types. */
export class JavaFile extends TreeFile {
  /**
   * Interfaces implemented by controllers, with the controller's literal
   * class-level prefix (null when it has none).
   */
  readonly implementers: Map<string, string | null>;
  /**
   * Base classes extended by controllers, with each controller's literal
   * class-level prefix (null when it has none).
   */
  extenders: Map<string, Array<string | null>> = new Map();
  /** Struts facts of the scan (configuration, package namespaces). */
  struts: StrutsIndex = new StrutsIndex();
  /** The wicketstuff REST resources of the scan, by class name. */
  wicketResources: Map<string, WicketMapping[]> = new Map();
  /** The URL patterns `web.xml` maps servlet classes to. */
  servlets: ServletMappings = new Map();
  /** Where the scan registers Helidon services. */
  helidon: HelidonIndex = new HelidonIndex();
  /** The Dropwizard server paths of the scan. */
  dropwizard: DropwizardSettings = new DropwizardSettings([]);
  /** Where the scan mounts Armeria services. */
  armeria: ArmeriaIndex = new ArmeriaIndex();
  /** The composed mapping annotations of the scan root, by name. */
  composed: Map<string, ComposedMapping> = new Map();
  /** JAX-RS facts of the scan root (resources, locators, clients). */
  readonly jaxrs: JaxRsIndex | undefined;

  constructor(
    file: SourceFile,
    constants: Map<string, Value>,
    ports: ExtractedPort[],
    implementers: Map<string, string | null> = new Map(),
    jaxrs?: JaxRsIndex,
    settings?: SpringSettings,
    kept?: KeptTrees,
  ) {
    super(file, constants, ports, kept);
    this.implementers = implementers;
    this.jaxrs = jaxrs;
    this.settings = settings;
  }

  /** The Spring Boot settings of the scan root. */
  readonly settings: SpringSettings | undefined;

  /** A literal with its `${key:default}` placeholders resolved. */
  placeholders(text: string): Value {
    return this.settings?.resolve(this.file.path, text) ??
      resolvePlaceholders(text, () => undefined);
  }

  /** Evaluates a string expression (literals, `+`, constants, format). */
  evaluate(node: Node | null | undefined, depth = 0): Value {
    if (!node || depth > 8) return hole("?");
    if (node.type === "string_literal") {
      return this.placeholders(javaString(node));
    }
    const operators = evaluateOperators(
      node,
      "+",
      (operand) => this.evaluate(operand, depth + 1),
    );
    if (operators) return operators;
    switch (node.type) {
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
    return formatValue(this.evaluate(format, depth + 1));
  }

  /** Resolves a name to a local variable, field, or constant. */
  resolveName(
    name: string,
    at: Node,
    depth: number,
  ): Value | undefined {
    const decl = this.findDeclaration(name, at);
    if (decl) {
      // `@Value("${key:default}")` on a field or an injected parameter
      const injected = springValue(decl.declarator);
      if (injected) return composed(this.evaluate(injected, depth + 1));
      // a method's parameter: its callers supply it
      if (decl.declarator.type === "formal_parameter") {
        return METHOD_SCOPES.has(decl.declarator.parent?.parent?.type ?? "")
          ? hole(name, "parameter")
          : undefined;
      }
      const value = this.initializer(decl.declarator, decl.field);
      if (!value) return undefined;
      const result = this.evaluate(value, depth + 1);
      // a field a constructor sets from its parameter: whoever makes the
      // object supplies it, not the callers of the method reading it
      return composed(
        decl.field ? fillHoles(result, "parameter", (p) => hole(p)) : result,
      );
    }
    const constant = this.constants.get(name);
    return constant ? composed(constant) : undefined;
  }

  /**
   * The value a variable is given: its initializer, else for a field the
   * value a constructor assigns it (`this.base = base;`).
   */
  initializer(declarator: Node, field: boolean): Node | undefined {
    const value = declarator.childForFieldName("value");
    if (value || !field) return value ?? undefined;
    const name = declarator.childForFieldName("name")?.text;
    const body = declarator.parent?.parent;
    if (!name || body?.type !== "class_body") return undefined;
    for (const member of body.namedChildren) {
      if (member?.type !== "constructor_declaration") continue;
      let found: Node | undefined;
      walk(member, (n) => {
        if (found || n.type !== "assignment_expression") return !found;
        const left = n.childForFieldName("left");
        const target = left?.type === "field_access" &&
            left.childForFieldName("object")?.type === "this"
          ? left.childForFieldName("field")?.text
          : left?.type === "identifier"
          ? left.text
          : undefined;
        if (target === name) found = n.childForFieldName("right") ?? undefined;
      });
      if (found) return found;
    }
    return undefined;
  }

  /**
   * The base URL a client receiver was built with: `baseUrl(...)` of a
   * WebClient or RestClient builder, `rootUri(...)` of a
   * RestTemplateBuilder, in the receiver's chain or in the value its
   * variable is given.
   */
  clientBase(receiver: Node | null): Value | undefined {
    let expr: Node | null | undefined = receiver;
    for (let i = 0; expr && i < 32; i++) {
      if (expr.type === "identifier" || expr.type === "field_access") {
        const name: string | undefined = expr.type === "identifier"
          ? expr.text
          : expr.childForFieldName("object")?.type === "this"
          ? expr.childForFieldName("field")?.text
          : undefined;
        const decl: ReturnType<JavaFile["findDeclaration"]> = name
          ? this.findDeclaration(name, expr)
          : undefined;
        expr = decl ? this.initializer(decl.declarator, decl.field) : undefined;
        continue;
      }
      if (expr.type !== "method_invocation") return undefined;
      const name = expr.childForFieldName("name")?.text;
      const arg = expr.childForFieldName("arguments")?.namedChild(0);
      if ((name === "baseUrl" || name === "rootUri") && arg) {
        return this.evaluate(arg);
      }
      expr = expr.childForFieldName("object");
    }
    return undefined;
  }

  /** Finds the declaration of a name in scope at a node. */
  findDeclaration(
    name: string,
    at: Node,
  ):
    | {
      declarator: Node;
      type: string;
      fullType: string;
      field: boolean;
      final: boolean;
    }
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
                fullType: fullTypeName(stmt.childForFieldName("type")),
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
              fullType: fullTypeName(p.childForFieldName("type")),
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

  /**
   * The type a `new T(...)`/`T.create()`/`T.builder()...build()` makes, or
   * `builder.build()` of a declared `WebClient.Builder`,
   * `RestTemplateBuilder`...
   */
  expressionType(node: Node): string | undefined {
    if (node.type === "object_creation_expression") {
      return typeName(node.childForFieldName("type"));
    }
    if (node.type !== "method_invocation") return undefined;
    let root: Node = node;
    for (let i = 0; root.type === "method_invocation" && i < 32; i++) {
      const object = root.childForFieldName("object");
      if (!object) break;
      root = object;
    }
    if (root.type === "object_creation_expression") {
      root = root.childForFieldName("type") ?? root;
    }
    if (root.type !== "identifier" && root.type !== "type_identifier") {
      return undefined;
    }
    const decl = this.findDeclaration(root.text, root);
    if (!decl) return FACTORY_TYPES.has(root.text) ? root.text : undefined;
    const built = node.childForFieldName("name")?.text === "build";
    if (!built) return undefined;
    if (decl.fullType.endsWith(".Builder")) {
      const base = decl.fullType.slice(0, -".Builder".length);
      return base.slice(base.lastIndexOf(".") + 1);
    }
    return decl.fullType === "RestTemplateBuilder" ? "RestTemplate" : undefined;
  }

  /** The calls of the file's methods (for values through parameters). */
  get calls(): JavaCalls {
    return this.#calls ??= new JavaCalls(this);
  }
  #calls: JavaCalls | undefined;

  run(root: Node): void {
    this.rootNode = root;
    const functional =
      this.file.text.includes("org.springframework.web.reactive.function") ||
      this.file.text.includes("org.springframework.web.servlet.function");
    const jaxrs = this.jaxrs && JaxRsIndex.mentions(this.file.text)
      ? this.jaxrs
      : undefined;
    const imports = jaxrs ? jaxRsImports(root) : undefined;
    const dsl = routerKinds(this.file.text);
    if (dsl) dslRoutes(this, root, dsl);
    if (usesArmeria(this.file.text)) armeriaRoutes(this, root);
    if (usesWicket(this.file.text)) wicketRoutes(this, root);
    if (usesJdkHttpServer(this.file.text)) jdkServerRoutes(this, root);
    if (usesHelidonSe(this.file.text)) helidonRoutes(this, root);
    if (usesDropwizard(this.file.text)) dropwizardAssets(this, root);
    const annotated = usesAnnotatedRoutes(this.file.text);
    const apache = usesApacheHttp(this.file.text);
    const resources = this.file.text.includes("ResourceHandlerRegistry");
    const servlet = this.file.text.includes("HttpServlet");
    walk(root, (node) => {
      if (
        node.type === "class_declaration" ||
        node.type === "interface_declaration"
      ) {
        controller(this, node);
        if (node.type === "class_declaration") strutsActions(this, node);
        if (servlet && node.type === "class_declaration") {
          servletRoutes(this, node);
        }
        if (annotated) annotatedRoutes(this, node);
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
        clientCall(this, node);
        if (functional) functionalRoute(this, node);
        if (resources) resourceHandler(this, node);
      } else if (apache && node.type === "object_creation_expression") {
        apacheRequest(this, node);
      }
    });
  }
}

/** Types whose static factories make a client or a router (`Router.router(vertx)`). */
const FACTORY_TYPES: ReadonlySet<string> = new Set([
  ...FLUENT_CLIENT_TYPES,
  "RestTemplate",
  "Router",
  "Javalin",
  "Service",
]);

const METHOD_SCOPES: ReadonlySet<string> = new Set([
  "method_declaration",
  "constructor_declaration",
]);

/** The `@Value("...")` text node on a field's or parameter's declaration. */
function springValue(declarator: Node): Node | undefined {
  const decl = declarator.type === "variable_declarator"
    ? declarator.parent
    : declarator;
  if (!decl) return undefined;
  const value = javaAnnotations(decl).find((a) => a.name === "Value");
  return value?.element(["value"]);
}

/** A type's dotted name without generics (`WebClient.Builder`). */
export function fullTypeName(node: Node | null): string {
  return (node?.text ?? "").replace(/<[\s\S]*$/, "").replace(/\s+/g, "");
}

/** The simple name of a type node (generics and packages stripped). */
export function typeName(node: Node | null): string {
  if (!node) return "";
  let text = node.text;
  const lt = text.indexOf("<");
  if (lt >= 0) text = text.slice(0, lt);
  return text.slice(text.lastIndexOf(".") + 1).trim();
}

/**
 * Collects `static final String` constants of every class: `X`, `C.X`. A
 * constant built from others (`USERS = API + "/users"`) keeps them as
 * `constant` holes until {@linkcode settleConstants} fills them.
 */
export function collectConstants(root: Node, constants: ConstantTable): void {
  collectDeclaredConstants(root, constants, stringConstants);
}

/** The constants of a `final` (or interface) `String` field declaration. */
function stringConstants(node: Node): DeclaredConstant[] | undefined {
  if (node.type !== "field_declaration") return undefined;
  const modifiers = node.namedChildren.find((c) => c?.type === "modifiers")
    ?.text ?? "";
  const cls = node.parent?.parent;
  const inInterface = cls?.type === "interface_declaration";
  if (!inInterface && !/\bfinal\b/.test(modifiers)) return undefined;
  if (typeName(node.childForFieldName("type")) !== "String") return undefined;
  const className = cls?.childForFieldName("name")?.text;
  return node.childrenForFieldName("declarator").flatMap((d) => {
    const value = d?.childForFieldName("value");
    const name = d?.childForFieldName("name")?.text;
    if (!name || !value) return [];
    return [memberConstant(className, name, value, qualifiedConstant)];
  });
}

/**
 * A reference to a constant through its class (`Paths.API`,
 * `com.acme.Paths.API`): the class and the name.
 */
function qualifiedConstant(node: Node): string | undefined {
  if (node.type !== "field_access") return undefined;
  return node.text.replace(/\s+/g, "").split(".").slice(-2).join(".");
}

/** Interfaces implemented by `@RestController`/`@Controller` classes. */
export function collectImplementers(
  root: Node,
  implementers: Map<string, string | null>,
  extenders?: Map<string, Array<string | null>>,
): void {
  const micronaut = statementsText(root, "import_declaration")
    .includes("io.micronaut");
  walk(root, (node) => {
    if (node.type !== "class_declaration") return;
    const annotations = javaAnnotations(node);
    const names = annotations.map((a) => a.name);
    if (!names.includes("RestController") && !names.includes("Controller")) {
      return;
    }
    // Micronaut's `@Controller("/books")` holds the path (Spring's holds
    // a bean name)
    const mapping = annotations.find((a) =>
      a.name === "RequestMapping" || (micronaut && a.name === "Controller")
    );
    const value = mapping?.values(["value", "path"])[0];
    const prefix = value?.type === "string_literal" ? javaString(value) : null;
    const list = node.childForFieldName("interfaces")?.namedChild(0);
    for (const type of list?.namedChildren ?? []) {
      if (!type) continue;
      const name = typeName(type);
      if (name) implementers.set(name, prefix);
    }
    // a base class whose handler methods this controller inherits
    const base = typeName(
      node.childForFieldName("superclass")?.namedChild(0) ?? null,
    );
    if (base && extenders) {
      const prefixes = extenders.get(base) ?? [];
      if (prefixes.length < MAX_EXTENDERS) prefixes.push(prefix);
      extenders.set(base, prefixes);
    }
  });
}

/** The most controllers a base class's routes are repeated under. */
const MAX_EXTENDERS = 32;
