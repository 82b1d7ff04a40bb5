// PHP extractor: Laravel routes (`Route::get`, groups, prefixes,
// resources), Slim (`$app->get`, `$app->group`), Symfony `#[Route]`
// attributes, and Guzzle / Laravel `Http` client calls.
import type { Node } from "web-tree-sitter";
import type { SourceFile } from "../extractor.ts";
import type { ExtractedPort } from "../types.ts";
import type { Value } from "../_value/mod.ts";
import { composed, exactText, hole } from "../_value/mod.ts";
import { evaluateStringExpression, formatValue } from "../_value/literals.ts";
import type { ConstantTable, DeclaredConstant } from "../_value/constants.ts";
import { collectDeclaredConstants } from "../_value/constants.ts";
import { findAncestor, namedChildren, walk } from "../_syntax/tree.ts";
import { lastAssignment } from "../_syntax/locals.ts";
import { PHP_FUNCTIONS, PhpCalls } from "./flow.ts";
import { phpRouters } from "./routers.ts";
import { VERB_METHODS } from "./verbs.ts";
import { plainPage } from "./page.ts";
import type { KeptTrees } from "../_syntax/passes.ts";
import type { RoutePrefix } from "./routes_yaml.ts";
import { resourceActions } from "../_port/http.ts";
import { TreeFile } from "../_syntax/passes.ts";

export const ROUTE_VERBS: Record<string, string> = {
  ...VERB_METHODS,
  any: "ANY",
};
export const CLIENT_VERBS: Record<string, string> = {
  ...VERB_METHODS,
  getAsync: "GET",
  postAsync: "POST",
  putAsync: "PUT",
  patchAsync: "PATCH",
  deleteAsync: "DELETE",
  headAsync: "HEAD",
};

/** A PHPUnit test case class (`class FooTest extends TestCase`). */
const TEST_CASE = /\bclass\s+\w+\s+extends\s+\\?[\w\\]*TestCase\b/;

/** Laravel's resource actions: method, path suffix. */
export const RESOURCE_ACTIONS: ReadonlyArray<[string, string, string]> =
  resourceActions({
    names: { new: "create", create: "store" },
    newPath: "/create",
    member: "/{id}",
  });
export const API_ACTIONS = new Set([
  "index",
  "store",
  "show",
  "update",
  "destroy",
]);

/** The value nodes of a call's arguments (positional and named). */
export function callArguments(
  call: Node,
): Array<{ name?: string; value: Node }> {
  const list = call.childForFieldName("arguments") ??
    call.childForFieldName("parameters") ??
    namedChildren(call).find((c) => c.type === "arguments");
  const out: Array<{ name?: string; value: Node }> = [];
  for (const arg of list ? namedChildren(list) : []) {
    if (arg.type !== "argument") continue;
    const name = arg.childForFieldName("name");
    const value = namedChildren(arg).filter((c) => c.id !== name?.id).at(-1);
    if (!value) continue;
    out.push(name ? { name: name.text, value } : { value });
  }
  return out;
}

export function positional(call: Node): Node[] {
  return callArguments(call).filter((a) => !a.name).map((a) => a.value);
}

export function named(call: Node, key: string): Node | undefined {
  return callArguments(call).find((a) => a.name === key)?.value;
}

/** Entries of an array literal: `[key => value]` or `[value]`. */
export function arrayEntries(
  node: Node | undefined,
): Array<{ key?: Node; value: Node }> {
  if (node?.type !== "array_creation_expression") return [];
  const out: Array<{ key?: Node; value: Node }> = [];
  for (const element of namedChildren(node)) {
    if (element.type !== "array_element_initializer") continue;
    const parts = namedChildren(element);
    if (parts.length === 2) out.push({ key: parts[0]!, value: parts[1]! });
    else if (parts[0]) out.push({ value: parts[0] });
  }
  return out;
}

/** The value of `key` in an array literal (`['key' => value]`). */
export function arrayValue(
  c: PhpFile,
  node: Node | undefined,
  key: string,
): Node | undefined {
  return arrayEntries(node).find((e) =>
    e.key && exactText(c.evaluate(e.key)) === key
  )?.value;
}

