// Next.js routes by convention: `pages/api/**` default exports and
// `app/**/route.ts` method exports.
import type { Collector } from "./collect.ts";
import { HTTP_METHODS, isRelative } from "./nodes.ts";
import { stringValue } from "../_syntax/tree.ts";
import { handledMethods, handlerFunction } from "./method_switch.ts";
import type { JsFacts, RouteRec } from "./facts.ts";
import type { JsProject } from "./project.ts";
import { fileRoute, moduleExportsOf } from "./route_modules.ts";

export function nextRoutes(c: Collector): void {
  const path = c.facts.path;
  const pages = /(?:^|\/)pages\/(api\/.*?)\.(?:[cm]?[jt]sx?)$/.exec(path);
  const app = /(?:^|\/)app\/((?:.*\/)?)route\.(?:[cm]?[jt]sx?)$/.exec(path);
  if (!pages && !app) return;
  const segments = (pages ? pages[1]! : app![1]!.replace(/\/$/, "")).split(
    "/",
  )
    .filter((s) => s !== "");
  const out: string[] = [];
  for (const segment of segments) {
    if (segment.startsWith("_") || segment.startsWith("@")) return;
    if (/^\(.*\)$/.test(segment)) continue; // route group
    if (/^\[.*\]$/.test(segment)) {
      // [[...slug]] is optional: the route also answers without it
      out.push("{}");
    } else out.push(segment);
  }
  if (pages && out[out.length - 1] === "index") out.pop();
  const route = "/" + out.join("/");
  if (app) {
    // a star re-export of another route module: its methods, served here
    for (const node of c.nodes("export_statement")) {
      const source = node.childForFieldName("source");
      const star = node.children.some((n) => n?.type === "*");
      const text = source ? stringValue(source) : undefined;
      if (!star || text === undefined || !isRelative(text)) continue;
      (c.facts.nextReexports ??= []).push({
        ...c.site(node),
        source: text,
        path: route,
      });
    }
  }
  for (const { name, node, owner } of moduleExportsOf(c)) {
    if (pages ? name !== "default" : !isMethodName(name)) continue;
    // a tRPC handler's routes are its procedures (trpc.ts)
    if (pages && /createNextApiHandler\s*\(/.test(owner.text.slice(0, 200))) {
      continue;
    }
    // a pages/api handler answers any method, or those it tests for
    const fn = pages ? handlerFunction(c, owner) : undefined;
    const methods = pages ? (fn && handledMethods(fn)) ?? ["ANY"] : [name];
    c.facts.routes.push(
      fileRoute(c.site(node, owner), methods, route, "nextjs"),
    );
  }
}

/** An exported name that is an HTTP method (`GET`, `POST`...). */
export function isMethodName(name: string): boolean {
  return HTTP_METHODS.has(name) && name === name.toUpperCase();
}

/** The routes of `export * from "./x/route"` in app route files. */
export function nextReexported(
  project: JsProject,
): Array<[JsFacts, RouteRec]> {
  const out: Array<[JsFacts, RouteRec]> = [];
  for (const file of project.files) {
    for (const { source, path, ...site } of file.nextReexports ?? []) {
      const target = project.module(file.path, source);
      if (!target) continue;
      for (const name of target.exports.keys()) {
        if (!isMethodName(name)) continue;
        out.push([file, fileRoute(site, [name], path, "nextjs")]);
      }
    }
  }
  return out;
}
