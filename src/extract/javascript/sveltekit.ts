// SvelteKit routes by folder (`src/routes/`): a `+server.ts` answers the
// methods it exports (`GET`, `POST`..., `fallback` → any), a
// `+page.svelte` is a page (GET) and the `actions` of a `+page.server.ts`
// answer POST at the page's URL. `[id]`, `[...rest]`, `[[optional]]` and
// `[id=matcher]` are parameters, `(group)` folders add nothing. The routes
// count only in an app with a `svelte.config.js` next to its `src/`.
import type { Collector } from "./collect.ts";
import type { RouteRec, Site } from "./facts.ts";
import { isMethodName } from "./nextjs.ts";
import {
  configFile,
  fileRoute,
  gatedRoutes,
  moduleExportsOf,
} from "./route_modules.ts";

const CONFIG = /^((?:.*\/)?)svelte\.config\.[cm]?[jt]s$/;
const ROUTE =
  /^((?:.*\/)?)src\/routes\/((?:.*\/)?)\+(server|page\.server|page)\.([cm]?[jt]s|svelte)$/;

/** The URL of a route folder (relative to `src/routes/`, no slashes around). */
export function sveltePath(folder: string): string {
  const out: string[] = [];
  for (const segment of folder.split("/")) {
    if (segment === "" || /^\(.*\)$/.test(segment)) continue;
    out.push(segment.replace(/\[\[?[^\]]*\]\]?/g, "{}"));
  }
  return "/" + out.join("/");
}

/** Reads a SvelteKit route file, or an app's `svelte.config.js`. */
export function svelteRoutes(c: Collector): void {
  if (configFile(c, CONFIG, "sveltekit")) return;
  const route = ROUTE.exec(c.facts.path);
  if (!route) return;
  const [, app, folder, kind, ext] = route;
  if ((kind === "page") !== (ext === "svelte")) return;
  const url = sveltePath(folder!);
  const routes: RouteRec[] = [];
  const push = (method: string, site: Site) =>
    routes.push(fileRoute(site, [method], url, "sveltekit"));
  if (kind === "page") {
    // the page is the whole file
    if (c.root) push("GET", { ...c.site(c.root), line: 1, col: 1 });
  } else {
    for (const { name, node, owner } of moduleExportsOf(c)) {
      const method = kind === "server"
        ? isMethodName(name) ? name : name === "fallback" ? "ANY" : undefined
        : name === "actions"
        ? "POST"
        : undefined;
      if (method) push(method, c.site(node, owner));
    }
  }
  gatedRoutes(c, "sveltekit", app!, routes);
}
