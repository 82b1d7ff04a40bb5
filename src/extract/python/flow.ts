// Values that flow into Python functions through their parameters: the call
// sites of each function across the project, and the values a path or URL
// built from a parameter takes at them (wrappers of routes, mounts and
// client calls).
import {
  type CallGraph,
  flowAtSite,
  type Flowed as FlowedAt,
  flowThroughCalls,
  type Value,
} from "../_value/mod.ts";
import { namedChildren, type Node } from "../_syntax/compact_tree.ts";
import type { PyProject } from "./project.ts";
import {
  enclosingFunction,
  keywordArg,
  positionalArgs,
  type PyModule,
} from "./module.ts";

/** A call of a function of the project (or any node of a module). */
export interface PyCallSite {
  module: PyModule;
  call: Node;
}

/** A value at one call site (none when no parameter had to be bound). */
export type Flowed = FlowedAt<PyCallSite>;

/** The call sites of the project's functions, and values through them. */
export class PyFlow implements CallGraph<Node, PyCallSite> {
  readonly #project: PyProject;
  #sites: Map<object, Map<number, PyCallSite[]>> | undefined;

  constructor(project: PyProject) {
    this.#project = project;
  }

  /** The calls of a function definition, across the project. */
  sitesOf(fn: Node): PyCallSite[] {
    if (!this.#sites) {
      this.#sites = new Map();
      for (const module of this.#project.list) {
        for (const call of module.calls) {
          const callee = call.childForFieldName("function");
          const target = callee ? this.#project.resolveExpr(callee) : undefined;
          if (target?.kind !== "function") continue;
          let perTree = this.#sites.get(target.node.tree);
          if (!perTree) this.#sites.set(target.node.tree, perTree = new Map());
          const list = perTree.get(target.node.id) ?? [];
          list.push({ module, call });
          perTree.set(target.node.id, list);
        }
      }
    }
    return this.#sites.get(fn.tree)?.get(fn.id) ?? [];
  }

  enclosing(at: PyCallSite): Node | undefined {
    return enclosingFunction(at.module, at.call);
  }

  argument(fn: Node, site: PyCallSite, name: string): Value | undefined {
    const argument = argumentFor(fn, site.call, name);
    return argument ? this.#project.evalString(argument) : undefined;
  }

  /** The values `value` (read at `at` in `module`) takes through calls. */
  expand(module: PyModule, at: Node, value: Value): Flowed[] {
    return flowThroughCalls(this, { module, call: at }, value);
  }

  /** The values `value` (read in `fn`) takes at one call site of `fn`. */
  expandAt(fn: Node, site: PyCallSite, value: Value): Flowed[] {
    return flowAtSite(this, fn, site, value);
  }
}

/** The argument a call passes for the parameter `name` of `fn`. */
export function argumentFor(
  fn: Node,
  call: Node,
  name: string,
): Node | undefined {
  const args = call.childForFieldName("arguments");
  const byName = keywordArg(args, name);
  if (byName) return byName;
  const parameters = fn.childForFieldName("parameters");
  const list = parameters ? namedChildren(parameters) : [];
  const index = list.findIndex((p) =>
    (p.type === "identifier"
      ? p
      : p.childForFieldName("name") ?? namedChildren(p)[0])?.text === name
  );
  return index === -1 ? undefined : positionalArgs(args)[index];
}
