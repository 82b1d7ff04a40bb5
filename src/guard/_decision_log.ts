// The decision of a guard that has an `onDecision` hook: the same steps as
// the guard's own (the enforcer provider, then the enforcer), which also
// complete the decision's event and hand it to the hook, never awaited,
// whatever the answer: allowed, denied, or a failure on the way.
import type { DecisionEvent } from "./decision_event.ts";
import type { Enforcer, EnforcerProvider } from "./enforcer.ts";
import type { DecisionRecord } from "./_decision_record.ts";
import { isThenable } from "./_thenable.ts";

/** The policy revision an enforcer provider reports, if any. */
function revisionOf(provider: EnforcerProvider): string | undefined {
  try {
    const revision = (provider as { revision?: unknown }).revision;
    if (typeof revision === "number") return String(revision);
    return typeof revision === "string" ? revision : undefined;
  } catch {
    return undefined; // a throwing getter: no revision
  }
}

/** A guard's decision hook, and where its failures go. */
export class DecisionLog<U> {
  readonly #hook: (event: DecisionEvent<U>) => void;
  readonly #onError: (error: unknown, request: Request) => void;

  constructor(
    hook: (event: DecisionEvent<U>) => void,
    onError: (error: unknown, request: Request) => void,
  ) {
    this.#hook = hook;
    this.#onError = onError;
  }

  /**
   * Asks the provider for the enforcer and the enforcer for a decision;
   * returns the enforcer's answer (or a promise of it), and throws (or
   * rejects) as those steps do, after reporting the event.
   */
  decide(
    provider: EnforcerProvider,
    user: U,
    values: readonly unknown[],
    record: DecisionRecord<U>,
  ): unknown {
    let enforcer: Enforcer | Promise<Enforcer>;
    try {
      enforcer = typeof provider === "function"
        ? provider()
        : provider.getEnforcer();
    } catch (error) {
      this.#emit(record, "error");
      throw error;
    }
    if (isThenable(enforcer)) {
      return this.#decideLater(enforcer, provider, user, values, record);
    }
    return this.#enforce(enforcer, provider, user, values, record);
  }

  async #decideLater(
    pending: PromiseLike<Enforcer>,
    provider: EnforcerProvider,
    user: U,
    values: readonly unknown[],
    record: DecisionRecord<U>,
  ): Promise<unknown> {
    const enforcer = await this.#awaited(pending, record);
    return await this.#enforce(enforcer, provider, user, values, record);
  }

  #enforce(
    enforcer: Enforcer,
    provider: EnforcerProvider,
    user: U,
    values: readonly unknown[],
    record: DecisionRecord<U>,
  ): unknown {
    if (typeof enforcer?.enforce !== "function") {
      this.#emit(record, "error");
      throw new TypeError(
        "Cannot check permission: the enforcer provider returned no enforcer",
      );
    }
    record.decide(enforcer, user, values, revisionOf(provider));
    let allowed: unknown;
    try {
      allowed = enforcer.enforce(user, ...values);
    } catch (error) {
      this.#emit(record, "error");
      throw error;
    }
    if (isThenable(allowed)) return this.#settle(allowed, record);
    this.#emit(record, allowed === true ? "allow" : "deny");
    return allowed;
  }

  async #settle(
    pending: PromiseLike<unknown>,
    record: DecisionRecord<U>,
  ): Promise<unknown> {
    const allowed = await this.#awaited(pending, record);
    this.#emit(record, allowed === true ? "allow" : "deny");
    return allowed;
  }

  /** The value of a step that went asynchronous; its failure is an event. */
  async #awaited<T>(
    pending: PromiseLike<T>,
    record: DecisionRecord<U>,
  ): Promise<T> {
    try {
      return await pending;
    } catch (error) {
      this.#emit(record, "error");
      throw error;
    }
  }

  /** Hands a finished event to the hook, without waiting for it. */
  #emit(record: DecisionRecord<U>, result: "allow" | "deny" | "error"): void {
    const request = record.request;
    try {
      const returned: unknown = this.#hook(record.finish(result));
      if (isThenable(returned)) {
        returned.then(undefined, (error) => this.#failed(error, request));
      }
    } catch (error) {
      this.#failed(error, request);
    }
  }

  #failed(error: unknown, request: Request): void {
    try {
      this.#onError(error, request);
    } catch {
      // A failing hook must not change the answer.
    }
  }
}
