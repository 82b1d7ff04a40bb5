// Remix routes by file name (flat routes of Remix 2): a module of
// `app/routes/` answers GET with its `loader` or default export (a page)
// and the other methods with its `action`. Its file name is the URL:
// `users.$id.tsx` is `/users/{}`, `_index` is the index, `_auth.login` a
// pathless layout (`/login`), `$contactId_.edit` leaves the layout
// (`/{}/edit`), `[.]` escapes a dot and `$.tsx` is the splat. A folder route
// is `app/routes/<name>/route.tsx`. The routes count only in an app of
// which a file imports `@remix-run/...`.
import type { Collector } from "./collect.ts";
import type { RouteRec } from "./facts.ts";
import {
  fileRoute,
  gatedRoutes,
  markApp,
  moduleExportsOf,
} from "./route_modules.ts";

const ROUTE = /^((?:.*\/)?)app\/routes\/(.+)\.[cm]?[jt]sx?$/;
const APP_FILE = /^((?:.*\/)?)app\/.+$/;

/** Methods an `action` answers: every one but GET and HEAD. */
const ACTION_METHODS = ["POST", "PUT", "PATCH", "DELETE"];

/** The URL of a flat route file name (without extension), if it is one. */
export function remixPath(name: string): string | undefined {
  const folder = /^([^/]+)\/route$/.exec(name);
  const stem = folder ? folder[1]! : name;
  if (stem.includes("/")) return undefined; // a module inside a route folder
  // split on dots outside `[...]` escapes
  const segments: string[] = [];
  let current = "";
  let escaped = false;
  for (const ch of stem) {
    if (ch === "[") escaped = true;
    else if (ch === "]") escaped = false;
    if (ch === "." && !escaped) {
      segments.push(current);
      current = "";
    } else current += ch;
  }
  segments.push(current);
  const out: string[] = [];
  for (let segment of segments) {
    if (segment === "_index" || segment === "") continue;
    if (segment.startsWith("_")) continue; // pathless layout
    const optional = /^\((.*)\)$/.exec(segment);
    if (optional) segment = optional[1]!;
    if (segment.endsWith("_")) segment = segment.slice(0, -1);
    if (segment.startsWith("$")) {
      out.push("{}");
      continue;
    }
    out.push(segment.replace(/\[([^\]]*)\]/g, "$1"));
  }
  return "/" + out.join("/");
}

/** Reads a Remix route module, and whether the file shows an app uses Remix. */
export function remixRoutes(c: Collector): void {
  const path = c.facts.path;
  const inApp = APP_FILE.exec(path);
  if (!inApp) return;
  for (const binding of c.facts.imports.values()) {
    if (binding.source.startsWith("@remix-run/")) {
      markApp(c, "remix", inApp[1]!);
      break;
    }
  }
  const route = ROUTE.exec(path);
  if (!route) return;
  const url = remixPath(route[2]!);
  if (url === undefined) return;
  const exports = moduleExportsOf(c);
  const routes: RouteRec[] = [];
  const add = (methods: string[], name: string) => {
    const found = exports.find((e) => e.name === name);
    if (!found) return false;
    routes.push(
      fileRoute(c.site(found.node, found.owner), methods, url, "remix"),
    );
    return true;
  };
  if (!add(["GET"], "loader")) add(["GET"], "default");
  add(ACTION_METHODS, "action");
  gatedRoutes(c, "remix", route[1]!, routes);
}
