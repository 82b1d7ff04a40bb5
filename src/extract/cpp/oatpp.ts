// Oat++: `ENDPOINT("GET", "users/{id}", getUser, ...)` and
// `ENDPOINT_ASYNC("GET", "room/{id}", Room)` in an `ApiController`; a path
// that is not a literal is skipped.
import { type CppFile, methodNamed } from "./project.ts";
import { findCalls, stringValue } from "./text.ts";

/** The Oat++ routes of a file. */
export function oatppRoutes(f: CppFile): void {
  const code = f.code;
  if (!code.includes("ENDPOINT")) return;
  for (const call of findCalls(f.text, /ENDPOINT(?:_ASYNC)?/)) {
    const verb = stringValue(call.args[0] ?? "")?.toUpperCase();
    const path = stringValue(call.args[1] ?? "");
    if (!verb || path === undefined) continue;
    if (methodNamed(verb) === undefined) continue;
    f.route(call.start, verb, path, "oatpp");
  }
}
