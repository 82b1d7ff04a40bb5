// JAX-RS applications of a scan root and the resources each serves: an
// `Application` subclass with its `@ApplicationPath` (or the servlet
// mapping `web.xml` gives it, which wins), the classes its `getClasses()`
// lists, its package and its module. A resource is served by the
// applications that list it, else by the one whose package holds it
// (the nearest), else by every application of its module.
import { XMLParser } from "fast-xml-parser";
import type { Node } from "web-tree-sitter";
import type { PathExpr } from "./jaxrs.ts";

/** One JAX-RS application. */
export interface JaxRsApplication {
  /** The simple class name (`RestApplication`), or `""` for a servlet's. */
  name: string;
  /** The package (`com.example`). */
  package: string;
  /** The module: the path up to `src/main/java/` (or the file's folder). */
  module: string;
  /** The `@ApplicationPath` value, unresolved (a path expression). */
  path: PathExpr | undefined;
  /** The path a `web.xml` servlet mapping gives, which wins. */
  mapped?: string;
  /** The classes `getClasses()`/`getSingletons()` lists, when it does. */
  classes?: Set<string>;
}

/** Which files hold a JAX-RS application's deployment descriptor. */
export function isWebXml(path: string): boolean {
  return /(^|\/)WEB-INF\/web\.xml$/.test(path);
}

/** The module of a source or resource file. */
export function moduleOf(path: string): string {
  for (const marker of ["src/main/java/", "src/main/webapp/", "src/"]) {
    const at = path.lastIndexOf(marker);
    if (at !== -1) return path.slice(0, at);
  }
  return "";
}

/** The package a file declares (`package com.x;`). */
export function packageOf(root: Node): string {
  for (const child of root.namedChildren) {
    if (child?.type !== "package_declaration") continue;
    return child.text.replace(/^package\s+/, "").replace(/\s*;\s*$/, "")
      .replace(/\s+/g, "");
  }
  return "";
}

/** The classes an `Application`'s `getClasses()`/`getSingletons()` lists. */
export function listedClasses(decl: Node): Set<string> | undefined {
  let found: Set<string> | undefined;
  for (const member of decl.childForFieldName("body")?.namedChildren ?? []) {
    if (member?.type !== "method_declaration") continue;
    const name = member.childForFieldName("name")?.text;
    if (name !== "getClasses" && name !== "getSingletons") continue;
    found ??= new Set();
    const stack: Node[] = [member];
    for (let i = 0; stack.length > 0 && i < 10_000; i++) {
      const n = stack.pop()!;
      if (
        n.type === "class_literal" || n.type === "object_creation_expression"
      ) {
        const type = n.type === "class_literal"
          ? n.namedChild(0)
          : n.childForFieldName("type");
        const text = type?.text.replace(/<.*$/s, "") ?? "";
        if (text) found.add(text.slice(text.lastIndexOf(".") + 1));
      }
      for (const c of n.namedChildren) if (c) stack.push(c);
    }
  }
  return found;
}

/** Servlet classes that serve JAX-RS resources of configured packages. */
const CONTAINERS =
  /(ServletContainer|HttpServletDispatcher|CXFNonSpringJaxrsServlet)$/;
const APPLICATION_PARAMS = [
  "javax.ws.rs.Application",
  "jakarta.ws.rs.Application",
];
const PACKAGE_PARAMS = [
  "jersey.config.server.provider.packages",
  "com.sun.jersey.config.property.packages",
];

/** The JAX-RS applications of a scan root. */
export class JaxRsApplications {
  readonly list: JaxRsApplication[] = [];
  /** Servlet mappings of `web.xml` files: module → application → path. */
  readonly #mappings = new Map<string, Map<string, string>>();

  /** Whether the root has any application. */
  get empty(): boolean {
    return this.list.length === 0;
  }

