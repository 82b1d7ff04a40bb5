// Armeria servers: `Server.builder()` services (`.service("/x", s)`,
// `.serviceUnder("/x", s)`, `.route().get("/x").build(s)`,
// `.withRoute(b -> b.path("/x").methods(...).build(s))`), the `routes()` of
// an `HttpServiceWithRoutes`, and annotated services (`@Get("/x")`, `@Post`
// with `@Path`, a class `@PathPrefix`) under the prefix they are mounted at
// (`.annotatedService("/api", new Users())`).
import type { Node } from "web-tree-sitter";
import { CAPITALISED_METHODS, HTTP_METHODS } from "../_port/http.ts";
import { walk } from "../_syntax/tree.ts";
import { exactText, literal, mapText, type Value } from "../_value/mod.ts";
import type { JavaFile } from "./project.ts";
import { javaAnnotations } from "./annotations.ts";
import { typeName } from "./project.ts";
import {
  enclosingClass,
  type Invocation,
  invocation,
  serverRoute,
} from "./route_at.ts";

/** Whether a file uses Armeria. */
export function usesArmeria(text: string): boolean {
  return text.includes("com.linecorp.armeria");
}

/**
 * Where the scan mounts Armeria services, by class name: the prefixes of
 * `annotatedService("/p", new X())` / `serviceUnder("/p", new X())`
 * (`""` for `service(new X())`), and the classes that list their own
 * routes (`HttpServiceWithRoutes`).
 */
export class ArmeriaIndex {
  /** Mount prefixes by class name (literal texts). */
  readonly mounts: Map<string, string[]> = new Map();
  /** Classes implementing `HttpServiceWithRoutes`. */
  readonly withRoutes: Set<string> = new Set();

  /** Collects the mounts and route-listing classes of one file. */
  collect(root: Node, text: (node: Node) => string | undefined): void {
    walk(root, (node) => {
      if (node.type === "class_declaration") {
        const list = node.childForFieldName("interfaces")?.namedChild(0);
        for (const t of list?.namedChildren ?? []) {
          if (typeName(t) !== "HttpServiceWithRoutes") continue;
          const name = node.childForFieldName("name")?.text;
          if (name) this.withRoutes.add(name);
        }
        return;
      }
      const call = invocation(node);
      if (!call || !MOUNTS.has(call.name)) return;
      const target = call.args.at(-1);
      const cls = target?.type === "object_creation_expression"
        ? typeName(target.childForFieldName("type"))
        : undefined;
      if (!cls) return;
      const prefix = call.args.length === 1
        ? ""
        : call.args.length === 2
        ? text(call.args[0]!)
        : undefined;
      if (prefix === undefined) return;
      const list = this.mounts.get(cls) ?? [];
      if (list.length < MAX_MOUNTS && !list.includes(prefix)) list.push(prefix);
      this.mounts.set(cls, list);
    });
  }
}

const MOUNTS: ReadonlySet<string> = new Set([
  "annotatedService",
  "serviceUnder",
  "service",
]);
const MAX_MOUNTS = 16;

/** The Armeria routes of one file. */
export function armeriaRoutes(c: JavaFile, root: Node): void {
  const index = c.armeria;
  walk(root, (node) => {
    if (node.type === "class_declaration") {
      annotatedService(c, node);
      return;
    }
    const call = invocation(node);
    if (!call) return;
    if (call.name === "service" || call.name === "serviceUnder") {
      pathService(c, call, index);
    } else if (call.name === "build") {
      routeBuilder(c, call);
    }
  });
}

/** `.service("/x", s)` / `.serviceUnder("/x", s)` of a server builder. */
function pathService(
  c: JavaFile,
  call: Invocation,
  index: ArmeriaIndex,
): void {
  if (call.args.length !== 2) return;
  const [first, service] = call.args as [Node, Node];
  const path = c.evaluate(first);
  const head = path.parts[0];
  if (typeof head !== "string" || !head.startsWith("/")) return;
  // a service that lists its own routes answers those under the prefix
  if (service.type === "object_creation_expression") {
    const cls = typeName(service.childForFieldName("type"));
    if (index.withRoutes.has(cls)) return;
  }
  // file services answer GET and HEAD; others whatever they handle
  const files = /\b(FileService|HttpFile)\b/.test(service.text);
  emit(c, call.node, files ? ["GET", "HEAD"] : ["ANY"], [], path);
}

/** The verbs of a route builder chain and the path it sets. */
interface BuiltRoute {
  methods: string[];
  path: Node | undefined;
  /** Whether the chain starts a route (`route()`, `Route.builder()`, a `withRoute` lambda). */
  rooted: boolean;
  /** `Route.builder()`: a route value, not a service binding. */
  value: boolean;
}

