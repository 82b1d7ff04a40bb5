// Builds and validates a casbin enforcer from model and policy text, in
// time slices, so that a large policy never blocks the event loop for long.
import {
  type Adapter,
  BracketAwareCsvParser,
  EnforceContext,
  type Enforcer as CasbinEnforcer,
  type MatchingFunction,
  type Model,
  newEnforcer,
  newModelFromString,
} from "casbin";
import { EnforcerLoadError } from "./error.ts";
import { checkMatchers } from "./matcher.ts";
import { findLoopingPattern } from "./patterns.ts";
import { type ProbeCase, probeCases, samplePolicy } from "./probe.ts";

/** Options for {@linkcode buildEnforcer}. */
export interface BuildOptions {
  /** Shown in error messages and set on errors as `path`. */
  modelPath?: string;
  /** Shown in error messages and set on errors as `path`. */
  policyPath?: string;
  /**
   * Request values of the one probe decision; when unset, requests built
   * from a sample of the rules.
   */
  probe?: readonly unknown[];
  /** Custom matcher functions, added to the enforcer before the probe. */
  functions?: Readonly<Record<string, MatchingFunction>>;
  /** Accept a policy with no rules (deny everything). */
  allowEmptyPolicy?: boolean;
  /** Longest stretch of synchronous work before yielding, in ms. */
  sliceMs?: number;
  /** Returns true when the build should stop (the provider closed). */
  isCancelled?: () => boolean;
  /**
   * Skip the probe decision (done elsewhere, see
   * {@linkcode probeModel}).
   */
  skipProbe?: boolean;
}

/** What {@linkcode buildEnforcer} returns. */
export interface BuiltEnforcer {
  /** The validated enforcer, with its policy loaded. */
  enforcer: CasbinEnforcer;
  /** How many policy rules (p and g lines) it holds. */
  rules: number;
}

/** Thrown by a build that {@linkcode BuildOptions.isCancelled} stopped. */
export class BuildCancelledError extends Error {
  constructor() {
    super("Cannot build enforcer: the build was cancelled");
    this.name = "BuildCancelledError";
  }
}

const DEFAULT_SLICE_MS = 4;
// Lines between two clock reads while parsing.
const LINES_PER_CLOCK_READ = 128;

type Immediate = (callback: () => void) => unknown;
const setImmediateOrTimeout: Immediate =
  (globalThis as { setImmediate?: Immediate }).setImmediate ??
    ((callback: () => void) => setTimeout(callback, 0));

/** Lets the event loop run timers and I/O (pending requests) once. */
export function yieldToEventLoop(): Promise<void> {
  return new Promise((resolve) => setImmediateOrTimeout(resolve));
}

/**
 * The number of fields each policy type of the model expects: the tokens of
 * `p = sub, obj, act` (3) or the `_` of `g = _, _` (2).
 */
export function expectedFieldCounts(model: Model): Map<string, number> {
  const counts = new Map<string, number>();
  for (const [key, assertion] of model.model.get("p") ?? []) {
    counts.set(key, assertion.tokens.length);
  }
  for (const [key, assertion] of model.model.get("g") ?? []) {
    counts.set(key, (assertion.value.match(/_/g) ?? []).length);
  }
  return counts;
}

/** Index of the `eft` field of each policy type that has one. */
export function effectFieldIndexes(model: Model): Map<string, number> {
  const indexes = new Map<string, number>();
  for (const [key, assertion] of model.model.get("p") ?? []) {
    const index = assertion.tokens.indexOf(`${key}_eft`);
    if (index !== -1) indexes.set(key, index);
  }
  return indexes;
}

/** ` "<path>"` for an error message, or nothing without a path. */
function quoted(path: string | undefined): string {
  return path === undefined ? "" : ` "${path}"`;
}

/** The load error of a policy that casbin itself refused. */
function refusedPolicy(
  options: BuildOptions,
  error: unknown,
): EnforcerLoadError {
  return new EnforcerLoadError(
    "POLICY_INVALID",
    `Cannot load policy${quoted(options.policyPath)}: ${
      error instanceof Error ? error.message : String(error)
    }`,
    { path: options.policyPath, cause: error },
  );
}

/** Removes one pair of surrounding double quotes, as casbin's loader does. */
function unquote(value: string): string {
  return value.startsWith('"') && value.endsWith('"')
    ? value.slice(1, -1)
    : value;
}

/**
 * Splits one policy line into its fields exactly as casbin's file and
 * string adapters do. Lines without quotes, brackets or carriage returns
 * inside take a fast path (split on commas, trim); the others go through
 * casbin's own CSV parser. Returns null for a line that holds no fields.
 */
