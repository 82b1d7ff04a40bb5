// A light model of a Go project: files grouped by package directory, their
// imports, package-level declarations, struct field types and methods, and
// static answers to "what is this identifier?" (its declaration), "what is
// its type?" and "what string does this expression build?".
import type { ExtractDiagnostic, SourceFile } from "../extractor.ts";
import type { CompactTree, Node } from "../_syntax/compact_tree.ts";
import {
  collectNodes,
  namedChildren,
  parseAllCompact,
  stringParts,
} from "../_syntax/compact_tree.ts";
import type { Value } from "../_value/mod.ts";
import {
  composed,
  concat,
  formatPrintf,
  hole,
  literal,
} from "../_value/mod.ts";
import {
  CONSTRUCTORS,
  declaredNames,
  declares,
  DECLARING,
  FIELD_TYPES,
  HTTP_METHOD_CONSTANTS,
  importSpecs,
  METHOD_RESULTS,
  normalizeImport,
  packageName,
  parametersOf,
  type ScopeIndex,
  structField,
} from "./declarations.ts";

/** One parsed Go file. */
export interface GoFile {
  /** The source file. */
  file: SourceFile;
  /** Directory of the file: its package. */
  dir: string;
  /** The compact parse tree (plain JavaScript; no WASM memory held). */
  tree: CompactTree;
  /** Local package name → import path. */
  imports: Map<string, string>;
}

/** A Go type, as far as the extractors care: package import path and name. */
export interface GoType {
  /** Import path of the package, `""` for a type of the same package. */
  pkg: string;
  /** Type name, e.g. `Router`. */
  name: string;
  /** Package directory when `pkg` is `""` (a project type). */
  dir?: string;
}

/** Where an identifier was declared. */
export type GoDeclaration =
  | { kind: "value"; node: Node; index: number; single: boolean }
  | { kind: "param"; fn: Node; index: number; type: Node | null }
  | { kind: "typed"; type: Node };

interface Package {
  values: Map<string, Node>;
  structs: Map<string, Node>;
  functions: Map<string, Node>;
  methods: Map<string, Map<string, Node>>;
}

const MAX_DEPTH = 10;
// Nodes whose direct children may declare names (or that hold parameters).
const SCOPES: ReadonlySet<string> = new Set([
  "function_declaration",
  "method_declaration",
  "func_literal",
  "block",
  "statement_list",
  "if_statement",
  "for_clause",
  "expression_switch_statement",
  "type_switch_statement",
  "expression_case",
  "default_case",
  "type_case",
  "communication_case",
]);
const FUNCTIONS: ReadonlySet<string> = new Set([
  "function_declaration",
  "method_declaration",
  "func_literal",
]);

/** Every Go file of a scan root, parsed once. */
export class GoProject {
  /** Files in input order. */
  readonly files: GoFile[] = [];
  #packages = new Map<string, Package>();
  #byTree = new Map<object, GoFile>();
  #scopes = new Map<object, Map<number, ScopeIndex>>();
  #files = new Map<GoFile, { calls: Node[]; scopes: Node[] }>();
  // import path -> package directories of the scan root (computed once)
  #dirs = new Map<string, string[]>();

  /** Parses the files; unparseable ones become diagnostics. */
  static async load(
    files: readonly SourceFile[],
    diagnostics: ExtractDiagnostic[],
    reportSyntax = false,
  ): Promise<GoProject> {
    const parsed = await parseAllCompact(
      files,
      "go",
      diagnostics,
      reportSyntax,
    );
    const project = new GoProject();
    for (const { file, tree } of parsed) {
      const slash = file.path.lastIndexOf("/");
      const goFile: GoFile = {
        file,
        dir: slash === -1 ? "" : file.path.slice(0, slash),
        tree,
        imports: new Map(),
      };
      project.files.push(goFile);
      project.#byTree.set(tree, goFile);
      project.#index(goFile);
    }
    return project;
  }

