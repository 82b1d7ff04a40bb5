// JAX-RS / Jakarta REST for the Java extractor: resource classes (`@Path` +
// `@GET`...), sub-resource locators, `@ApplicationPath`, resource interfaces
// implemented in the scan, and MicroProfile / RESTEasy client interfaces.
import type { Node } from "web-tree-sitter";
import type { ExtractedPort } from "../types.ts";
import {
  composed,
  concat,
  hole,
  joinPaths,
  keyText,
  literal,
} from "../_value/mod.ts";
import type { Value } from "../_value/mod.ts";
import { HTTP_METHODS, routePorts } from "../_port/http.ts";
import { ownerOf } from "../_syntax/owner.ts";
import { stringParts, walk } from "../_syntax/tree.ts";
import type { SpringSettings } from "../_spring/settings.ts";
import type { DropwizardSettings } from "./dropwizard.ts";
import {
  JaxRsApplications,
  listedClasses,
  moduleOf,
  packageOf,
} from "./jaxrs_apps.ts";
import { annotationsOf } from "./annotations.ts";

/** The request method annotations of JAX-RS (custom `@HttpMethod` ones are skipped). */
const VERBS = HTTP_METHODS;

const PACKAGES = ["javax.ws.rs.", "jakarta.ws.rs."];

/** A path annotation value kept across files: literal text and constant names. */
export type PathExpr = ReadonlyArray<{ text: string } | { name: string }>;

/** What the first pass learns about one class or interface. */
interface ClassInfo {
  /** The class-level JAX-RS `@Path`, if any. */
  path: PathExpr | undefined;
  /** Sub-resource locators: `@Path` methods without a verb. */
  locators: Array<{ path: PathExpr; returns: string }>;
}

/** Cross-file JAX-RS facts of a scan root, gathered in the first pass. */
export class JaxRsIndex {
  /** The settings of the root (context and REST paths). */
  settings: SpringSettings | undefined;
  /** The Dropwizard server paths of the root. */
  dropwizard: DropwizardSettings | undefined;
  /** The `Application` subclasses and the resources each serves. */
  readonly apps: JaxRsApplications = new JaxRsApplications();
  readonly classes: Map<string, ClassInfo> = new Map();
  /** Interfaces implemented by classes, with the class's own `@Path`. */
  readonly implementers: Map<string, PathExpr | null> = new Map();
  /** Interfaces used as clients (`build(X.class)`, `@RestClient X x`). */
  readonly clientTypes: Set<string> = new Set();

  /** Whether a file may hold JAX-RS code (cheap text test). */
  static mentions(text: string): boolean {
    return text.includes("ws.rs") || text.includes("RestClient");
  }

  /** Records the JAX-RS facts of one file. */
  collect(root: Node, path: string): void {
    const file = typeFile(root, path);
    walk(root, (node) => {
      if (
        node.type === "class_declaration" ||
        node.type === "interface_declaration"
      ) {
        this.#collectType(node, file);
      } else if (node.type === "class_literal") {
        this.#collectClassLiteral(node);
      } else if (
        node.type === "field_declaration" ||
        node.type === "formal_parameter"
      ) {
        if (annotationsOf(node).some((a) => simpleName(a) === "RestClient")) {
          const type = typeName(node.childForFieldName("type"));
          if (type) this.clientTypes.add(type);
        }
      }
    });
  }

  /**
   * Records the interfaces that the classes of a file not otherwise read
   * implement (a resource class may implement a `@Path` interface without
   * naming JAX-RS itself). Only declarations are visited, not method bodies.
   */
  collectImplementers(root: Node, path: string): void {
    const file = typeFile(root, path);
    const stack: Node[] = [root];
    while (stack.length > 0) {
      const node = stack.pop()!;
      for (const child of node.namedChildren) {
        if (child?.type === "class_declaration") {
          this.#collectType(child, file);
          const body = child.childForFieldName("body");
          if (body) stack.push(body);
        }
      }
    }
  }

