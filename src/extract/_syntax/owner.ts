// Finds the code element that owns a port: the enclosing function, method
// or class (or the module), per grammar, as a `PortOwner`.
import type { GrammarName } from "./parser.ts";
import { ancestorsOf, baseName, type Node, spanOf } from "./tree.ts";
import type { PortOwner } from "../types.ts";

/** Per-grammar node type names of the owners. */
export interface OwnerSpec {
  /** Named function definitions. */
  functions: ReadonlySet<string>;
  /** Method definitions (always inside a class-like scope). */
  methods: ReadonlySet<string>;
  /** Class-like scopes that qualify the names inside them. */
  classes: ReadonlySet<string>;
  /**
   * Anonymous functions (arrows, lambdas) named after the variable, property
   * or assignment they are bound to; unnamed ones are transparent.
   */
  anonymous: ReadonlySet<string>;
}

function spec(
  functions: string[],
  methods: string[],
  classes: string[],
  anonymous: string[] = [],
): OwnerSpec {
  return {
    functions: new Set(functions),
    methods: new Set(methods),
    classes: new Set(classes),
    anonymous: new Set(anonymous),
  };
}

const JS_SPEC = spec(
  ["function_declaration", "generator_function_declaration"],
  ["method_definition"],
  ["class_declaration", "abstract_class_declaration", "class"],
  ["arrow_function", "function_expression", "function", "generator_function"],
);

/** The owner node types of each grammar of `_parser.ts`. */
export const OWNER_SPECS: Readonly<Record<GrammarName, OwnerSpec>> = {
  javascript: JS_SPEC,
  typescript: JS_SPEC,
  tsx: JS_SPEC,
  python: spec(["function_definition"], [], ["class_definition"], ["lambda"]),
  go: spec(["function_declaration"], ["method_declaration"], [], [
    "func_literal",
  ]),
  java: spec([], ["method_declaration", "constructor_declaration"], [
    "class_declaration",
    "interface_declaration",
    "enum_declaration",
    "record_declaration",
  ], ["lambda_expression"]),
  "c-sharp": spec(["local_function_statement"], [
    "method_declaration",
    "constructor_declaration",
  ], [
    "class_declaration",
    "struct_declaration",
    "record_declaration",
    "interface_declaration",
  ], ["lambda_expression"]),
  rust: spec(["function_item"], [], ["impl_item", "trait_item"], [
    "closure_expression",
  ]),
  php: spec(["function_definition"], ["method_declaration"], [
    "class_declaration",
    "trait_declaration",
    "interface_declaration",
    "enum_declaration",
  ], ["anonymous_function", "arrow_function"]),
  ruby: spec([], ["method", "singleton_method"], ["class", "module"], []),
  kotlin: spec(["function_declaration"], [], [
    "class_declaration",
    "object_declaration",
  ], ["lambda_literal", "anonymous_function"]),
  cpp: spec(["function_definition"], [], [
    "class_specifier",
    "struct_specifier",
  ], ["lambda_expression"]),
};

interface Scope {
  node: Node;
  name: string;
  kind: "function" | "method" | "class";
}

/**
 * The owner of `node`: the innermost named function, method or class that
 * contains it (or is it), qualified by the enclosing classes and functions
 * (`<file>::<Class>.<method>`); the module when there is none.
 *
 * @param node A node inside the owner, or the owner's definition itself.
 * @param filePath The file, relative to the scan root.
 * @param grammar The grammar the tree was parsed with.
 */
export function ownerOf(
  node: Node,
  filePath: string,
  grammar: GrammarName,
): PortOwner {
  const rules = OWNER_SPECS[grammar];
  const scopes: Scope[] = [];
  for (const current of [node, ...ancestorsOf(node)]) {
    const scope = scopeOf(current, rules, grammar);
    if (scope) scopes.push(scope);
  }
  const innermost = scopes[0];
  if (!innermost) return moduleOwner(filePath);
  // A function directly inside a class-like scope is a method.
  let kind = innermost.kind;
  if (kind === "function" && scopes[1]?.kind === "class") {
    if (grammar !== "c-sharp") kind = "method";
  }
  const names = scopes.map((s) => s.name).reverse();
  return {
    kind,
    name: innermost.name,
    qualifiedName: `${filePath}::${names.join(".")}`,
    filePath,
    span: spanOf(innermost.node),
  };
}