/** The exact text a node evaluates to, if it has one. */
export function textValue(
  c: PhpFile,
  node: Node | undefined,
): string | undefined {
  return node ? exactText(c.evaluate(node)) : undefined;
}

export function lastName(text: string): string {
  return text.slice(text.lastIndexOf("\\") + 1);
}

/**
 * A camel-case name's words lower-cased and joined by `separator`, the URL
 * form routers give a class or action: `BlogPost` -> `blog-post`, `blog_post`.
 */
export function joinedWords(name: string, separator: "-" | "_"): string {
  return name.replace(/([a-z0-9])([A-Z])/g, `$1${separator}$2`).toLowerCase();
}

/** The PHP 8 attributes of a declaration (`#[Route(..)]`): short name, node. */
export function attributes(decl: Node): Array<{ name: string; node: Node }> {
  const lists = decl.childForFieldName("attributes");
  const out: Array<{ name: string; node: Node }> = [];
  for (const group of lists ? namedChildren(lists) : []) {
    for (const attribute of namedChildren(group)) {
      if (attribute.type !== "attribute") continue;
      const name = namedChildren(attribute).find((n) => /name$/.test(n.type));
      out.push({ name: lastName(name?.text ?? ""), node: attribute });
    }
  }
  return out;
}

/** One PHP file being scanned: its imports, string evaluation and locals. */
export class PhpFile extends TreeFile {
  /** Local class names imported from Guzzle / Slim / Symfony routing. */
  readonly guzzleClasses = new Set<string>();
  slim = false;
  symfony = false;
  /** Whether the file mentions Guzzle at all. */
  guzzle = false;

  /** Where the scan's plain PHP pages are served from (`""`: the root). */
  documentRoots: readonly string[] = [""];

  constructor(
    file: SourceFile,
    constants: Map<string, Value>,
    ports: ExtractedPort[],
    /** Directories whose attribute routes a routing file prefixes. */
    readonly routePrefixes: readonly RoutePrefix[] = [],
    kept?: KeptTrees,
  ) {
    super(file, constants, ports, kept);
  }

  /** The calls of the root's functions (for values through parameters). */
  get calls(): PhpCalls {
    return this.#calls ??= new PhpCalls(this);
  }
  #calls: PhpCalls | undefined;

  run(root: Node): void {
    this.rootNode = root;
    walk(root, (n) => {
      if (n.type !== "namespace_use_clause") return;
      const text = n.text.replace(/^\\/, "");
      const alias = namedChildren(n).find((c) => c.type === "name")?.text;
      if (/^GuzzleHttp\\(Client|ClientInterface)\b/.test(text)) {
        const local = / as (\w+)$/.exec(text)?.[1] ?? alias ??
          lastName(text);
        this.guzzleClasses.add(local);
      }
      if (/^Slim\\/.test(text)) this.slim = true;
      if (
        /^Symfony\\Component\\Routing\\(Attribute|Annotation)\\Route/.test(text)
      ) {
        this.symfony = true;
      }
      return false;
    });
    this.guzzle = this.file.text.includes("GuzzleHttp");
    this.guzzleClasses.add("\\GuzzleHttp\\Client");
    this.guzzleClasses.add("GuzzleHttp\\Client");
    const before = this.ports.length;
    walk(root, phpRouters(this));
    plainPage(this, root, this.documentRoots);
    // a PHPUnit test case's routes serve its tests, never real traffic
    if (TEST_CASE.test(this.file.text)) {
      const kept = this.ports.splice(before)
        .filter((p) => p.ref.role !== "server");
      this.ports.push(...kept);
    }
  }

