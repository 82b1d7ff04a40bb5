/**
 * Reads a casbin model and tells whether its default matcher is a
 * conjunction the index answers: equalities between request values and
 * policy fields, role checks `g(r.x, p.y)` and `g(r.x, p.y, r.dom)`, and
 * casbin's pattern functions of a request value and a policy field
 * (`keyMatch2(r.obj, p.obj)`...).
 *
 * The matcher is read from casbin's own parsed model (already escaped:
 * `r.sub.role` is `r_sub.role`) and parsed with the expression parser casbin
 * itself evaluates it with, so the plan follows casbin's reading of the
 * matcher, not a regex.
 *
 * @module
 */
// A CommonJS package: Node's ESM loader offers only its default export.
import expressionEval from "@casbin/expression-eval";
import type { PatternFunction } from "./pattern.ts";

const { parse } = expressionEval;

/** A request value, or one of its attributes. */
export interface RequestPath {
  /** Index of the request value in `rvals`. */
  readonly requestIndex: number;
  /** Property names read from the request value, in order (may be empty). */
  readonly path: readonly (string | number)[];
}

/**
 * One term of the matcher: `<request path> == <policy field>`;
 * `g(<request path>, <policy field>[, <domain request path>])` when `role`
 * is set; `<fn>(<request path>, <policy field>)` when `fn` is set.
 */
export interface MatcherTerm {
  /** Index of the request value in `rvals`. */
  readonly requestIndex: number;
  /** Property names read from the request value, in order (may be empty). */
  readonly path: readonly (string | number)[];
  /** Index of the policy field in a policy rule. */
  readonly policyIndex: number;
  /** `true` for `===` (no conversion), `false` for `==`. */
  readonly strict: boolean;
  /** The role function (`g`, `g2`...) of a role term. */
  readonly role?: string;
  /** The domain of a role term called with three arguments. */
  readonly domain?: RequestPath;
  /** The pattern function of a pattern term. */
  readonly fn?: PatternFunction;
}

/**
 * The effects the index reproduces, by casbin's escaped effect text.
 * `priority` stands for both `priority(p.eft) || deny` and
 * `subjectPriority(p.eft) || deny`: the first matching rule that allows or
 * denies decides, in the order casbin sorted the policy in.
 */
export type EffectKind = "allow" | "deny" | "allowAndDeny" | "priority";

const EFFECTS: ReadonlyMap<string, EffectKind> = new Map([
  ["some(where (p_eft == allow))", "allow"],
  ["!some(where (p_eft == deny))", "deny"],
  [
    "some(where (p_eft == allow)) && !some(where (p_eft == deny))",
    "allowAndDeny",
  ],
  ["priority(p_eft) || deny", "priority"],
  ["subjectPriority(p_eft) || deny", "priority"],
]);

/** A matcher that the index can answer, or the reason it cannot. */
export type MatcherPlan =
  | {
    readonly ok: true;
    readonly terms: readonly MatcherTerm[];
    readonly effect: EffectKind;
    /** Number of request values casbin requires. */
    readonly requestSize: number;
    /** Index of the `eft` policy field, or -1. */
    readonly eftIndex: number;
  }
  | { readonly ok: false; readonly reason: string };

/** The parts of a casbin model the plan reads. */
export interface ModelParts {
  readonly matcher: string | undefined;
  readonly effect: string | undefined;
  readonly requestTokens: readonly string[] | undefined;
  readonly policyTokens: readonly string[] | undefined;
  /** Names that casbin puts in the evaluation context as functions. */
  readonly functionNames: ReadonlySet<string>;
  /** The role functions (`g`, `g2`...): the keys of the model's `g`. */
  readonly roleNames: ReadonlySet<string>;
  /**
   * The pattern functions whose name maps to casbin's own implementation
   * in the enforcer's function map.
   */
  readonly patternFunctions: ReadonlySet<string>;
}

// The member names casbin's evaluator refuses to read (it throws).
const FORBIDDEN_MEMBER = /^__proto__|prototype|constructor$/;

interface Node {
  type: string;
  [key: string]: unknown;
}

function fail(reason: string): MatcherPlan {
  return { ok: false, reason };
}

/** Maps each token to the index casbin reads it from (the last one wins). */
function tokenIndexes(tokens: readonly string[]): Map<string, number> {
  const indexes = new Map<string, number>();
  tokens.forEach((token, index) => indexes.set(token, index));
  return indexes;
}

/** Flattens `a && (b && c)` into `[a, b, c]`, in evaluation order. */
function conjuncts(node: Node, out: Node[]): void {
  if (node.type === "LogicalExpression" && node.operator === "&&") {
    conjuncts(node.left as Node, out);
    conjuncts(node.right as Node, out);
  } else {
    out.push(node);
  }
}

/** Reads `r_x`, `r_x.a`, `r_x["a"].b` as a request path, or `undefined`. */
function requestPath(
  node: Node,
  requestIndexes: ReadonlyMap<string, number>,
  functionNames: ReadonlySet<string>,
): { index: number; path: (string | number)[] } | undefined {
  const path: (string | number)[] = [];
  let current = node;
  while (current.type === "MemberExpression") {
    const property = current.property as Node;
    let name: unknown;
    if (current.computed === true) {
      if (property.type !== "Literal") return undefined;
      name = property.value;
    } else {
      if (property.type !== "Identifier") return undefined;
      name = property.name;
    }
    if (typeof name !== "string" && typeof name !== "number") {
      return undefined;
    }
    if (FORBIDDEN_MEMBER.test(String(name))) return undefined;
    path.unshift(name);
    current = current.object as Node;
  }
  if (current.type !== "Identifier") return undefined;
  const identifier = current.name as string;
  if (functionNames.has(identifier)) return undefined;
  const index = requestIndexes.get(identifier);
  if (index === undefined) return undefined;
  return { index, path };
}

