// Next.js routes by convention: `pages/api/**` default exports and
// `app/**/route.ts` method exports.
import { namedChildren, type Node } from "../_syntax/tree.ts";
import { literal } from "../_value/mod.ts";
import type { Collector } from "./collect.ts";
import { HTTP_METHODS } from "./nodes.ts";

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
  for (const node of c.nodes("export_statement")) {
    if (node.parent?.type !== "program") continue;
    const declaration = node.childForFieldName("declaration");
    const isDefault = node.children.some((c) => c?.type === "default");
    if (pages) {
      if (!isDefault) continue;
      const owner = declaration ?? node.childForFieldName("value") ?? node;
      c.facts.routes.push({
        ...c.site(node, owner),
        methods: ["ANY"],
        path: literal(route),
        framework: "nextjs",
        composed: true,
        extra: {},
      });
      continue;
    }
    const names: Array<[string, Node]> = [];
    if (declaration?.type === "function_declaration") {
      const name = declaration.childForFieldName("name")?.text;
      if (name) names.push([name, declaration]);
    } else if (declaration?.type === "lexical_declaration") {
      for (const d of namedChildren(declaration)) {
        const name = d.childForFieldName("name")?.text;
        if (name) names.push([name, d.childForFieldName("value") ?? d]);
      }
    } else if (!declaration) {
      for (const clause of namedChildren(node)) {
        if (clause.type !== "export_clause") continue;
        for (const spec of namedChildren(clause)) {
          const alias = spec.childForFieldName("alias")?.text ??
            spec.childForFieldName("name")?.text;
          if (alias) names.push([alias, spec]);
        }
      }
    }
    for (const [name, owner] of names) {
      if (!HTTP_METHODS.has(name) || name !== name.toUpperCase()) continue;
      c.facts.routes.push({
        ...c.site(node, owner),
        methods: [name],
        path: literal(route),
        framework: "nextjs",
        composed: true,
        extra: {},
      });
    }
  }
}
