// Drogon: `app().registerHandler("/x/{id}", handler, {Get, Post})` (and
// `registerHandlerViaRegex`), and controllers: `PATH_ADD("/x", Get)` of an
// `HttpSimpleController`, `METHOD_ADD(Ctrl::m, "/x", Get)` under the
// controller's path (`/<namespaces>/<Class>`), `ADD_METHOD_TO` and
// `ADD_METHOD_VIA_REGEX` (absolute). Without a method constraint a route
// answers every method (`ANY`); quoted arguments are filter names.
import { type CppFile, methodNamed } from "./project.ts";
import { findCalls, splitArgs, stringValue } from "./text.ts";

/** The methods of constraint arguments (`Get`, `drogon::Post`, `{Put}`). */
function methodsOf(args: readonly string[]): string[] {
  const out: string[] = [];
  for (const arg of args) {
    const parts = arg.startsWith("{") ? splitArgs(arg, 0)?.args ?? [] : [arg];
    for (const part of parts) {
      const m =
        /^(?:drogon::)?(?:HttpMethod::)?(Get|Post|Put|Patch|Delete|Head|Options)$/
          .exec(part.trim());
      const verb = m ? methodNamed(m[1]!) : undefined;
      if (verb && !out.includes(verb)) out.push(verb);
    }
  }
  return out.length > 0 ? out : ["ANY"];
}

/** `/app/v2/ApiCtrl`: the path of a controller class at an offset. */
function controllerPath(f: CppFile, offset: number): string | undefined {
  const around = f.scopesAt(offset);
  const cls = around.filter((s) => s.kind === "class").at(-1);
  if (!cls || !/HttpController\s*</.test(cls.head)) return undefined;
  const names = around.filter((s) => s.kind === "namespace" || s === cls)
    .flatMap((s) => s.name.split("::"));
  return "/" + names.join("/");
}

/** The Drogon routes of a file. */
export function drogonRoutes(f: CppFile): void {
  const code = f.code;
  if (!/registerHandler|PATH_ADD|METHOD_ADD|ADD_METHOD_/.test(code)) return;
  for (
    const call of findCalls(
      f.text,
      /(?:app|HttpAppFramework::instance)\s*\(\s*\)\s*(?:\.|->)\s*registerHandler(?:ViaRegex)?/,
    )
  ) {
    const path = stringValue(call.args[0] ?? "");
    if (path === undefined || !path.startsWith("/")) continue;
    for (const method of methodsOf(call.args.slice(2))) {
      f.route(call.start, method, path, "drogon");
    }
  }
  for (
    const call of findCalls(
      f.text,
      /PATH_ADD|METHOD_ADD|ADD_METHOD_TO|ADD_METHOD_VIA_REGEX/,
    )
  ) {
    const simple = call.callee === "PATH_ADD";
    const path = stringValue(call.args[simple ? 0 : 1] ?? "");
    if (path === undefined) continue;
    let full = path;
    if (call.callee === "METHOD_ADD") {
      const base = controllerPath(f, call.start);
      if (base === undefined) continue;
      full = base + (path === "" || path.startsWith("/") ? path : "/" + path);
    } else if (!path.startsWith("/")) continue;
    for (const method of methodsOf(call.args.slice(simple ? 1 : 2))) {
      f.route(call.start, method, full, "drogon");
    }
  }
}
