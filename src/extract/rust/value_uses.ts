// Where a value goes: the later uses of a `let` binding, the function a
// value is returned from and the calls of that function across the scan.
import { type Node, walk } from "../_syntax/tree.ts";
import { tailOf } from "./nodes.ts";
import type { RustScan } from "./project.ts";

/**
 * The uses of the name a `let` declaration binds, after it in its block
 * (not a path segment such as `admin::admin`); none for other patterns.
 */
export function bindingUses(binding: Node): Node[] {
  const pattern = binding.childForFieldName("pattern");
  const block = binding.parent;
  if (pattern?.type !== "identifier" || !block) return [];
  return namesIn(block).get(pattern.text)?.filter((n) =>
    n.startIndex >= binding.endIndex
  ) ?? [];
}

/** The identifiers of a block by name (not path segments), built once. */
function namesIn(block: Node): Map<string, Node[]> {
  let byBlock = NAMES.get(block.tree);
  if (!byBlock) NAMES.set(block.tree, byBlock = new Map());
  let names = byBlock.get(block.id);
  if (names) return names;
  names = new Map();
  walk(block, (n) => {
    if (n.type !== "identifier" || n.parent?.type === "scoped_identifier") {
      return;
    }
    const list = names!.get(n.text);
    if (list) list.push(n);
    else names!.set(n.text, [n]);
  });
  byBlock.set(block.id, names);
  return names;
}

/** Identifier indexes by tree and block. */
const NAMES = new WeakMap<object, Map<number, Map<string, Node[]>>>();

/**
 * The function whose value `node` is: the tail expression of its body, or
 * the value of a `return` in it.
 */
export function returnedBy(c: RustScan, node: Node): Node | undefined {
  const parent = node.parent;
  if (parent?.type === "return_expression") return c.enclosingFunction(node);
  const fn = parent?.parent;
  return parent?.type === "block" && fn?.type === "function_item" &&
      tailOf(parent)?.id === node.id
    ? fn
    : undefined;
}

/** The calls of a function across the scan (also under `use .. as` names). */
export function callsOf(c: RustScan, fn: Node): Node[] {
  const name = fn.childForFieldName("name")?.text;
  const home = c.fileOf(fn);
  if (!name || !home) return [];
  const out: Node[] = [];
  for (const use of c.usesOf(name, home)) {
    if (use.parent?.id === fn.id) continue;
    const site = use.parent?.type === "scoped_identifier" ? use.parent : use;
    const call = site.parent;
    if (
      call?.type === "call_expression" &&
      call.childForFieldName("function")?.id === site.id
    ) out.push(call);
  }
  return out;
}
