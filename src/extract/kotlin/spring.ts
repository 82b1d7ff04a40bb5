// Spring MVC / WebFlux in Kotlin: controllers (class `@RequestMapping`
// prefix + method mappings, mapped interfaces implemented by a
// controller), Feign clients, HTTP interfaces (`@GetExchange`) and the
// router DSL (`router { }`/`coRouter { }` with `"/api".nest { }`).
import type { Node } from "web-tree-sitter";
import { HTTP_METHODS, routePorts } from "../_port/http.ts";
import { ownerOf } from "../_syntax/owner.ts";
import { lambdaCalls } from "../_syntax/lambdas.ts";
import { namedChildren } from "../_syntax/tree.ts";
import { exactText, joinPaths, literal, type Value } from "../_value/mod.ts";
import {
  EXCHANGE_METHOD,
  feignPrefix,
  MAPPING_METHOD,
  methodConstant,
} from "../_spring/names.ts";
import type { KtFile } from "./project.ts";
import {
  annotationsOf,
  argument,
  callOf,
  isInterface,
  type KtAnnotation,
  membersOf,
  nameOf,
  ownAnnotations,
  supertypesOf,
} from "./nodes.ts";
import { contextPrefix } from "../_spring/settings.ts";
import { mappingPorts } from "../_spring/mapping.ts";
import { GRAPHQL_MAPPINGS, graphqlPorts } from "../_spring/graphql.ts";

/** The values of an annotation array: `["/a", "/b"]`, `arrayOf(...)`, one value. */
export function elements(node: Node | undefined): Node[] {
  if (!node) return [];
  if (node.type === "collection_literal") return namedChildren(node);
  const call = callOf(node);
  if (call && !call.receiver && /^(arrayOf|listOf|setOf)$/.test(call.name)) {
    return call.args.map((a) => a.value);
  }
  return [node];
}

/** The role and prefixes a class's annotations give its mappings. */
interface ClassMapping {
  role: "server" | "client";
  framework: string;
  prefixes: Value[];
  /** Whether a mapping annotation gives the class a prefix of its own. */
  own: boolean;
}

/** What a class's annotations say about its mappings. */
export function classMapping(
  c: KtFile,
  annotations: KtAnnotation[],
): ClassMapping {
  const out: ClassMapping = {
    role: "server",
    framework: "spring",
    prefixes: [literal("")],
    own: false,
  };
  for (const a of annotations) {
    if (a.name === "RequestMapping") {
      const values = elements(argument(a.args, ["value", "path"], 0));
      if (values.length > 0) {
        out.prefixes = values.map((v) => c.evaluate(v));
        out.own = true;
      }
    } else if (a.name === "FeignClient") {
      out.role = "client";
      out.framework = "feign";
      const path = argument(a.args, ["path"], -1);
      const url = argument(a.args, ["url"], -1);
      out.prefixes = [
        feignPrefix(
          url ? c.evaluate(url) : undefined,
          path ? c.evaluate(path) : undefined,
        ),
      ];
    } else if (a.name === "HttpExchange") {
      out.role = "client";
      out.framework = "spring-http-interface";
      const values = elements(argument(a.args, ["value", "url"], 0));
      if (values.length > 0) out.prefixes = values.map((v) => c.evaluate(v));
    }
  }
  return out;
}

/**
 * Records the interfaces a Spring controller implements, with the
 * controller's own `@RequestMapping` value (null when it has none).
 */
export function collectImplementers(
  root: Node,
  implementers: Map<string, Node | null>,
): void {
  for (const decl of namedChildren(root)) {
    if (decl.type !== "class_declaration") continue;
    const annotations = annotationsOf(decl);
    const names = annotations.map((a) => a.name);
    if (!names.includes("RestController") && !names.includes("Controller")) {
      continue;
    }
    const mapping = annotations.find((a) => a.name === "RequestMapping");
    const prefix = mapping
      ? elements(argument(mapping.args, ["value", "path"], 0))[0] ?? null
      : null;
    for (const type of supertypesOf(decl)) implementers.set(type, prefix);
  }
}

/** The mappings of a Spring controller, Feign client or HTTP interface. */
export function controller(c: KtFile, decl: Node): void {
  const mapping = classMapping(c, annotationsOf(decl));
  if (isInterface(decl) && mapping.role === "server") {
    // A mapped interface serves routes when a controller implements it;
    // the controller's own prefix wins (Spring finds the class's first).
    const name = nameOf(decl) ?? "";
    if (!c.root.implementers.has(name)) return;
    const prefix = c.root.implementers.get(name);
    if (prefix) mapping.prefixes = [c.evaluate(prefix)];
  }
  for (const member of membersOf(decl)) {
    if (member.type !== "function_declaration") continue;
    for (const a of ownAnnotations(member)) {
      methodMapping(c, member, a, mapping);
    }
  }
}

