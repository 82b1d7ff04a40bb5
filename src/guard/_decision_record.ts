// The event of one decision, built only when a guard has an `onDecision`
// hook: started with the request, completed once the enforcer answered.
// What a log line rarely needs is computed when first read.
import type { DecisionEvent, DecisionRoute } from "./decision_event.ts";
import type { Enforcer } from "./enforcer.ts";

/** A casbin enforcer's `enforceEx`, which names the rule that decided. */
type EnforceEx = (...rvals: unknown[]) => Promise<[boolean, string[]]>;

/** The user fields a subject summary reports. */
const SUMMARY_FIELDS = ["id", "sub", "role", "roles"] as const;

/** A short, claim-free summary of a user for a log. */
export function summarizeSubject(user: unknown): string {
  if (typeof user === "string") return user;
  if (typeof user === "number" || typeof user === "boolean") {
    return String(user);
  }
  if (typeof user !== "object" || user === null) return typeof user;
  const parts: string[] = [];
  for (const field of SUMMARY_FIELDS) {
    let value: unknown;
    try {
      value = (user as Record<string, unknown>)[field];
    } catch {
      continue; // a throwing getter: leave the field out
    }
    if (typeof value === "string" || typeof value === "number") {
      parts.push(`${field}=${value}`);
    } else if (
      Array.isArray(value) &&
      value.every((item) => typeof item === "string")
    ) {
      parts.push(`${field}=${value.join(",")}`);
    }
  }
  return parts.join(" ");
}

/** The path of a request URL, without parsing the whole URL. */
function pathOf(url: string): string {
  const scheme = url.indexOf("://");
  const start = url.indexOf("/", scheme === -1 ? 0 : scheme + 3);
  if (start === -1) return "/";
  let end = url.length;
  const query = url.indexOf("?", start);
  if (query !== -1) end = query;
  const hash = url.indexOf("#", start);
  if (hash !== -1 && hash < end) end = hash;
  return url.slice(start, end);
}

/** The casbin enforcer behind an enforcer, if it exposes one. */
function enforceExOf(enforcer: Enforcer): EnforceEx | undefined {
  for (
    const candidate of [enforcer, (enforcer as { casbin?: unknown }).casbin]
  ) {
    const fn = (candidate as { enforceEx?: unknown } | undefined)?.enforceEx;
    if (typeof fn === "function") {
      return (fn as EnforceEx).bind(candidate);
    }
  }
  return undefined;
}

/** One decision's event; the guard fills it in as the check goes. */
export class DecisionRecord<U> implements DecisionEvent<U> {
  readonly request: Request;
  readonly #started: number;
  readonly #pattern: string | undefined;
  #id: string | undefined;
  #route: DecisionRoute | undefined;
  #subject: string | undefined;
  #enforcer: Enforcer | undefined;
  #rule: Promise<string | undefined> | undefined;
  user: U = undefined as U;
  args: readonly unknown[] = [];
  result: "allow" | "deny" | "error" = "error";
  revision: string | undefined;
  time = 0;
  latencyMs = 0;

  constructor(request: Request, pattern: string | undefined) {
    this.request = request;
    this.#pattern = pattern;
    this.#started = performance.now();
  }

  /** Records what the enforcer is about to decide. */
  decide(
    enforcer: Enforcer,
    user: U,
    values: readonly unknown[],
    revision: string | undefined,
  ): void {
    this.#enforcer = enforcer;
    this.user = user;
    // A copy: the route's own arguments must not be changed by a hook.
    this.args = values.slice();
    this.revision = revision;
  }

  /** Records the answer; returns the finished event. */
  finish(result: "allow" | "deny" | "error"): this {
    this.result = result;
    this.time = Date.now();
    this.latencyMs = performance.now() - this.#started;
    return this;
  }

  get id(): string {
    return this.#id ??= crypto.randomUUID();
  }

  get route(): DecisionRoute {
    return this.#route ??= {
      method: this.request.method,
      path: pathOf(this.request.url),
      pattern: this.#pattern,
    };
  }

  get subject(): string {
    return this.#subject ??= summarizeSubject(this.user);
  }

  decidingRule(): Promise<string | undefined> {
    return this.#rule ??= this.#findRule();
  }

  async #findRule(): Promise<string | undefined> {
    const enforcer = this.#enforcer;
    if (this.result === "error" || enforcer === undefined) return undefined;
    const enforceEx = enforceExOf(enforcer);
    if (enforceEx === undefined) return undefined;
    try {
      const [, rule] = await enforceEx(this.user, ...this.args);
      return rule.length === 0 ? undefined : ["p", ...rule].join(", ");
    } catch {
      return undefined;
    }
  }
}
