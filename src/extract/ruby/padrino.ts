// Padrino applications: routes of `class App < Padrino::Application` and of
// its controllers (`App.controllers :posts do`), under the path each app is
// mounted at in `config/apps.rb` (`Padrino.mount("admin").to("/admin")`).
import type { Node } from "web-tree-sitter";
import { HTTP_VERBS } from "../_port/http.ts";
import { namedChildren, walk } from "../_syntax/tree.ts";
import { literal, type Value } from "../_value/mod.ts";
import { type RubyScan, servingFiles, withRubyTrees } from "./route_files.ts";
import {
  blockBody,
  camelize,
  lastConstant,
  option,
  positional,
  RubyFile,
  symbolName,
} from "./project.ts";
import { optionNames } from "./options.ts";

/** `class Admin < Padrino::Application`. */
const APP_CLASS =
  /^[ \t]*class[ \t]+(?:\w+::)*(\w+)[ \t]*<[ \t]*(?:::)?Padrino::Application\b/gm;

/** `Padrino.mount("admin", app_class: "Admin::App").to("/admin")`. */
const MOUNT =
  /Padrino\.mount\(\s*["']([\w:]+)["']((?:\s*,\s*\w+:\s*["'][^"'\n]*["'])*)\s*\)\.to\(\s*["']([^"'\n]*)["']\s*\)/g;

/** The class an app mount names: `app_class:` or the app's name camelized. */
function mountedClass(name: string, options: string): string {
  const explicit = /app_class:\s*["']([\w:]+)["']/.exec(options)?.[1];
  const full = explicit ?? camelize(name);
  return lastConstant(full);
}

/** Mount paths of the apps of a scan, by class name. */
export function padrinoMounts(texts: readonly string[]): Map<string, string[]> {
  const mounts = new Map<string, string[]>();
  for (const text of texts) {
    if (!text.includes("Padrino.mount")) continue;
    for (const m of text.matchAll(MOUNT)) {
      const name = mountedClass(m[1]!, m[2] ?? "");
      mounts.set(name, [...(mounts.get(name) ?? []), m[3]!]);
    }
  }
  return mounts;
}

/** `controllers :posts, parent: :post` (or `map: "/x"`): its path parts. */
function controllerPrefix(c: RubyFile, call: Node): Value[] {
  const map = option(call, "map");
  if (map) return [c.evaluate(map)];
  const parents = optionNames(call, "parent").flatMap((p) => [
    literal(p),
    literal(`:${p}_id`),
  ]);
  return [...parents, ...positional(call).map((n) => c.evaluate(n))];
}

/**
 * A route's path in an app or controller: `map:` as given, a string under
 * the controller, `:index` the controller itself, another name a segment,
 * and `with:` parameters after.
 */
function routePath(c: RubyFile, call: Node, controller: Value[]): Value[] {
  const map = option(call, "map");
  if (map) return [c.evaluate(map)];
  const first = positional(call)[0];
  const name = first ? symbolName(first) : undefined;
  const path = !first
    ? []
    : name === undefined
    ? [c.evaluate(first)]
    : name === "index"
    ? []
    : [literal(name)];
  const params = optionNames(call, "with").map((p) => literal(`:${p}`));
  return [...controller, ...path, ...params];
}

/** Reads the routes of a body of an app or a controller. */
function readBody(
  c: RubyFile,
  body: readonly Node[],
  controller: Value[],
  mounts: readonly string[],
): void {
  for (const stmt of body) {
    if (stmt.type !== "call" || stmt.childForFieldName("receiver")) continue;
    const method = stmt.childForFieldName("method")?.text ?? "";
    if (
      (method === "controllers" || method === "controller") &&
      controller.length === 0
    ) {
      readBody(c, blockBody(stmt), controllerPrefix(c, stmt), mounts);
    } else if (HTTP_VERBS.has(method) && stmt.childForFieldName("block")) {
      const path = routePath(c, stmt, controller);
      for (const at of mounts) {
        const prefix = at === "/" || at === "" ? [] : [literal(at)];
        c.emitServer(
          stmt,
          [method.toUpperCase()],
          [...prefix, ...path],
          "padrino",
          prefix.length > 0 || controller.length > 0,
        );
      }
    }
  }
}

/**
 * Padrino routes of a scan: each application class's routes and
 * controllers, and `App.controllers` blocks in other files, under every
 * path `config/apps.rb` mounts the app at (the root when none does).
 */
export async function extractPadrino(scan: RubyScan): Promise<void> {
  const { files, constants, ports, diagnostics } = scan;
  const sources = servingFiles(files);
  const apps = new Set<string>();
  for (const f of sources) {
    if (!f.text.includes("Padrino::Application")) continue;
    for (const m of f.text.matchAll(APP_CLASS)) apps.add(m[1]!);
  }
  if (apps.size === 0) return;
  const mounts = padrinoMounts(sources.map((f) => f.text));
  const mountsOf = (app: string) => mounts.get(app) ?? ["/"];
  const appFiles = sources.filter((f) =>
    f.text.includes("Padrino::Application") || /\.controllers?\b/.test(f.text)
  );
  await withRubyTrees(appFiles, diagnostics, (file, root) => {
    const c = new RubyFile(file, constants, ports);
    walk(root, (n) => {
      if (n.type === "class") {
        const name = n.childForFieldName("name")?.text ?? "";
        const app = lastConstant(name);
        const body = n.childForFieldName("body");
        if (
          !apps.has(app) ||
          !n.childForFieldName("superclass")?.text.includes("Padrino") ||
          !body
        ) return;
        readBody(c, namedChildren(body), [], mountsOf(app));
        return false;
      }
      if (n.type !== "call") return;
      const method = n.childForFieldName("method")?.text;
      const receiver = n.childForFieldName("receiver")?.text ?? "";
      const app = lastConstant(receiver);
      if (
        (method === "controllers" || method === "controller") &&
        apps.has(app)
      ) {
        readBody(c, blockBody(n), controllerPrefix(c, n), mountsOf(app));
        return false;
      }
    });
  });
}
