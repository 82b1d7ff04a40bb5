// Magento 2 routes: a module's `etc/webapi.xml` REST routes (under
// `/rest`), and its action controllers (`Controller/Post/View.php` ->
// `/<frontName>/post/view`) with the front name its `etc/frontend/` or
// `etc/adminhtml/routes.xml` gives it (admin ones under the default `admin`
// backend front name); the `Http<Verb>ActionInterface`s a controller
// implements give its methods.
import type { Node } from "web-tree-sitter";
import { HTTP_METHODS, httpPort, routePorts } from "../_port/http.ts";
import { moduleOwner, ownerOf } from "../_syntax/owner.ts";
import { namedChildren } from "../_syntax/tree.ts";
import { literal, routePath } from "../_value/mod.ts";
import type { SourceFile } from "../extractor.ts";
import type { ExtractedPort } from "../types.ts";
import type { PhpFile } from "./project.ts";
import type { RoutePrefix } from "./routes_yaml.ts";

/** The backend front name a Magento install uses unless configured. */
const ADMIN_FRONT_NAME = "admin";
/** Confidence of an admin route: the backend front name is install config. */
const ADMIN_CONFIDENCE = 0.8;

/** Whether a path is a Magento module's `webapi.xml` or `routes.xml`. */
export function isMagentoXml(path: string): boolean {
  return /(^|\/)etc\/webapi\.xml$/.test(path) ||
    /(^|\/)etc\/(frontend|adminhtml)\/routes\.xml$/.test(path);
}

/** The value of the attribute `name` of a tag. */
function attribute(tag: string, name: string): string | undefined {
  let pattern = ATTRIBUTES.get(name);
  if (!pattern) {
    pattern = new RegExp(`\\b${name}\\s*=\\s*"([^"]*)"`);
    ATTRIBUTES.set(name, pattern);
  }
  return pattern.exec(tag)?.[1];
}

/** The pattern of each attribute name read, compiled once. */
const ATTRIBUTES = new Map<string, RegExp>();

/** The 0-based line of each offset, in order (one pass over the text). */
function lineOf(text: string): (index: number) => number {
  let row = 0;
  let at = 0;
  return (index) => {
    for (; at < index && at < text.length; at++) {
      if (text[at] === "\n") row++;
    }
    return row;
  };
}

/**
 * The REST routes of a `webapi.xml`, or the controller directory prefix a
 * `routes.xml` gives its module (`Controller/` or `Controller/Adminhtml/`).
 */
export function magentoXml(
  file: SourceFile,
  ports: ExtractedPort[],
  prefixes: RoutePrefix[],
): void {
  const text = file.text.replace(
    /<!--[\s\S]*?-->/g,
    (c) => c.replace(/[^\n]/g, " "),
  );
  const root = file.path.slice(0, file.path.lastIndexOf("etc/"));
  if (file.path.endsWith("webapi.xml")) {
    const line = lineOf(text);
    for (const m of text.matchAll(/<route\b[^>]*>/g)) {
      const url = attribute(m[0], "url");
      const method = attribute(m[0], "method")?.toUpperCase();
      if (!url || !method || !HTTP_METHODS.has(method)) continue;
      const path = `/rest/${url.replace(/^\//, "")}`.replace(/:(\w+)/g, "{$1}");
      const route = routePath(literal(path));
      const port = httpPort({
        role: "server",
        method,
        path: route.path,
        confidence: route.confidence,
        node: { startPosition: { row: line(m.index), column: 0 } },
        owner: moduleOwner(file.path),
        filePath: file.path,
        framework: "magento",
      });
      if (port) ports.push(port);
    }
    return;
  }
  const admin = file.path.includes("/adminhtml/");
  for (const m of text.matchAll(/<route\b[^>]*>/g)) {
    const front = attribute(m[0], "frontName");
    if (!front) continue;
    prefixes.push({
      dir: `${root}Controller/${admin ? "Adminhtml/" : ""}`,
      prefix: admin ? `/${ADMIN_FRONT_NAME}/${front}` : `/${front}`,
    });
  }
}

/** `Http<Verb>ActionInterface`: the methods a controller answers. */
function interfaceMethods(cls: Node): string[] | undefined {
  const list = namedChildren(cls).find((n) =>
    n.type === "class_interface_clause"
  );
  const verbs = [...(list?.text ?? "").matchAll(/Http(\w+?)ActionInterface\b/g)]
    .map((m) => m[1]!.toUpperCase()).filter((v) => HTTP_METHODS.has(v));
  return verbs.length ? verbs : undefined;
}

/** Whether a file sits in a controller directory a `routes.xml` names. */
export function isMagentoController(c: PhpFile): boolean {
  return c.routePrefixes.some((p) =>
    /(^|\/)Controller\/(Adminhtml\/)?$/.test(p.dir) &&
    c.file.path.startsWith(p.dir)
  );
}

/** A Magento action controller: `execute()` under a module's `Controller/`. */
export function magentoController(c: PhpFile, cls: Node): void {
  if (namedChildren(cls).some((n) => n.type === "abstract_modifier")) return;
  const body = cls.childForFieldName("body");
  const execute = (body ? namedChildren(body) : []).find((m) =>
    m.type === "method_declaration" &&
    m.childForFieldName("name")?.text === "execute"
  );
  if (!execute) return;
  const admin = c.file.path.includes("/Controller/Adminhtml/");
  const match = c.routePrefixes
    .filter((p) =>
      c.file.path.startsWith(p.dir) && p.dir.endsWith("Adminhtml/") === admin
    )
    .sort((a, b) => b.dir.length - a.dir.length)[0];
  if (!match) return;
  const parts = c.file.path.slice(match.dir.length, -".php".length).split("/");
  if (parts.length < 2) return;
  const action = parts.pop()!.toLowerCase();
  const controller = parts.join("_").toLowerCase();
  const paths = [`${match.prefix}/${controller}/${action}`];
  if (action === "index") {
    paths.push(`${match.prefix}/${controller}`);
    if (controller === "index") paths.push(match.prefix);
  }
  for (const path of paths) {
    c.ports.push(...routePorts({
      methods: interfaceMethods(cls) ?? ["ANY"],
      path: literal(path),
      prefixed: true,
      node: execute,
      owner: ownerOf(execute, c.file.path, "php"),
      filePath: c.file.path,
      framework: "magento",
      ...(admin ? { confidence: ADMIN_CONFIDENCE } : {}),
    }));
  }
}