/** Where a port at `node` is reported: the node, its owner and file. */
export function placeOf(
  node: Node,
  filePath: string,
  grammar: GrammarName,
): { node: Node; owner: PortOwner; filePath: string } {
  return { node, owner: ownerOf(node, filePath, grammar), filePath };
}

/** The module (file) owner for top-level code. */
export function moduleOwner(filePath: string): PortOwner {
  return {
    kind: "module",
    name: baseName(filePath),
    qualifiedName: filePath,
    filePath,
  };
}

function scopeOf(
  node: Node,
  rules: OwnerSpec,
  grammar: GrammarName,
): Scope | undefined {
  const type = node.type;
  if (rules.classes.has(type)) {
    const name = className(node, grammar);
    return name ? { node, name, kind: "class" } : undefined;
  }
  if (rules.methods.has(type)) {
    const name = node.childForFieldName("name")?.text;
    if (!name) return undefined;
    if (grammar === "go") {
      // func (s *Server) Get() -> Server.Get
      const receiver = goReceiverType(node);
      return {
        node,
        name: receiver ? `${receiver}.${name}` : name,
        kind: "method",
      };
    }
    return { node, name, kind: "method" };
  }
  if (rules.functions.has(type)) {
    const name = node.childForFieldName("name")?.text ??
      (grammar === "cpp" ? cppDeclaratorName(node) : undefined);
    return name ? { node, name, kind: "function" } : undefined;
  }
  if (rules.anonymous.has(type)) {
    const name = node.childForFieldName("name")?.text ?? boundName(node);
    return name ? { node, name, kind: "function" } : undefined;
  }
  return undefined;
}

/** What {@linkcode cppDeclaratorName} reads of a node (full or compact tree). */
interface Declared {
  readonly type: string;
  readonly text: string;
  childForFieldName(name: string): Declared | null | undefined;
}

/** A C++ function definition's name (`SayHello`, `Impl::SayHello`). */
export function cppDeclaratorName(fn: Declared): string | undefined {
  let declarator = fn.childForFieldName("declarator");
  for (let depth = 0; declarator && depth < 8; depth++) {
    if (declarator.type === "function_declarator") {
      return declarator.childForFieldName("declarator")?.text;
    }
    declarator = declarator.childForFieldName("declarator");
  }
  return undefined;
}

function className(node: Node, grammar: GrammarName): string | undefined {
  if (grammar === "rust" && node.type === "impl_item") {
    // impl Trait for Type { ... } qualifies by the implementing type
    return node.childForFieldName("type")?.text;
  }
  return node.childForFieldName("name")?.text;
}

function goReceiverType(node: Node): string | undefined {
  const receiver = node.childForFieldName("receiver");
  if (!receiver) return undefined;
  const match = /([A-Za-z_][A-Za-z0-9_]*)(?:\[[^\]]*\])?\s*\)\s*$/.exec(
    receiver.text,
  );
  return match?.[1];
}

/** The variable, property or assignment target an anonymous function is bound to. */
function boundName(node: Node): string | undefined {
  let parent = node.parent;
  // const f = wrap(() => ...) keeps the anonymous function unnamed.
  while (parent && parent.type === "parenthesized_expression") {
    parent = parent.parent;
  }
  if (!parent) return undefined;
  switch (parent.type) {
    case "variable_declarator": // js, ts
      return identifierText(parent.childForFieldName("name"));
    case "pair": // js object literal { list: () => ... }
      return identifierText(parent.childForFieldName("key"));
    case "public_field_definition": // ts class field
    case "field_definition": // js class field
      return identifierText(
        parent.childForFieldName("name") ??
          parent.childForFieldName("property"),
      );
    case "assignment_expression": // js: exports.list = function () {}
    case "assignment": // python: handler = lambda: ...
    {
      const left = parent.childForFieldName("left");
      if (!left) return undefined;
      if (left.type === "member_expression") {
        return left.childForFieldName("property")?.text;
      }
      return identifierText(left);
    }
    default:
      return undefined;
  }
}

function identifierText(node: Node | null): string | undefined {
  if (!node) return undefined;
  return /^[A-Za-z_$][\w$]*$/.test(node.text) ? node.text : undefined;
}
