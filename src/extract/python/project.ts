// A light model of a Python project: modules by dotted name, their imports,
// module-level assignments, classes and functions, and static evaluation of
// string expressions across modules (constants, settings class attributes,
// f-strings, `%` and `.format`, `os.getenv` defaults).
import type { ExtractDiagnostic, SourceFile } from "../extractor.ts";
import {
  findAll,
  namedChildren,
  type Node,
  parseOrReport,
  stringParts,
} from "../_syntax/compact_tree.ts";
import {
  composed,
  concat,
  exactText,
  formatBraces,
  formatPrintf,
  hole,
  literal,
  type Value,
} from "../_value/mod.ts";
import {
  classAttribute,
  enclosingFunction,
  indexModule,
  isParameter,
  localAssignment,
  positionalArgs,
  type PyImport,
  type PyModule,
  selfAttribute,
  unwrap,
} from "./module.ts";
import { subscriptValue } from "./subscripts.ts";

/** Where a name or attribute expression leads. */
export type PyTarget =
  | { kind: "module"; module: PyModule }
  | { kind: "value"; module: PyModule; node: Node }
  | { kind: "class"; module: PyModule; node: Node }
  | { kind: "function"; module: PyModule; node: Node }
  | { kind: "external"; name: string };

const MAX_DEPTH = 12;
const RETURNS: ReadonlySet<string> = new Set(["return_statement"]);
// Libraries the extractors recognise: never matched to a project module by
// a dotted-name suffix (a local `app/requests.py` is not `requests`).
const EXTERNAL_ROOTS: ReadonlySet<string> = new Set([
  "os",
  "requests",
  "httpx",
  "aiohttp",
  "fastapi",
  "starlette",
  "flask",
  "django",
  "grpc",
  "temporalio",
  "rest_framework",
  "flask_restful",
  "quart",
  "sanic",
  "tornado",
  "falcon",
  "bottle",
  "litestar",
  "masonite",
]);

/** Every Python module of a scan root, parsed once. */
export class PyProject {
  /** Modules by dotted name. */
  readonly modules: Map<string, PyModule> = new Map();
  /** Modules in file order. */
  readonly list: PyModule[] = [];
  #byNode = new WeakMap<object, PyModule>();
  // dotted suffix -> the one module whose name ends with it (null: several)
  #suffixes: Map<string, PyModule | null> | undefined;
  #byPath: Map<string, PyModule> | undefined;

  /** Parses the files; unparseable ones become diagnostics. */
  static async load(
    files: readonly SourceFile[],
    diagnostics: ExtractDiagnostic[],
    reportSyntax = false,
  ): Promise<PyProject> {
    const project = new PyProject();
    for (const file of files) {
      const tree = await parseOrReport(
        "python",
        file,
        diagnostics,
        reportSyntax,
      );
      if (!tree) continue;
      const module = indexModule(file, tree);
      project.modules.set(module.name, module);
      project.list.push(module);
      // the first module of a tree owns its nodes
      if (!project.#byNode.has(tree)) project.#byNode.set(tree, module);
    }
    return project;
  }

  /** Drops the modules (compact trees need no explicit release). */
  delete(): void {
    this.modules.clear();
    this.list.length = 0;
  }

  /**
   * Whether a file of the project mentions `word` (a library name): the
   * cheap test before a reader walks the project for that library.
   */
  mentions(word: string | RegExp): boolean {
    return this.list.some((m) =>
      typeof word === "string"
        ? m.file.text.includes(word)
        : word.test(m.file.text)
    );
  }

  /** The module of a file path. */
  moduleAt(path: string): PyModule | undefined {
    const byPath = this.#byPath ??= new Map(
      this.list.map((m) => [m.file.path, m]),
    );
    return byPath.get(path);
  }

  /**
   * The value of a name (or `name.member` of an imported module) as a file
   * sees it at module level, through its imports (for queues).
   */
  constant(path: string, local: string, member?: string): Value | undefined {
    const module = this.moduleAt(path);
    if (!module) return undefined;
    let target = this.resolveName(module, local);
    if (member !== undefined && target) {
      target = this.member(target, member, 0);
    }
    if (target?.kind !== "value") return undefined;
    const value = this.evalString(target.node);
    return value ? composed(value) : undefined;
  }

