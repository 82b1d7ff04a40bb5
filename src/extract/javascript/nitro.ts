// Nitro (and Nuxt's server, which is Nitro) routes by file: in an app with
// a `nitro.config.ts`, `routes/**` and `api/**` (under `/api`); in one with
// a `nuxt.config.ts`, `server/routes/**` and `server/api/**`. A module's
// default export is the handler; `users.post.ts` answers POST only, a
// name without a method every method; `index` is its folder, `[id]` and
// `[...slug]` are parameters.
import type { Collector } from "./collect.ts";
import { HTTP_METHODS } from "./nodes.ts";
import {
  configFile,
  fileRoute,
  gatedRoutes,
  moduleExportsOf,
} from "./route_modules.ts";

const CONFIG = /^((?:.*\/)?)(nitro|nuxt)\.config\.[cm]?[jt]s$/;
const NITRO_ROUTE = /^((?:.*\/)?)(routes|api)\/(.+)\.[cm]?[jt]s$/;
const NUXT_ROUTE = /^((?:.*\/)?)server\/(routes|api)\/(.+)\.[cm]?[jt]s$/;

/** The method and URL of a route file (relative to its folder, no extension). */
export function nitroRoute(
  name: string,
): { method: string; path: string } | undefined {
  let stem = name;
  let method = "ANY";
  const verb = /\.([a-z]+)$/.exec(stem);
  if (verb && HTTP_METHODS.has(verb[1]!.toUpperCase())) {
    method = verb[1]!.toUpperCase();
    stem = stem.slice(0, verb.index);
  }
  const out: string[] = [];
  for (const segment of stem.split("/")) {
    if (segment === "" || /^\(.*\)$/.test(segment)) continue;
    if (segment.replace(/\[[^\]]*\]/g, "").includes(".")) {
      return undefined; // `users.test.ts` and the like are no route modules
    }
    out.push(segment.replace(/\[[^\]]*\]/g, "{}"));
  }
  if (out[out.length - 1] === "index") out.pop();
  return { method, path: "/" + out.join("/") };
}

/** Reads a Nitro or Nuxt server route, or an app's config file. */
export function nitroRoutes(c: Collector): void {
  if (configFile(c, CONFIG)) return;
  const path = c.facts.path;
  const nuxt = NUXT_ROUTE.exec(path);
  const nitro = nuxt ? undefined : NITRO_ROUTE.exec(path);
  const match = nuxt ?? nitro;
  if (!match) return;
  const route = nitroRoute(match[3]!);
  const handler = moduleExportsOf(c).find((e) => e.name === "default");
  if (!route || !handler) return;
  const url = match[2] === "api"
    ? `/api${route.path === "/" ? "" : route.path}`
    : route.path;
  const framework = nuxt ? "nuxt" : "nitro";
  const site = c.site(handler.node, handler.owner);
  gatedRoutes(c, framework, match[1]!, [
    fileRoute(site, [route.method], url, framework),
  ]);
}
