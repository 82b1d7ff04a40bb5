// casbin 5.51.1, as node-casbin's test files import it (`../src`), with
// every decision recorded: the enforcer's state at the moment of the call
// (model, rules, role managers, custom functions), the request values and
// casbin's answer. See record.ts.
// deno-lint-ignore-file no-explicit-any
import * as casbin from "casbin";

export * from "casbin";

// casbin's ESM build cannot construct a SyncedEnforcer under Deno (its
// await-lock import does not resolve to a constructor there). The synced
// enforcer adds locks around the same decision code: the test files that
// use it get a plain enforcer, whose decisions are the same.
export const newSyncedEnforcer: typeof casbin.newEnforcer = casbin.newEnforcer;

/** One decision, as record.ts writes it. */
export interface Recorded {
  test: string;
  model: string;
  policy: [string, string, string[][]][];
  roleManagers: [string, RoleManagerInfo][];
  functions: string[];
  enabled: boolean;
  acceptJsonRequest: boolean;
  context: string[] | null;
  args: unknown;
  result: { value: boolean } | { error: string };
}

export interface RoleManagerInfo {
  kind: string;
  maxLevel: unknown;
  matching: string | null;
  domainMatching: string | null;
  /** The role function whose role manager is the domain hierarchy. */
  domainHierarchy: string | null;
}

const UTIL_NAMES = new Map<unknown, string>(
  Object.entries(casbin.Util).map(([name, value]) => [value, name]),
);

const BUILTINS = casbin.FunctionMap.loadFunctionMap().getFunctions();

/** A request value as data: strings and numbers as they are, the rest tagged. */
export function serialize(value: unknown, depth = 0): unknown {
  if (depth > 8) return { $unserializable: true };
  if (value === undefined) return { $undefined: true };
  if (value === null || typeof value !== "object") {
    return typeof value === "function" ? { $function: true } : value;
  }
  if (Array.isArray(value)) {
    return { $array: value.map((v) => serialize(v, depth + 1)) };
  }
  const out: Record<string, unknown> = {};
  for (const [key, v] of Object.entries(value)) {
    out[key] = serialize(v, depth + 1);
  }
  return { $object: out };
}

function modelText(model: casbin.Model): string {
  const names: Record<string, string> = {
    r: "request_definition",
    p: "policy_definition",
    g: "role_definition",
    e: "policy_effect",
    m: "matchers",
  };
  const lines: string[] = [];
  for (const sec of ["r", "p", "g", "e", "m"]) {
    const assertions = model.model.get(sec);
    if (assertions === undefined || assertions.size === 0) continue;
    lines.push(`[${names[sec]}]`);
    for (const [key, ast] of assertions) lines.push(`${key} = ${ast.value}`);
    lines.push("");
  }
  return lines.join("\n");
}

function stateOf(
  e: any,
): Omit<Recorded, "test" | "context" | "args" | "result"> {
  const model = e.getModel() as casbin.Model;
  const policy: [string, string, string[][]][] = [];
  for (const sec of ["p", "g"]) {
    for (const [key, ast] of model.model.get(sec) ?? []) {
      policy.push([sec, key, ast.policy.map((rule: string[]) => [...rule])]);
    }
  }
  const roleManagers: [string, RoleManagerInfo][] = [];
  const keyOf = (rm: unknown): string | null => {
    for (const [key, ast] of model.model.get("g") ?? []) {
      if (ast.rm === rm) return key;
    }
    return rm === undefined ? null : "custom";
  };
  for (const [key, ast] of model.model.get("g") ?? []) {
    const rm = ast.rm as any;
    roleManagers.push([key, {
      kind: rm?.constructor?.name ?? "none",
      maxLevel: rm?.maxHierarchyLevel,
      matching: rm?.matchingFunc
        ? UTIL_NAMES.get(rm.matchingFunc) ?? "custom"
        : null,
      domainMatching: rm?.domainMatchingFunc
        ? UTIL_NAMES.get(rm.domainMatchingFunc) ?? "custom"
        : null,
      domainHierarchy: rm?.hasDomainHierarchy === true
        ? keyOf(rm.domainHierarchyManager)
        : null,
    }]);
  }
  const functions: string[] = [];
  e.fm.getFunctions().forEach((value: unknown, name: string) => {
    if (BUILTINS.get(name) !== value) functions.push(name);
  });
  return {
    model: modelText(model),
    policy,
    roleManagers,
    functions,
    enabled: e.enabled === true,
    acceptJsonRequest: e.acceptJsonRequest === true,
  };
}

/** The decisions recorded so far, and the name of the running test. */
export const recording: { test: string; calls: Recorded[] } = {
  test: "",
  calls: [],
};

let proto = casbin.Enforcer.prototype as any;
while (!Object.hasOwn(proto, "privateEnforce")) {
  proto = Object.getPrototypeOf(proto);
}
const original = proto.privateEnforce;
proto.privateEnforce = function* (
  this: unknown,
  asyncCompile: boolean,
  explain: boolean,
  matcher: string,
  context: casbin.EnforceContext,
  ...rvals: unknown[]
): Generator<unknown, unknown, unknown> {
  // A custom matcher (enforceWithMatcher) is casbin's alone.
  const recorded = !matcher;
  const state = recorded ? stateOf(this) : undefined;
  const finish = (result: Recorded["result"]): void => {
    if (state === undefined) return;
    recording.calls.push({
      test: recording.test,
      ...state,
      context: context.rType === "r" && context.pType === "p" &&
          context.eType === "e" && context.mType === "m"
        ? null
        : [context.rType, context.pType, context.eType, context.mType],
      args: rvals.map((v) => serialize(v)),
      result,
    });
  };
  try {
    const result = yield* original.call(
      this,
      asyncCompile,
      explain,
      matcher,
      context,
      ...rvals,
    );
    finish({ value: Array.isArray(result) ? result[0] : result });
    return result;
  } catch (error) {
    finish({ error: error instanceof Error ? error.message : String(error) });
    throw error;
  }
};
