// Spring MVC / WebFlux: controllers (class `@RequestMapping` prefix +
// method mappings, mapped interfaces implemented by a controller), Feign
// clients, HTTP interfaces (`@GetExchange`) and functional endpoints.
import { HTTP_METHODS, routePorts } from "../_port/http.ts";
import { ownerOf } from "../_syntax/owner.ts";
import { anchorOf } from "../_syntax/tree.ts";
import {
  chainsThroughCallers,
  exactText,
  joinPaths,
  literal,
  type Value,
} from "../_value/mod.ts";
import { type JavaFile, MAPPING_METHOD } from "./project.ts";
import { type JavaAnnotation, javaAnnotations } from "./annotations.ts";
import type { Node } from "web-tree-sitter";
import { feignPrefix } from "../_spring/names.ts";
import { contextPrefix } from "../_spring/settings.ts";
import { mappingPorts } from "../_spring/mapping.ts";
import { GRAPHQL_MAPPINGS, graphqlPorts } from "../_spring/graphql.ts";

/**
 * Spring functional endpoints (WebFlux `RouterFunctions`, WebMvc.fn):
 * `route(GET("/x"), h)`, `.andRoute(POST("/x"), h)`, builder
 * `.GET("/x", h)`, with `.path("/api", b -> ...)` and `nest(path("/api"),
 * ...)` prefixes.
 */
export function functionalRoute(
  c: JavaFile,
  call: Node,
): void {
  const name = call.childForFieldName("name")?.text ?? "";
  if (!HTTP_METHODS.has(name)) return;
  const args = (call.childForFieldName("arguments")?.namedChildren ?? [])
    .filter((n): n is Node => n !== null);
  const first = args[0];
  if (!first) return;
  const path = c.evaluate(first);
  const head = path.parts[0];
  if (typeof head !== "string" || !head.startsWith("/")) return;
  // A predicate `GET("/x")` counts inside `route(...)`/`andRoute(...)`/
  // `nest(...)`; a builder call `.GET("/x", handler)` on its own.
  if (args.length < 2 && !insideRoute(call)) return;
  const context = contextPrefix(c.settings, c.file.path);
  for (const prefixes of prefixChains(c, call, 0)) {
    c.ports.push(...routePorts({
      methods: [name],
      path: joinPaths(context, ...prefixes, path),
      prefixed: prefixes.length > 0,
      node: anchorOf(call, call.childForFieldName("name") ?? call),
      owner: ownerOf(call, c.file.path, "java"),
      filePath: c.file.path,
      framework: "spring-functional",
    }));
  }
}

/**
 * The `path(...)`/`nest(path(...))` prefixes around a functional route,
 * outermost first: one list per way the route is reached, through the
 * calls of a method that returns it (`nest(path("/api"), userRoutes())`),
 * a few calls deep.
 */
function prefixChains(c: JavaFile, from: Node, depth: number): Value[][] {
  const prefixes: Value[] = [];
  let returned = false;
  for (let n: Node | null = from.parent; n; n = n?.parent ?? null) {
    if (n.type === "return_statement") returned = true;
    if (n.type === "method_declaration") {
      const fn = n;
      return chainsThroughCallers(
        depth,
        () => returned ? c.calls.sitesOf(fn) : [],
        (site, outer) => prefixChains(c, site, outer),
        prefixes,
      );
    }
    if (n.type !== "lambda_expression" && n.type !== "argument_list") {
      continue;
    }
    const outer = n.type === "lambda_expression" ? n.parent?.parent : n.parent;
    if (outer?.type !== "method_invocation") continue;
    const outerName = outer.childForFieldName("name")?.text;
    const outerArgs = (outer.childForFieldName("arguments")?.namedChildren ??
      []).filter((a): a is Node => a !== null);
    const inFirst = outerArgs[0] !== undefined &&
      outerArgs[0].startIndex <= from.startIndex &&
      from.endIndex <= outerArgs[0].endIndex;
    if (inFirst || outerArgs.length < 2) continue;
    if (outerName === "path" && n.type === "lambda_expression") {
      prefixes.unshift(c.evaluate(outerArgs[0]));
    } else if (outerName === "nest" || outerName === "andNest") {
      const p = predicatePath(outerArgs[0]!, 0);
      if (p) prefixes.unshift(c.evaluate(p));
    }
    if (n.type === "lambda_expression") n = n.parent;
  }
  return [prefixes];
}

/**
 * The path argument of a `nest` predicate: `path("/api")`, also combined
 * with others (`path("/api").and(accept(JSON))`).
 */
function predicatePath(predicate: Node, depth: number): Node | undefined {
  if (predicate.type !== "method_invocation" || depth > 8) return undefined;
  const name = predicate.childForFieldName("name")?.text;
  const args = predicate.childForFieldName("arguments");
  if (name === "path") return args?.namedChild(0) ?? undefined;
  if (name !== "and" && name !== "or") return undefined;
  const object = predicate.childForFieldName("object");
  const own = object ? predicatePath(object, depth + 1) : undefined;
  const arg = args?.namedChild(0);
  return own ?? (arg ? predicatePath(arg, depth + 1) : undefined);
}

