// Laminas MVC (Zend Framework) routes: the `'router' => ['routes' =>
// [...]]` tree of a module or autoload config. Literal and Segment routes
// (`/users[/:id]`: with and without the optional part), Regex routes by
// their `spec`, `child_routes` under their parent's path, `Method` routes
// narrowing their children's methods, `Hostname` routes adding no path,
// `Part` routes; a route with children serves itself only when
// `may_terminate` is true.
import type { Node } from "web-tree-sitter";
import { HTTP_METHODS, routePorts } from "../_port/http.ts";
import { ownerOf } from "../_syntax/owner.ts";
import { namedChildren } from "../_syntax/tree.ts";
import { literal } from "../_value/mod.ts";
import {
  arrayEntries,
  arrayValue,
  type PhpFile,
  textValue,
} from "./project.ts";

/** How deep `child_routes` nest before the rest is left unread. */
const MAX_DEPTH = 8;
/** Optional `[...]` parts of one Segment route expanded, at most. */
const MAX_OPTIONAL = 4;

/** Whether a file may configure Laminas' router. */
export function isLaminasConfig(c: PhpFile): boolean {
  return /\b(Laminas|Zend)\\(Router|Mvc)\b/.test(c.file.text) ||
    /(^|\/)(module\.config|[\w.-]*routes?[\w.-]*)\.php$/.test(c.file.path);
}

/**
 * The paths a Segment route matches: `:name` (with a `{delimiters}`
 * suffix) as a parameter, each optional `[...]` part left out or kept.
 */
function segmentPaths(route: string): string[] {
  let paths = [route.replace(/:(\w+)(\{[^}]*\})?/g, "{$1}")];
  for (let i = 0; i < MAX_OPTIONAL; i++) {
    const next: string[] = [];
    let changed = false;
    for (const p of paths) {
      // the innermost optional part
      const m = /\[([^[\]]*)\]/.exec(p);
      if (!m) {
        next.push(p);
        continue;
      }
      changed = true;
      const before = p.slice(0, m.index);
      const after = p.slice(m.index + m[0].length);
      next.push(before + after, before + m[1] + after);
    }
    paths = [...new Set(next)];
    if (!changed) break;
  }
  return paths.filter((p) => !/[[\]]/.test(p));
}

/** The `'router' => ['routes' => [...]]` entry of a config array. */
export function laminasRouter(c: PhpFile, entry: Node): void {
  const [key, value] = namedChildren(entry);
  if (!key || !value || textValue(c, key) !== "router") return;
  routes(c, arrayValue(c, value, "routes"), [""], ["ANY"], 0);
}

function routes(
  c: PhpFile,
  list: Node | undefined,
  prefixes: readonly string[],
  methods: readonly string[],
  depth: number,
): void {
  if (depth > MAX_DEPTH) return;
  for (const { value: route } of arrayEntries(list)) {
    if (route.type !== "array_creation_expression") continue;
    // a Part route's own route is its `route` array
    const inner = arrayValue(c, route, "route");
    const own = inner?.type === "array_creation_expression" ? inner : route;
    const type = (arrayValue(c, own, "type")?.text ?? "").replace(
      /^['"]|['"]$/g,
      "",
    );
    const options = arrayValue(c, own, "options");
    let paths: string[] = [""];
    let verbs = methods;
    if (/\bMethod\b/.test(type)) {
      const listed = (textValue(c, arrayValue(c, options, "verb")) ?? "").split(
        ",",
      )
        .map((v) => v.trim().toUpperCase()).filter((v) => HTTP_METHODS.has(v));
      if (listed.length) verbs = listed;
    } else if (/\bRegex\b/.test(type)) {
      const spec = textValue(c, arrayValue(c, options, "spec"));
      if (spec === undefined) continue;
      paths = [spec.replace(/%(\w+)%/g, "{$1}")];
    } else if (!/\bHostname\b|\bScheme\b/.test(type)) {
      const path = textValue(c, arrayValue(c, options, "route"));
      if (path === undefined) continue;
      paths = /\bLiteral\b/.test(type) ? [path] : segmentPaths(path);
    }
    const full = prefixes.flatMap((p) => paths.map((q) => p + q));
    const children = arrayValue(c, route, "child_routes");
    const terminates =
      arrayValue(c, route, "may_terminate")?.text.toLowerCase() ===
        "true";
    if (!children || terminates) {
      for (const path of full) emit(c, own, verbs, path);
    }
    if (children) routes(c, children, full, verbs, depth + 1);
  }
}

function emit(
  c: PhpFile,
  node: Node,
  methods: readonly string[],
  path: string,
): void {
  if (path === "") return;
  c.ports.push(...routePorts({
    methods,
    path: literal(path),
    prefixed: false,
    node,
    owner: ownerOf(node, c.file.path, "php"),
    filePath: c.file.path,
    framework: "laminas",
  }));
}