  #collectType(decl: Node, file: TypeFile): void {
    const { imports } = file;
    const name = decl.childForFieldName("name")?.text;
    if (!name) return;
    const annotations = annotationsOf(decl);
    const pathAnnotation = annotations.find((a) => isJaxRs(a, "Path", imports));
    const path = pathAnnotation ? pathExprOf(pathAnnotation) : undefined;
    if (decl.type === "class_declaration") {
      const appPath = annotations.find((a) =>
        isJaxRs(a, "ApplicationPath", imports)
      );
      const superclass = typeName(
        decl.childForFieldName("superclass")?.namedChild(0) ?? null,
      );
      if (superclass === "Application" || superclass === "ResourceConfig") {
        const classes = listedClasses(decl);
        this.apps.list.push({
          name,
          package: file.package,
          module: moduleOf(file.path),
          path: appPath ? pathExprOf(appPath) : undefined,
          ...(classes ? { classes } : {}),
        });
      }
      const list = decl.childForFieldName("interfaces")?.namedChild(0);
      for (const type of list?.namedChildren ?? []) {
        const iface = typeName(type);
        if (iface) this.implementers.set(iface, path ?? null);
      }
    }
    const locators: ClassInfo["locators"] = [];
    for (const member of decl.childForFieldName("body")?.namedChildren ?? []) {
      if (member?.type !== "method_declaration") continue;
      const own = annotationsOf(member);
      if (own.some((a) => verbOf(a, imports))) continue;
      const locator = own.find((a) => isJaxRs(a, "Path", imports));
      const value = locator ? pathExprOf(locator) : undefined;
      const returns = typeName(member.childForFieldName("type"));
      if (value && returns) locators.push({ path: value, returns });
    }
    if (path || locators.length > 0 || !this.classes.has(name)) {
      this.classes.set(name, { path, locators });
    }
  }

  /** `builder.build(X.class)`, `target.proxy(X.class)`. */
  #collectClassLiteral(node: Node): void {
    const call = node.parent?.parent;
    if (call?.type !== "method_invocation") return;
    const method = call.childForFieldName("name")?.text;
    if (method !== "build" && method !== "proxy") return;
    const type = typeName(node.namedChild(0));
    if (type) this.clientTypes.add(type);
  }

  /**
   * The paths under which sub-resource locators reach class `name` (each a
   * list of path parts from the root resource down), across the scan.
   */
  locatorPaths(
    name: string,
    depth = 0,
    seen = new Set<string>(),
  ): PathExpr[][] {
    if (depth > 6 || seen.has(name)) return [];
    seen.add(name);
    const out: PathExpr[][] = [];
    for (const [parent, info] of this.classes) {
      for (const locator of info.locators) {
        if (locator.returns !== name) continue;
        const bases: PathExpr[][] = info.path ? [[info.path]] : [];
        bases.push(...this.locatorPaths(parent, depth + 1, seen));
        for (const base of bases) out.push([...base, locator.path]);
      }
    }
    seen.delete(name);
    return out;
  }
}

/** Single-type imports (simple name → qualified name) and wildcard packages. */
interface Imports {
  names: Map<string, string>;
  wildcards: string[];
}

/** Where a type is declared: its file's path, package and imports. */
interface TypeFile {
  path: string;
  package: string;
  imports: Imports;
}

function typeFile(root: Node, path: string): TypeFile {
  return { path, package: packageOf(root), imports: importsOf(root) };
}

function importsOf(root: Node): Imports {
  const names = new Map<string, string>();
  const wildcards: string[] = [];
  for (const child of root.namedChildren) {
    if (child?.type !== "import_declaration") continue;
    const text = child.text.replace(/^import\s+(static\s+)?/, "")
      .replace(/\s*;\s*$/, "").replace(/\s+/g, "");
    if (text.endsWith(".*")) wildcards.push(text.slice(0, -1));
    else names.set(text.slice(text.lastIndexOf(".") + 1), text);
  }
  return { names, wildcards };
}

function simpleName(annotation: Node): string {
  const name = annotation.childForFieldName("name")?.text ?? "";
  return name.slice(name.lastIndexOf(".") + 1);
}