  /** The local names a file binds by imports. */
  imported(path: string): Iterable<string> {
    return this.moduleAt(path)?.imports.keys() ?? [];
  }

  /** The file and name a local name of `path` is imported from. */
  origin(
    path: string,
    local: string,
  ): { path: string; name: string } | undefined {
    const imported = this.moduleAt(path)?.imports.get(local);
    if (imported?.name === undefined) return undefined;
    const module = this.findModule(imported.module);
    return module ? { path: module.file.path, name: imported.name } : undefined;
  }

  /** Finds a module by absolute name, or by a unique dotted suffix. */
  findModule(name: string): PyModule | undefined {
    const exact = this.modules.get(name);
    if (exact) return exact;
    const dot = name.indexOf(".");
    if (EXTERNAL_ROOTS.has(dot === -1 ? name : name.slice(0, dot))) {
      return undefined;
    }
    const suffixes = this.#suffixes ??= suffixIndex(this.list);
    const found = suffixes.get(name);
    return found === null ? undefined : found;
  }

  /** The module a node belongs to. */
  moduleOf(node: Node): PyModule | undefined {
    const root = node.tree;
    let module = this.#byNode.get(root);
    if (!module) {
      module = this.list.find((m) => m.tree === root);
      if (module) this.#byNode.set(root, module);
    }
    return module;
  }

  /** Resolves a module-level name of `module`, following imports. */
  resolveName(
    module: PyModule,
    name: string,
    depth = 0,
  ): PyTarget | undefined {
    if (depth > MAX_DEPTH) return undefined;
    const cls = module.classes.get(name);
    if (cls) return { kind: "class", module, node: cls };
    const fn = module.functions.get(name);
    if (fn) return { kind: "function", module, node: fn };
    const value = module.assigns.get(name);
    if (value) return { kind: "value", module, node: value };
    const imported = module.imports.get(name);
    if (!imported) return undefined;
    return this.resolveImport(imported, depth + 1);
  }

  /** Resolves an import to a project module, a name in it, or an external name. */
  resolveImport(imported: PyImport, depth = 0): PyTarget | undefined {
    if (imported.name === undefined) {
      const module = this.findModule(imported.module);
      return module
        ? { kind: "module", module }
        : { kind: "external", name: imported.module };
    }
    const submodule = this.findModule(`${imported.module}.${imported.name}`);
    if (submodule) return { kind: "module", module: submodule };
    // an ambiguous or missing absolute name: the module next to the importer
    const module = this.findModule(imported.module) ??
      (imported.sibling ? this.modules.get(imported.sibling) : undefined);
    if (!module) {
      return { kind: "external", name: `${imported.module}.${imported.name}` };
    }
    return this.resolveName(module, imported.name, depth + 1);
  }

  /**
   * Resolves an identifier or attribute expression at `node`: local
   * assignments of the enclosing function first, then module names.
   */
  resolveExpr(node: Node, depth = 0): PyTarget | undefined {
    if (depth > MAX_DEPTH) return undefined;
    const module = this.moduleOf(node);
    if (!module) return undefined;
    if (node.type === "identifier") {
      const local = localAssignment(module, node, node.text);
      if (local) return { kind: "value", module, node: local };
      // a parameter shadows the module-level name
      if (isParameter(module, node)) return undefined;
      return this.resolveName(module, node.text, depth + 1);
    }
    if (node.type === "attribute") {
      const object = node.childForFieldName("object");
      const attr = node.childForFieldName("attribute")?.text;
      if (!object || !attr) return undefined;
      const base = this.resolveExpr(object, depth + 1);
      if (!base) return undefined;
      return this.member(base, attr, depth + 1);
    }
    return undefined;
  }

  /**
   * The call an expression holds: itself (`Thing()`), or the value a name
   * or attribute expression is bound to when that is a call.
   */
  heldCall(expr: Node): Node | undefined {
    const value = unwrap(expr);
    if (value.type === "call") return value;
    const target = this.resolveExpr(value);
    const made = target?.kind === "value" ? unwrap(target.node) : undefined;
    return made?.type === "call" ? made : undefined;
  }