  /**
   * Reads a `web.xml`: each servlet mapped to an `Application` class (by
   * its class, its name or its `javax.ws.rs.Application` parameter), and
   * each JAX-RS servlet configured with resource packages.
   */
  readWebXml(path: string, text: string): void {
    let doc: unknown;
    try {
      doc = new XMLParser({ ignoreAttributes: true, processEntities: false })
        .parse(text.slice(0, 1_000_000));
    } catch {
      return;
    }
    const app = record(record(doc)["web-app"]);
    const patterns = new Map<string, string>();
    for (const m of list(app["servlet-mapping"])) {
      const r = record(m);
      const name = String(r["servlet-name"] ?? "").trim();
      const pattern = list(r["url-pattern"]).map((p) => String(p).trim())[0];
      if (name && pattern !== undefined && !patterns.has(name)) {
        patterns.set(name, pattern.replace(/\/?\*$/, ""));
      }
    }
    const module = moduleOf(path);
    let mapped = this.#mappings.get(module);
    if (!mapped) this.#mappings.set(module, mapped = new Map());
    for (const s of list(app["servlet"])) {
      const r = record(s);
      const name = String(r["servlet-name"] ?? "").trim();
      const cls = String(r["servlet-class"] ?? "").trim();
      const pattern = patterns.get(name);
      if (pattern === undefined) continue;
      const params = new Map<string, string>();
      for (const p of list(r["init-param"])) {
        const pr = record(p);
        params.set(
          String(pr["param-name"] ?? "").trim(),
          String(pr["param-value"] ?? "").trim(),
        );
      }
      const application = APPLICATION_PARAMS.map((k) => params.get(k))
        .find(Boolean);
      const packages = PACKAGE_PARAMS.map((k) => params.get(k)).find(Boolean);
      if (application) mapped.set(simple(application), pattern);
      else if (CONTAINERS.test(cls) && packages) {
        for (const pkg of packages.split(/[,;\s]+/).filter(Boolean)) {
          this.list.push({
            name: "",
            package: pkg,
            module,
            path: undefined,
            mapped: pattern,
          });
        }
      } else {
        mapped.set(simple(cls || name), pattern);
      }
      patterns.delete(name);
    }
    // a mapping whose servlet-name is the application class (Servlet 3.0)
    for (const [name, pattern] of patterns) mapped.set(simple(name), pattern);
  }

  /** The applications that serve a resource class. */
  servingApps(
    name: string,
    pkg: string,
    path: string,
  ): JaxRsApplication[] {
    const apps = this.list.map((a) => this.#withMapping(a));
    const listing = apps.filter((a) => a.classes?.has(name));
    if (listing.length > 0) return listing;
    const open = apps.filter((a) => !a.classes);
    let best: JaxRsApplication[] = [];
    let bestLength = -1;
    for (const a of open) {
      if (a.package === "" || !within(pkg, a.package)) continue;
      if (a.package.length > bestLength) {
        best = [a];
        bestLength = a.package.length;
      } else if (a.package.length === bestLength) best.push(a);
    }
    if (best.length > 0) return best;
    const module = moduleOf(path);
    return open.filter((a) => a.module === module);
  }

  #withMapping(app: JaxRsApplication): JaxRsApplication {
    if (app.mapped !== undefined || app.name === "") return app;
    const mapped = this.#mappings.get(app.module)?.get(app.name);
    return mapped === undefined ? app : { ...app, mapped };
  }
}

function within(pkg: string, parent: string): boolean {
  return pkg === parent || pkg.startsWith(parent + ".");
}

function simple(name: string): string {
  return name.slice(name.lastIndexOf(".") + 1);
}

function record(value: unknown): Record<string, unknown> {
  return value !== null && typeof value === "object" && !Array.isArray(value)
    ? value as Record<string, unknown>
    : {};
}

function list(value: unknown): unknown[] {
  if (value === undefined || value === null) return [];
  return Array.isArray(value) ? value.slice(0, 1000) : [value];
}
