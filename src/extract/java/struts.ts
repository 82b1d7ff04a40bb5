// Apache Struts 2 actions: `<action name>` elements of `struts.xml` (and
// the files it includes) under their package's namespace, and the actions
// of the Convention plugin: classes found by their name (`ProductAction`)
// or annotated `@Action`/`@Namespace`, named after the class
// (`ListPeopleAction` is `list-people`) under the namespace their package
// gives (`...actions.admin` is `/admin`), and with the REST plugin the
// RESTful methods of a controller (`index`, `show`, `create`, ...).
import type { Node } from "web-tree-sitter";
import type { SourceFile } from "../extractor.ts";
import type { ExtractedPort } from "../types.ts";
import { routePorts } from "../_port/http.ts";
import { moduleOwner } from "../_syntax/owner.ts";
import { joinPaths, literal } from "../_value/mod.ts";
import { JavaAnnotation, javaAnnotations } from "./annotations.ts";
import type { JavaFile } from "./project.ts";
import { serverRoute } from "./route_at.ts";
import { rowsOf } from "./rows.ts";
import { javaString, typeName } from "./project.ts";

/** Whether a path is a Struts configuration file (`struts.xml`, `admin-struts.xml`). */
export function isStrutsXml(path: string): boolean {
  return /(^|\/)[\w.-]*struts[\w.-]*\.xml$/i.test(path);
}

/** Whether a Java file uses Struts 2 (its actions or annotations). */
export function usesStruts(text: string): boolean {
  return text.includes("com.opensymphony.xwork2") ||
    text.includes("org.apache.struts2");
}

/** The most actions read from one configuration file. */
const MAX_ACTIONS = 2_000;

/** Struts facts of a scan: configuration constants, package namespaces. */
export class StrutsIndex {
  /** `<constant name value>` of the configuration files. */
  readonly constants: Map<string, string> = new Map();
  /** `@Namespace` values of `package-info.java` files, by package. */
  readonly packages: Map<string, string[]> = new Map();
  /** Whether the scan uses the Convention plugin. */
  convention = false;

  /** The action class suffix of the Convention plugin. */
  get suffix(): string {
    return this.constants.get("struts.convention.action.suffix") ?? "Action";
  }

  /** Whether actions are RESTful controllers (the REST plugin). */
  get rest(): boolean {
    return this.constants.get("struts.convention.default.parent.package") ===
      "rest-default";
  }

  /** Reads the constants of the configuration files. */
  readConfig(files: readonly SourceFile[]): void {
    for (const f of files) {
      if (!isStrutsXml(f.path)) continue;
      for (const m of f.text.matchAll(/<constant\b([^<>]*)>/g)) {
        const name = attribute(m[1]!, "name");
        const value = attribute(m[1]!, "value");
        if (name && value !== undefined) this.constants.set(name, value);
        if (name?.startsWith("struts.convention.")) this.convention = true;
      }
    }
  }

  /** Collects a Java file's package namespaces and convention imports. */
  collect(root: Node): void {
    for (const child of root.namedChildren) {
      if (child?.type === "import_declaration") {
        if (child.text.includes("org.apache.struts2.convention")) {
          this.convention = true;
        }
      }
      if (child?.type !== "package_declaration") continue;
      const name = child.namedChildren.find((n) =>
        n?.type === "scoped_identifier" || n?.type === "identifier"
      )?.text;
      const spaces = namespaces(
        child.namedChildren.filter((n): n is Node => n?.type === "annotation"),
      );
      if (name && spaces.length > 0) this.packages.set(name, spaces);
    }
  }
}

/** The value of an XML attribute in a tag's text. */
function attribute(tag: string, name: string): string | undefined {
  const m = new RegExp(`\\b${name}\\s*=\\s*"([^"]*)"`).exec(tag);
  return m?.[1];
}

/**
 * The actions of the Struts configuration files: `<action name="x">` under
 * the `namespace` of the `<package>` around it (`""` when it has none).
 */