/** A `....build(...)` that ends a route builder chain. */
function routeBuilder(c: JavaFile, call: Invocation): void {
  const route = builtRoute(call.object);
  if (!route?.rooted || !route.path) return;
  const path = c.evaluate(route.path);
  const methods = route.methods.length > 0 ? route.methods : ["ANY"];
  if (!route.value) {
    emit(c, call.node, methods, [], path);
    return;
  }
  // `Route.builder()...build()` inside a service's `routes()`: under the
  // prefixes the service is mounted at; as a `.service(route, s)` argument
  // on its own
  const cls = enclosingClass(call.node);
  const mounts = cls && !boundInService(call.node)
    ? c.armeria.mounts.get(cls)
    : undefined;
  for (const prefix of mounts ?? [""]) {
    emit(c, call.node, methods, prefix ? [literal(prefix)] : [], path);
  }
}

function builtRoute(object: Node | null): BuiltRoute | undefined {
  const out: BuiltRoute = {
    methods: [],
    path: undefined,
    rooted: false,
    value: false,
  };
  let n = object;
  for (let i = 0; n && i < 32; i++) {
    if (n.type === "identifier") {
      out.rooted = withRouteParameter(n);
      return out;
    }
    const call = invocation(n);
    if (!call) return undefined;
    const verb = call.name.toUpperCase();
    // another chain's end: a route bound before this one
    if (call.name === "build" || MOUNTS.has(call.name)) return undefined;
    if (call.name === "route" && call.args.length === 0) {
      out.rooted = true;
      return out;
    }
    if (call.name === "builder" && call.object?.text === "Route") {
      out.rooted = true;
      out.value = true;
      return out;
    }
    if (call.name === "path" && call.args.length === 1) {
      out.path ??= call.args[0];
    } else if (
      HTTP_METHODS.has(verb) && call.name === verb.toLowerCase() &&
      call.args.length === 1
    ) {
      out.methods.push(verb);
      out.path ??= call.args[0];
    } else if (call.name === "methods") {
      for (const a of call.args) {
        const m = /(?:^|\.)(\w+)$/.exec(a.text)?.[1]?.toUpperCase();
        if (m && HTTP_METHODS.has(m)) out.methods.push(m);
      }
    }
    n = call.object;
  }
  return undefined;
}

/** Whether a name is the parameter of a `withRoute(b -> ...)` lambda. */
function withRouteParameter(name: Node): boolean {
  for (let n: Node | null = name.parent; n; n = n.parent) {
    if (n.type !== "lambda_expression") continue;
    const call = n.parent?.parent;
    const param = n.childForFieldName("parameters");
    return invocation(call ?? null)?.name === "withRoute" &&
      (param?.text.replace(/[()\s]/g, "") === name.text);
  }
  return false;
}

/** Whether a route value is the first argument of `.service(route, s)`. */
function boundInService(node: Node): boolean {
  const call = invocation(node.parent?.parent ?? null);
  return call?.name === "service" && call.args[0]?.id === node.id;
}

/** Armeria's method annotations. */
const VERBS: Readonly<Record<string, string>> = {
  ...CAPITALISED_METHODS,
  Trace: "TRACE",
};

/**
 * An annotated service: `@Get("/x")`, or `@Post` with `@Path("/x")`,
 * under the class `@PathPrefix` and the prefixes it is mounted at.
 */
function annotatedService(c: JavaFile, cls: Node): void {
  if (!c.file.text.includes("armeria.server.annotation")) return;
  const name = cls.childForFieldName("name")?.text ?? "";
  const prefix = javaAnnotations(cls).find((a) => a.name === "PathPrefix")
    ?.element(["value"]);
  const own = prefix ? [c.evaluate(prefix)] : [];
  const mounts = c.armeria.mounts.get(name) ?? [""];
  for (const member of cls.childForFieldName("body")?.namedChildren ?? []) {
    if (member?.type !== "method_declaration") continue;
    const annotations = javaAnnotations(member);
    const verbs = annotations.filter((a) => a.name in VERBS);
    if (verbs.length === 0) continue;
    const paths = annotations.find((a) => a.name === "Path")?.values([
      "value",
    ]) ?? [];
    for (const verb of verbs) {
      const nodes = paths.length > 0 ? paths : verb.values(["value"]);
      for (const node of nodes) {
        const path = mapText(c.evaluate(node), stripPrefixKind);
        for (const mount of mounts) {
          const prefixes = mount ? [literal(mount), ...own] : own;
          emit(c, verb.node, [VERBS[verb.name]!], prefixes, path);
        }
      }
    }
  }
}

/** `exact:/x` and `prefix:/x` paths as the path they name. */
function stripPrefixKind(text: string): string {
  return text.replace(/^(exact|prefix):/, "");
}

function emit(
  c: JavaFile,
  at: Node,
  methods: readonly string[],
  prefixes: readonly Value[],
  path: Value,
): void {
  const head = exactText(path) ?? path.parts[0];
  if (typeof head === "string" && /^(glob|regex):/.test(head)) return;
  serverRoute(c, at, { methods, prefixes, path, framework: "armeria" });
}
