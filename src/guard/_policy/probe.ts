// Probe requests for model validation, built from the policy's own rules.
//
// casbin compiles a matcher only when it decides, and evaluates it with
// short-circuits: a term that throws (`regexMatch(r.act, "(")`, a read of
// `r.sub.role.x.y` on a user whose role is a string) stays hidden behind any
// conjunct that is false for the probe. So a probe of empty strings passes
// models that then answer 500 to every real request, and refuses models
// whose functions need well-formed input (`ipMatch` on ""). Requests derived
// from the rules reach every term a real request reaches: for each sampled
// rule, each request value is what makes the matcher's terms on that rule
// true (the rule's value for `r.obj == p.obj`, an address inside the rule's
// network for `ipMatch`, a path the rule's pattern matches for `keyMatch2`),
// shaped as the guard's users are (an object of string attributes when the
// matcher reads `r.sub.role`), and an array where `in` needs one.
import expressionEval from "@casbin/expression-eval";
import { type Model, Util } from "casbin";
import { isNode, type Node } from "./matcher.ts";

const { addBinaryOp, parse } = expressionEval;

/** Rules per policy type that the probe decides on. */
export const PROBE_RULES_PER_TYPE = 32;

/** The parsed rules of a policy, per policy type (`p`, `p2`, `g`, ...). */
export type ParsedRules = ReadonlyMap<string, readonly (readonly string[])[]>;

/** One probe decision: which matcher, the request values, the source rule. */
export interface ProbeCase {
  /** Section keys of the matcher: `["r", "p", "e", "m"]` by default. */
  readonly context: readonly [string, string, string, string];
  /** The request values passed to `enforce()`. */
  readonly values: readonly unknown[];
  /** The rule the values were built from, as `ptype, v0, v1...`. */
  readonly rule: string | undefined;
}

/**
 * Up to {@linkcode PROBE_RULES_PER_TYPE} rules spread evenly over `rules`
 * (the first and the last among them), so that a probe costs the same for
 * 10 rules as for 100,000.
 */
export function samplePolicy<T>(rules: readonly T[]): T[] {
  const n = rules.length;
  if (n <= PROBE_RULES_PER_TYPE) return rules.slice();
  const sample: T[] = [];
  for (let i = 0; i < PROBE_RULES_PER_TYPE; i++) {
    sample.push(rules[Math.round(i * (n - 1) / (PROBE_RULES_PER_TYPE - 1))]!);
  }
  return sample;
}

/** `r_sub.role.x` as `["r_sub", "role", "x"]`; undefined for anything else. */
export function pathOf(node: unknown): string[] | undefined {
  if (!isNode(node)) return undefined;
  if (node.type === "Identifier") return [node.name as string];
  if (node.type === "MemberExpression" && node.computed === false) {
    const head = pathOf(node.object);
    const property = node.property as Node;
    if (head === undefined || property.type !== "Identifier") return undefined;
    return [...head, property.name as string];
  }
  return undefined;
}

/** How a request value is derived from a policy field's value. */
type Derive = (field: string) => string;

const same: Derive = (field) => field;
/** A key that casbin's key-pattern functions match against `field`. */
const matchingKey: Derive = (field) =>
  field.split("?")[0]!.replace(/:[^/]+|\{[^/}]*\}|\*+|\?/g, "x");
/** An address inside the network (or equal to the address) `field` names. */
const insideNetwork: Derive = (field) => field.split("/")[0]!.trim();
/** Regex text without anchors and groups: matches itself for plain patterns. */
const regexText: Derive = (field) => field.replace(/[\^$()]/g, "");

const DERIVE_BY_FUNCTION: Readonly<Record<string, Derive>> = {
  keyMatch: matchingKey,
  keyMatch2: matchingKey,
  keyMatch3: matchingKey,
  keyMatch4: matchingKey,
  keyMatch5: matchingKey,
  keyGet: matchingKey,
  keyGet2: matchingKey,
  keyGet3: matchingKey,
  globMatch: matchingKey,
  regexMatch: regexText,
  ipMatch: insideNetwork,
};

/** What the matcher says about one request path. */
interface Binding {
  /** Request path, such as `["r_sub", "role"]`. */
  path: string[];
  /** Policy token whose value the request value derives from. */
  field?: string;
  derive?: Derive;
  /** A literal the path is compared with (`r.sub == "root"`). */
  literal?: string;
  /** The path is the right side of `in`: an array. */
  array?: boolean;
}

/** Collects the bindings of a matcher expression. */
function collect(
  root: unknown,
  isRequest: (name: string) => boolean,
  isPolicy: (name: string) => boolean,
  roleFunctions: ReadonlySet<string>,
): Binding[] {
  const bindings: Binding[] = [];
  const requestPath = (node: unknown): string[] | undefined => {
    const path = pathOf(node);
    return path !== undefined && isRequest(path[0]!) ? path : undefined;
  };
  const policyField = (node: unknown): string | undefined => {
    const path = pathOf(node);
    return path !== undefined && path.length === 1 && isPolicy(path[0]!)
      ? path[0]
      : undefined;
  };
  // An explicit stack: a matcher is short, but its depth is the writer's.
  const stack: unknown[] = [root];
  while (stack.length > 0) {
    const node = stack.pop();
    if (!isNode(node)) continue;
    for (const value of Object.values(node)) {
      if (Array.isArray(value)) stack.push(...value);
      else if (isNode(value)) stack.push(value);
    }
    if (node.type === "BinaryExpression") {
      const operator = node.operator as string;
      if (operator === "in") {
        const path = requestPath(node.right);
        if (path !== undefined) bindings.push({ path, array: true });
        continue;
      }
      if (operator !== "==" && operator !== "===") continue;
      for (const [a, b] of [[node.left, node.right], [node.right, node.left]]) {
        const path = requestPath(a);
        if (path === undefined) continue;
        const field = policyField(b);
        if (field !== undefined) bindings.push({ path, field, derive: same });
        else if (isNode(b) && b.type === "Literal") {
          bindings.push({ path, literal: String(b.value) });
        }
      }
    } else if (node.type === "CallExpression") {
      const callee = pathOf(node.callee);
      const name = callee?.length === 1 ? callee[0]! : undefined;
      if (name === undefined) continue;
      const args = node.arguments as unknown[];
      const derive = roleFunctions.has(name) ? same : DERIVE_BY_FUNCTION[name];
      if (derive === undefined || args.length < 2) continue;
      const path = requestPath(args[0]);
      const field = policyField(args[1]);
      if (path !== undefined && field !== undefined) {
        bindings.push({ path, field, derive });
      }
    }
  }
  return bindings;
}

