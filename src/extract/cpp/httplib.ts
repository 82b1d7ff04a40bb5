// cpp-httplib: `svr.Get("/users/:id", handler)` (`Post`, `Put`, `Patch`,
// `Delete`, `Options`) on a variable declared `httplib::Server` or
// `httplib::SSLServer` in the file (a `httplib::Client` is no server).
import { type CppFile, methodNamed } from "./project.ts";
import { findCalls, stringValue } from "./text.ts";

/** The cpp-httplib routes of a file. */
export function httplibRoutes(f: CppFile): void {
  const code = f.code;
  if (!code.includes("httplib")) return;
  const servers = new Set<string>();
  for (
    const m of code.matchAll(
      /\bhttplib::(?:SSL)?Server\s*(?:&|\*)?\s*(\w+)\s*[;({=]/g,
    )
  ) servers.add(m[1]!);
  if (servers.size === 0) return;
  for (
    const call of findCalls(
      f.text,
      /\w+\s*(?:\.|->)\s*(?:Get|Post|Put|Patch|Delete|Options)/,
    )
  ) {
    const [receiver, name] = call.callee.split(/\s*(?:\.|->)\s*/);
    const method = methodNamed(name ?? "");
    if (!method || !servers.has(receiver!) || call.args.length < 2) continue;
    const path = stringValue(call.args[0] ?? "");
    if (path === undefined || !path.startsWith("/")) continue;
    f.route(call.start, method, path, "httplib");
  }
}
