// One Python module: its imports, module-level names, calls and function
// scopes, and the readers of call arguments, local assignments and class
// attributes the extractors share.
import type { SourceFile } from "../extractor.ts";
import {
  collectNodes,
  type CompactTree,
  findAll,
  namedChildren,
  type Node,
} from "../_syntax/compact_tree.ts";
import { unwrapped } from "../_syntax/tree.ts";

/** What an imported local name refers to. */
export interface PyImport {
  /** Absolute dotted module name (as written, relative ones resolved). */
  module: string;
  /** The imported name inside the module; absent for `import x`. */
  name?: string;
  /**
   * For an absolute import in a package, the module of that name next to
   * the importing file (a script run from its directory imports it so).
   */
  sibling?: string;
}

/** One parsed Python module. */
export interface PyModule {
  /** The source file. */
  file: SourceFile;
  /** Dotted module name from the path (`app/api/main.py` → `app.api.main`). */
  name: string;
  /** The compact parse tree (plain JavaScript; no WASM memory held). */
  tree: CompactTree;
  /** Local names bound by imports. */
  imports: Map<string, PyImport>;
  /** Module-level `name = value` (last one wins). */
  assigns: Map<string, Node>;
  /** Module-level classes. */
  classes: Map<string, Node>;
  /** Module-level functions (the `function_definition`). */
  functions: Map<string, Node>;
  /** Every `call` node, in source order. */
  calls: Node[];
  /** Every `decorator` node, in source order. */
  decorators: Node[];
  /** Every `function_definition`, in source order (outer before inner). */
  scopes: Node[];
  /** Parameter names of each function (by node id), computed on demand. */
  parameters: Map<number, Set<string>>;
  /** Local assignments of each function (by node id), computed on demand. */
  locals: Map<number, Assignments>;
}

const ASSIGNMENT: ReadonlySet<string> = new Set(["assignment"]);

/** Positional arguments of an `argument_list`. */
export function positionalArgs(args: Node | null): Node[] {
  if (!args) return [];
  return namedChildren(args).filter((n) =>
    n.type !== "keyword_argument" && n.type !== "comment" &&
    n.type !== "list_splat" && n.type !== "dictionary_splat"
  );
}

/** The value of a keyword argument, or `undefined`. */
export function keywordArg(args: Node | null, name: string): Node | undefined {
  if (!args) return undefined;
  for (const arg of namedChildren(args)) {
    if (
      arg.type === "keyword_argument" &&
      arg.childForFieldName("name")?.text === name
    ) return arg.childForFieldName("value") ?? undefined;
  }
  return undefined;
}

/** The first positional argument or the keyword argument `name`. */
export function argument(
  args: Node | null,
  index: number,
  name: string,
): Node | undefined {
  return positionalArgs(args)[index] ?? keywordArg(args, name);
}

/** The object of `node` when it is the attribute expression `object.name`. */
export function attributeObject(
  node: Node | null | undefined,
  name: string,
): Node | undefined {
  if (
    node?.type !== "attribute" ||
    node.childForFieldName("attribute")?.text !== name
  ) return undefined;
  return node.childForFieldName("object") ?? undefined;
}

/** A decorator and the definition (function or class) that it decorates. */
export interface Decorated {
  decorator: Node;
  definition: Node;
}

/** The decorator a call is (`@api.route(...)`) and what it decorates. */
export function decoratorOf(call: Node): Decorated | undefined {
  const decorator = call.parent?.type === "decorator" ? call.parent : undefined;
  const definition = decorator?.parent?.childForFieldName("definition");
  return decorator && definition ? { decorator, definition } : undefined;
}

/** A call of a method or attribute, `object.method(args)`, in its module. */
export interface MemberCall {
  module: PyModule;
  call: Node;
  object: Node;
  method: string;
  args: Node | null;
}

/** The calls `object.method(...)` of the given modules, in order. */
export function* memberCalls(
  modules: Iterable<PyModule>,
): Generator<MemberCall> {
  for (const module of modules) {
    for (const call of module.calls) {
      const callee = call.childForFieldName("function");
      if (callee?.type !== "attribute") continue;
      const object = callee.childForFieldName("object");
      const method = callee.childForFieldName("attribute")?.text;
      if (!object || !method) continue;
      yield {
        module,
        call,
        object,
        method,
        args: call.childForFieldName("arguments"),
      };
    }
  }
}

/** Strips parentheses and `await`. */
export function unwrap(node: Node): Node {
  return unwrapped(node, WRAPPERS);
}

/** The wrappers that do not change an expression's value: `(x)`, `await x`. */
export const WRAPPERS: ReadonlySet<string> = new Set([
  "parenthesized_expression",
  "await",
]);