  /** Every call expression of a file, in source order (computed once). */
  callsIn(file: GoFile): Node[] {
    return this.#fileIndex(file).calls;
  }

  /** Drops the per-file indexes (compact trees need no explicit release). */
  delete(): void {
    this.#files.clear();
    this.#scopes.clear();
  }

  /** The file a node belongs to. */
  fileOf(node: Node): GoFile | undefined {
    return this.#byTree.get(node.tree);
  }

  /** The import path bound to a package name in the file of `node`. */
  importOf(node: Node, name: string): string | undefined {
    return this.fileOf(node)?.imports.get(name);
  }

  /** `pkg.Name` where `pkg` is an import: `[import path, Name]`. */
  qualified(node: Node | null | undefined): [string, string] | undefined {
    if (node?.type !== "selector_expression") return undefined;
    const operand = node.childForFieldName("operand");
    const field = node.childForFieldName("field")?.text;
    if (operand?.type !== "identifier" || !field) return undefined;
    const path = this.importOf(node, operand.text);
    if (!path) return undefined;
    if (this.declarationOf(operand)) return undefined; // a variable shadows
    return [path, field];
  }

  /** Package-level function of the package of `at`. */
  functionNamed(at: Node, name: string): Node | undefined {
    const dir = this.fileOf(at)?.dir;
    return dir === undefined
      ? undefined
      : this.#packages.get(dir)?.functions.get(name);
  }

  /** Methods declared on a project type. */
  methodsOf(type: GoType): Map<string, Node> | undefined {
    if (type.pkg !== "") {
      // a type of another package of the scan root
      for (const dir of this.#dirsOf(type.pkg)) {
        const methods = this.#packages.get(dir)?.methods.get(type.name);
        if (methods) return methods;
      }
      return undefined;
    }
    if (type.dir === undefined) return undefined;
    return this.#packages.get(type.dir)?.methods.get(type.name);
  }

  /** The struct type (`struct_type` node) of a project type. */
  structOf(type: GoType): Node | undefined {
    const dirs = type.pkg !== ""
      ? this.#dirsOf(type.pkg)
      : type.dir === undefined
      ? []
      : [type.dir];
    for (const dir of dirs) {
      const struct = this.#packages.get(dir)?.structs.get(type.name);
      if (struct) return struct;
    }
    return undefined;
  }

  /** Package directories of the scan root an import path may refer to. */
  packageDirs(importPath: string): string[] {
    return this.#dirsOf(importPath);
  }

