// Spring composed annotations: an `@interface` annotated with a request
// mapping (`@GetMapping("/reports") @interface ReportsGet {}`) maps the
// classes and methods it annotates as the mapping it carries.
import type { Node } from "web-tree-sitter";
import { walk } from "../_syntax/tree.ts";
import { MAPPING_METHOD } from "../_spring/names.ts";
import { javaAnnotations } from "./annotations.ts";
import { stringParts } from "../_syntax/tree.ts";

/** The request mapping a composed annotation stands for. */
export interface ComposedMapping {
  /** The mapping annotation it carries (`GetMapping`, `RequestMapping`). */
  base: string;
  /** Its HTTP methods (`ANY` for a `@RequestMapping` without one). */
  methods: string[];
  /** Its literal paths (`[""]` when it names none). */
  paths: string[];
  /**
   * The path elements it declares itself (`String value() default ""`),
   * which a use sets in place of the carried path.
   */
  elements: Set<string>;
}

/** The most composed annotations a scan keeps. */
const MAX_COMPOSED = 256;

/** Collects the composed mapping annotations a file declares, by name. */
export function collectComposed(
  root: Node,
  composed: Map<string, ComposedMapping>,
): void {
  walk(root, (node) => {
    if (node.type !== "annotation_type_declaration") return;
    if (composed.size >= MAX_COMPOSED) return;
    const name = node.childForFieldName("name")?.text;
    const meta = javaAnnotations(node).find((a) => a.name in MAPPING_METHOD);
    if (!name || !meta) return;
    const fixed = MAPPING_METHOD[meta.name]!;
    const paths: string[] = [];
    for (const v of meta.values(["value", "path"])) {
      // a composed path is read as written: constants of other files are
      // not settled while the first pass collects it
      const parts = v.type === "string_literal" ? stringParts(v) : undefined;
      if (!parts || parts.some((p) => typeof p !== "string")) return;
      paths.push(parts.join(""));
    }
    const elements = new Set<string>();
    const body = node.childForFieldName("body");
    for (const member of body?.namedChildren ?? []) {
      const element = member?.type === "annotation_type_element_declaration"
        ? member.childForFieldName("name")?.text
        : undefined;
      if (element === "value" || element === "path") elements.add(element);
    }
    composed.set(name, {
      base: meta.name,
      methods: fixed === "ANY" ? meta.methods(["method"]) : [fixed],
      paths: paths.length > 0 ? paths : [""],
      elements,
    });
  });
}