/**
 * The value assigned to `name` in the function enclosing `at`, the last
 * assignment that ends before `at`, or the value bound by `with X as name`.
 */
export function localAssignment(
  module: PyModule,
  at: Node,
  name: string,
): Node | undefined {
  const scope = enclosingFunction(module, at);
  if (!scope) return undefined;
  const list = functionAssignments(module, scope).get(name);
  if (!list) return undefined;
  const limit = at.startIndex;
  for (let i = list.length - 1; i >= 0; i--) {
    const entry = list[i];
    if (entry && entry.end <= limit) return entry.value;
  }
  return undefined;
}

/**
 * The innermost function definition containing `at`, from the module's
 * function list (no walk up the tree: parent lookups are costly in WASM).
 */
export function enclosingFunction(
  module: PyModule,
  at: Node,
): Node | undefined {
  const start = at.startIndex;
  const end = at.endIndex;
  let found: Node | undefined;
  for (const scope of module.scopes) {
    if (scope.startIndex > start) break;
    if (scope.endIndex >= end && scope !== at) found = scope;
  }
  return found;
}

/** Whether an identifier names a parameter of a function enclosing it. */
export function isParameter(module: PyModule, at: Node): boolean {
  const start = at.startIndex;
  for (const scope of module.scopes) {
    if (scope.startIndex > start) break;
    if (scope.endIndex < at.endIndex) continue;
    const body = scope.childForFieldName("body");
    if (!body || body.startIndex > start) continue; // a default value or annotation
    if (functionParameters(module, scope).has(at.text)) return true;
  }
  return false;
}

function functionParameters(module: PyModule, scope: Node): Set<string> {
  const perTree = module.parameters;
  let names = perTree.get(scope.id);
  if (names) return names;
  names = new Set();
  const parameters = scope.childForFieldName("parameters");
  for (const parameter of parameters ? namedChildren(parameters) : []) {
    const name = parameter.type === "identifier"
      ? parameter
      : parameter.childForFieldName("name") ?? namedChildren(parameter)[0];
    if (name?.type === "identifier") names.add(name.text);
  }
  perTree.set(scope.id, names);
  return names;
}

/** Assignments of a function body: name → values with the end of their statement. */
export type Assignments = Map<string, Array<{ end: number; value: Node }>>;

/** Assignments and `with ... as` bindings of a function body, computed once. */
function functionAssignments(module: PyModule, scope: Node): Assignments {
  const perTree = module.locals;
  let found = perTree.get(scope.id);
  if (found) return found;
  const assignments: Assignments = new Map();
  found = assignments;
  const add = (name: string, end: number, value: Node): void => {
    let list = assignments.get(name);
    if (!list) assignments.set(name, list = []);
    list.push({ end, value });
  };
  const visit = (node: Node): void => {
    for (const child of namedChildren(node)) {
      if (
        child.type === "function_definition" ||
        child.type === "class_definition"
      ) continue;
      if (child.type === "assignment") {
        const left = child.childForFieldName("left");
        const right = child.childForFieldName("right");
        if (left?.type === "identifier" && right) {
          add(left.text, child.endIndex, right);
        }
      } else if (child.type === "as_pattern") {
        const alias = child.childForFieldName("alias");
        const value = namedChildren(child)[0];
        if (alias && value) {
          add(alias.text.replace(/^\(|\)$/g, ""), child.endIndex, value);
        }
      }
      visit(child);
    }
  };
  const body = scope.childForFieldName("body");
  if (body) visit(body);
  perTree.set(scope.id, found);
  return found;
}

/** A class attribute (`X = ...` or `X: str = ...`) in a class body. */
export function classAttribute(cls: Node, attr: string): Node | undefined {
  const body = cls.childForFieldName("body");
  if (!body) return undefined;
  let found: Node | undefined;
  for (const statement of namedChildren(body)) {
    if (statement.type !== "expression_statement") continue;
    const assignment = namedChildren(statement)[0];
    if (assignment?.type !== "assignment") continue;
    const left = assignment.childForFieldName("left");
    const right = assignment.childForFieldName("right");
    if (left?.text === attr && right) found = right;
  }
  return found;
}

/** The dotted module name of a file path. */
export function moduleName(path: string): string {
  let name = path.replace(/\.pyi?$/, "").replaceAll("/", ".");
  if (name.endsWith(".__init__")) name = name.slice(0, -".__init__".length);
  if (name === "__init__") name = "";
  return name;
}