/** Whether a predicate call is an argument of `route`/`andRoute`/`nest`. */
export function insideRoute(
  call: Node,
): boolean {
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
export function controller(
  c: JavaFile,
  cls: Node,
): void {
  let prefixes: Value[] = [literal("")];
  let role: "server" | "client" = "server";
  let framework = "spring";
  for (const a of javaAnnotations(cls)) {
    const name = a.name;
    if (name === "RequestMapping") {
      const values = a.values(["value", "path"]);
      if (values.length > 0) prefixes = values.map((v) => c.evaluate(v));
    } else if (c.composed.get(name)?.base === "RequestMapping") {
      // a composed annotation that carries the class's `@RequestMapping`
      prefixes = c.composed.get(name)!.paths.map((p) => c.placeholders(p));
    } else if (name === "FeignClient") {
      role = "client";
      framework = "feign";
      const path = a.element(["path"]);
      const url = a.element(["url"]);
      prefixes = [
        feignPrefix(
          url ? c.evaluate(url) : undefined,
          path ? c.evaluate(path) : undefined,
        ),
      ];
    } else if (name === "HttpExchange") {
      role = "client";
      framework = "spring-http-interface";
      const values = a.values(["value", "url"]);
      if (values.length > 0) prefixes = values.map((v) => c.evaluate(v));
    }
  }
  if (
    cls.type === "class_declaration" && role === "server" &&
    /\babstract\b/.test(modifiersText(cls))
  ) {
    // An abstract base's handler methods are routes of the controllers
    // that extend it, under their prefixes (Spring finds the subclass's
    // mapping first, then the base's); never on their own.
    const name = cls.childForFieldName("name")?.text ?? "";
    const subclasses = c.extenders.get(name);
    if (!subclasses) return;
    const own = prefixes;
    const unique = new Map<string, Value>();
    for (const p of subclasses) {
      for (const v of p !== null ? [literal(p)] : own) {
        unique.set(exactText(v) ?? String(unique.size), v);
      }
    }
    prefixes = [...unique.values()];
  }
  if (cls.type === "interface_declaration" && role === "server") {
    // A mapped interface (often generated from OpenAPI) serves routes
    // when a controller implements it; its class prefix wins.
    const name = cls.childForFieldName("name")?.text ?? "";
    if (!c.implementers.has(name)) return;
    const prefix = c.implementers.get(name);
    if (prefix !== null && prefix !== undefined) prefixes = [literal(prefix)];
  }
  const body = cls.childForFieldName("body");
  for (const member of body?.namedChildren ?? []) {
    if (member?.type !== "method_declaration") continue;
    for (const a of javaAnnotations(member)) {
      mapping(c, member, a, prefixes, role, framework);
    }
  }
}

function modifiersText(decl: Node): string {
  return decl.namedChildren.find((c) => c?.type === "modifiers")?.text ?? "";
}

export function mapping(
  c: JavaFile,
  method: Node,
  annotation: JavaAnnotation,
  prefixes: readonly Value[],
  role: "server" | "client",
  framework: string,
): void {
  const name = annotation.name;
  let verbs: string[];
  const fixed = MAPPING_METHOD[name];
  const exchange = /^(Get|Post|Put|Delete|Patch)Exchange$/.exec(name);
  const carried = fixed || role !== "server" ? undefined : c.composed.get(name);
  if (fixed === "ANY") {
    verbs = annotation.methods(["method"]);
  } else if (fixed) {
    verbs = [fixed];
  } else if (exchange) {
    verbs = [exchange[1]!.toUpperCase()];
    role = "client";
    framework = "spring-http-interface";
  } else if (name === "HttpExchange") {
    const m = annotation.element(["method"]);
    const text = m ? exactText(c.evaluate(m))?.toUpperCase() : undefined;
    verbs = [text && HTTP_METHODS.has(text) ? text : "ANY"];
    role = "client";
    framework = "spring-http-interface";
  } else if (carried) {
    verbs = carried.methods;
  } else {
    if (GRAPHQL_MAPPINGS.has(name) && role === "server") {
      c.ports.push(...graphqlPorts(c.settings, {
        node: annotation.node,
        owner: ownerOf(method, c.file.path, "java"),
        filePath: c.file.path,
      }));
    }
    return;
  }
  const keys = carried
    ? [...carried.elements]
    : exchange || name === "HttpExchange"
    ? ["value", "url"]
    : ["value", "path"];
  const pathNodes = keys.length > 0 ? annotation.values(keys) : [];
  const paths = pathNodes.length > 0
    ? pathNodes.map((n) => c.evaluate(n))
    : carried
    ? carried.paths.map((p) => c.placeholders(p))
    : [literal("")];
  c.ports.push(...mappingPorts({
    role,
    methods: verbs,
    prefixes,
    paths,
    settings: c.settings,
    node: annotation.node,
    owner: ownerOf(method, c.file.path, "java"),
    filePath: c.file.path,
    framework,
  }));
}

/**
 * Static resources a `WebMvcConfigurer`/`WebFluxConfigurer` serves:
 * `registry.addResourceHandler("/assets/**", "/webjars/**")` answers `GET`
 * under each pattern (a trailing `/**` is one wildcard segment here).
 */
export function resourceHandler(c: JavaFile, call: Node): void {
  if (call.childForFieldName("name")?.text !== "addResourceHandler") return;
  const args = call.childForFieldName("arguments")?.namedChildren ?? [];
  const context = contextPrefix(c.settings, c.file.path);
  for (const arg of args) {
    if (!arg) continue;
    const pattern = c.evaluate(arg);
    const text = exactText(pattern);
    if (text === undefined || !text.startsWith("/")) continue;
    c.ports.push(...routePorts({
      methods: ["GET"],
      path: joinPaths(context, literal(text.replace(/\/\*\*$/, "/*"))),
      prefixed: false,
      node: anchorOf(call, call.childForFieldName("name") ?? call),
      owner: ownerOf(call, c.file.path, "java"),
      filePath: c.file.path,
      framework: "spring",
    }));
  }
}
