// Patterns casbin never finishes on. casbin's keyMatch2..5 (and keyGet2,
// keyGet3) rewrite `:id` / `{id}` parameters in a loop that only ends once
// no `/:` (or `/{`) is left; a pattern such as `/api/:` or `/a/{b` keeps one
// the rewrite cannot replace, and the loop never ends: the first request
// that reaches such a rule hangs the process. A load refuses them: a rule
// whose pattern field holds one, a matcher that passes one as a literal,
// and a matcher that takes the pattern from the request (any client could
// send one).
import expressionEval from "@casbin/expression-eval";
import { type Model, Util } from "casbin";
import { isNode } from "./matcher.ts";
import { keyMatchSource } from "../_index/pattern.ts";
import type { ParsedRules } from "./probe.ts";

const { parse } = expressionEval;

type Looping = "keyMatch2" | "keyMatch3" | "keyMatch4" | "keyMatch5";

/** The functions that run casbin's rewrite loop, and whose loop it is. */
const LOOPING: Readonly<Record<string, Looping>> = {
  keyMatch2: "keyMatch2",
  keyGet2: "keyMatch2",
  keyMatch3: "keyMatch3",
  keyGet3: "keyMatch3",
  keyMatch4: "keyMatch4",
  keyMatch5: "keyMatch5",
};

/** A refused pattern: which file it is in, and why. */
export interface PatternProblem {
  readonly in: "model" | "policy";
  readonly message: string;
}

/** A short, one-line rendering of a value for an error message. */
function shown(text: string): string {
  const line = JSON.stringify(text);
  return line.length > 80 ? `${line.slice(0, 77)}..."` : line;
}

/**
 * Finds the first pattern casbin would loop on forever, in the matchers or
 * in the rules of the policy types they read; undefined when there is none.
 * Every rule is checked, not a sample: one such rule is enough to hang.
 */
export function findLoopingPattern(
  model: Model,
  rules: ParsedRules,
): PatternProblem | undefined {
  const requestKeys = new Set(model.model.get("r")?.keys() ?? []);
  const policyTokens = new Map<string, { key: string; index: number }>();
  for (const [key, assertion] of model.model.get("p") ?? []) {
    assertion.tokens.forEach((token, index) =>
      policyTokens.set(token, { key, index })
    );
  }
  for (const [matcherKey, matcher] of model.model.get("m") ?? []) {
    let root: unknown;
    try {
      root = parse(Util.bracketCompatible(matcher.value));
    } catch {
      continue; // reported by checkMatchers
    }
    const stack: unknown[] = [root];
    while (stack.length > 0) {
      const node = stack.pop();
      if (!isNode(node)) continue;
      for (const value of Object.values(node)) {
        if (Array.isArray(value)) stack.push(...value);
        else if (isNode(value)) stack.push(value);
      }
      if (node.type !== "CallExpression") continue;
      const callee = node.callee;
      if (!isNode(callee) || callee.type !== "Identifier") continue;
      const name = callee.name as string;
      const fn = LOOPING[name];
      const pattern = (node.arguments as unknown[])[1];
      if (fn === undefined || !isNode(pattern)) continue;
      if (pattern.type === "Literal") {
        const text = String(pattern.value);
        if (keyMatchSource(fn, text) === undefined) {
          return {
            in: "model",
            message: `matcher "${matcherKey}" passes ${name} the pattern ${
              shown(text)
            }, on which casbin's ${fn} never returns`,
          };
        }
        continue;
      }
      const head = pattern.type === "Identifier"
        ? pattern.name as string
        : pattern.type === "MemberExpression" && isNode(pattern.object) &&
            pattern.object.type === "Identifier"
        ? pattern.object.name as string
        : undefined;
      if (head === undefined) continue;
      if (requestKeys.has(head.split("_")[0]!)) {
        return {
          in: "model",
          message:
            `matcher "${matcherKey}" takes ${name}'s pattern from the request; a client could send one casbin's ${fn} never returns on (pass the request value first, the pattern second)`,
        };
      }
      const field = pattern.type === "Identifier"
        ? policyTokens.get(head)
        : undefined;
      if (field === undefined) continue;
      for (const rule of rules.get(field.key) ?? []) {
        const text = rule[field.index];
        if (text !== undefined && keyMatchSource(fn, text) === undefined) {
          return {
            in: "policy",
            message: `rule "${field.key}, ${
              rule.join(", ").slice(0, 80)
            }" has the pattern ${
              shown(text)
            }, on which casbin's ${fn} never returns (a parameter needs a name: "/:id", "/{id}")`,
          };
        }
      }
    }
  }
  return undefined;
}
