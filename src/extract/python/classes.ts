// Python classes of a project as routes read them: their methods, their
// bases followed through the project to a library class, and the server
// port of a route generated from one.
import { namedChildren, positionOf } from "../_syntax/compact_tree.ts";
import { routePath, type Value } from "../_value/mod.ts";
import {
  positionalArgs,
  type PyModule,
  type PyProject,
  unwrap,
} from "./project.ts";
import type { Node } from "../_syntax/compact_tree.ts";
import type { ExtractedPort, PortOwner } from "../types.ts";
import { httpBoundaryKey } from "../../boundary/http_path.ts";
import { HTTP_VERBS } from "../_port/http.ts";

/** A server port found on a class. */
export interface HttpPort {
  module: PyModule;
  anchor: Node;
  method: string;
  path: Value;
  raw: string;
  confidence: number;
  framework: string;
  owner: PortOwner;
}

/** The extracted port. */
export function toPort(port: HttpPort): ExtractedPort {
  const result = routePath(port.path);
  const { line, col } = positionOf(port.anchor);
  return {
    ref: {
      mechanism: "http",
      role: "server",
      key: httpBoundaryKey(port.method, result.path),
      line,
      col,
      confidence: Math.min(result.confidence, port.confidence),
      detail: {
        method: port.method,
        path: result.path,
        raw: port.raw,
        framework: port.framework,
      },
    },
    owner: port.owner,
    filePath: port.module.file.path,
  };
}

/** A class found in the project, with the module that defines it. */
export interface ClassRef {
  module: PyModule;
  node: Node;
}

/** The project class an expression names, if any. */
export function classOf(project: PyProject, expr: Node): ClassRef | undefined {
  const target = project.resolveExpr(unwrap(expr));
  return target?.kind === "class"
    ? { module: target.module, node: target.node }
    : undefined;
}

/** The definitions (methods, or decorated methods) of a class body. */
export function classMembers(
  cls: Node,
): Array<{ definition: Node; decorators: Node[] }> {
  const body = cls.childForFieldName("body");
  const out: Array<{ definition: Node; decorators: Node[] }> = [];
  for (const statement of body ? namedChildren(body) : []) {
    if (statement.type === "function_definition") {
      out.push({ definition: statement, decorators: [] });
    } else if (statement.type === "decorated_definition") {
      const definition = statement.childForFieldName("definition");
      if (definition?.type !== "function_definition") continue;
      out.push({
        definition,
        decorators: namedChildren(statement).filter((n) =>
          n.type === "decorator"
        ),
      });
    }
  }
  return out;
}

/** The base class expressions of a class definition. */
export function baseClasses(cls: Node): Node[] {
  return positionalArgs(cls.childForFieldName("superclasses"));
}

export const MAX_BASES = 8;

/**
 * The external class a constructor expression names, directly or through
 * project subclasses (`class VersionedRouter(DefaultRouter)`): the first
 * external base found, depth first.
 */
export function libraryClass(
  project: PyProject,
  callee: Node,
  depth = 0,
): string | undefined {
  const target = project.resolveExpr(callee);
  if (target?.kind === "external") return target.name;
  if (target?.kind !== "class" || depth > MAX_BASES) return undefined;
  for (const base of baseClasses(target.node)) {
    const name = libraryClass(project, unwrap(base), depth + 1);
    if (name) return name;
  }
  return undefined;
}

/**
 * The objects of library classes a project constructs (DRF routers,
 * Flask-RESTful `Api`s): one per construction, a call of the class or of
 * a project subclass of it, made by `make` the first time an expression is
 * found to hold it (`make` gives undefined for a class it does not model).
 */
export class LibraryObjects<T> {
  readonly #project: PyProject;
  readonly #make: (call: Node, cls: string, module: PyModule) => T | undefined;
  readonly #objects = new Map<string, T>();

  constructor(
    project: PyProject,
    make: (call: Node, cls: string, module: PyModule) => T | undefined,
  ) {
    this.#project = project;
    this.#make = make;
  }

  /** The object an expression holds (through names it is assigned to). */
  of(expr: Node | null | undefined): T | undefined {
    if (!expr) return undefined;
    const target = this.#project.resolveExpr(unwrap(expr));
    if (target?.kind !== "value") return undefined;
    const value = unwrap(target.node);
    if (value.type !== "call") return undefined;
    const callee = value.childForFieldName("function");
    const cls = callee ? libraryClass(this.#project, callee) : undefined;
    if (cls === undefined) return undefined;
    const id = `${target.module.name}:${value.startIndex}`;
    let object = this.#objects.get(id);
    if (object === undefined) {
      object = this.#make(value, cls, target.module);
      if (object !== undefined) this.#objects.set(id, object);
    }
    return object;
  }

  /** The objects found so far. */
  values(): Iterable<T> {
    return this.#objects.values();
  }

  /** How many objects were found so far. */
  get size(): number {
    return this.#objects.size;
  }
}

/** The verb methods of a class-based handler: `get`, `post`... `options`. */
export const HANDLER_VERBS: ReadonlySet<string> = HTTP_VERBS;

/** The verb methods a Flask-style view or resource may define (`query` too). */
export const VIEW_VERBS: ReadonlySet<string> = new Set([
  ...HANDLER_VERBS,
  "query",
]);

/** The verb methods a class defines, and whether all its bases are known. */
export interface ClassVerbs {
  /** False when a base is neither a project class nor one of `bases`. */
  known: boolean;
  /** The verb (lower case, or as `name` maps it) and its definition. */
  definitions: Map<string, ClassRef>;
}

/**
 * The HTTP-verb methods of a class-based view, through its project bases
 * down to one of the library `bases`. `name` maps a method name to its
 * verb (`on_get` -> `get` for Falcon), or undefined for another method.
 */
export function classVerbs(
  project: PyProject,
  cls: ClassRef,
  bases: ReadonlySet<string>,
  name: (method: string) => string | undefined = (m) =>
    VIEW_VERBS.has(m) ? m : undefined,
): ClassVerbs {
  const result: ClassVerbs = { known: true, definitions: new Map() };
  const visit = (current: ClassRef, seen: Set<Node>, depth: number): void => {
    if (seen.has(current.node) || depth > MAX_BASES) {
      result.known = false;
      return;
    }
    seen.add(current.node);
    for (const { definition } of classMembers(current.node)) {
      const verb = name(definition.childForFieldName("name")?.text ?? "");
      if (verb !== undefined && !result.definitions.has(verb)) {
        result.definitions.set(verb, {
          module: current.module,
          node: definition,
        });
      }
    }
    for (const base of baseClasses(current.node)) {
      if (base.text === "object") continue;
      const target = project.resolveExpr(unwrap(base));
      if (target?.kind === "class") {
        visit({ module: target.module, node: target.node }, seen, depth + 1);
      } else if (target?.kind !== "external" || !bases.has(target.name)) {
        result.known = false;
      }
    }
  };
  visit(cls, new Set(), 0);
  return result;
}