  #dirsOf(importPath: string): string[] {
    let out = this.#dirs.get(importPath);
    if (!out) this.#dirs.set(importPath, out = this.#findDirs(importPath));
    return out;
  }

  #findDirs(importPath: string): string[] {
    const last = importPath.split("/").pop() ?? importPath;
    const out: string[] = [];
    for (const dir of this.#packages.keys()) {
      if (dir === "") continue;
      if (
        importPath === dir || importPath.endsWith("/" + dir) ||
        dir === last || dir.endsWith("/" + last)
      ) out.push(dir);
    }
    return out;
  }

  /** A package-level function of a package of the scan root (import path). */
  packageFunction(importPath: string, name: string): Node | undefined {
    for (const dir of this.#dirsOf(importPath)) {
      const fn = this.#packages.get(dir)?.functions.get(name);
      if (fn) return fn;
    }
    return undefined;
  }

  /** Every package-level function of a package directory. */
  functionsIn(dir: string): Map<string, Node> {
    return this.#packages.get(dir)?.functions ?? new Map();
  }

  /** The declaration of an identifier in scope at its position. */
  declarationOf(identifier: Node): GoDeclaration | undefined {
    const name = identifier.text;
    const limit = identifier.startIndex;
    const file = this.fileOf(identifier);
    if (!file) return undefined;
    // the scopes containing the identifier, innermost last (no parent walk:
    // parent lookups are costly in WASM)
    const scopes = this.#fileIndex(file).scopes;
    const containing: Node[] = [];
    for (const scope of scopes) {
      if (scope.startIndex > limit) break;
      if (scope.endIndex >= identifier.endIndex && scope.id !== identifier.id) {
        containing.push(scope);
      }
    }
    for (let k = containing.length - 1; k >= 0; k--) {
      const scope = containing[k];
      if (!scope) continue;
      const index = this.#scopeIndex(scope);
      if (index.params) {
        const found = index.params.get(name);
        if (found) return found;
      }
      const entries = index.names.get(name);
      if (!entries) continue;
      for (let i = entries.length - 1; i >= 0; i--) {
        const entry = entries[i];
        if (entry && entry.end <= limit) {
          const found = declares(entry.statement, name);
          if (found) return found;
        }
      }
    }
    const value = this.#packages.get(file.dir)?.values.get(name);
    return value ? declares(value, name) : undefined;
  }

  #fileIndex(file: GoFile): { calls: Node[]; scopes: Node[] } {
    let index = this.#files.get(file);
    if (!index) {
      const calls: Node[] = [];
      const scopes: Node[] = [];
      const buckets = new Map<string, Node[]>([["call_expression", calls]]);
      for (const type of SCOPES) buckets.set(type, scopes);
      collectNodes(file.tree.rootNode, buckets);
      index = { calls, scopes };
      this.#files.set(file, index);
    }
    return index;
  }

  /** Declarations made directly in a scope node, computed once per node. */
  #scopeIndex(scope: Node): ScopeIndex {
    let perTree = this.#scopes.get(scope.tree);
    if (!perTree) this.#scopes.set(scope.tree, perTree = new Map());
    let index = perTree.get(scope.id);
    if (index) return index;
    index = { names: new Map() };
    if (FUNCTIONS.has(scope.type)) index.params = parametersOf(scope);
    for (const statement of namedChildren(scope)) {
      if (!DECLARING.has(statement.type)) continue;
      for (const name of declaredNames(statement)) {
        let list = index.names.get(name);
        if (!list) index.names.set(name, list = []);
        list.push({ end: statement.endIndex, statement });
      }
    }
    perTree.set(scope.id, index);
    return index;
  }

  /** The static type of an expression, when it can be told. */
  typeOf(expr: Node | null | undefined, depth = 0): GoType | undefined {
    if (!expr || depth > MAX_DEPTH) return undefined;
    switch (expr.type) {
      case "parenthesized_expression":
        return this.typeOf(namedChildren(expr)[0], depth + 1);
      case "unary_expression":
        return this.typeOf(expr.childForFieldName("operand"), depth + 1);
      case "composite_literal":
        return this.typeFromNode(expr.childForFieldName("type"));
      case "identifier": {
        const declaration = this.declarationOf(expr);
        if (!declaration) return undefined;
        if (declaration.kind === "param" || declaration.kind === "typed") {
          return this.typeFromNode(declaration.type);
        }
        const value = declaration.node;
        if (!declaration.single && declaration.index > 0) return undefined;
        return this.typeOf(value, depth + 1);
      }
      case "selector_expression": {
        const qualified = this.qualified(expr);
        if (qualified) {
          if (qualified[0] === "net/http" && qualified[1] === "DefaultClient") {
            return { pkg: "net/http", name: "Client" };
          }
          return undefined;
        }
        const operand = this.typeOf(
          expr.childForFieldName("operand"),
          depth + 1,
        );
        const field = expr.childForFieldName("field")?.text;
        if (operand && field && operand.pkg !== "") {
          return FIELD_TYPES.get(
            `${normalizeImport(operand.pkg)}.${operand.name}.${field}`,
          );
        }
        if (!operand || !field || operand.dir === undefined) return undefined;
        const struct = this.#packages.get(operand.dir)?.structs.get(
          operand.name,
        );
        const fieldType = struct ? structField(struct, field) : undefined;
        return fieldType ? this.typeFromNode(fieldType) : undefined;
      }
      case "call_expression": {
        const callee = expr.childForFieldName("function");
        const qualified = this.qualified(callee);
        if (qualified) {
          const known = CONSTRUCTORS.get(
            `${normalizeImport(qualified[0])}.${qualified[1]}`,
          );
          if (known) return known;
          // generated gRPC stubs: pb.NewOrdersClient(conn) -> pb.OrdersClient
          const stub = /^New(\w+Client)$/.exec(qualified[1]);
          return stub?.[1] ? { pkg: qualified[0], name: stub[1] } : undefined;
        }
        if (callee?.type === "identifier") {
          const fn = this.functionNamed(expr, callee.text);
          if (!fn && callee.text === "new") {
            // new(T): a *T
            const args = expr.childForFieldName("arguments");
            return this.typeFromNode(args ? namedChildren(args)[0] : null);
          }
          const result = fn?.childForFieldName("result");
          if (result && result.type !== "parameter_list") {
            return this.typeFromNode(result);
          }
          return undefined;
        }
        if (callee?.type === "selector_expression") {
          const receiver = this.typeOf(
            callee.childForFieldName("operand"),
            depth + 1,
          );
          const method = callee.childForFieldName("field")?.text;
          if (!receiver || !method) return undefined;
          return METHOD_RESULTS.get(
            `${normalizeImport(receiver.pkg)}.${receiver.name}.${method}`,
          );
        }
        return undefined;
      }
      default:
        return undefined;
    }
  }

  /** A type node (`*mux.Router`, `chi.Router`, `Server`) as a `GoType`. */
  typeFromNode(node: Node | null | undefined): GoType | undefined {
    if (!node) return undefined;
    switch (node.type) {
      case "pointer_type":
      case "parenthesized_type":
        return this.typeFromNode(namedChildren(node)[0]);
      case "qualified_type": {
        const pkg = node.childForFieldName("package")?.text;
        const name = node.childForFieldName("name")?.text;
        const path = pkg ? this.importOf(node, pkg) : undefined;
        return path && name ? { pkg: path, name } : undefined;
      }
      case "type_identifier": {
        const dir = this.fileOf(node)?.dir;
        return dir === undefined
          ? { pkg: "", name: node.text }
          : { pkg: "", name: node.text, dir };
      }
      case "generic_type":
        return this.typeFromNode(node.childForFieldName("type"));
      default:
        return undefined;
    }
  }

  /** Evaluates a string expression; `undefined` when it is not string-like. */
  evalString(expr: Node | null | undefined, depth = 0): Value | undefined {
    if (!expr || depth > MAX_DEPTH) return undefined;
    switch (expr.type) {
      case "interpreted_string_literal":
      case "raw_string_literal":
        return goString(expr);
      case "parenthesized_expression":
        return this.evalString(namedChildren(expr)[0], depth + 1);
      case "binary_expression": {
        if (expr.childForFieldName("operator")?.text !== "+") return undefined;
        const left = this.evalString(expr.childForFieldName("left"), depth + 1);
        const right = this.evalString(
          expr.childForFieldName("right"),
          depth + 1,
        );
        if (!left && !right) return undefined;
        return concat([left, right]);
      }
      case "identifier": {
        const declaration = this.declarationOf(expr);
        // a string parameter: the callers of the function supply it
        if (
          declaration?.kind === "param" && declaration.index >= 0 &&
          declaration.type?.text === "string"
        ) return hole(expr.text, "parameter");
        if (declaration?.kind !== "value") return undefined;
        if (!declaration.single) return undefined;
        const value = this.evalString(declaration.node, depth + 1);
        return value ? composed(value) : undefined;
      }
      case "selector_expression": {
        const qualified = this.qualified(expr);
        if (!qualified) return undefined;
        const method = HTTP_METHOD_CONSTANTS.get(qualified.join("."));
        if (method) return literal(method);
        const node = this.#packageValue(qualified[0], qualified[1]);
        const value = node ? this.evalString(node, depth + 1) : undefined;
        return value ? composed(value) : undefined;
      }
      case "call_expression": {
        const qualified = this.qualified(expr.childForFieldName("function"));
        const args = namedChildren(expr.childForFieldName("arguments") ?? expr)
          .filter((n) => n.type !== "comment");
        if (qualified?.[0] === "fmt" && qualified[1] === "Sprintf") {
          const [format, ...rest] = args;
          const value = this.evalString(format, depth + 1);
          if (!value) return undefined;
          return formatPrintf(
            value,
            rest.map((a) => this.evalString(a, depth + 1)),
          );
        }
        if (qualified?.[0] === "os" && qualified[1] === "Getenv") {
          return hole(expr.text, "env");
        }
        return undefined;
      }
      default:
        return undefined;
    }
  }

  #packageValue(importPath: string, name: string): Node | undefined {
    for (const dir of this.#dirsOf(importPath)) {
      const spec = this.#packages.get(dir)?.values.get(name);
      if (spec) {
        const declaration = declares(spec, name);
        if (declaration?.kind === "value" && declaration.single) {
          return declaration.node;
        }
      }
    }
    return undefined;
  }

  #index(goFile: GoFile): void {
    let pkg = this.#packages.get(goFile.dir);
    if (!pkg) {
      pkg = {
        values: new Map(),
        structs: new Map(),
        functions: new Map(),
        methods: new Map(),
      };
      this.#packages.set(goFile.dir, pkg);
      this.#dirs.clear();
    }
    for (const top of namedChildren(goFile.tree.rootNode)) {
      switch (top.type) {
        case "import_declaration":
          for (const spec of importSpecs(top)) {
            const path = spec.childForFieldName("path");
            const pathText = path ? stringParts(path)?.join("") : undefined;
            if (typeof pathText !== "string") continue;
            const alias = spec.childForFieldName("name")?.text;
            goFile.imports.set(alias ?? packageName(pathText), pathText);
          }
          break;
        case "const_declaration":
        case "var_declaration":
          for (const spec of namedChildren(top)) {
            const specs = spec.type === "var_spec_list"
              ? namedChildren(spec)
              : [spec];
            for (const s of specs) {
              for (const name of s.childrenForFieldName("name")) {
                if (name) pkg.values.set(name.text, s);
              }
            }
          }
          break;
        case "type_declaration":
          for (const spec of namedChildren(top)) {
            const name = spec.childForFieldName("name")?.text;
            const type = spec.childForFieldName("type");
            if (name && type?.type === "struct_type") {
              pkg.structs.set(name, type);
            }
          }
          break;
        case "function_declaration":
        case "method_declaration":
          this.#indexFunction(pkg, top);
          break;
      }
    }
  }

  /** Files a package's function, or a method under its receiver's type. */
  #indexFunction(pkg: Package, fn: Node): void {
    const name = fn.childForFieldName("name")?.text;
    if (!name) return;
    if (fn.type === "function_declaration") {
      pkg.functions.set(name, fn);
      return;
    }
    const receiver = fn.childForFieldName("receiver");
    const param = receiver ? namedChildren(receiver)[0] : undefined;
    const type = param
      ? this.typeFromNode(param.childForFieldName("type"))
      : undefined;
    if (!type) return;
    let methods = pkg.methods.get(type.name);
    if (!methods) pkg.methods.set(type.name, methods = new Map());
    methods.set(name, fn);
  }
}

/** A Go string literal's value (Go strings interpolate nothing). */
function goString(node: Node): Value | undefined {
  const parts = stringParts(node);
  return parts && concat(
    parts.map((p) => typeof p === "string" ? literal(p) : undefined),
  );
}

/** The conventional package name of an import path (`chi/v5` → `chi`). */

export { normalizeImport, packageName } from "./declarations.ts";
