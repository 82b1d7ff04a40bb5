// Values that flow into Go functions through their parameters: the call
// sites of a function or method in its package, and the values a URL built
// from a string parameter takes at them (client wrappers).
import {
  type CallGraph,
  type Flowed,
  flowThroughCalls,
  type Value,
} from "../_value/mod.ts";
import type { Node } from "../_syntax/compact_tree.ts";
import type { GoProject } from "./project.ts";
import { parametersOf } from "./declarations.ts";
import { argumentsOf } from "./routers.ts";
import { addCallsByName } from "./callees.ts";

/** A value at one call site (none when no parameter had to be bound). */
export type GoFlowed = Flowed<Node>;

const FUNCTIONS: ReadonlySet<string> = new Set([
  "function_declaration",
  "method_declaration",
]);

/** The call sites of a project's functions, and values through them. */
export class GoFlow implements CallGraph<Node, Node> {
  readonly #project: GoProject;
  readonly #byName = new Map<string, Node[]>();

  constructor(project: GoProject) {
    this.#project = project;
    for (const file of project.files) {
      addCallsByName(project.callsIn(file), this.#byName);
    }
  }

  /**
   * The calls of a declared function or method: by name, in its package
   * (plain calls of a function, selector calls of a method) or through an
   * import of it.
   */
  sitesOf(fn: Node): Node[] {
    const name = fn.childForFieldName("name")?.text;
    const dir = this.#project.fileOf(fn)?.dir;
    if (!name || dir === undefined) return [];
    const method = fn.type === "method_declaration";
    return (this.#byName.get(name) ?? []).filter((call) => {
      const callee = call.childForFieldName("function");
      if (method) return callee?.type === "selector_expression";
      if (callee?.type === "identifier") {
        return this.#project.fileOf(call)?.dir === dir;
      }
      // `pkg.Name(...)`: an import of the function's own package
      const qualified = this.#project.qualified(callee);
      return qualified !== undefined &&
        this.#project.packageDirs(qualified[0]).includes(dir);
    });
  }

  enclosing(at: Node): Node | undefined {
    let fn: Node | null = at.parent;
    while (fn && !FUNCTIONS.has(fn.type)) fn = fn.parent;
    return fn ?? undefined;
  }

  argument(fn: Node, site: Node, name: string): Value | undefined {
    const param = parametersOf(fn).get(name);
    const index = param?.kind === "param" ? param.index : -1;
    const argument = index >= 0 ? argumentsOf(site)[index] : undefined;
    return this.#project.evalString(argument);
  }

  /**
   * The values `value` (read at `at`) takes: itself when no string
   * parameter of the enclosing function stands for its path, else once per
   * call site that gives them, followed out through callers (bounded).
   */
  expand(at: Node, value: Value): GoFlowed[] {
    return flowThroughCalls(this, at, value);
  }
}
