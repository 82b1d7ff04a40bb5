// Route tables keyed by path: `const routes = { "/posts": { GET: list } }`
// looked up with the request's pathname (`routes[url.pathname]`), a plain
// dispatch many small servers write instead of a router.
import { namedChildren, type Node, stringValue } from "../_syntax/tree.ts";
import { literal } from "../_value/mod.ts";
import type { Collector } from "./collect.ts";
import { routeGuard } from "./guarded.ts";
import { methodHandlers, methodRoutes } from "./url_patterns.ts";
import { namedValues } from "./nodes.ts";
import { unwrap } from "./values.ts";

/** Tables with more keys are not read (a data dump, not a router). */
const MAX_KEYS = 500;

function rootOf(node: Node): Node {
  let current = node;
  while (current.parent) current = current.parent;
  return current;
}

function escape(name: string): string {
  return name.replace(/[$]/g, "\\$");
}

/** The routes of every path-keyed table the file looks up by pathname. */
export function pathTables(c: Collector): void {
  for (const { name, value } of namedValues(c.nodes("variable_declarator"))) {
    const table = unwrap(value);
    if (table.type !== "object") continue;
    const pairs = namedChildren(table).filter((p) => p.type === "pair");
    if (pairs.length === 0 || pairs.length > MAX_KEYS) continue;
    const paths = pairs.map((p) => {
      const key = p.childForFieldName("key");
      return key && key.type === "string" ? stringValue(key) : undefined;
    });
    if (!paths.every((p) => p !== undefined && p.startsWith("/"))) continue;
    // looked up with a pathname: routes[url.pathname], routes[new URL(..).pathname]
    const lookup = new RegExp(
      `(?<![\\w$.])${escape(name.text)}\\s*\\[[^\\]\\n]*\\.pathname\\b`,
    );
    if (!lookup.test(rootOf(name).text)) continue;
    pairs.forEach((pair, i) => {
      const handler = pair.childForFieldName("value");
      if (!handler) return;
      const path = literal(paths[i]!);
      const methods = methodHandlers(handler);
      if (methods.length > 0) {
        methodRoutes(c, pair, path, "route-table", methods);
        return;
      }
      c.facts.routes.push({
        ...c.site(pair),
        methods: ["ANY"],
        path,
        framework: "route-table",
        extra: {},
        ...routeGuard([handler], c.guardScope),
      });
    });
  }
}
