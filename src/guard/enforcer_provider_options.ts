import type { Enforcer } from "./enforcer.ts";
import type { IndexableEnforcer } from "./indexed_enforcer.ts";
import type { EnforcerLoadError } from "./_policy/error.ts";

/**
 * What every enforcer provider of this library takes, whatever its policy
 * source (files, a database): how a new enforcer is prepared and validated,
 * where it is loaded, and whether requests wait for reloads.
 *
 * @typeParam E The enforcer type `getEnforcer()` returns: a casbin
 * `Enforcer`, or what `prepare` turns it into.
 *
 * @example
 * ```ts
 * import type { EnforcerProviderOptions } from "@portcullis/portcullis/guard";
 *
 * const common: EnforcerProviderOptions = {
 *   onError: (error) => console.warn(`policy not reloaded: ${error.message}`),
 *   staleWhileReload: false,
 * };
 * ```
 */
export interface EnforcerProviderOptions<E extends Enforcer = Enforcer> {
  /**
   * Called with every new casbin enforcer after it was built and validated,
   * and before it is swapped in; returns the enforcer `getEnforcer()` will
   * hand out, for example `indexEnforcer`'s fast decision path over the
   * casbin one. The argument is a casbin `Enforcer` (typed by what
   * `indexEnforcer` reads; cast it to casbin's `Enforcer` for its full API).
   * A throw or rejection fails the load like an invalid policy does.
   * @default {indexEnforcer} (casbin decides what the index cannot; pass
   * `(enforcer) => enforcer` to serve casbin's enforcer itself)
   */
  prepare?: (enforcer: IndexableEnforcer) => E | Promise<E>;
  /**
   * Called once for each failed reload (the last good enforcer stays live):
   * a refused policy or model, a failed read. The same failure is reported
   * once, not once per request or per check.
   * @default {logs the error message with console.error}
   */
  onError?: (error: EnforcerLoadError) => void;
  /**
   * Request values of the one probe decision every new enforcer must
   * survive without throwing, instead of the derived ones. By default the
   * provider decides requests built from a sample of the rules (for each
   * rule, the values that make the matcher's terms on it true, shaped like
   * the guard's users: `r.sub.role` gives `{ role: "<the rule's value>" }`),
   * so that a matcher that throws on real requests is refused. Set it when
   * your requests carry nested objects (`r.sub.org.unit.name`).
   * @default {built from the policy's rules}
   */
  probe?: readonly unknown[];
  /**
   * Custom functions the matcher calls, added to every new enforcer before
   * it is validated. A matcher that calls a function that is neither a
   * casbin built-in, a role definition (`g`) nor listed here is rejected.
   * @default {{}}
   */
  functions?: Readonly<
    Record<
      string,
      // deno-lint-ignore no-explicit-any
      (...args: any[]) => boolean | number | string | Promise<unknown>
    >
  >;
  /**
   * Accept a policy with no rules. Off by default, because a file read
   * mid-write or an emptied table also has no rules, and with a deny-only
   * effect an empty policy allows everything.
   * @default {false}
   */
  allowEmptyPolicy?: boolean;
  /**
   * When false, a request that arrives after a change was detected waits
   * for that reload to finish (or fail), so it is decided by the new policy.
   * When true, requests keep getting the last good enforcer until the new
   * one is swapped in: no request ever waits for a reload, at the price of a
   * window (the reload time) in which a change is not yet in force.
   * By default it is false while the live policy was loaded on the event
   * loop (a small policy: a reload takes milliseconds, and waiting for it
   * guarantees the next request sees a change) and true while it was loaded
   * in the worker (a large policy: a reload takes tenths of a second, which
   * requests should not wait for).
   * @default {true for a policy loaded in the worker, else false}
   */
  staleWhileReload?: boolean;
  /**
   * Where a new policy is parsed, validated and indexed when `prepare` is
   * not set: `"worker"` in a worker thread (the event loop only swaps the
   * result in, and casbin's own enforcer is built the first time a request
   * needs it, which most never do), `"main"` on the event loop in slices of
   * a few milliseconds, `"auto"` in the worker for policies of 128 KiB or
   * more. When the worker cannot start (a Deno process without read access
   * to this library's files, a runtime without workers), or casbin must
   * decide the model, the load happens on the event loop. A custom
   * `prepare` always runs on the event loop.
   * @default {"auto"}
   */
  loadIn?: "auto" | "worker" | "main";
}