/**
 * Whether an annotation is the JAX-RS annotation `name`: written with the
 * `javax.ws.rs`/`jakarta.ws.rs` package, imported from it by name, or
 * reached through a wildcard import of it with no other import of the name.
 */
function isJaxRs(annotation: Node, name: string, imports: Imports): boolean {
  const written = annotation.childForFieldName("name")?.text ?? "";
  if (written !== name) return PACKAGES.some((p) => written === p + name);
  const imported = imports.names.get(name);
  if (imported !== undefined) {
    return PACKAGES.some((p) => imported === p + name);
  }
  return imports.wildcards.some((w) => PACKAGES.includes(w));
}

/** The JAX-RS request method of an annotation, or undefined. */
function verbOf(annotation: Node, imports: Imports): string | undefined {
  const name = simpleName(annotation);
  return VERBS.has(name) && isJaxRs(annotation, name, imports)
    ? name
    : undefined;
}

function typeName(node: Node | null | undefined): string {
  if (!node) return "";
  let text = node.text;
  const lt = text.indexOf("<");
  if (lt >= 0) text = text.slice(0, lt);
  return text.slice(text.lastIndexOf(".") + 1).trim();
}

/** The `value` of `@Path("...")` as literal parts and constant names. */
function pathExprOf(annotation: Node): PathExpr | undefined {
  const args = annotation.childForFieldName("arguments");
  let value: Node | null | undefined;
  for (const child of args?.namedChildren ?? []) {
    if (!child) continue;
    if (child.type === "element_value_pair") {
      if (child.childForFieldName("key")?.text === "value") {
        value = child.childForFieldName("value");
      }
    } else value = child;
  }
  return value ? pathExpr(value, 0) : undefined;
}

function pathExpr(node: Node, depth: number): PathExpr | undefined {
  if (depth > 8) return undefined;
  switch (node.type) {
    case "string_literal": {
      const parts = stringParts(node) ?? [];
      return [{
        text: parts.map((p) => typeof p === "string" ? p : "{}").join(""),
      }];
    }
    case "identifier":
      return [{ name: node.text }];
    case "field_access":
      return [{ name: node.text.replace(/\s+/g, "") }];
    case "parenthesized_expression": {
      const inner = node.namedChild(0);
      return inner ? pathExpr(inner, depth + 1) : undefined;
    }
    case "binary_expression": {
      if (node.childForFieldName("operator")?.text !== "+") return undefined;
      const left = node.childForFieldName("left");
      const right = node.childForFieldName("right");
      const l = left ? pathExpr(left, depth + 1) : undefined;
      const r = right ? pathExpr(right, depth + 1) : undefined;
      return l && r ? [...l, ...r] : undefined;
    }
    default:
      return undefined;
  }
}

/** Evaluates a path expression with the scan's `static final` constants. */
function evaluatePath(
  expr: PathExpr,
  constants: ReadonlyMap<string, Value>,
): Value {
  return concat(expr.map((part) => {
    if ("text" in part) return literal(part.text);
    const found = constants.get(part.name) ??
      constants.get(part.name.slice(part.name.lastIndexOf(".") + 1));
    return found ? composed(found) : hole(part.name);
  }));
}

/**
 * Emits the JAX-RS ports of one class or interface declaration of a file:
 * server routes of root resources, of classes reached through sub-resource
 * locators and of `@Path` interfaces implemented in the scan, and client
 * routes of `@RegisterRestClient` interfaces and of `@Path` interfaces used
 * as proxies (`RestClientBuilder...build(X.class)`, `@RestClient X`).
 */
