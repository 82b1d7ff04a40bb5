// The check the guard's constructors and wrappers make on the functions
// they are given, for callers without type checking: a TypeError that names
// the argument, before anything runs.

/**
 * Throws `TypeError("Cannot <action>: <name> must be a function")` unless
 * `value` is a function.
 */
export function requireFunction(
  action: string,
  name: string,
  value: unknown,
): void {
  if (typeof value !== "function") {
    throw new TypeError(`Cannot ${action}: ${name} must be a function`);
  }
}

/** {@linkcode requireFunction} for an optional function: undefined passes. */
export function optionalFunction(
  action: string,
  name: string,
  value: unknown,
): void {
  if (value !== undefined) requireFunction(action, name, value);
}
