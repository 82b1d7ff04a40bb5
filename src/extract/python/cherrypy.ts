// CherryPy object trees: from `cherrypy.quickstart(Root(), "/")` or
// `cherrypy.tree.mount(Root(), "/prefix")`, each `@cherrypy.expose`d method
// is a route at its attribute path (`index` at its object's own path,
// `default` under it), with its positional parameters as path segments;
// child objects are class attributes or `self.x = X()` in `__init__`. An
// exposed class (`@cherrypy.expose` or `exposed = True`) answers with its
// upper-case verb methods, as under the `MethodDispatcher`.
import { namedChildren, ownerOf } from "../_syntax/compact_tree.ts";
import { joinPaths, literal, type Value } from "../_value/mod.ts";
import { HTTP_METHODS } from "../_port/http.ts";
import {
  argument,
  classAttribute,
  type PyModule,
  type PyProject,
  unwrap,
} from "./project.ts";
import {
  classMembers,
  classOf,
  type ClassRef,
  type HttpPort,
  toPort,
} from "./classes.ts";
import type { Node } from "../_syntax/compact_tree.ts";
import type { ExtractedPort } from "../types.ts";

const MOUNTS: ReadonlyMap<string, [number, number]> = new Map([
  ["cherrypy.quickstart", [0, 1]],
  ["cherrypy.tree.mount", [0, 1]],
]);
const MAX_DEPTH = 8;

/** The routes of the CherryPy object trees a project mounts. */
export function cherrypyPorts(project: PyProject): ExtractedPort[] {
  if (!project.mentions("cherrypy")) return [];
  const ports: HttpPort[] = [];
  const walk = (
    cls: ClassRef,
    path: Value,
    depth: number,
    seen: Set<Node>,
  ): void => {
    if (depth > MAX_DEPTH || seen.has(cls.node)) return;
    seen.add(cls.node);
    const exposedClass = isExposedClass(project, cls);
    for (const { definition, decorators } of classMembers(cls.node)) {
      const name = definition.childForFieldName("name")?.text ?? "";
      const owner = ownerOf(definition, cls.module.file.path, "python");
      const params = segments(definition);
      if (exposedClass && HTTP_METHODS.has(name)) {
        ports.push(
          port(cls.module, definition, name, joinPaths(path, params), owner),
        );
        continue;
      }
      if (!decorators.some((d) => isExpose(project, d))) continue;
      const at = name === "index"
        ? path
        : name === "default"
        ? joinPaths(path, "{path}")
        : joinPaths(path, `/${name}`);
      ports.push(
        port(cls.module, definition, "ANY", joinPaths(at, params), owner),
      );
    }
    for (const [name, child] of children(project, cls)) {
      walk(child, joinPaths(path, `/${name}`), depth + 1, seen);
    }
    seen.delete(cls.node);
  };
  for (const module of project.list) {
    for (const call of module.calls) {
      const callee = call.childForFieldName("function");
      const at = MOUNTS.get(callee ? project.externalName(callee) ?? "" : "");
      if (!at) continue;
      const args = call.childForFieldName("arguments");
      const root = rootClass(project, argument(args, at[0], "root"));
      const prefixNode = argument(args, at[1], "script_name");
      const prefix = prefixNode ? project.evalString(prefixNode) : literal("");
      if (root && prefix) walk(root, prefix, 0, new Set());
    }
  }
  return ports.map(toPort);
}

function port(
  module: PyModule,
  anchor: Node,
  method: string,
  path: Value,
  owner: HttpPort["owner"],
): HttpPort {
  return {
    module,
    anchor,
    method,
    path: joinPaths("/", path),
    raw: "",
    confidence: 1,
    framework: "cherrypy",
    owner,
  };
}

/** `{a}/{b}` for the positional parameters (no default) after `self`. */
function segments(definition: Node): string {
  const parameters = definition.childForFieldName("parameters");
  const names = (parameters ? namedChildren(parameters) : [])
    .filter((p) => p.type === "identifier").map((p) => p.text).slice(1);
  return names.map((n) => `/{${n}}`).join("");
}

function isExpose(project: PyProject, decorator: Node): boolean {
  const expr = unwrap(namedChildren(decorator)[0] ?? decorator);
  const target = expr.type === "call"
    ? expr.childForFieldName("function")
    : expr;
  return target ? project.externalName(target) === "cherrypy.expose" : false;
}

function isExposedClass(project: PyProject, cls: ClassRef): boolean {
  if (classAttribute(cls.node, "exposed")?.text === "True") return true;
  const wrapper = cls.node.parent;
  return wrapper?.type === "decorated_definition" &&
    namedChildren(wrapper).some((d) =>
      d.type === "decorator" && isExpose(project, d)
    );
}

/** The class of an object expression (`Root()` or a name bound to one). */
function rootClass(
  project: PyProject,
  expr: Node | undefined,
): ClassRef | undefined {
  if (!expr) return undefined;
  let value = unwrap(expr);
  if (value.type === "identifier") {
    const target = project.resolveExpr(value);
    if (target?.kind === "value") value = unwrap(target.node);
  }
  const callee = value.type === "call"
    ? value.childForFieldName("function")
    : undefined;
  return callee ? classOf(project, callee) : undefined;
}

/** The child objects of a class: `name = X()` and `self.name = X()` in `__init__`. */
function children(
  project: PyProject,
  cls: ClassRef,
): Array<[string, ClassRef]> {
  const out: Array<[string, ClassRef]> = [];
  const add = (assignment: Node | undefined, self: boolean): void => {
    if (assignment?.type !== "assignment") return;
    const left = assignment.childForFieldName("left");
    const right = assignment.childForFieldName("right");
    const name = self
      ? left?.type === "attribute" &&
          left.childForFieldName("object")?.text === "self"
        ? left.childForFieldName("attribute")?.text
        : undefined
      : left?.type === "identifier"
      ? left.text
      : undefined;
    const child = name && right ? rootClass(project, right) : undefined;
    if (name && child) out.push([name, child]);
  };
  const body = cls.node.childForFieldName("body");
  for (const statement of body ? namedChildren(body) : []) {
    if (statement.type === "expression_statement") {
      add(namedChildren(statement)[0], false);
    }
  }
  const init = classMembers(cls.node).find(({ definition }) =>
    definition.childForFieldName("name")?.text === "__init__"
  );
  const initBody = init?.definition.childForFieldName("body");
  for (const statement of initBody ? namedChildren(initBody) : []) {
    if (statement.type === "expression_statement") {
      add(namedChildren(statement)[0], true);
    }
  }
  return out;
}
