// Code inside `vec![...]`: tree-sitter leaves a macro's body as tokens, so
// router lists such as `vec![Router::with_path("x").get(h), ..]` are parsed
// again as an array expression, in a text of the same length where every
// other character is blank: the new tree's positions are the file's own.
import type { Tree } from "web-tree-sitter";
import { parseSource } from "../_syntax/parser.ts";
import { namedChildren, type Node, walk } from "../_syntax/tree.ts";
import { lastSegment } from "./nodes.ts";
import { isTestItem } from "./test_code.ts";

/** The most `vec!` bodies parsed again in one file. */
const MAX_TREES = 64;
/** The tokens written before a body to make it a statement. */
const OPENING = ["fn", "__vec", "(", ")", "{", "let", "_", "="];

/**
 * Trees of the `vec![...]` bodies of a file that hold calls (those that
 * parse without errors), at the positions of the file.
 */
export async function macroTrees(root: Node, text: string): Promise<Tree[]> {
  const bodies: Node[] = [];
  walk(root, (n) => {
    if (isTestItem(n)) return false;
    if (n.type !== "macro_invocation") return;
    const tokens = namedChildren(n).find((t) => t.type === "token_tree");
    if (
      lastSegment(n.childForFieldName("macro")) === "vec" && tokens &&
      tokens.text.startsWith("[") && tokens.text.includes("(") &&
      bodies.length < MAX_TREES
    ) bodies.push(tokens);
    return false;
  });
  const out: Tree[] = [];
  const blank = bodies.length > 0 ? blankText(text) : undefined;
  for (const body of bodies) {
    const source = standalone(text, blank!, body.startIndex, body.endIndex);
    if (source === undefined) continue;
    const tree = await parseSource("rust", source);
    if (tree.rootNode.hasError) tree.delete();
    else out.push(tree);
  }
  return out;
}

/** A file's text blanked, the opening tokens written in: built once per file. */
interface BlankText {
  /** Every character but line breaks blank, the opening tokens written. */
  headed: string;
  /** Where the last opening token ends (a body must start after it). */
  end: number;
  /** Where the first surrogate pair is (-1: none). */
  astral: number;
}

/**
 * The text blanked but for its line breaks, with the opening tokens written
 * into the first blanks that hold each (never over a line break).
 */
function blankText(text: string): BlankText {
  const chars = text.replace(/[^\n]/g, " ");
  let headed = "";
  let at = 0;
  for (const token of OPENING) {
    while (at + token.length <= chars.length) {
      if (!chars.slice(at, at + token.length).includes("\n")) break;
      at++;
    }
    headed += chars.slice(headed.length, at) + token;
    at += token.length + 1;
  }
  const end = headed.length;
  return {
    headed: headed + chars.slice(end),
    end,
    astral: text.search(/[\uD800-\uDBFF][\uDC00-\uDFFF]/),
  };
}

/**
 * The text with only `[start, end)` kept and the opening tokens written
 * into the blank before it, `;}` after it.
 */
function standalone(
  text: string,
  blank: BlankText,
  start: number,
  end: number,
): string | undefined {
  // astral characters before the body, or no room for the opening
  if (blank.astral !== -1 && blank.astral + 2 <= start) return undefined;
  if (blank.end >= start) return undefined;
  return blank.headed.slice(0, start) + text.slice(start, end) + ";}";
}