/** The ports of one mapping annotation of a method. */
function methodMapping(
  c: KtFile,
  method: Node,
  annotation: KtAnnotation,
  mapping: ClassMapping,
): void {
  const name = annotation.name;
  let role = mapping.role;
  let framework = mapping.framework;
  let verbs: string[];
  const fixed = MAPPING_METHOD[name];
  const exchange = EXCHANGE_METHOD[name];
  if (fixed === "ANY") {
    const declared = elements(argument(annotation.args, ["method"], -1))
      .map((n) => methodConstant(n.text)).filter((m) => HTTP_METHODS.has(m));
    verbs = declared.length > 0 ? declared : ["ANY"];
  } else if (fixed) {
    verbs = [fixed];
  } else if (exchange) {
    role = "client";
    framework = "spring-http-interface";
    if (exchange === "ANY") {
      const m = argument(annotation.args, ["method"], -1);
      const text = m ? exactText(c.evaluate(m))?.toUpperCase() : undefined;
      verbs = [text && HTTP_METHODS.has(text) ? text : "ANY"];
    } else verbs = [exchange];
  } else {
    if (GRAPHQL_MAPPINGS.has(name) && role === "server") {
      c.ports.push(...graphqlPorts(c.root.settings, {
        node: annotation.node,
        owner: ownerOf(method, c.file.path, "kotlin"),
        filePath: c.file.path,
      }));
    }
    return;
  }
  const keys = exchange ? ["value", "url"] : ["value", "path"];
  const nodes = elements(argument(annotation.args, keys, 0));
  const paths = nodes.length > 0
    ? nodes.map((n) => c.evaluate(n))
    : [literal("")];
  c.ports.push(...mappingPorts({
    role,
    methods: verbs,
    prefixes: mapping.prefixes,
    paths,
    settings: c.root.settings,
    node: annotation.node,
    owner: ownerOf(method, c.file.path, "kotlin"),
    filePath: c.file.path,
    framework,
  }));
}

/** The router DSL builders whose lambdas hold routes. */
const ROUTER_BUILDERS: ReadonlySet<string> = new Set(["router", "coRouter"]);

/**
 * A route of Spring's Kotlin router DSL: `GET("/x", handler::f)` or
 * `GET("/x") { ... }` inside `router { }`/`coRouter { }`, under the
 * `"/api".nest { }` and `path("/api").nest { }` around it.
 */
export function routerRoute(c: KtFile, node: Node): void {
  const call = callOf(node);
  if (!call || call.receiver || !HTTP_METHODS.has(call.name)) return;
  const first = call.args[0]?.value;
  if (!first || (call.args.length < 2 && !call.lambda)) return;
  const prefixes: Value[] = [];
  let inRouter = false;
  for (const { call: outer } of lambdaCalls(node, "lambda_literal", callOf)) {
    if (ROUTER_BUILDERS.has(outer.name) && !outer.receiver) {
      inRouter = true;
      break;
    }
    if (outer.name === "nest" && outer.receiver) {
      prefixes.unshift(nestPrefix(c, outer.receiver));
    }
  }
  if (!inRouter) return;
  const path = c.evaluate(first);
  const context = contextPrefix(c.root.settings, c.file.path);
  c.ports.push(...routePorts({
    methods: [call.name],
    path: joinPaths(context, ...prefixes, path),
    prefixed: prefixes.length > 0,
    node,
    owner: ownerOf(node, c.file.path, "kotlin"),
    filePath: c.file.path,
    framework: "spring-functional",
  }));
}

/** The path of a `nest` receiver: `"/api"`, `path("/api")`, `("/api" and ...)`. */
function nestPrefix(c: KtFile, receiver: Node): Value {
  let n: Node | undefined = receiver;
  for (let i = 0; n && i < 8; i++) {
    if (n.type === "parenthesized_expression") n = namedChildren(n)[0];
    else if (n.type === "infix_expression") n = namedChildren(n)[0];
    else break;
  }
  const call = n ? callOf(n) : undefined;
  if (call?.name === "path" && !call.receiver) {
    return c.evaluate(call.args[0]?.value);
  }
  return c.evaluate(n);
}
