// Next.js routes by convention: `pages/api/**` default exports and
// `app/**/route.ts` method exports.
import { literal } from "../_value/mod.ts";
import type { Collector } from "./collect.ts";
import { HTTP_METHODS } from "./nodes.ts";
import { moduleExportsOf } from "./route_modules.ts";

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
  for (const { name, node, owner } of moduleExportsOf(c)) {
    if (pages ? name !== "default" : !isMethodName(name)) continue;
    c.facts.routes.push({
      ...c.site(node, owner),
      methods: [pages ? "ANY" : name],
      path: literal(route),
      framework: "nextjs",
      composed: true,
      extra: {},
    });
  }
}

/** An exported name that is an HTTP method (`GET`, `POST`...). */
export function isMethodName(name: string): boolean {
  return HTTP_METHODS.has(name) && name === name.toUpperCase();
}