export function jaxRsPorts(
  decl: Node,
  index: JaxRsIndex,
  constants: ReadonlyMap<string, Value>,
  imports: Imports,
  filePath: string,
  ports: ExtractedPort[],
): void {
  const name = decl.childForFieldName("name")?.text;
  if (!name) return;
  const info = index.classes.get(name);
  const annotations = annotationsOf(decl);
  const own = annotations.find((a) => isJaxRs(a, "Path", imports));
  const ownPath = own ? pathExprOf(own) : undefined;
  // An interface may be both: implemented by a resource class of the scan
  // (server) and proxied by a client (a shared API module).
  const sides: Side[] = [];
  if (decl.type === "interface_declaration") {
    const registered = annotations.some((a) =>
      simpleName(a) === "RegisterRestClient"
    );
    if (registered || (own && index.clientTypes.has(name))) {
      sides.push({ role: "client", bases: [ownPath ? [ownPath] : []] });
    }
    if (own && index.implementers.has(name)) {
      // The implementing class's own `@Path` wins over the interface's.
      const implemented = index.implementers.get(name);
      sides.push({
        role: "server",
        bases: [implemented ? [implemented] : ownPath ? [ownPath] : []],
      });
    }
  } else {
    const bases = ownPath ? [[ownPath]] : [];
    if (info) bases.push(...index.locatorPaths(name));
    if (bases.length > 0) sides.push({ role: "server", bases });
  }
  const file = { index, constants, imports, filePath, ports };
  for (const side of sides) emitSide(decl, side, file);
}

/** A role a declaration plays and the base paths it has in it. */
interface Side {
  role: "server" | "client";
  bases: PathExpr[][];
}

/** What the ports of a file's declarations are read with, and where they go. */
interface JaxRsFile {
  index: JaxRsIndex;
  constants: ReadonlyMap<string, Value>;
  imports: Imports;
  filePath: string;
  ports: ExtractedPort[];
}

/**
 * The ports of the verb-annotated methods of a declaration, in one role,
 * under each base path (and, for servers, each application path).
 */
function emitSide(decl: Node, side: Side, file: JaxRsFile): void {
  const { role, bases } = side;
  const { index, constants, imports, filePath, ports } = file;
  const apps: PathExpr[][] = role === "server"
    ? applicationPaths(decl, index, filePath)
    : [[]];
  for (const member of decl.childForFieldName("body")?.namedChildren ?? []) {
    if (member?.type !== "method_declaration") continue;
    const methodAnnotations = annotationsOf(member);
    const verbs: Node[] = [];
    for (const a of methodAnnotations) if (verbOf(a, imports)) verbs.push(a);
    if (verbs.length === 0) continue;
    const pathAnnotation = methodAnnotations.find((a) =>
      isJaxRs(a, "Path", imports)
    );
    const methodPath = pathAnnotation ? pathExprOf(pathAnnotation) : undefined;
    const owner = ownerOf(member, filePath, "java");
    const seen = new Set<string>();
    for (const app of apps) {
      for (const base of bases) {
        const parts = [...app, ...base];
        if (methodPath) parts.push(methodPath);
        const values = parts.map((p) => evaluatePath(p, constants));
        // Composed from a prefix when two parts add path segments.
        const nonEmpty = values.filter((v) =>
          keyText(v).replaceAll("/", "") !== ""
        ).length;
        for (const verb of verbs) {
          ports.push(...routePorts({
            role,
            methods: [simpleName(verb)],
            path: joinPaths(...values),
            prefixed: nonEmpty > 1,
            node: verb,
            owner,
            filePath,
            framework: "jax-rs",
            seen,
          }));
        }
      }
    }
  }
}

/** The paths of the applications that serve a resource class. */
function applicationPaths(
  decl: Node,
  index: JaxRsIndex,
  filePath: string,
): PathExpr[][] {
  const name = decl.childForFieldName("name")?.text ?? "";
  let root: Node = decl;
  while (root.parent) root = root.parent;
  const context = (index.settings?.contextPath(filePath) ?? "") +
    (index.dropwizard?.contextPath(filePath) ?? "");
  const apps = index.apps.servingApps(name, packageOf(root), filePath);
  if (apps.length === 0) {
    const rest = index.settings?.restPath(filePath) ||
      (index.dropwizard?.rootPath(filePath) ?? "");
    return [[[{ text: context }], [{ text: rest }]]];
  }
  return apps.map((app) => [
    [{ text: context }],
    app.mapped !== undefined ? [{ text: app.mapped }] : app.path ?? [],
  ]);
}

/** The imports of a file, for {@linkcode jaxRsPorts}. */
export function jaxRsImports(root: Node): Imports {
  return importsOf(root);
}

export type { Imports as JaxRsImports };