  /**
   * The call that made the object a receiver holds: `x = Client(...)` (in
   * its function, else its module or the module it is imported from), or
   * `self.x = Client(...)` in a method of the class of `self.x`.
   */
  madeBy(object: Node): Node | undefined {
    let value: Node | undefined;
    if (object.type === "identifier") {
      const target = this.resolveExpr(object);
      if (target?.kind === "value") value = target.node;
    } else if (
      object.type === "attribute" &&
      object.childForFieldName("object")?.text === "self"
    ) {
      value = selfAttribute(
        object,
        object.childForFieldName("attribute")?.text ?? "",
      );
    }
    const made = value ? unwrap(value) : undefined;
    return made?.type === "call" ? made : undefined;
  }

  /**
   * The methods a `methods=[...]` argument lists (a list, tuple or set, or
   * one string: `method="GET"`), upper-cased; undefined when one of them is not a literal name.
   */
  methodList(list: Node): string[] | undefined {
    const items =
      list.type === "list" || list.type === "tuple" || list.type === "set"
        ? namedChildren(list).map((n) => this.evalString(n))
        : [unwrap(list).type === "string" ? this.evalString(list) : undefined];
    const methods: string[] = [];
    for (const item of items) {
      const text = exactText(item);
      if (!text || !/^[A-Za-z]+$/.test(text)) return undefined;
      methods.push(text.toUpperCase());
    }
    return methods;
  }

  /** The member `attr` of a resolved target. */
  member(base: PyTarget, attr: string, depth: number): PyTarget | undefined {
    switch (base.kind) {
      case "external":
        return { kind: "external", name: `${base.name}.${attr}` };
      case "module":
        return this.resolveName(base.module, attr, depth + 1);
      case "class": {
        const value = classAttribute(base.node, attr);
        return value
          ? { kind: "value", module: base.module, node: value }
          : undefined;
      }
      case "value": {
        // an instance: settings = Settings() -> Settings.attr
        const value = unwrap(base.node);
        if (value.type !== "call") return undefined;
        const callee = value.childForFieldName("function");
        if (!callee) return undefined;
        const cls = this.resolveExpr(callee, depth + 1);
        if (cls?.kind === "class") return this.member(cls, attr, depth + 1);
        // settings = get_settings(): what the function returns
        if (cls?.kind === "function") {
          const result = this.returned(cls.module, cls.node, depth + 1);
          return result ? this.member(result, attr, depth + 1) : undefined;
        }
        return undefined;
      }
      default:
        return undefined;
    }
  }

  /**
   * What calling a function gives: the class its return annotation names
   * (`-> Settings`), else the value of its one `return` expression.
   */
  returned(
    module: PyModule,
    fn: Node,
    depth: number,
  ): PyTarget | undefined {
    if (depth > MAX_DEPTH) return undefined;
    const annotation = fn.childForFieldName("return_type");
    const type = annotation ? namedChildren(annotation)[0] ?? annotation : null;
    if (type) {
      const cls = this.resolveExpr(type, depth + 1);
      if (cls?.kind === "class") return cls;
    }
    const returns = findAll(fn, RETURNS).filter((r) =>
      enclosingFunction(module, r)?.id === fn.id
    );
    const value = returns.length === 1
      ? namedChildren(returns[0]!)[0]
      : undefined;
    return value ? { kind: "value", module, node: value } : undefined;
  }

  /** The external dotted name an expression refers to (`rq.get` → `requests.get`). */
  externalName(node: Node): string | undefined {
    const target = this.resolveExpr(node);
    return target?.kind === "external" ? target.name : undefined;
  }

  /** The external dotted name a call's callee refers to (`rq.get(...)` → `requests.get`). */
  calleeName(call: Node): string | undefined {
    const callee = call.childForFieldName("function");
    return callee ? this.externalName(callee) : undefined;
  }

