// Fresh and Astro file routes. Fresh (`routes/**` of an app of which a file
// imports `$fresh/...`, `fresh` or `@fresh/core`): `export const handler =
// { GET() {}, POST() {} }` answers those methods, a handler function any
// method, and a page's default export GET; `_app`, `_layout`, `_middleware`
// and other `_` files are no routes. Astro endpoints (`src/pages/**.ts` of
// an app with an `astro.config.*`): exported `GET`/`POST`/..., `ALL` → any.
// `index` is its folder, `[id]` and `[...rest]` are parameters, `(group)`
// folders add nothing.
import { namedChildren } from "../_syntax/tree.ts";
import type { Collector } from "./collect.ts";
import type { RouteRec, Site } from "./facts.ts";
import { isMethodName } from "./nextjs.ts";
import { FUNCTION_TYPES } from "./nodes.ts";
import {
  configFile,
  fileRoute,
  gatedRoutes,
  markApp,
  moduleExportsOf,
} from "./route_modules.ts";
import { unwrap } from "./values.ts";

const FRESH_ROUTE = /^((?:.*\/)?)routes\/(.+)\.[cm]?[jt]sx?$/;
const ASTRO_CONFIG = /^((?:.*\/)?)astro\.config\.[cm]?[jt]s$/;
const ASTRO_ROUTE = /^((?:.*\/)?)src\/pages\/(.+)\.[cm]?[jt]s$/;
const FRESH_MODULE = /^(\$fresh\/|fresh($|\/)|(jsr:)?@fresh\/core)/;

/** The URL of a route file (relative to its folder, no extension). */
export function fileRoutePath(name: string): string | undefined {
  const out: string[] = [];
  for (const segment of name.split("/")) {
    if (segment.startsWith("_")) return undefined;
    if (segment === "" || /^\(.*\)$/.test(segment)) continue;
    out.push(segment.replace(/\[[^\]]*\]/g, "{}"));
  }
  if (out[out.length - 1] === "index") out.pop();
  return "/" + out.join("/");
}

/** Reads a Fresh route or an Astro endpoint, and the files marking their apps. */
export function freshRoutes(c: Collector): void {
  if (configFile(c, ASTRO_CONFIG, "astro")) return;
  const path = c.facts.path;
  const fresh = FRESH_ROUTE.exec(path);
  if (fresh) {
    for (const binding of c.facts.imports.values()) {
      if (FRESH_MODULE.test(binding.source)) markApp(c, "fresh", fresh[1]!);
    }
  }
  const astro = ASTRO_ROUTE.exec(path);
  const match = fresh ?? astro;
  const url = match ? fileRoutePath(match[2]!) : undefined;
  if (!match || url === undefined) return;
  const framework = fresh ? "fresh" : "astro";
  const routes: RouteRec[] = [];
  const push = (method: string, site: Site) =>
    routes.push(fileRoute(site, [method], url, framework));
  for (const { name, node, owner } of moduleExportsOf(c)) {
    if (astro) {
      if (isMethodName(name)) push(name, c.site(node, owner));
      else if (name === "ALL") push("ANY", c.site(node, owner));
      continue;
    }
    if (name === "default") push("GET", c.site(node, owner));
    if (name !== "handler") continue;
    const value = unwrap(owner);
    if (FUNCTION_TYPES.has(value.type)) push("ANY", c.site(node, owner));
    if (value.type !== "object") continue;
    for (const member of namedChildren(value)) {
      const key = member.type === "method_definition" || member.type === "pair"
        ? member.childForFieldName(member.type === "pair" ? "key" : "name")
          ?.text
        : undefined;
      if (key && isMethodName(key)) push(key, c.site(member));
    }
  }
  gatedRoutes(c, framework, match[1]!, routes);
}
