// Crow: `CROW_ROUTE(app, "/user/<int>")` with `.methods("POST"_method,
// crow::HTTPMethod::Put)`, `app.route_dynamic("/x")` and blueprints
// (`CROW_BP_ROUTE(bp, "/x")` under `crow::Blueprint bp("prefix")`, nested by
// `parent.register_blueprint(child)`; a blueprint declared in another file
// gives the bare path at 0.8).
import { CONFIDENCE } from "../_value/mod.ts";
import { type CppFile, methodNamed } from "./project.ts";
import { type CppText, findCalls, splitArgs, stringValue } from "./text.ts";

/** The methods of a `.methods(...)` right after a route macro, else GET. */
function methodsAfter(code: string, end: number): string[] {
  const rest = /^\s*\.\s*methods\s*\(/.exec(code.slice(end, end + 200));
  if (!rest) return ["GET"];
  const split = splitArgs(code, end + rest[0].length - 1);
  const out: string[] = [];
  for (const arg of split?.args ?? []) {
    const m = /^"(\w+)"_method$/.exec(arg) ??
      /(?:HTTPMethod::|\b)(\w+)$/.exec(arg);
    const verb = m ? methodNamed(m[1]!) : undefined;
    if (verb && !out.includes(verb)) out.push(verb);
  }
  return out.length > 0 ? out : ["GET"];
}

/** The prefix of each blueprint variable, nested by registration. */
function blueprintPrefixes(text: CppText): Map<string, string> {
  const code = text.code;
  const own = new Map<string, string>();
  for (
    const m of code.matchAll(
      /\b(?:crow::)?Blueprint\s+(\w+)\s*[({]\s*("(?:[^"\\\n]|\\.)*")/g,
    )
  ) own.set(m[1]!, stringValue(m[2]!) ?? "");
  const parent = new Map<string, string>();
  for (const call of findCalls(text, /\w+\s*\.\s*register_blueprint/)) {
    const owner = call.callee.split(".")[0]!.trim();
    const child = call.args[0]?.trim() ?? "";
    if (own.has(owner) && own.has(child)) parent.set(child, owner);
  }
  const out = new Map<string, string>();
  for (const name of own.keys()) {
    const parts: string[] = [];
    const seen = new Set<string>();
    for (
      let n: string | undefined = name;
      n && !seen.has(n);
      n = parent.get(n)
    ) {
      seen.add(n);
      parts.unshift(own.get(n)!.replace(/^\/+|\/+$/g, ""));
    }
    out.set(name, parts.filter((p) => p !== "").map((p) => "/" + p).join(""));
  }
  return out;
}

/** The Crow routes of a file. */
export function crowRoutes(f: CppFile): void {
  const code = f.code;
  if (!/CROW_(?:BP_)?ROUTE|route_dynamic/.test(code)) return;
  const prefixes = code.includes("Blueprint")
    ? blueprintPrefixes(f.text)
    : new Map<string, string>();
  for (
    const call of findCalls(
      f.text,
      /CROW_ROUTE|CROW_BP_ROUTE|\w+\s*\.\s*route_dynamic/,
    )
  ) {
    const dynamic = call.callee.endsWith("route_dynamic");
    const path = stringValue(call.args[dynamic ? 0 : 1] ?? "");
    if (path === undefined || !path.startsWith("/")) continue;
    // A blueprint declared elsewhere: its prefix is unknown, the bare path
    // is only partly known.
    let prefix: string | undefined = "";
    if (call.callee === "CROW_BP_ROUTE") {
      prefix = prefixes.get(call.args[0]?.trim() ?? "");
    }
    const confidence = prefix === undefined
      ? CONFIDENCE.partial
      : CONFIDENCE.literal;
    for (const method of methodsAfter(code, call.end)) {
      f.route(call.start, method, (prefix ?? "") + path, "crow", confidence);
    }
  }
}
