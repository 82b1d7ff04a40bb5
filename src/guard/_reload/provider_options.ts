// What both enforcer providers (files, PostgreSQL) do with the options they
// share (`EnforcerProviderOptions`): check them, fill in their defaults, and
// report a failed reload when the caller set no `onError`.
import type { MatchingFunction } from "casbin";
import type { Enforcer } from "../enforcer.ts";
import type { EnforcerProviderOptions } from "../enforcer_provider_options.ts";
import type { EnforcerLoadError } from "../_policy/error.ts";
import type { EnforcerLoaderOptions } from "./enforcer_loader.ts";

/** The loader settings a provider's options decide. */
export type LoaderSettings<E extends Enforcer> = Pick<
  EnforcerLoaderOptions<E>,
  "prepare" | "loadIn" | "probe" | "functions" | "allowEmptyPolicy"
>;

/** The default `onError`: one line on the console. */
export function defaultOnError(error: EnforcerLoadError): void {
  // deno-lint-ignore no-console
  console.error(`portcullis: ${error.message}; keeping the last good policy`);
}

/** `value`, or a RangeError naming the option when it is not a finite number >= 0. */
export function nonNegative(name: string, value: number): number {
  if (!Number.isFinite(value) || value < 0) {
    throw new RangeError(
      `Cannot open enforcer provider: ${name} must be a finite number >= 0, got ${value}`,
    );
  }
  return value;
}

/**
 * The loader settings of `options`, defaults filled in.
 *
 * @throws {RangeError} If `loadIn` is not one of its three values.
 */
export function loaderSettingsOf<E extends Enforcer>(
  options: EnforcerProviderOptions<E>,
): LoaderSettings<E> {
  const loadIn = options.loadIn ?? "auto";
  if (!["auto", "worker", "main"].includes(loadIn)) {
    throw new RangeError(
      `Cannot open enforcer provider: loadIn must be "auto", "worker" or "main", got ${
        String(loadIn)
      }`,
    );
  }
  return {
    prepare: options.prepare,
    loadIn,
    probe: options.probe,
    functions: (options.functions ?? {}) as Readonly<
      Record<string, MatchingFunction>
    >,
    allowEmptyPolicy: options.allowEmptyPolicy ?? false,
  };
}