export function strutsXmlRoutes(files: readonly SourceFile[]): ExtractedPort[] {
  const out: ExtractedPort[] = [];
  for (const f of files) {
    if (!isStrutsXml(f.path) || !/<struts\b/.test(f.text)) continue;
    const owner = moduleOwner(f.path);
    const text = f.text.replace(
      /<!--[\s\S]*?-->/g,
      (c) => c.replace(/[^\n]/g, " "),
    );
    const rowOf = rowsOf(text);
    let namespace = "";
    let count = 0;
    for (const m of text.matchAll(/<(\/?)(package|action)\b([^<>]*)>/g)) {
      if (m[2] === "package") {
        namespace = m[1] ? "" : attribute(m[3]!, "namespace") ?? "";
        continue;
      }
      if (m[1] || ++count > MAX_ACTIONS) continue;
      const name = attribute(m[3]!, "name");
      if (!name) continue;
      const row = rowOf(m.index);
      out.push(...routePorts({
        methods: ["ANY"],
        path: joinPaths(literal(namespace), literal(name)),
        prefixed: namespace !== "",
        node: { startPosition: { row, column: 0 } },
        owner,
        filePath: f.path,
        framework: "struts2",
      }));
    }
  }
  return out;
}

/** The `@Namespace` values of annotations (`@Namespaces({...})` too). */
function namespaces(annotations: readonly Node[]): string[] {
  const out: string[] = [];
  for (const node of annotations) {
    const name = node.childForFieldName("name")?.text.split(".").pop();
    const args = node.childForFieldName("arguments");
    if (name === "Namespace") {
      const value = args?.namedChild(0);
      if (value?.type === "string_literal") out.push(javaString(value));
    } else if (name === "Namespaces") {
      const list = args?.namedChild(0);
      const inner = list?.type === "element_value_array_initializer"
        ? list.namedChildren
        : [list];
      out.push(
        ...namespaces(inner.filter((n): n is Node => n?.type === "annotation")),
      );
    }
  }
  return out;
}

/** Package segments after which the Convention plugin reads a namespace. */
const LOCATORS: ReadonlySet<string> = new Set([
  "action",
  "actions",
  "struts",
  "struts2",
]);

/** The RESTful methods of a REST plugin controller. */
const REST_METHODS: Readonly<Record<string, [string, string]>> = {
  index: ["GET", ""],
  show: ["GET", "/{id}"],
  create: ["POST", ""],
  update: ["PUT", "/{id}"],
  destroy: ["DELETE", "/{id}"],
  editNew: ["GET", "/new"],
  edit: ["GET", "/{id}/edit"],
};

/** What the Convention plugin makes of a class it maps. */
interface ActionClass {
  /** The namespaces of its actions. */
  spaces: string[];
  /** Its default action name (`list-people` of `ListPeopleAction`). */
  base: string;
  /** A class-level `@Action`. */
  classAction: JavaAnnotation | undefined;
  methods: Node[];
}

/** The Convention plugin's actions of one class. */
export function strutsActions(c: JavaFile, cls: Node): void {
  const index = c.struts;
  if (!index.convention || !usesStruts(c.file.text)) return;
  const found = actionClass(index, cls);
  if (!found) return;
  const { spaces, base, classAction, methods } = found;
  const emit = (at: Node, method: string, space: string, path: string) =>
    serverRoute(c, at, {
      methods: [method],
      prefixes: [literal(space)],
      path: literal(path),
      framework: "struts2",
    });
  let annotated = false;
  for (const method of methods) {
    for (const action of methodActions(javaAnnotations(method))) {
      annotated = true;
      const text = actionValue(action) ?? base;
      for (const space of text.startsWith("/") ? [""] : spaces) {
        emit(action.node, "ANY", space, text);
      }
    }
  }
  const name = cls.childForFieldName("name")?.text ?? "";
  if (index.rest && name.endsWith(index.suffix)) {
    for (const method of methods) {
      const rest = restMethod(method);
      if (!rest) continue;
      for (const space of spaces) emit(method, rest[0], space, base + rest[1]);
    }
    return;
  }
  const execute = methods.some((m) =>
    m.childForFieldName("name")?.text === "execute"
  );
  if (classAction || execute || !annotated) {
    const text = (classAction && actionValue(classAction)) ?? base;
    for (const space of spaces) {
      emit(classAction?.node ?? cls, "ANY", space, text);
    }
  }
}

