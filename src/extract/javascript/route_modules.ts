// File-system routing (Next.js, Remix, SvelteKit): the names a route module
// exports at its top level, and the routes that count only in an app of
// their framework (a file under `app/routes/` is a Remix route only in an
// app that uses Remix).
import { namedChildren, type Node } from "../_syntax/tree.ts";
import type { Collector } from "./collect.ts";
import { literal } from "../_value/mod.ts";
import type { JsFacts, RouteRec, Site } from "./facts.ts";

/** A top-level export: its name (`default` for the default), node, owner. */
export interface ModuleExport {
  name: string;
  /** The `export` statement. */
  node: Node;
  /** The declaration or value that the port's owner is read from. */
  owner: Node;
}

/** The names a module exports at its top level. */
export function moduleExportsOf(c: Collector): ModuleExport[] {
  const out: ModuleExport[] = [];
  for (const node of c.nodes("export_statement")) {
    if (node.parent?.type !== "program") continue;
    const declaration = node.childForFieldName("declaration");
    if (node.children.some((child) => child?.type === "default")) {
      const owner = declaration ?? node.childForFieldName("value") ?? node;
      out.push({ name: "default", node, owner });
      continue;
    }
    if (
      declaration?.type === "function_declaration" ||
      declaration?.type === "generator_function_declaration" ||
      declaration?.type === "class_declaration"
    ) {
      const name = declaration.childForFieldName("name")?.text;
      if (name) out.push({ name, node, owner: declaration });
    } else if (declaration?.type === "lexical_declaration") {
      for (const d of namedChildren(declaration)) {
        const pattern = d.childForFieldName("name");
        const owner = d.childForFieldName("value") ?? d;
        if (pattern?.type === "object_pattern") {
          // export const { GET, POST } = handlers(...)
          for (const part of namedChildren(pattern)) {
            const name = part.type === "shorthand_property_identifier_pattern"
              ? part.text
              : part.type === "pair_pattern"
              ? part.childForFieldName("value")?.text
              : undefined;
            if (name) out.push({ name, node, owner });
          }
        } else if (pattern) out.push({ name: pattern.text, node, owner });
      }
    } else if (!declaration) {
      for (const clause of namedChildren(node)) {
        if (clause.type !== "export_clause") continue;
        for (const spec of namedChildren(clause)) {
          const name = spec.childForFieldName("alias")?.text ??
            spec.childForFieldName("name")?.text;
          if (name) out.push({ name, node, owner: spec });
        }
      }
    }
  }
  return out;
}

/** Keeps `routes` of a file until its app is known to use `framework`. */
export function gatedRoutes(
  c: Collector,
  framework: string,
  app: string,
  routes: RouteRec[],
): void {
  if (routes.length === 0) return;
  (c.facts.gated ??= []).push({ framework, app, routes });
}

/** Records that the app at `app` uses `framework` (an import, a config). */
export function markApp(c: Collector, framework: string, app: string): void {
  (c.facts.apps ??= []).push(`${framework}:${app}`);
}

/**
 * Whether the file is an app's config file (`svelte.config.js`; the first
 * group of `config` is the app's folder): marks the app as using
 * `framework`, or the one the second group names (`nuxt.config.ts`).
 */
export function configFile(
  c: Collector,
  config: RegExp,
  framework?: string,
): boolean {
  const match = config.exec(c.facts.path);
  if (!match) return false;
  markApp(c, framework ?? match[2]!, match[1]!);
  return true;
}

/**
 * A route of file-system routing at `site`: `methods` at the URL its file's
 * place gives (`composed`: the URL is not written as one string).
 */
export function fileRoute(
  site: Site,
  methods: string[],
  url: string,
  framework: string,
): RouteRec {
  return {
    ...site,
    methods,
    path: literal(url),
    framework,
    composed: true,
    extra: {},
  };
}

/** The file and route of each gated route whose app uses its framework. */
export function appRoutes(
  files: Iterable<JsFacts>,
): Array<[JsFacts, RouteRec]> {
  const list = [...files];
  const apps = new Set<string>();
  for (const file of list) for (const app of file.apps ?? []) apps.add(app);
  const out: Array<[JsFacts, RouteRec]> = [];
  for (const file of list) {
    for (const gated of file.gated ?? []) {
      if (!apps.has(`${gated.framework}:${gated.app}`)) continue;
      for (const route of gated.routes) out.push([file, route]);
    }
  }
  return out;
}
