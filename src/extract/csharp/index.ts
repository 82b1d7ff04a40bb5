// The parsed C# files of a scan root, kept together: class declarations and
// method calls by name across files (extension methods, base controllers,
// wrappers called from other files).
import type { Node, Tree } from "web-tree-sitter";
import type { SourceFile } from "../extractor.ts";
import { walk } from "../_syntax/tree.ts";

/** A parsed file of the root. */
export interface CSharpTree {
  file: SourceFile;
  tree: Tree;
}

/** Declarations and calls of every parsed file, by simple name. */
export class CSharpIndex {
  readonly trees: CSharpTree[] = [];
  #classes: Map<string, Node[]> | undefined;
  #calls: Map<string, Node[]> | undefined;

  /** The class declarations named `name`. */
  classes(name: string): Node[] {
    if (!this.#classes) {
      this.#classes = new Map();
      for (const { tree } of this.trees) {
        walk(tree.rootNode, (n) => {
          if (n.type !== "class_declaration") return;
          const id = n.childForFieldName("name")?.text;
          if (id) push(this.#classes!, id, n);
        });
      }
    }
    return this.#classes.get(name) ?? [];
  }

  /**
   * The calls of a method named `name`: `x.Name(...)` with `member` only,
   * else also `Name(...)` and `Name<T>(...)`.
   */
  calls(name: string, member = false): Node[] {
    if (!this.#calls) {
      this.#calls = new Map();
      for (const { tree } of this.trees) {
        walk(tree.rootNode, (n) => {
          if (n.type !== "invocation_expression") return;
          const id = calledName(n);
          if (id) push(this.#calls!, id, n);
        });
      }
    }
    const all = this.#calls.get(name) ?? [];
    return member
      ? all.filter((call) =>
        call.childForFieldName("function")?.type === "member_access_expression"
      )
      : all;
  }

  /** The file a node of a kept tree belongs to. */
  fileOf(node: Node): SourceFile | undefined {
    return this.trees.find((t) => t.tree === node.tree)?.file;
  }

  /** Frees the trees. */
  delete(): void {
    for (const { tree } of this.trees) tree.delete();
  }
}

/** The simple name of the method an invocation calls. */
export function calledName(call: Node): string | undefined {
  let fn = call.childForFieldName("function");
  if (fn?.type === "member_access_expression") {
    fn = fn.childForFieldName("name");
  }
  if (fn?.type === "generic_name") fn = fn.namedChild(0);
  return fn?.type === "identifier" ? fn.text : undefined;
}

function push(map: Map<string, Node[]>, key: string, node: Node): void {
  const list = map.get(key);
  if (list) list.push(node);
  else map.set(key, [node]);
}
