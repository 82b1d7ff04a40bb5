// Evaluates matcher expressions with casbin's own semantics: the
// expression-eval evaluator and casbin's function map, role functions
// included. A synchronous pass first (casbin's `enforceSync` functions);
// when a function answers with a promise or the pass throws, the
// asynchronous evaluator casbin's `enforce()` uses decides instead.
import expressionEval from "@casbin/expression-eval";
import { Util } from "casbin";
import type { CasbinParts } from "./_casbin.ts";
import type { Node } from "./_matcher_ast.ts";

const { eval: evaluateSync, evalAsync } = expressionEval;

/** What an expression gave: its value, or what it threw. */
export type Outcome =
  | { readonly ok: true; readonly value: unknown }
  | { readonly ok: false; readonly error: unknown };

type Fn = (...args: unknown[]) => unknown;

/** Thrown by a function of the synchronous pass that returned a promise. */
const NEEDS_ASYNC: unique symbol = Symbol("needs async");

function isThenable(value: unknown): boolean {
  return value !== null &&
    (typeof value === "object" || typeof value === "function") &&
    typeof (value as { then?: unknown }).then === "function";
}

/** The functions one decision's matcher sees, in both passes. */
export class MatcherFunctions {
  readonly #sync: Record<string, Fn> = {};
  readonly #async: Record<string, Fn> = {};

  constructor(parts: CasbinParts) {
    for (const [name, fn] of parts.functions) {
      this.#async[name] = fn;
      this.#sync[name] = (...args) => {
        const result = fn(...args);
        if (isThenable(result)) throw NEEDS_ASYNC;
        return result;
      };
    }
    for (const [key, assertion] of parts.model.model.get("g") ?? []) {
      this.#async[key] = Util.generateGFunction(assertion.rm);
      this.#sync[key] = Util.generateSyncedGFunction(assertion.rm);
    }
  }

  /** Evaluates `node` with these request and policy values. */
  async evaluate(
    node: Node,
    parameters: Readonly<Record<string, unknown>>,
  ): Promise<Outcome> {
    try {
      const value: unknown = evaluateSync(
        node as never,
        { ...parameters, ...this.#sync },
      );
      if (!isThenable(value)) return { ok: true, value };
    } catch {
      // an asynchronous function, or a real error: the async pass decides
    }
    try {
      const value: unknown = await evalAsync(
        node as never,
        { ...parameters, ...this.#async },
      );
      return { ok: true, value };
    } catch (error) {
      return { ok: false, error };
    }
  }
}