  evaluate(node: Node | null | undefined, depth = 0): Value {
    if (!node || depth > 8) return hole("?");
    const inner = (e: Node | null) => this.evaluate(e, depth + 1);
    const read = evaluateStringExpression(node, ".", inner);
    if (read) return read;
    switch (node.type) {
      case "class_constant_access_expression": {
        const parts = namedChildren(node);
        const scope = parts[0]?.text ?? "";
        const name = parts[1]?.text ?? "";
        let cls = lastName(scope);
        if (scope === "self" || scope === "static") {
          cls = enclosingClass(node) ?? "";
        }
        const value = this.constants.get(`${cls}::${name}`);
        return value ? composed(value) : hole(node.text);
      }
      case "variable_name": {
        const value = this.localValue(node);
        if (value) return composed(this.evaluate(value, depth + 1));
        // a named function's parameter: its callers supply it
        const param = this.parameter(node);
        return param && PHP_FUNCTIONS.has(param.parent?.parent?.type ?? "")
          ? hole(node.text, "parameter")
          : hole(node.text);
      }
      case "function_call_expression": {
        const fn = node.childForFieldName("function")?.text ?? "";
        const first = positional(node)[0];
        if (fn === "sprintf" && first) {
          return formatValue(this.evaluate(first, depth + 1));
        }
        if ((fn === "env" || fn === "getenv") && positional(node)[1]) {
          return composed(this.evaluate(positional(node)[1], depth + 1));
        }
        return hole(node.text);
      }
      default:
        return hole(node.text);
    }
  }

  /** The last `$x = value;` before a use of `$x` in its function. */
  localValue(variable: Node): Node | undefined {
    return lastAssignment(variable, PHP_SCOPES, "assignment_expression");
  }

  parameter(variable: Node): Node | undefined {
    for (let n: Node | null = variable.parent; n; n = n.parent) {
      if (
        n.type === "anonymous_function" || n.type === "arrow_function" ||
        n.type === "method_declaration" || n.type === "function_definition"
      ) {
        const params = n.childForFieldName("parameters");
        for (const p of params ? namedChildren(params) : []) {
          if (p.childForFieldName("name")?.text === variable.text) return p;
        }
        if (n.type !== "arrow_function") return undefined;
      }
    }
    return undefined;
  }
}

export function chainRootOf(node: Node): Node {
  let n = node;
  while (n.type === "member_call_expression") {
    const object = n.childForFieldName("object");
    if (!object) break;
    n = object;
  }
  return n;
}

/** Where a PHP variable is local: a function, else the file. */
const PHP_SCOPES: ReadonlySet<string> = new Set([
  "method_declaration",
  "function_definition",
  "anonymous_function",
  "arrow_function",
  "program",
]);
const CLASSES: ReadonlySet<string> = new Set(["class_declaration"]);
const INTERFACES: ReadonlySet<string> = new Set(["interface_declaration"]);

/** The name of the class a node is in. */
export function enclosingClass(node: Node): string | undefined {
  return findAncestor(node, CLASSES)?.childForFieldName("name")?.text;
}

/** The class, else the interface, a node is in (the owner of its `self`). */
function declaringType(node: Node): string | undefined {
  return enclosingClass(node) ??
    findAncestor(node, INTERFACES)?.childForFieldName("name")?.text;
}

/** A reference to a class constant: `Class::X` (`self::X` in its class). */
function constantName(node: Node): string | undefined {
  if (node.type !== "class_constant_access_expression") return undefined;
  const [scope, name] = namedChildren(node);
  if (!scope || !name) return undefined;
  const cls = scope.text === "self" || scope.text === "static"
    ? declaringType(node)
    : lastName(scope.text);
  return cls ? `${cls}::${name.text}` : undefined;
}

/**
 * `const X = '...'` in classes and interfaces: `Class::X`; one built from
 * others (`self::BASE . '/v1'`) keeps them as `constant` holes until
 * `settleConstants` fills them.
 */
export function collectConstants(root: Node, constants: ConstantTable): void {
  collectDeclaredConstants(root, constants, classConstants);
}

/** The constants of a `const` declaration, by `Class::X`. */
function classConstants(node: Node): DeclaredConstant[] | undefined {
  if (node.type !== "const_declaration") return undefined;
  const cls = declaringType(node);
  return namedChildren(node).flatMap((element) => {
    const [name, value] = namedChildren(element);
    if (element.type !== "const_element" || !name || !value || !cls) return [];
    return [{
      value,
      nameOf: constantName,
      keys: [`${cls}::${name.text}`],
      operator: ".",
    }];
  });
}
