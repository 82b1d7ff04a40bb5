// Why one term of a matcher was false for a rule, in one readable sentence:
// "subject viewer is not editor and has no role link to it", "obj
// /bob_data/1 does not match /alice_data/* (keyMatch)".
import { PATTERN_FUNCTIONS } from "../guard/_index/pattern.ts";
import type { MatcherFunctions, Outcome } from "./_evaluation.ts";
import {
  calleeName,
  flatten,
  isNode,
  type Node,
  pathOf,
  printNode,
} from "./_matcher_ast.ts";

/** What a term is evaluated against. */
export interface TermScope {
  readonly functions: MatcherFunctions;
  readonly parameters: Readonly<Record<string, unknown>>;
  /** The role functions of the model: `g`, `g2`... */
  readonly roleFunctions: ReadonlySet<string>;
  /** The request tokens, escaped: `r_sub`, `r_obj`... */
  readonly requestTokens: readonly string[];
}

const MAX_VALUE_LENGTH = 60;

/** A value as it reads in a sentence: plain words bare, the rest as JSON. */
export function showValue(value: unknown): string {
  if (typeof value === "string" && /^[^\s",;]+$/.test(value)) return value;
  let text: string;
  try {
    text = JSON.stringify(value) ?? String(value);
  } catch {
    text = String(value);
  }
  return text.length > MAX_VALUE_LENGTH
    ? `${text.slice(0, MAX_VALUE_LENGTH - 3)}...`
    : text;
}

function message(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}

/** "subject", "subject role", "obj": how a request value is named. */
function labelOf(node: unknown, scope: TermScope): string | undefined {
  const path = pathOf(node);
  if (path === undefined || !scope.requestTokens.includes(path[0]!)) {
    return undefined;
  }
  const token = path[0]!.replace(/^r\d*_/, "");
  return [token === "sub" ? "subject" : token, ...path.slice(1)].join(" ");
}

function held(outcome: Outcome): boolean {
  return outcome.ok && Boolean(outcome.value);
}

/**
 * The reasons a term was false for the current rule, or `undefined` when
 * it held.
 */
export async function termReasons(
  term: Node,
  scope: TermScope,
): Promise<string[] | undefined> {
  const outcome = await scope.functions.evaluate(term, scope.parameters);
  if (held(outcome)) return undefined;
  if (!outcome.ok) {
    return [`${printNode(term)} failed (${message(outcome.error)})`];
  }
  return [await describe(term, scope)];
}

/** The sentence for a term known to be false. */
async function describe(term: Node, scope: TermScope): Promise<string> {
  const value = (node: unknown): Promise<Outcome> =>
    scope.functions.evaluate(node as Node, scope.parameters);
  if (term.type === "LogicalExpression" && term.operator === "||") {
    const alternatives: string[] = [];
    for (const alternative of flatten(term, "||")) {
      alternatives.push(await firstReason(alternative, scope));
    }
    return alternatives.join(" and ");
  }
  if (term.type === "LogicalExpression" && term.operator === "&&") {
    return await firstReason(term, scope);
  }
  if (
    term.type === "BinaryExpression" &&
    ["==", "===", "in"].includes(String(term.operator))
  ) {
    let [left, right] = [term.left, term.right];
    if (
      labelOf(left, scope) === undefined && labelOf(right, scope) !== undefined
    ) {
      [left, right] = [right, left];
    }
    const [a, b] = [await value(left), await value(right)];
    if (a.ok && b.ok) {
      const label = labelOf(left, scope) ?? printNode(left);
      const verb = term.operator === "in" ? "is not in" : "is not";
      return `${label} ${showValue(a.value)} ${verb} ${showValue(b.value)}`;
    }
  }
  if (term.type === "CallExpression") {
    const name = calleeName(term) ?? "";
    const args = term.arguments as unknown[];
    const values: unknown[] = [];
    for (const arg of args) {
      const outcome = await value(arg);
      values.push(outcome.ok ? outcome.value : undefined);
    }
    const label = labelOf(args[0], scope);
    const subject = `${label === undefined ? "" : `${label} `}${
      showValue(values[0])
    }`;
    if (scope.roleFunctions.has(name) && args.length >= 2) {
      const domain = args.length > 2
        ? ` in domain ${showValue(values[2])}`
        : "";
      return `${subject} is not ${
        showValue(values[1])
      } and has no role link to it${domain}`;
    }
    if (PATTERN_FUNCTIONS.has(name) && args.length === 2) {
      return `${subject} does not match ${showValue(values[1])} (${name})`;
    }
  }
  return `${printNode(term)} is false${await readings(term, scope)}`;
}

/** The reason of the first false conjunct of an `&&` chain. */
async function firstReason(node: Node, scope: TermScope): Promise<string> {
  for (const conjunct of flatten(node, "&&")) {
    const reasons = await termReasons(conjunct, scope);
    if (reasons !== undefined) return reasons[0]!;
  }
  return `${printNode(node)} is false`;
}

/** " (r.sub.Age is 10)": the request values a term reads. */
async function readings(term: Node, scope: TermScope): Promise<string> {
  const seen = new Set<string>();
  const parts: string[] = [];
  const stack: unknown[] = [term];
  while (stack.length > 0 && parts.length < 4) {
    const node = stack.pop();
    if (!isNode(node)) continue;
    if (labelOf(node, scope) !== undefined) {
      const text = printNode(node);
      if (seen.has(text)) continue;
      seen.add(text);
      const outcome = await scope.functions.evaluate(node, scope.parameters);
      if (outcome.ok) parts.push(`${text} is ${showValue(outcome.value)}`);
      continue;
    }
    for (const [field, child] of Object.entries(node)) {
      if (field === "type" || field === "callee") continue;
      if (Array.isArray(child)) stack.push(...child);
      else if (isNode(child)) stack.push(child);
    }
  }
  return parts.length === 0 ? "" : ` (${parts.join(", ")})`;
}