function policyField(
  node: Node,
  policyIndexes: ReadonlyMap<string, number>,
  functionNames: ReadonlySet<string>,
): number | undefined {
  if (node.type !== "Identifier") return undefined;
  const identifier = node.name as string;
  if (functionNames.has(identifier)) return undefined;
  return policyIndexes.get(identifier);
}

/**
 * Reads `g(<request path>, <policy field>[, <request path>])` or
 * `<pattern function>(<request path>, <policy field>)`, or says why it
 * cannot.
 */
function callTerm(
  call: Node,
  parts: ModelParts,
  requestIndexes: ReadonlyMap<string, number>,
  policyIndexes: ReadonlyMap<string, number>,
): MatcherTerm | string {
  const callee = call.callee as Node;
  const args = call.arguments as Node[];
  const name = callee.type === "Identifier" ? callee.name as string : "";
  // casbin puts the role functions in the context after the function map:
  // a role function hides a function of the same name.
  const role = parts.roleNames.has(name);
  if (!role && !parts.patternFunctions.has(name)) {
    return "the matcher calls a function the index does not evaluate";
  }
  if (args.length !== 2 && !(role && args.length === 3)) {
    return `the matcher calls ${name}() with ${args.length} arguments`;
  }
  const request = requestPath(args[0]!, requestIndexes, parts.functionNames);
  const policyIndex = policyField(
    args[1]!,
    policyIndexes,
    parts.functionNames,
  );
  const domain = args.length === 3
    ? requestPath(args[2]!, requestIndexes, parts.functionNames)
    : undefined;
  if (
    request === undefined || policyIndex === undefined ||
    (args.length === 3 && domain === undefined)
  ) {
    return `${name}() in the matcher does not take a request value and a policy field${
      role ? " (and a request value as domain)" : ""
    }`;
  }
  const term = {
    requestIndex: request.index,
    path: request.path,
    policyIndex,
    strict: false,
  };
  if (!role) return { ...term, fn: name as PatternFunction };
  return domain === undefined ? { ...term, role: name } : {
    ...term,
    role: name,
    domain: { requestIndex: domain.index, path: domain.path },
  };
}

/**
 * Builds the plan for a model's default matcher (`m`), request (`r`),
 * policy (`p`) and effect (`e`).
 *
 * @param parts The model's parts.
 * @returns The plan, or why the model does not fit the index.
 */
export function planMatcher(parts: ModelParts): MatcherPlan {
  const { matcher, effect, requestTokens, policyTokens, functionNames } = parts;
  if (requestTokens === undefined || requestTokens.length === 0) {
    return fail("the model has no request definition r");
  }
  if (policyTokens === undefined || policyTokens.length === 0) {
    return fail("the model has no policy definition p");
  }
  if (!matcher) return fail("the model has no matcher m");
  if (effect === undefined) return fail("the model has no policy effect e");
  const effectKind = EFFECTS.get(effect);
  if (effectKind === undefined) {
    return fail(`the policy effect "${effect}" is not indexed`);
  }
  // casbin rewrites `x in (a, b)`, and treats `eval(...)` per rule.
  if (matcher.includes(" in ") || matcher.includes("eval(")) {
    return fail("the matcher uses in or eval()");
  }
  if (!matcher.includes("p_")) {
    return fail("the matcher reads no policy field");
  }
  let ast: Node;
  try {
    ast = parse(matcher) as unknown as Node;
  } catch {
    return fail("the matcher does not parse");
  }
  const requestIndexes = tokenIndexes(requestTokens);
  const policyIndexes = tokenIndexes(policyTokens);
  const leaves: Node[] = [];
  conjuncts(ast, leaves);
  const terms: MatcherTerm[] = [];
  const rolesUsed = new Set<string>();
  for (const leaf of leaves) {
    if (leaf.type === "CallExpression") {
      const term = callTerm(leaf, parts, requestIndexes, policyIndexes);
      if (typeof term === "string") return fail(term);
      if (term.role !== undefined) {
        // casbin memoizes g() per decision on `args.toString()`: two calls
        // of the same g with different request values may share an entry.
        if (rolesUsed.has(term.role)) {
          return fail(`the matcher calls ${term.role}() more than once`);
        }
        rolesUsed.add(term.role);
      }
      terms.push(term);
      continue;
    }
    if (
      leaf.type !== "BinaryExpression" ||
      (leaf.operator !== "==" && leaf.operator !== "===")
    ) {
      return fail(
        "the matcher is not a conjunction of equalities, role checks and pattern functions",
      );
    }
    const left = leaf.left as Node;
    const right = leaf.right as Node;
    let request = requestPath(left, requestIndexes, functionNames);
    let policyIndex = policyField(right, policyIndexes, functionNames);
    if (request === undefined || policyIndex === undefined) {
      request = requestPath(right, requestIndexes, functionNames);
      policyIndex = policyField(left, policyIndexes, functionNames);
    }
    if (request === undefined || policyIndex === undefined) {
      return fail(
        "an equality of the matcher does not compare a request value with a policy field",
      );
    }
    terms.push({
      requestIndex: request.index,
      path: request.path,
      policyIndex,
      strict: leaf.operator === "===",
    });
  }
  return {
    ok: true,
    terms,
    effect: effectKind,
    requestSize: requestTokens.length,
    eftIndex: policyIndexes.get("p_eft") ?? -1,
  };
}
