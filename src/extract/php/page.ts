// Plain PHP pages: a script whose top-level code reads the request
// (`$_GET`, `$_POST`, `$_REQUEST`, `$_FILES`, `$_COOKIE`, `HTTP_*` headers
// of `$_SERVER`, `filter_input(INPUT_POST, ...)`) is served at its own path
// under the document root: GET, and POST when it reads a posted body.
import type { Node } from "web-tree-sitter";
import { routePorts } from "../_port/http.ts";
import { moduleOwner } from "../_syntax/owner.ts";
import { walk } from "../_syntax/tree.ts";
import { literal } from "../_value/mod.ts";
import type { PhpFile } from "./project.ts";

/** Directories web servers conventionally serve PHP scripts from. */
const DOCROOT = /(^|\/)(public|public_html|web|htdocs|www|webroot)\//;

/** Text every request read of {@linkcode reads} holds: files without it are no page. */
const REQUEST_READ =
  /\$_(GET|POST|REQUEST|FILES|COOKIE|SERVER)\b|\bfilter_input\b/;

/** Code whose body runs when called, not when the page loads. */
const DEFERRED = new Set([
  "function_definition",
  "class_declaration",
  "interface_declaration",
  "trait_declaration",
  "enum_declaration",
  // a closure runs when whatever it is handed to calls it (a route...)
  "anonymous_function",
  "arrow_function",
]);

/**
 * The document roots of a scan: the conventional ones its PHP files sit
 * in (`public/`, `web/`...), or the scan root when there are none.
 */
export function documentRoots(paths: readonly string[]): string[] {
  const roots = new Set<string>();
  for (const path of paths) {
    const m = DOCROOT.exec(path);
    if (m && path.endsWith(".php")) {
      roots.add(path.slice(0, m.index + m[0].length));
    }
  }
  return roots.size ? [...roots] : [""];
}

/** What a request read asks for: `GET`, `POST` or both; none for others. */
function reads(node: Node): string[] {
  if (node.type === "variable_name") {
    switch (node.text) {
      case "$_GET":
      case "$_COOKIE":
        return ["GET"];
      case "$_POST":
      case "$_FILES":
        return ["POST"];
      case "$_REQUEST":
        return ["GET", "POST"];
      case "$_SERVER": {
        const index = node.parent?.type === "subscript_expression"
          ? node.parent.namedChild(1)?.text ?? ""
          : "";
        return /^['"]HTTP_/.test(index) ? ["GET"] : [];
      }
    }
    return [];
  }
  if (
    node.type === "function_call_expression" &&
    node.childForFieldName("function")?.text === "filter_input"
  ) {
    const kind = /INPUT_(GET|POST|COOKIE|SERVER)/.exec(node.text)?.[1];
    return kind === "POST" ? ["POST"] : kind ? ["GET"] : [];
  }
  return [];
}

/** A plain page's port, when the file is one under a document root. */
export function plainPage(
  c: PhpFile,
  root: Node,
  documentRoots: readonly string[],
): void {
  const docroot = documentRoots.find((r) => c.file.path.startsWith(r));
  if (docroot === undefined || !REQUEST_READ.test(c.file.text)) return;
  const methods = new Set<string>();
  let first: Node | undefined;
  walk(root, (n) => {
    if (DEFERRED.has(n.type)) return false;
    const asked = reads(n);
    if (asked.length === 0) return;
    first ??= n;
    for (const m of asked) methods.add(m);
  });
  if (!first) return;
  methods.add("GET");
  c.ports.push(...routePorts({
    methods: ["GET", "POST"].filter((m) => methods.has(m)),
    path: literal(`/${c.file.path.slice(docroot.length)}`),
    prefixed: false,
    node: first,
    owner: moduleOwner(c.file.path),
    filePath: c.file.path,
    framework: "php",
  }));
}