  /** Evaluates a string expression; `undefined` when it is not string-like. */
  evalString(node: Node | null | undefined, depth = 0): Value | undefined {
    if (!node || depth > MAX_DEPTH) return undefined;
    switch (node.type) {
      case "string":
      case "concatenated_string": {
        const parts = stringParts(node);
        if (!parts) return undefined;
        return concat(
          parts.map((part) =>
            typeof part === "string"
              ? literal(part)
              : this.evalString(part, depth + 1)
          ),
        );
      }
      case "parenthesized_expression":
        return this.evalString(namedChildren(node)[0], depth + 1);
      case "binary_operator": {
        const operator = node.childForFieldName("operator")?.text;
        const left = this.evalString(node.childForFieldName("left"), depth + 1);
        const rightNode = node.childForFieldName("right");
        if (operator === "+") {
          const right = this.evalString(rightNode, depth + 1);
          if (!left && !right) return undefined;
          return concat([left, right]);
        }
        if (operator === "%" && left) {
          const args = rightNode?.type === "tuple"
            ? namedChildren(rightNode).map((n) => this.evalString(n, depth + 1))
            : [this.evalString(rightNode, depth + 1)];
          return formatPrintf(left, args);
        }
        return undefined;
      }
      case "identifier":
      case "attribute": {
        const target = this.resolveExpr(node, depth + 1);
        if (!target && node.type === "identifier") {
          // a parameter: the callers of the function supply it
          const module = this.moduleOf(node);
          return module && isParameter(module, node)
            ? hole(node.text, "parameter")
            : undefined;
        }
        if (target?.kind !== "value") return undefined;
        const value = this.evalString(target.node, depth + 1);
        return value ? composed(value) : undefined;
      }
      case "call":
        return this.#evalCall(node, depth);
      case "subscript": {
        // os.environ["BASE_URL"]
        const object = node.childForFieldName("value");
        if (object && this.externalName(object) === "os.environ") {
          return hole(node.text, "env");
        }
        // app.config["BASE_URL"], assigned elsewhere in the module
        const module = this.moduleOf(node);
        const assigned = module ? subscriptValue(module, node) : undefined;
        if (!assigned || assigned.id === node.id) return undefined;
        const value = this.evalString(assigned, depth + 1);
        return value ? composed(value) : undefined;
      }
      default:
        return undefined;
    }
  }

  #evalCall(node: Node, depth: number): Value | undefined {
    const callee = node.childForFieldName("function");
    const args = node.childForFieldName("arguments");
    if (!callee || !args) return undefined;
    if (callee.type === "attribute") {
      const method = callee.childForFieldName("attribute")?.text;
      const object = callee.childForFieldName("object");
      if (method === "format" && object) {
        const format = this.evalString(object, depth + 1);
        if (!format) return undefined;
        const positional: Array<Value | undefined> = [];
        const named = new Map<string, Value | undefined>();
        for (const arg of namedChildren(args)) {
          if (arg.type === "keyword_argument") {
            const key = arg.childForFieldName("name")?.text ?? "";
            named.set(
              key,
              this.evalString(arg.childForFieldName("value"), depth + 1),
            );
          } else positional.push(this.evalString(arg, depth + 1));
        }
        return formatBraces(format, positional, named);
      }
    }
    const name = this.externalName(callee);
    if (
      name === "os.getenv" || name === "os.environ.get" ||
      name === "os.environ.setdefault"
    ) {
      const [, fallback] = positionalArgs(args);
      if (!fallback) return hole(node.text, "env");
      const value = this.evalString(fallback, depth + 1);
      return value ? composed(value) : undefined;
    }
    return undefined;
  }
}

/** Every proper dotted suffix of the module names (`a.b.c` → `b.c`, `c`). */
function suffixIndex(
  modules: readonly PyModule[],
): Map<string, PyModule | null> {
  const index = new Map<string, PyModule | null>();
  for (const module of modules) {
    const name = module.name;
    for (
      let dot = name.indexOf(".");
      dot !== -1;
      dot = name.indexOf(".", dot + 1)
    ) {
      const suffix = name.slice(dot + 1);
      index.set(suffix, index.has(suffix) ? null : module);
    }
  }
  return index;
}

// The helpers on one module's syntax, for the readers of the folder.
export * from "./module.ts";
