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
  for (const body of bodies) {
    const source = standalone(text, body.startIndex, body.endIndex);
    if (source === undefined) continue;
    const tree = await parseSource("rust", source);
    if (tree.rootNode.hasError) tree.delete();
    else out.push(tree);
  }
  return out;
}

/**
 * The text with only `[start, end)` kept and the opening tokens written
 * into the blank before it (never over a line break), `;}` after it.
 */
function standalone(
  text: string,
  start: number,
  end: number,
): string | undefined {
  const chars: string[] = [...text.slice(0, start)].map((c) =>
    c === "\n" ? c : " "
  );
  if (chars.length !== start) return undefined; // astral characters
  let at = 0;
  for (const token of OPENING) {
    while (at < start) {
      const room = chars.slice(at, at + token.length);
      if (room.length === token.length && !room.includes("\n")) break;
      at++;
    }
    if (at + token.length >= start) return undefined;
    for (let k = 0; k < token.length; k++) chars[at + k] = token[k]!;
    at += token.length + 1;
  }
  return chars.join("") + text.slice(start, end) + ";}";
}