/** Reads the imports and module-level names of one parsed module. */
export function indexModule(file: SourceFile, tree: CompactTree): PyModule {
  const name = moduleName(file.path);
  const isPackage = /(^|\/)__init__\.pyi?$/.test(file.path);
  const module: PyModule = {
    file,
    name,
    tree,
    imports: new Map(),
    assigns: new Map(),
    classes: new Map(),
    functions: new Map(),
    calls: [],
    decorators: [],
    scopes: [],
    parameters: new Map(),
    locals: new Map(),
  };
  collectNodes(
    tree.rootNode,
    new Map([
      ["call", module.calls],
      ["decorator", module.decorators],
      ["function_definition", module.scopes],
    ]),
  );
  const packageName = isPackage ? name : name.split(".").slice(0, -1).join(".");
  const visitStatements = (container: Node): void => {
    for (const statement of namedChildren(container)) {
      switch (statement.type) {
        case "import_statement":
          for (const child of namedChildren(statement)) {
            if (child.type === "dotted_name") {
              // import a.b binds a; treat `a.b` lookups through the module map
              const first = child.text.split(".")[0] ?? child.text;
              module.imports.set(first, { module: first });
              if (child.text.includes(".")) {
                module.imports.set(child.text, { module: child.text });
              }
            } else if (child.type === "aliased_import") {
              const target = child.childForFieldName("name")?.text;
              const alias = child.childForFieldName("alias")?.text;
              if (target && alias) {
                module.imports.set(alias, { module: target });
              }
            }
          }
          break;
        case "import_from_statement": {
          const source = statement.childForFieldName("module_name");
          if (!source) break;
          const from = resolveRelative(source.text, packageName);
          const sibling = packageName && !source.text.startsWith(".")
            ? { sibling: `${packageName}.${from}` }
            : {};
          for (const child of statement.childrenForFieldName("name")) {
            if (!child) continue;
            if (child.type === "dotted_name") {
              module.imports.set(child.text, {
                module: from,
                name: child.text,
                ...sibling,
              });
            } else if (child.type === "aliased_import") {
              const target = child.childForFieldName("name")?.text;
              const alias = child.childForFieldName("alias")?.text;
              if (target && alias) {
                module.imports.set(alias, {
                  module: from,
                  name: target,
                  ...sibling,
                });
              }
            }
          }
          break;
        }
        case "expression_statement": {
          const assignment = namedChildren(statement)[0];
          if (assignment?.type !== "assignment") break;
          const left = assignment.childForFieldName("left");
          const right = assignment.childForFieldName("right");
          if (left?.type === "identifier" && right) {
            module.assigns.set(left.text, right);
          }
          break;
        }
        case "class_definition": {
          const className = statement.childForFieldName("name")?.text;
          if (className) module.classes.set(className, statement);
          break;
        }
        case "function_definition": {
          const fnName = statement.childForFieldName("name")?.text;
          if (fnName) module.functions.set(fnName, statement);
          break;
        }
        case "decorated_definition": {
          const definition = statement.childForFieldName("definition");
          const defName = definition?.childForFieldName("name")?.text;
          if (definition && defName) {
            if (definition.type === "class_definition") {
              module.classes.set(defName, definition);
            } else module.functions.set(defName, definition);
          }
          break;
        }
        case "with_statement": {
          // with workflow.unsafe.imports_passed_through(): from x import y
          const body = statement.childForFieldName("body");
          if (body) visitStatements(body);
          break;
        }
        case "if_statement":
        case "try_statement":
          // conditional imports and definitions
          for (const child of namedChildren(statement)) {
            if (child.type === "block") visitStatements(child);
            else if (
              child.type === "else_clause" || child.type === "except_clause" ||
              child.type === "elif_clause" || child.type === "finally_clause"
            ) {
              const block = namedChildren(child).find((c) =>
                c.type === "block"
              );
              if (block) visitStatements(block);
            }
          }
          break;
      }
    }
  };
  visitStatements(tree.rootNode);
  return module;
}

function resolveRelative(spec: string, packageName: string): string {
  const dots = /^\.*/.exec(spec)?.[0].length ?? 0;
  if (dots === 0) return spec;
  const parts = packageName === "" ? [] : packageName.split(".");
  const base = parts.slice(0, parts.length - (dots - 1));
  const rest = spec.slice(dots);
  return [...base, ...(rest ? [rest] : [])].join(".");
}

/** The value assigned to `self.<attr>` in any method of the enclosing class. */
export function selfAttribute(at: Node, attr: string): Node | undefined {
  let cls = at.parent;
  while (cls && cls.type !== "class_definition") cls = cls.parent;
  if (!cls) return undefined;
  let found: Node | undefined;
  for (const assignment of findAll(cls, ASSIGNMENT)) {
    const left = assignment.childForFieldName("left");
    if (
      left?.type === "attribute" &&
      left.childForFieldName("object")?.text === "self" &&
      left.childForFieldName("attribute")?.text === attr
    ) found = assignment.childForFieldName("right") ?? found;
  }
  return found;
}
