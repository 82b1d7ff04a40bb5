// Apache Wicket: pages and resources an application mounts
// (`mountPage("/users", UsersPage.class)`, `mountPackage`, `mountResource`,
// `mount(new MountedMapper(...))`), `@MountPath` pages, wicketstuff REST
// resources (`@ResourcePath` classes with `@MethodMapping` methods, also
// mounted with `mountResource`) and `LambdaRestMounter` routes.
import type { Node } from "web-tree-sitter";
import { HTTP_METHODS } from "../_port/http.ts";
import { walk } from "../_syntax/tree.ts";
import { joinPaths, literal, mapText, type Value } from "../_value/mod.ts";
import { type JavaAnnotation, javaAnnotations } from "./annotations.ts";
import type { JavaFile } from "./project.ts";
import { javaString, typeName } from "./project.ts";
import { serverRoute } from "./route_at.ts";

/** Whether a file uses Wicket or wicketstuff. */
export function usesWicket(text: string): boolean {
  return /\borg\.(apache\.wicket|wicketstuff)\b/.test(text);
}

/** One `@MethodMapping` of a REST resource class. */
export interface WicketMapping {
  method: string;
  path: string;
}

/** The most REST resource classes a scan keeps. */
const MAX_RESOURCES = 512;

/**
 * Collects the wicketstuff REST resources of a file: the `@MethodMapping`
 * methods of each class, by class name (literal paths only).
 */
export function collectWicketResources(
  root: Node,
  resources: Map<string, WicketMapping[]>,
): void {
  walk(root, (node) => {
    if (node.type !== "class_declaration") return;
    if (resources.size >= MAX_RESOURCES) return;
    const mappings: WicketMapping[] = [];
    for (const member of node.childForFieldName("body")?.namedChildren ?? []) {
      if (member?.type !== "method_declaration") continue;
      for (const a of javaAnnotations(member)) {
        const mapping = methodMapping(a);
        const path = mapping?.path;
        if (mapping && path?.type === "string_literal") {
          mappings.push({ method: mapping.method, path: javaString(path) });
        }
      }
    }
    const name = node.childForFieldName("name")?.text;
    if (name && mappings.length > 0) resources.set(name, mappings);
  });
}

/** A `@MethodMapping("/x", httpMethod = HttpMethod.POST)`'s parts. */
function methodMapping(
  a: JavaAnnotation,
): { method: string; path: Node | undefined } | undefined {
  if (a.name !== "MethodMapping") return undefined;
  const verb = a.element(["httpMethod"])?.text.split(".").pop() ?? "GET";
  const method = HTTP_METHODS.has(verb) ? verb : "GET";
  return { method, path: a.element(["value"]) };
}

/** The Wicket routes of one file. */
export function wicketRoutes(c: JavaFile, root: Node): void {
  walk(root, (node) => {
    if (node.type === "class_declaration") {
      annotatedClass(c, node);
    } else if (node.type === "method_invocation") {
      mountCall(c, node);
    } else if (node.type === "object_creation_expression") {
      mapper(c, node);
    }
  });
}

/** `@MountPath` pages and `@ResourcePath` REST resources. */
function annotatedClass(c: JavaFile, cls: Node): void {
  const name = cls.childForFieldName("name")?.text ?? "";
  for (const a of javaAnnotations(cls)) {
    if (a.name === "MountPath") {
      // no path: the page's class name
      const paths = [
        ...a.values(["value", "path"]),
        ...a.values(["alt"]),
      ].map((n) => c.evaluate(n));
      for (const path of paths.length > 0 ? paths : [literal(`/${name}`)]) {
        emit(c, a.node, "GET", path);
      }
    } else if (a.name === "ResourcePath") {
      const prefix = a.element(["value"]);
      resourceRoutes(c, cls, prefix ? [c.evaluate(prefix)] : []);
    }
  }
}

/** The `@MethodMapping` methods of a resource class under prefixes. */
function resourceRoutes(c: JavaFile, cls: Node, prefixes: Value[]): void {
  for (const member of cls.childForFieldName("body")?.namedChildren ?? []) {
    if (member?.type !== "method_declaration") continue;
    for (const a of javaAnnotations(member)) {
      const mapping = methodMapping(a);
      if (!mapping?.path) continue;
      emit(c, a.node, mapping.method, c.evaluate(mapping.path), prefixes);
    }
  }
}

/** The application's `mountPage`/`mountPackage`/`mountResource` calls. */
function mountCall(c: JavaFile, call: Node): void {
  const name = call.childForFieldName("name")?.text ?? "";
  const args = (call.childForFieldName("arguments")?.namedChildren ?? [])
    .filter((n): n is Node => n !== null);
  const object = call.childForFieldName("object");
  if (
    (name === "get" || name === "post" || name === "put" ||
      name === "delete" || name === "patch") &&
    object && c.receiverType(object) === "LambdaRestMounter" && args[0]
  ) {
    emit(c, call, name.toUpperCase(), c.evaluate(args[0]));
    return;
  }
  if (object && object.type !== "this") return;
  if (args.length !== 2) return;
  if (name === "mountPage") {
    emitFlowed(c, call, args[0]!, "");
  } else if (name === "mountPackage") {
    emitFlowed(c, call, args[0]!, "/*");
  } else if (name === "mountResource") {
    const resource = restResource(c, args[1]!);
    if (!resource) {
      emitFlowed(c, call, args[0]!, "");
      return;
    }
    for (const m of resource) {
      emit(c, call, m.method, literal(m.path), [c.evaluate(args[0]!)]);
    }
  }
}

/**
 * The REST resource a `ResourceReference` argument hands out: a class of
 * the scan with `@MethodMapping` methods made inside it.
 */
function restResource(c: JavaFile, arg: Node): WicketMapping[] | undefined {
  let found: WicketMapping[] | undefined;
  walk(arg, (n) => {
    if (found || n.type !== "object_creation_expression") return;
    found = c.wicketResources.get(typeName(n.childForFieldName("type")));
  });
  return found;
}

/** `new MountedMapper("/x", P.class)`, `PackageMapper`, `ResourceMapper`. */
function mapper(c: JavaFile, node: Node): void {
  const type = typeName(node.childForFieldName("type"));
  const tail = type === "PackageMapper"
    ? "/*"
    : type === "MountedMapper" || type === "ResourceMapper"
    ? ""
    : undefined;
  const first = node.childForFieldName("arguments")?.namedChild(0);
  if (tail === undefined || !first) return;
  emitFlowed(c, node, first, tail);
}

/** A mount path, also one a helper's callers pass (`mountAlias("/x", P.class)`). */
function emitFlowed(c: JavaFile, at: Node, arg: Node, tail: string): void {
  const value = c.evaluate(arg);
  for (const flowed of c.calls.expand(at, value)) {
    emit(c, flowed.site ?? at, "GET", joinPaths(flowed.value, literal(tail)));
  }
}

/** Emits one Wicket route, under `prefixes` (a REST resource's) if any. */
function emit(
  c: JavaFile,
  at: Node,
  method: string,
  path: Value,
  prefixes: readonly Value[] = [],
): void {
  // `#{name}` is an optional parameter
  const template = mapText(path, (t) => t.replace(/#\{(\w+)\}/g, "{$1}"));
  serverRoute(c, at, {
    methods: [method],
    prefixes,
    path: template,
    framework: "wicket",
  });
}
