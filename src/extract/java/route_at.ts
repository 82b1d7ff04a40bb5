// What the Java routing readers share: a method call's parts, the class a
// node is declared in, and the server ports of a route at a node (a call is
// reported at its name when the name starts a later line of a chain).
import type { Node } from "web-tree-sitter";
import { routePorts } from "../_port/http.ts";
import { ownerOf } from "../_syntax/owner.ts";
import { anchorOf, findAncestor } from "../_syntax/tree.ts";
import { addsPrefix, joinPaths, type Value } from "../_value/mod.ts";
import type { JavaFile } from "./project.ts";

/** A method call's node, name, receiver and arguments. */
export interface Invocation {
  node: Node;
  name: string;
  object: Node | null;
  args: Node[];
}

/** The parts of a `method_invocation` (undefined for another node). */
export function invocation(node: Node | null): Invocation | undefined {
  if (node?.type !== "method_invocation") return undefined;
  return {
    node,
    name: node.childForFieldName("name")?.text ?? "",
    object: node.childForFieldName("object"),
    args: (node.childForFieldName("arguments")?.namedChildren ?? [])
      .filter((n): n is Node => n !== null),
  };
}

const CLASS: ReadonlySet<string> = new Set(["class_declaration"]);

/** The name of the class a node is declared in, if any. */
export function enclosingClass(node: Node): string | undefined {
  return findAncestor(node, CLASS)?.childForFieldName("name")?.text;
}

/** Options of {@linkcode serverRoute}. */
export interface ServerRoute {
  methods: readonly string[];
  /** The context path the route is under (not counted as a prefix). */
  context?: Value;
  /** Prefixes before the path (mounts, nesting), outermost first. */
  prefixes: readonly Value[];
  path: Value;
  framework: string;
}

/** Adds the server ports of a route declared at `at`. */
export function serverRoute(c: JavaFile, at: Node, route: ServerRoute): void {
  const call = at.type === "method_invocation" ? at : undefined;
  c.ports.push(...routePorts({
    methods: route.methods,
    path: joinPaths(
      ...(route.context ? [route.context] : []),
      ...route.prefixes,
      route.path,
    ),
    prefixed: route.prefixes.some(addsPrefix),
    node: call ? anchorOf(call, call.childForFieldName("name") ?? call) : at,
    owner: ownerOf(at, c.file.path, "java"),
    filePath: c.file.path,
    framework: route.framework,
  }));
}