/**
 * Whether the Convention plugin maps a class, and how: a concrete class
 * named with the action suffix in a locator package, or an `ActionSupport`
 * subclass there or under a `@Namespace` (its own or its package's).
 */
function actionClass(index: StrutsIndex, cls: Node): ActionClass | undefined {
  const modifiers = cls.namedChildren.find((n) => n?.type === "modifiers");
  if (/\babstract\b/.test(modifiers?.text ?? "")) return undefined;
  const name = cls.childForFieldName("name")?.text ?? "";
  const annotations = javaAnnotations(cls);
  const own = namespaces(annotations.map((a) => a.node));
  const pkg = packageOf(cls);
  const superclass = cls.childForFieldName("superclass")?.namedChild(0);
  const extendsSupport = typeName(superclass ?? null) === "ActionSupport";
  const named = name.endsWith(index.suffix) && name !== index.suffix;
  const located = pkg.split(".").some((s) => LOCATORS.has(s));
  const classAction = annotations.find((a) => a.name === "Action");
  const explicit = own.length > 0 || index.packages.has(pkg) ||
    classAction !== undefined;
  if (!(named && located) && !(extendsSupport && (located || explicit))) {
    return undefined;
  }
  const spaces = own.length > 0
    ? own
    : index.packages.get(pkg) ?? (located ? [packageNamespace(pkg)] : []);
  if (spaces.length === 0) return undefined;
  const methods = (cls.childForFieldName("body")?.namedChildren ?? [])
    .filter((m): m is Node => m?.type === "method_declaration");
  return {
    spaces,
    base: actionName(name, index.suffix),
    classAction,
    methods,
  };
}

/** An `@Action`'s literal value. */
function actionValue(action: JavaAnnotation): string | undefined {
  const value = action.element(["value"]);
  return value?.type === "string_literal" ? javaString(value) : undefined;
}

/**
 * The route of a REST plugin controller's method: the RESTful ones
 * (`index`, `show`...), another public method without parameters as
 * `GET {id}/name`.
 */
function restMethod(method: Node): [string, string] | undefined {
  const name = method.childForFieldName("name")?.text ?? "";
  const head = method.text.slice(0, method.text.indexOf("("));
  if (!/\bpublic\b/.test(head) || name === "execute") return undefined;
  if (method.childForFieldName("parameters")?.namedChildCount) return undefined;
  return REST_METHODS[name] ?? ["GET", `/{id}/${name}`];
}

/** `@Action(...)` and the ones `@Actions({...})` lists. */
function methodActions(annotations: JavaAnnotation[]): JavaAnnotation[] {
  const out: JavaAnnotation[] = [];
  for (const a of annotations) {
    if (a.name === "Action") out.push(a);
    if (a.name !== "Actions") continue;
    for (const node of a.values(["value"])) {
      if (node.type === "annotation" || node.type === "marker_annotation") {
        out.push(new JavaAnnotation(node));
      }
    }
  }
  return out;
}

/** The package a class is declared in. */
function packageOf(node: Node): string {
  let root: Node = node;
  while (root.parent) root = root.parent;
  const decl = root.namedChildren.find((n) =>
    n?.type === "package_declaration"
  );
  return decl?.namedChildren.find((n) =>
    n?.type === "scoped_identifier" || n?.type === "identifier"
  )?.text ?? "";
}

/** The namespace of a package: its segments after the last locator. */
function packageNamespace(pkg: string): string {
  const segments = pkg.split(".");
  let at = -1;
  segments.forEach((s, i) => {
    if (LOCATORS.has(s)) at = i;
  });
  return "/" + segments.slice(at + 1).join("/");
}

/** An action's name: the class name without its suffix, dashed. */
function actionName(name: string, suffix: string): string {
  const strip = [suffix, "Action"].find((s) => name.endsWith(s) && name !== s);
  const bare = strip ? name.slice(0, -strip.length) : name;
  return bare.replace(/([a-z0-9])([A-Z])/g, "$1-$2").toLowerCase();
}
