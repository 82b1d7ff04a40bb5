// A fast collecting walk: reads node types through the tree cursor (no Node
// object per visited node) and materialises only the nodes asked for.
import type { Node } from "web-tree-sitter";

/**
 * Every named descendant of `root` (and `root`) whose type is a key of
 * `buckets`, pushed to that bucket in source order.
 */
export function collectNodes(
  root: Node,
  buckets: ReadonlyMap<string, Node[]>,
): void {
  const cursor = root.walk();
  try {
    for (;;) {
      if (cursor.nodeIsNamed) {
        const bucket = buckets.get(cursor.nodeType);
        if (bucket) bucket.push(cursor.currentNode);
        if (cursor.gotoFirstChild()) continue;
      }
      while (!cursor.gotoNextSibling()) {
        if (!cursor.gotoParent()) return;
      }
    }
  } finally {
    cursor.delete();
  }
}
