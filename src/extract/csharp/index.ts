// The parsed C# files of a scan root, kept together: class declarations and
// method calls by name across files (extension methods, base controllers,
// wrappers called from other files).
import type { Node, Tree } from "web-tree-sitter";
import type { SourceFile } from "../extractor.ts";
import { walk } from "../_syntax/tree.ts";
import { KeptTrees } from "../_syntax/passes.ts";
import { CallIndex } from "../_syntax/calls.ts";

/** A parsed file of the root. */
export interface CSharpTree {
  file: SourceFile;
  tree: Tree;
}

/** Declarations and calls of every parsed file, by simple name. */
export class CSharpIndex {
  readonly trees: CSharpTree[] = [];
  readonly kept: KeptTrees = new KeptTrees();
  readonly #calls: CallIndex = new CallIndex(this.kept, calledName);
  #classes: Map<string, Node[]> | undefined;

  /** Keeps a parsed file (until {@linkcode CSharpIndex.delete}). */
  add(file: SourceFile, tree: Tree): void {
    this.trees.push({ file, tree });
    this.kept.keep(file, tree);
  }

  /** The class declarations named `name`. */
  classes(name: string): Node[] {
    if (!this.#classes) {
      this.#classes = new Map();
      for (const { tree } of this.trees) {
        walk(tree.rootNode, (n) => {
          if (n.type !== "class_declaration") return;
          const id = n.childForFieldName("name")?.text;
          if (!id) return;
          const list = this.#classes!.get(id);
          if (list) list.push(n);
          else this.#classes!.set(id, [n]);
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
    const all = this.#calls.calls(name);
    return member
      ? all.filter((call) =>
        call.childForFieldName("function")?.type === "member_access_expression"
      )
      : all;
  }

  /** The calls index over every parsed file. */
  get callIndex(): CallIndex {
    return this.#calls;
  }

  /** The file a node of a kept tree belongs to. */
  fileOf(node: Node): SourceFile | undefined {
    return this.kept.fileOf(node);
  }

  /** Frees the trees. */
  delete(): void {
    this.kept.delete();
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