export function splitPolicyLine(
  line: string,
  parser: BracketAwareCsvParser,
): string[] | null {
  let text = line;
  if (text.endsWith("\r")) text = text.slice(0, -1);
  if (
    text.indexOf('"') === -1 && text.indexOf("(") === -1 &&
    text.indexOf(")") === -1 && text.indexOf("\r") === -1
  ) {
    const fields = text.split(",");
    for (let i = 0; i < fields.length; i++) fields[i] = fields[i]!.trim();
    return fields;
  }
  if (hasUnquotedCarriageReturn(text)) {
    // casbin's parser ends the record there and silently drops the rest.
    throw new Error("a carriage return inside the line ends it early");
  }
  const records = parser.parse(line);
  const record = records?.[0];
  if (!record || record.length === 0) return null;
  const fields = [unquote(record[0]!.trim())];
  for (let i = 1; i < record.length; i++) {
    fields.push(unquote(record[i]!).replace(/""/g, '"').trim());
  }
  return fields;
}

/** True when `text` holds a carriage return outside double quotes. */
function hasUnquotedCarriageReturn(text: string): boolean {
  let quoted = false;
  for (let i = 0; i < text.length; i++) {
    const code = text.charCodeAt(i);
    if (code === 34 /* " */) quoted = !quoted;
    else if (code === 13 /* \r */ && !quoted) return true;
  }
  return false;
}

/** True for the characters `String.prototype.trim()` removes. */
export function isTrimmed(code: number): boolean {
  return code === 32 || (code >= 9 && code <= 13) || code === 0xa0 ||
    code === 0x1680 || (code >= 0x2000 && code <= 0x200a) ||
    code === 0x2028 || code === 0x2029 || code === 0x202f ||
    code === 0x205f || code === 0x3000 || code === 0xfeff;
}

/** Returned by {@linkcode splitPlainLine} for a blank or comment line. */
const SKIP: string[] = [];

/**
 * The fast path of {@linkcode splitPolicyLine}, reading `text` between
 * `start` and `end` in place (no line string, one string per field):
 * returns {@linkcode SKIP} for a blank or `#` line, the fields of a line
 * without quotes, brackets or inner carriage returns, or null for any other
 * line (which then goes through casbin's parser).
 */
function splitPlainLine(
  text: string,
  start: number,
  end: number,
): string[] | null {
  let first = start;
  while (first < end && isTrimmed(text.charCodeAt(first))) first++;
  if (first === end || text.charCodeAt(first) === 35 /* # */) return SKIP;
  let stop = end;
  if (stop > start && text.charCodeAt(stop - 1) === 13 /* \r */) stop--;
  for (let i = start; i < stop; i++) {
    const code = text.charCodeAt(i);
    // " ( ) \r
    if (code === 34 || code === 40 || code === 41 || code === 13) return null;
  }
  const fields: string[] = [];
  let from = start;
  for (let i = start; i <= stop; i++) {
    if (i < stop && text.charCodeAt(i) !== 44 /* , */) continue;
    let a = from;
    let b = i;
    while (a < b && isTrimmed(text.charCodeAt(a))) a++;
    while (b > a && isTrimmed(text.charCodeAt(b - 1))) b--;
    fields.push(text.slice(a, b));
    from = i + 1;
  }
  return fields;
}

// Bytes decoded between two clock reads by decodeFile().
const DECODE_CHUNK = 256 * 1024;

/**
 * Decodes a model or policy file as UTF-8, yielding to the event loop every
 * `sliceMs` (a large policy takes milliseconds to decode). Throws
 * {@linkcode EnforcerLoadError} (`READ_FAILED`) for bytes that are not
 * UTF-8.
 */
export async function decodeFile(
  bytes: Uint8Array,
  kind: "model" | "policy",
  path: string | undefined,
  options: Pick<BuildOptions, "sliceMs" | "isCancelled"> = {},
): Promise<string> {
  const sliceMs = options.sliceMs ?? DEFAULT_SLICE_MS;
  const decoder = new TextDecoder("utf-8", { fatal: true });
  const parts: string[] = [];
  try {
    let sliceStart = performance.now();
    for (let at = 0; at < bytes.byteLength; at += DECODE_CHUNK) {
      const end = Math.min(at + DECODE_CHUNK, bytes.byteLength);
      parts.push(
        decoder.decode(bytes.subarray(at, end), {
          stream: end < bytes.byteLength,
        }),
      );
      if (end < bytes.byteLength && performance.now() - sliceStart >= sliceMs) {
        await yieldToEventLoop();
        if (options.isCancelled?.()) throw new BuildCancelledError();
        sliceStart = performance.now();
      }
    }
    parts.push(decoder.decode());
  } catch (error) {
    if (error instanceof BuildCancelledError) throw error;
    throw new EnforcerLoadError(
      "READ_FAILED",
      `Cannot load ${kind}: ${
        path === undefined ? "the file" : `"${path}"`
      } is not valid UTF-8`,
      { path, cause: error },
    );
  }
  return parts.length === 1 ? parts[0]! : parts.join("");
}

