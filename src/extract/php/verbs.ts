// The method names PHP routers and clients share (`->get(...)`,
// `::post(...)`): one lower-case method name per HTTP method.

/** `get` -> `GET` ... `options` -> `OPTIONS`. */
export const VERB_METHODS: Readonly<Record<string, string>> = {
  get: "GET",
  post: "POST",
  put: "PUT",
  patch: "PATCH",
  delete: "DELETE",
  head: "HEAD",
  options: "OPTIONS",
};

/** The method a call named `name` registers in `table`, if any. */
export function verbOf(
  table: Readonly<Record<string, string>>,
  name: string,
): string | undefined {
  return Object.hasOwn(table, name) ? table[name] : undefined;
}