/** Request token names that the matcher reads attributes of, per token. */
function attributesOf(bindings: Binding[]): Map<string, Set<string>> {
  const attributes = new Map<string, Set<string>>();
  for (const { path } of bindings) {
    if (path.length < 2) continue;
    let names = attributes.get(path[0]!);
    if (names === undefined) attributes.set(path[0]!, names = new Set());
    names.add(path[1]!);
  }
  return attributes;
}

/** Adds the `r.x.attr` reads of policy text evaluated with `eval()`. */
function evalAttributes(
  text: string,
  requestKey: string,
  attributes: Map<string, Set<string>>,
): void {
  const pattern = new RegExp(
    `\\b${requestKey}[._]([A-Za-z_$][\\w$]*)\\.([A-Za-z_$][\\w$]*)`,
    "g",
  );
  for (const match of text.matchAll(pattern)) {
    const token = `${requestKey}_${match[1]}`;
    let names = attributes.get(token);
    if (names === undefined) attributes.set(token, names = new Set());
    names.add(match[2]!);
  }
}

/** The request values for one rule (or none: values that match nothing). */
function buildRequest(
  tokens: readonly string[],
  policyTokens: readonly string[],
  bindings: Binding[],
  attributes: Map<string, Set<string>>,
  rule: readonly string[] | undefined,
): unknown[] {
  const valueOf = (binding: Binding): unknown => {
    if (binding.array) return [];
    if (binding.field !== undefined) {
      const index = policyTokens.indexOf(binding.field);
      if (rule !== undefined && index !== -1 && index < rule.length) {
        return binding.derive!(rule[index]!);
      }
      // No rule: a value of the right form that matches none.
      return binding.derive === insideNetwork ? "0.0.0.0" : "";
    }
    return rule === undefined ? "" : binding.literal ?? "";
  };
  return tokens.map((token) => {
    const names = attributes.get(token);
    if (names === undefined) {
      const binding = bindings.find((b) =>
        b.path.length === 1 && b.path[0] === token
      );
      return binding === undefined ? "" : valueOf(binding);
    }
    const value: Record<string, unknown> = {};
    for (const name of names) {
      const binding = bindings.find((b) =>
        b.path[0] === token && b.path[1] === name && b.path.length === 2
      ) ?? bindings.find((b) =>
        b.path[0] === token && b.path[1] === name
      );
      // A deeper read (r.sub.role.x) gets the attribute a guard's user has:
      // a string, as the rule's value for the whole path.
      value[name] = binding === undefined ? "" : valueOf(binding);
    }
    return value;
  });
}

/**
 * The probe decisions for a model and a sample of its policy: for every
 * matcher, one request per sampled rule of its policy type and one that
 * matches no rule (so that terms behind `||` are reached too).
 */
export function probeCases(model: Model, rules: ParsedRules): ProbeCase[] {
  addBinaryOp("in", 1, Util.customIn);
  const roleFunctions = new Set(model.model.get("g")?.keys() ?? []);
  const cases: ProbeCase[] = [];
  for (const [matcherKey, matcher] of model.model.get("m") ?? []) {
    const suffix = matcherKey.slice(1);
    const pick = (section: string): string =>
      model.model.get(section)?.has(`${section}${suffix}`)
        ? `${section}${suffix}`
        : section;
    const context = [pick("r"), pick("p"), pick("e"), matcherKey] as const;
    const tokens = model.model.get("r")?.get(context[0])?.tokens ?? [];
    const policyTokens = model.model.get("p")?.get(context[1])?.tokens ?? [];
    let root: unknown;
    try {
      root = parse(Util.bracketCompatible(matcher.value));
    } catch {
      continue; // checkMatchers reports matchers that do not parse
    }
    const requestKey = context[0];
    const bindings = collect(
      root,
      (name) => tokens.includes(name),
      (name) => policyTokens.includes(name),
      roleFunctions,
    );
    // An `in` operand must be an array whatever else is said of it; a
    // policy value beats a literal (which belongs to another alternative).
    const rank = (b: Binding): number =>
      b.array ? 0 : b.field !== undefined ? 1 : 2;
    bindings.sort((a, b) => rank(a) - rank(b));
    const attributes = attributesOf(bindings);
    const sample = rules.get(context[1]) ?? [];
    if (/\beval\s*\(/.test(matcher.value)) {
      for (const rule of sample) {
        for (const field of rule) {
          evalAttributes(field, requestKey, attributes);
        }
      }
    }
    for (const rule of sample) {
      cases.push({
        context,
        values: buildRequest(tokens, policyTokens, bindings, attributes, rule),
        rule: `${context[1]}, ${rule.join(", ")}`,
      });
    }
    cases.push({
      context,
      values: buildRequest(
        tokens,
        policyTokens,
        bindings,
        attributes,
        undefined,
      ),
      rule: undefined,
    });
  }
  return cases;
}
