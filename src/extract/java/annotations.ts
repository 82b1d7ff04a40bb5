// Java annotations: their names, their elements and the values an
// element lists (`{a, b}`), as Spring, JAX-RS, Micronaut and the queue
// listeners read them.
import type { Node } from "web-tree-sitter";
import { HTTP_METHODS } from "../_port/http.ts";

/** Annotation name (last segment of a qualified name). */
export function annotationName(node: Node): string {
  const name = node.childForFieldName("name")?.text ?? "";
  const dot = name.lastIndexOf(".");
  return dot < 0 ? name : name.slice(dot + 1);
}

/** The annotations in a declaration's modifiers. */
export function annotationsOf(decl: Node): Node[] {
  const out: Node[] = [];
  for (const child of decl.namedChildren) {
    if (child?.type !== "modifiers") continue;
    for (const m of child.namedChildren) {
      if (m && (m.type === "annotation" || m.type === "marker_annotation")) {
        out.push(m);
      }
    }
  }
  return out;
}

/** The value nodes of an annotation element (`value`/`path` or positional). */
export function annotationElement(
  annotation: Node,
  keys: readonly string[],
): Node | undefined {
  const args = annotation.childForFieldName("arguments");
  if (!args) return undefined;
  for (const child of args.namedChildren) {
    if (!child) continue;
    if (child.type === "element_value_pair") {
      const key = child.childForFieldName("key")?.text ?? "";
      if (keys.includes(key)) {
        return child.childForFieldName("value") ?? undefined;
      }
    } else if (child.type === "ERROR") {
      // `@RequestMapping("/x", method = GET)`: javac wants `value = "/x"`
      // next to other elements; the parser keeps the positional value in
      // an error node, where it still names the path the author meant
      const value = child.namedChild(0);
      if (
        keys.includes("value") && child.namedChildCount === 1 &&
        value?.type === "string_literal"
      ) {
        return value;
      }
    } else if (keys.includes("value")) {
      return child;
    }
  }
  return undefined;
}

/** Expands `{a, b}` array initializers into their elements. */
export function elements(node: Node | undefined): Node[] {
  if (!node) return [];
  if (node.type === "element_value_array_initializer") {
    return node.namedChildren.filter((n): n is Node => n !== null);
  }
  return [node];
}

/**
 * The HTTP methods an annotation element names (`RequestMethod.GET`,
 * `{HttpMethod.GET, HttpMethod.POST}`); `ANY` when it names none.
 */
export function requestMethods(node: Node | undefined): string[] {
  const methods = elements(node)
    .map((n) => n.text.slice(n.text.lastIndexOf(".") + 1).toUpperCase())
    .filter((m) => HTTP_METHODS.has(m));
  return methods.length > 0 ? methods : ["ANY"];
}

/**
 * An annotation of a Java declaration as the framework readers see it: its
 * node (where ports are reported), simple name and elements.
 */
export class JavaAnnotation {
  /** The `annotation` / `marker_annotation` node. */
  readonly node: Node;
  /** The simple name (`RequestMapping` of `@org.x.RequestMapping`). */
  readonly name: string;

  constructor(node: Node) {
    this.node = node;
    this.name = annotationName(node);
  }

  /** The value of the first of `keys` it sets (`value` also positional). */
  element(keys: readonly string[]): Node | undefined {
    return annotationElement(this.node, keys);
  }

  /** The values an element lists (`{a, b}`), or its one value. */
  values(keys: readonly string[]): Node[] {
    return elements(this.element(keys));
  }

  /** The HTTP methods an element names (see {@linkcode requestMethods}). */
  methods(keys: readonly string[]): string[] {
    return requestMethods(this.element(keys));
  }
}

/** The annotations of a declaration, read (see {@linkcode annotationsOf}). */
export function javaAnnotations(decl: Node): JavaAnnotation[] {
  return annotationsOf(decl).map((node) => new JavaAnnotation(node));
}