/** The parsed rules of a policy, per policy type (`p`, `p2`, `g`, ...). */
export type ParsedPolicy = Map<string, string[][]>;

/**
 * Parses and validates policy text against a model, yielding to the event
 * loop every `sliceMs`. Every non-blank line that is not a `#` comment must
 * name a policy type of the model and carry exactly its number of fields.
 */
export async function parsePolicy(
  text: string,
  model: Model,
  options: BuildOptions = {},
): Promise<{ rules: ParsedPolicy; count: number }> {
  const sliceMs = options.sliceMs ?? DEFAULT_SLICE_MS;
  const path = options.policyPath;
  const where = quoted(path);
  const counts = expectedFieldCounts(model);
  const effectFields = effectFieldIndexes(model);
  const rules: ParsedPolicy = new Map();
  for (const key of counts.keys()) rules.set(key, []);
  const parser = new BracketAwareCsvParser();
  let count = 0;
  let lineNumber = 0;
  let start = 0;
  let sliceStart = performance.now();
  while (start <= text.length) {
    let end = text.indexOf("\n", start);
    if (end === -1) end = text.length;
    const lineStart = start;
    start = end + 1;
    lineNumber++;
    if (lineNumber % LINES_PER_CLOCK_READ === 0) {
      if (performance.now() - sliceStart >= sliceMs) {
        await yieldToEventLoop();
        if (options.isCancelled?.()) throw new BuildCancelledError();
        sliceStart = performance.now();
      }
    }
    let fields: string[] | null = splitPlainLine(text, lineStart, end);
    if (fields === SKIP) continue;
    if (fields === null) {
      const line = text.slice(lineStart, end);
      try {
        fields = splitPolicyLine(line, parser);
      } catch (error) {
        throw new EnforcerLoadError(
          "POLICY_INVALID",
          `Cannot load policy${where}: line ${lineNumber} is not valid CSV (${
            error instanceof Error ? error.message : String(error)
          })`,
          { path, line: lineNumber, cause: error },
        );
      }
    }
    const key = fields?.[0];
    const expected = key === undefined ? undefined : counts.get(key);
    if (fields === null || key === undefined || expected === undefined) {
      throw new EnforcerLoadError(
        "POLICY_INVALID",
        `Cannot load policy${where}: line ${lineNumber} has unknown policy type "${
          key ?? ""
        }" (the model defines ${[...counts.keys()].join(", ")})`,
        { path, line: lineNumber },
      );
    }
    if (fields.length - 1 !== expected) {
      throw new EnforcerLoadError(
        "POLICY_INVALID",
        `Cannot load policy${where}: line ${lineNumber} has ${
          fields.length - 1
        } fields after "${key}", expected ${expected}`,
        { path, line: lineNumber },
      );
    }
    const eft = effectFields.get(key);
    if (eft !== undefined) {
      const effect = fields[eft + 1];
      if (effect !== "allow" && effect !== "deny") {
        // casbin counts any other effect as neither allow nor deny, so a
        // typo or a trailing comment would silently void a deny rule.
        throw new EnforcerLoadError(
          "POLICY_INVALID",
          `Cannot load policy${where}: line ${lineNumber} has effect "${effect}", expected "allow" or "deny"`,
          { path, line: lineNumber },
        );
      }
    }
    fields.shift();
    rules.get(key)!.push(fields);
    count++;
  }
  if (count === 0 && options.allowEmptyPolicy !== true) {
    throw new EnforcerLoadError(
      "POLICY_INVALID",
      `Cannot load policy${where}: it has no rules`,
      { path },
    );
  }
  return { rules, count };
}

/** A read-only adapter that hands already parsed rules to casbin. */
class ParsedPolicyAdapter implements Adapter {
  #rules: ParsedPolicy;
  constructor(rules: ParsedPolicy) {
    this.#rules = rules;
  }
  loadPolicy(model: Model): Promise<void> {
    for (const [key, rules] of this.#rules) {
      const assertion = model.model.get(key.slice(0, 1))?.get(key);
      if (!assertion) continue;
      // Hand the parsed array over instead of copying 100k rules into it.
      if (assertion.policy.length === 0) assertion.policy = rules;
      else for (const rule of rules) assertion.policy.push(rule);
    }
    return Promise.resolve();
  }
  savePolicy(): Promise<boolean> {
    return Promise.reject(readOnly());
  }
  addPolicy(): Promise<void> {
    return Promise.reject(readOnly());
  }
  removePolicy(): Promise<void> {
    return Promise.reject(readOnly());
  }
  removeFilteredPolicy(): Promise<void> {
    return Promise.reject(readOnly());
  }
}

function readOnly(): Error {
  return new Error(
    "Cannot change policy: the enforcer of a file provider is read-only; edit the policy file instead",
  );
}

