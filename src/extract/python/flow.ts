// Values that flow into Python functions through their parameters: the call
// sites of each function across the project, and the values a path or URL
// built from a parameter takes at them (wrappers of routes, mounts and
// client calls).
import {
  bindParameters,
  flowingParameters,
  MAX_CALL_SITES,
  MAX_FLOW_DEPTH,
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

/** A call of a function of the project. */
export interface PyCallSite {
  module: PyModule;
  call: Node;
}

/** A value at one call site (none when no parameter had to be bound). */
export interface Flowed {
  value: Value;
  site?: PyCallSite;
}

/** The call sites of the project's functions, and values through them. */
export class PyFlow {
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

  /**
   * The values `value` (read at `at` in `module`) takes: itself when no
   * parameter of the enclosing function stands for its path, else once per
   * call site whose arguments give those parameters, followed out through
   * callers (bounded); none when no call site does.
   */
  expand(module: PyModule, at: Node, value: Value, depth = 0): Flowed[] {
    const names = flowingParameters(value);
    if (names.size === 0) return [{ value: bindParameters(value, new Map()) }];
    const fn = enclosingFunction(module, at);
    if (!fn || depth >= MAX_FLOW_DEPTH) return [];
    const out: Flowed[] = [];
    for (const site of this.sitesOf(fn).slice(0, MAX_CALL_SITES)) {
      out.push(...this.expandAt(fn, site, value, depth));
    }
    return out;
  }

  /**
   * The values `value` (read in `fn`) takes at one call site of `fn`, its
   * parameters bound to the site's arguments and followed further out.
   */
  expandAt(fn: Node, site: PyCallSite, value: Value, depth = 0): Flowed[] {
    const bound = new Map<string, Value>();
    const names = flowingParameters(value);
    for (const name of names) {
      const argument = argumentFor(fn, site.call, name);
      const evaluated = argument
        ? this.#project.evalString(argument)
        : undefined;
      if (evaluated) bound.set(name, evaluated);
    }
    if (bound.size !== names.size) return [];
    const next = bindParameters(value, bound);
    return this.expand(site.module, site.call, next, depth + 1).map((
      inner,
    ) => ({ value: inner.value, site: inner.site ?? site }));
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
