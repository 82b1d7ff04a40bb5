// Route tables of Python frameworks that register routes as data: the
// items of a list or tuple of routes, through the names it is assigned to
// and `+` concatenations, and the server ports of a route whose handler is
// a class with one method per HTTP verb.
import { namedChildren, ownerOf } from "../_syntax/compact_tree.ts";
import { CONFIDENCE, underPrefix } from "../_value/mod.ts";
import { type PyModule, type PyProject, unwrap } from "./project.ts";
import { classOf, classVerbs, toPort } from "./classes.ts";
import type { Value } from "../_value/mod.ts";
import type { ClassRef, HttpPort } from "./classes.ts";
import type { Node } from "../_syntax/compact_tree.ts";
import type { ExtractedPort } from "../types.ts";

const MAX_ITEMS = 4096;
const MAX_DEPTH = 8;

/**
 * The items of a list or tuple expression: a literal, a name assigned one,
 * or a `+` of them (bounded in depth and count).
 */
export function listItems(
  project: PyProject,
  node: Node | undefined,
  depth = 0,
): Node[] {
  if (!node || depth > MAX_DEPTH) return [];
  const value = unwrap(node);
  if (value.type === "list" || value.type === "tuple") {
    return namedChildren(value).filter((n) => n.type !== "comment")
      .slice(0, MAX_ITEMS);
  }
  if (value.type === "binary_operator") {
    const left = value.childForFieldName("left") ?? undefined;
    const right = value.childForFieldName("right") ?? undefined;
    return [
      ...listItems(project, left, depth + 1),
      ...listItems(project, right, depth + 1),
    ].slice(0, MAX_ITEMS);
  }
  if (value.type === "identifier" || value.type === "attribute") {
    const target = project.resolveExpr(value);
    if (target?.kind === "value" && target.node !== value) {
      return listItems(project, target.node, depth + 1);
    }
  }
  return [];
}

/** How a class-handler framework names its verb methods. */
export interface HandlerClasses {
  /** The framework name on the ports. */
  framework: string;
  /** The library base classes of handlers. */
  bases: ReadonlySet<string>;
  /** The verb (lower case) a method name handles, if any. */
  verb?: (method: string) => string | undefined;
  /** The methods of a handler with no verb method (WebSocket handlers). */
  fallback?: (cls: ClassRef) => string[] | undefined;
}

/**
 * The ports of a route whose handler is a class (`(r"/users", UserHandler)`):
 * one per verb method the class defines (through its project bases), or
 * one weak `ANY` port when the class is not found or not fully known.
 */
export function classRoutePorts(
  project: PyProject,
  route: {
    module: PyModule;
    anchor: Node;
    handler: Node | undefined;
    prefix: Value;
    path: Value;
    raw: string;
  },
  classes: HandlerClasses,
): ExtractedPort[] {
  const cls = route.handler ? classOf(project, route.handler) : undefined;
  const verbs = cls
    ? classVerbs(project, cls, classes.bases, classes.verb)
    : undefined;
  const full = underPrefix(route.prefix, route.path);
  const base = {
    module: route.module,
    anchor: route.anchor,
    path: full,
    raw: route.raw,
    framework: classes.framework,
  };
  const cap = 1;
  const ports: HttpPort[] = [];
  for (const [verb, definition] of verbs?.definitions ?? []) {
    ports.push({
      ...base,
      method: verb.toUpperCase(),
      confidence: cap,
      owner: ownerOf(definition.node, definition.module.file.path, "python"),
    });
  }
  if (ports.length === 0 && cls && verbs?.known) {
    for (const method of classes.fallback?.(cls) ?? []) {
      ports.push({
        ...base,
        method,
        confidence: cap,
        owner: ownerOf(cls.node, cls.module.file.path, "python"),
      });
    }
  }
  if (ports.length === 0 && (!cls || !verbs?.known)) {
    ports.push({
      ...base,
      method: "ANY",
      confidence: Math.min(cap, CONFIDENCE.weak),
      owner: ownerOf(route.anchor, route.module.file.path, "python"),
    });
  }
  return ports.map(toPort);
}