/**
 * Builds a new casbin enforcer from model and policy text and validates it:
 * the model must parse, every policy line must fit the model, and a probe
 * decision must not throw (a broken matcher builds fine and then throws on
 * every decision). Throws {@linkcode EnforcerLoadError} otherwise.
 */
export async function buildEnforcer(
  modelText: string,
  policyText: string,
  options: BuildOptions = {},
): Promise<BuiltEnforcer> {
  const modelWhere = quoted(options.modelPath);
  let model: Model;
  try {
    model = newModelFromString(modelText);
  } catch (error) {
    throw new EnforcerLoadError(
      "MODEL_INVALID",
      `Cannot load model${modelWhere}: ${
        error instanceof Error ? error.message : String(error)
      }`,
      { path: options.modelPath, cause: error },
    );
  }
  const functions = options.functions ?? {};
  const matcherProblem = checkMatchers(model, Object.keys(functions));
  if (matcherProblem !== undefined) {
    throw new EnforcerLoadError(
      "MODEL_INVALID",
      `Cannot load model${modelWhere}: ${matcherProblem}`,
      { path: options.modelPath },
    );
  }
  const { rules, count } = await parsePolicy(policyText, model, options);
  if (options.isCancelled?.()) throw new BuildCancelledError();
  // Before anything decides: one such pattern would hang the decision.
  const looping = findLoopingPattern(model, rules);
  if (looping !== undefined) {
    throw looping.in === "model"
      ? new EnforcerLoadError(
        "MODEL_INVALID",
        `Cannot load model${modelWhere}: ${looping.message}`,
        { path: options.modelPath },
      )
      : new EnforcerLoadError(
        "POLICY_INVALID",
        `Cannot load policy${quoted(options.policyPath)}: ${looping.message}`,
        { path: options.policyPath },
      );
  }
  let enforcer: CasbinEnforcer;
  try {
    enforcer = await newEnforcer(model, new ParsedPolicyAdapter(rules));
  } catch (error) {
    throw refusedPolicy(options, error);
  }
  for (const [name, fn] of Object.entries(functions)) {
    await enforcer.addFunction(name, fn);
  }
  if (options.skipProbe !== true) {
    // The probe checks the matcher on requests shaped like the rules:
    // decide it on an enforcer holding a sample of each policy type, so that
    // it costs the same for 10 rules as for 100,000 (a decision scans the
    // rules linearly).
    const sample: ParsedPolicy = new Map();
    for (const [key, list] of rules) sample.set(key, samplePolicy(list));
    await probeModel(modelText, sample, options);
  }
  return { enforcer, rules: count };
}

/**
 * Validates the model's matchers by deciding probe requests on an enforcer
 * of `modelText` holding `sample` (a few rules per policy type) and the
 * custom functions: by default the requests built from the sampled rules
 * (see `_policy/probe.ts`), or the one request `options.probe`. A matcher
 * that throws on any of them fails the load. Throws
 * {@linkcode EnforcerLoadError} (`PROBE_FAILED`).
 */
export async function probeModel(
  modelText: string,
  sample: ParsedPolicy,
  options: BuildOptions = {},
): Promise<void> {
  const functions = options.functions ?? {};
  let model: Model;
  let probeEnforcer: CasbinEnforcer;
  try {
    model = newModelFromString(modelText);
    probeEnforcer = await newEnforcer(model, new ParsedPolicyAdapter(sample));
    for (const [name, fn] of Object.entries(functions)) {
      await probeEnforcer.addFunction(name, fn);
    }
  } catch (error) {
    throw refusedPolicy(options, error);
  }
  const cases: ProbeCase[] = options.probe === undefined
    ? probeCases(model, sample)
    : [{
      context: ["r", "p", "e", "m"],
      values: options.probe,
      rule: undefined,
    }];
  for (const probe of cases) {
    try {
      const [r, p, e, m] = probe.context;
      const values = probe.values;
      if (m === "m") await probeEnforcer.enforce(...values);
      else {await probeEnforcer.enforce(
          new EnforceContext(r, p, e, m),
          ...values,
        );}
    } catch (error) {
      const on = probe.rule === undefined
        ? ""
        : ` on a request built from the rule "${clip(probe.rule)}"`;
      throw new EnforcerLoadError(
        "PROBE_FAILED",
        `Cannot load model${
          quoted(options.modelPath)
        }: a probe decision failed${on} (${
          error instanceof Error ? error.message : String(error)
        })`,
        { path: options.modelPath, cause: error },
      );
    }
  }
}

/** A rule for an error message: one line, at most 120 characters. */
function clip(text: string): string {
  const line = JSON.stringify(text).slice(1, -1);
  return line.length > 120 ? `${line.slice(0, 117)}...` : line;
}
