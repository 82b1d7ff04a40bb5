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
  const out: Node[] = [];
  walk(block, (n) => {
    if (
      n.type === "identifier" && n.text === pattern.text &&
      n.startIndex >= binding.endIndex &&
      n.parent?.type !== "scoped_identifier"
    ) out.push(n);
  });
  return out;
}

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
