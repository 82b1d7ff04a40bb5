// Mautic routes: a bundle's or plugin's `Config/config.php` `'routes' =>
// ['main' => [...], 'public' => [...], 'api' => [...]]`, each named route a
// `path` and `method`; Mautic serves `main` (its admin UI) under `/s` and
// `api` under `/api`.
import type { Node } from "web-tree-sitter";
import { HTTP_METHODS, routePorts } from "../_port/http.ts";
import { ownerOf } from "../_syntax/owner.ts";
import { namedChildren } from "../_syntax/tree.ts";
import { literal } from "../_value/mod.ts";
import { arrayEntries, type PhpFile, textValue } from "./project.ts";

/** The path each route group is mounted under. */
const GROUPS: Readonly<Record<string, string>> = {
  main: "/s",
  public: "",
  api: "/api",
  catchall: "",
};

/** Whether a file is a Mautic bundle or plugin config. */
export function isMauticConfig(c: PhpFile): boolean {
  return /(^|\/)Config\/config\.php$/.test(c.file.path) &&
    /(^|\/)(bundles|plugins)\//.test(c.file.path);
}

/** The routes of a `'routes' => [...]` config entry. */
export function mauticRoutes(c: PhpFile, entry: Node): void {
  const [key, value] = namedChildren(entry);
  if (!key || !value || textValue(c, key) !== "routes") return;
  // a key of the config itself (`return [...]`), not of a nested array
  const holder = entry.parent?.parent?.type;
  if (holder !== "return_statement" && holder !== "assignment_expression") {
    return;
  }
  for (const group of arrayEntries(value)) {
    const name = textValue(c, group.key);
    if (name === undefined || !Object.hasOwn(GROUPS, name)) continue;
    for (const route of arrayEntries(group.value)) {
      const fields = new Map(
        arrayEntries(route.value).map((e) => [textValue(c, e.key), e.value]),
      );
      const path = textValue(c, fields.get("path"));
      if (path === undefined) continue;
      const listed = (textValue(c, fields.get("method")) ?? "").split("|")
        .map((m) => m.trim().toUpperCase()).filter((m) => HTTP_METHODS.has(m));
      c.ports.push(...routePorts({
        methods: listed.length ? listed : ["ANY"],
        path: literal(`${GROUPS[name]}${path}`),
        prefixed: GROUPS[name] !== "",
        node: route.value,
        owner: ownerOf(route.value, c.file.path, "php"),
        filePath: c.file.path,
        framework: "mautic",
      }));
    }
  }
}
