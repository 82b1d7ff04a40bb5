// Jakarta / Java EE servlets and JSP pages: `HttpServlet` subclasses at
// the URL patterns of their `@WebServlet` or of `web.xml` servlet
// mappings, answering the methods they override (`doGet` ...); JSP files
// a servlet maps (`<jsp-file>`); and the JSP pages a web application
// serves at their own path (`src/main/webapp/reports/summary.jsp`).
import type { Node } from "web-tree-sitter";
import type { SourceFile } from "../extractor.ts";
import type { ExtractedPort } from "../types.ts";
import { routePorts } from "../_port/http.ts";
import { moduleOwner, ownerOf } from "../_syntax/owner.ts";
import { literal } from "../_value/mod.ts";
import { javaAnnotations } from "./annotations.ts";
import type { JavaFile } from "./project.ts";
import { rowsOf } from "./rows.ts";
import { typeName } from "./project.ts";
import { isWebXml } from "./jaxrs_apps.ts";

/** Whether a path is a JSP page. */
export function isJsp(path: string): boolean {
  return /\.jspx?$/.test(path);
}

/** The most servlets read from one `web.xml`. */
const MAX_SERVLETS = 1_000;

/** Servlet URL patterns of the scan's `web.xml` files, by servlet class. */
export type ServletMappings = Map<string, string[]>;

/**
 * Reads the `web.xml` files of a scan: the URL patterns of each servlet
 * class (simple name), and the ports of the JSP files servlets map.
 */
export function readServletMappings(
  files: readonly SourceFile[],
  ports: ExtractedPort[],
): ServletMappings {
  const out: ServletMappings = new Map();
  for (const f of files) {
    if (!isWebXml(f.path)) continue;
    const text = f.text.slice(0, 1_000_000)
      .replace(/<!--[\s\S]*?-->/g, (c) => c.replace(/[^\n]/g, " "));
    const rowOf = rowsOf(text);
    const patterns = new Map<string, Array<{ pattern: string; at: number }>>();
    for (const m of blocks(text, "servlet-mapping").slice(0, MAX_SERVLETS)) {
      const name = element(m.body, "servlet-name");
      if (!name) continue;
      const list = patterns.get(name) ?? [];
      for (
        const p of m.body.matchAll(
          /<url-pattern>\s*([^<]*?)\s*<\/url-pattern>/g,
        )
      ) {
        list.push({ pattern: p[1]!, at: m.start + p.index });
      }
      patterns.set(name, list);
    }
    for (const s of blocks(text, "servlet").slice(0, MAX_SERVLETS)) {
      const name = element(s.body, "servlet-name");
      const cls = element(s.body, "servlet-class");
      const jsp = element(s.body, "jsp-file");
      const mapped = name ? patterns.get(name) ?? [] : [];
      if (cls) {
        const simple = cls.slice(cls.lastIndexOf(".") + 1);
        const list = out.get(simple) ?? [];
        list.push(...mapped.map((p) => p.pattern));
        out.set(simple, list);
      } else if (jsp) {
        for (const p of mapped) {
          ports.push(...servedAt(f.path, rowOf(p.at), ["GET"], p.pattern));
        }
      }
    }
  }
  return out;
}

function blocks(
  text: string,
  tag: string,
): Array<{ body: string; start: number }> {
  const out: Array<{ body: string; start: number }> = [];
  const open = `<${tag}>`;
  const close = `</${tag}>`;
  for (let at = text.indexOf(open); at !== -1;) {
    const start = at + open.length;
    const end = text.indexOf(close, start);
    if (end === -1) break;
    out.push({ body: text.slice(start, end), start });
    at = text.indexOf(open, end + close.length);
  }
  return out;
}

function element(body: string, tag: string): string | undefined {
  const m = new RegExp(`<${tag}>\\s*([^<]*?)\\s*</${tag}>`).exec(body);
  return m?.[1] || undefined;
}

/** A URL pattern's route: `/reports/*` is a wildcard; `*.do` is none. */
function servedAt(
  filePath: string,
  row: number,
  methods: string[],
  pattern: string,
  owner = moduleOwner(filePath),
): ExtractedPort[] {
  if (!pattern.startsWith("/")) return [];
  return routePorts({
    methods,
    path: literal(pattern),
    prefixed: false,
    node: { startPosition: { row, column: 0 } },
    owner,
    filePath,
    framework: "servlet",
  });
}

/** The methods an `HttpServlet` answers, by the `doX` it overrides. */
const HANDLERS: Readonly<Record<string, string>> = {
  doGet: "GET",
  doPost: "POST",
  doPut: "PUT",
  doDelete: "DELETE",
  doHead: "HEAD",
  doOptions: "OPTIONS",
  doTrace: "TRACE",
  doPatch: "PATCH",
};

/** An `HttpServlet` subclass at its `@WebServlet` and `web.xml` patterns. */
export function servletRoutes(c: JavaFile, cls: Node): void {
  const superclass = typeName(
    cls.childForFieldName("superclass")?.namedChild(0) ?? null,
  );
  if (superclass !== "HttpServlet") return;
  const name = cls.childForFieldName("name")?.text ?? "";
  const web = javaAnnotations(cls).find((a) => a.name === "WebServlet");
  const patterns = [
    ...(web?.values(["value", "urlPatterns"]) ?? []).map((n) => ({
      value: c.evaluate(n),
      at: web!.node,
    })),
    ...(c.servlets.get(name) ?? []).map((p) => ({
      value: literal(p),
      at: cls,
    })),
  ];
  const methods = new Set<string>();
  for (const m of cls.childForFieldName("body")?.namedChildren ?? []) {
    if (m?.type !== "method_declaration") continue;
    const verb = HANDLERS[m.childForFieldName("name")?.text ?? ""];
    if (verb) methods.add(verb);
  }
  for (const { value, at } of patterns) {
    const head = value.parts[0];
    if (typeof head !== "string" || !head.startsWith("/")) continue;
    c.ports.push(...routePorts({
      methods: methods.size > 0 ? [...methods] : ["ANY"],
      path: value,
      prefixed: false,
      node: at,
      owner: ownerOf(at, c.file.path, "java"),
      filePath: c.file.path,
      framework: "servlet",
    }));
  }
}

/** Folders whose files a web application serves from its root. */
const WEB_ROOTS = /(^|\/)(src\/main\/webapp|WebContent|webapp)\//;

/**
 * The JSP pages of a scan, each at its path under the web application's
 * root (`src/main/webapp/`, `WebContent/`, else the scan root); pages under
 * `WEB-INF/` are not served.
 */
export function jspPages(files: readonly SourceFile[]): ExtractedPort[] {
  const out: ExtractedPort[] = [];
  for (const f of files) {
    if (!isJsp(f.path) || /(^|\/)(WEB|META)-INF\//.test(f.path)) continue;
    const root = WEB_ROOTS.exec(f.path);
    const served = root ? f.path.slice(root.index + root[0].length) : f.path;
    out.push(...servedAt(f.path, 0, ["GET"], `/${served}`));
  }
  return out;
}
