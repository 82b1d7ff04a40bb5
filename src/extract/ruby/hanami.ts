// Hanami routes: the `class Routes < Hanami::Routes` body of Hanami 2 and
// the `apps/<app>/config/routes.rb` files of Hanami 1, read with the route
// DSL Hanami shares with Rails.
import type { Node } from "web-tree-sitter";
import { namedChildren, walk } from "../_syntax/tree.ts";
import { literal } from "../_value/mod.ts";
import { type RubyScan, withRubyTrees } from "./route_files.ts";
import { blockBody, isTestPath, RubyFile } from "./project.ts";
import { railsBody } from "./rails.ts";

/** A Hanami 1 application's route file: `apps/<app>/config/routes.rb`. */
const APP_ROUTES = /(?:^|\/)apps\/([a-z0-9_]+)\/config\/routes\.rb$/;

/** A Hanami 2 route class or a Hanami 1 mount. */
const HANAMI = /Hanami::Routes|Hanami\.app(?:lication)?\.routes/;

/** `mount Api::Application, at: "/api"` in a Hanami 1 `config/environment.rb`. */
const APP_MOUNT =
  /\bmount\s+([A-Z]\w*)::Application\s*,\s*at:\s*["']([^"'\n]*)["']/g;

/** `AdminPanel` → `admin_panel`. */
export function snakeCase(name: string): string {
  return name.replace(/(?<=[a-z0-9])([A-Z])/g, "_$1").toLowerCase();
}

/** The statements of a Hanami 2 `Routes` class or `routes do` block. */
function routeBodies(root: Node): Node[][] {
  const bodies: Node[][] = [];
  walk(root, (n) => {
    if (n.type === "class") {
      const superclass = n.childForFieldName("superclass");
      if (!superclass?.text.includes("Hanami::Routes")) return;
      const body = n.childForFieldName("body");
      const statements = body ? namedChildren(body) : [];
      // Hanami 2.0 betas wrapped the routes in `define do ... end`
      const define = statements.find((s) =>
        s.type === "call" && s.childForFieldName("method")?.text === "define"
      );
      bodies.push(define ? blockBody(define) : statements);
      return false;
    }
    if (
      n.type === "call" && n.childForFieldName("method")?.text === "routes" &&
      /^Hanami\.app(lication)?$/.test(
        n.childForFieldName("receiver")?.text ?? "",
      )
    ) {
      bodies.push(blockBody(n));
      return false;
    }
  });
  return bodies;
}

/**
 * Hanami routes of a scan: verbs, `root`, `scope`, `slice :name, at:`,
 * `resources`/`resource` (Hanami's actions: `update` is PATCH only),
 * `namespace` (Hanami 1) and `mount` (`ANY <path>` and `ANY <path>/*`), in
 * `Hanami::Routes` classes and in Hanami 1 application route files, under
 * the `mount Api::Application, at: "/api"` of the environment when it is in
 * the scan.
 */
export async function extractHanami(scan: RubyScan): Promise<void> {
  const { files, constants, ports, diagnostics } = scan;
  const routeFiles = files.filter((f) =>
    (HANAMI.test(f.text) || APP_ROUTES.test(f.path)) && !isTestPath(f.path)
  );
  if (routeFiles.length === 0) return;
  const mounts = new Map<string, string[]>();
  for (const file of files) {
    if (!file.path.endsWith(".rb") || !file.text.includes("::Application")) {
      continue;
    }
    for (const m of file.text.matchAll(APP_MOUNT)) {
      const app = snakeCase(m[1]!);
      mounts.set(app, [...(mounts.get(app) ?? []), m[2]!]);
    }
  }
  await withRubyTrees(routeFiles, diagnostics, (file, root) => {
    const ruby = new RubyFile(file, constants, ports);
    const app = APP_ROUTES.exec(file.path)?.[1];
    if (app !== undefined && !HANAMI.test(file.text)) {
      for (const at of mounts.get(app) ?? ["/"]) {
        railsBody(ruby, namedChildren(root), {
          framework: "hanami",
          prefix: at === "/" ? [] : [literal(at)],
        });
      }
      return;
    }
    for (const body of routeBodies(root)) {
      railsBody(ruby, body, { framework: "hanami", prefix: [] });
    }
  });
}
