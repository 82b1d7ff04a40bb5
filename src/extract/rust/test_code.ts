// Test code gives no routes: `#[cfg(test)]` modules, `#[test]` functions
// and Cargo's integration tests (`tests/`) build routers only to call them.
import type { Node } from "../_syntax/tree.ts";

/** Items test attributes can mark. */
const ITEMS = new Set(["mod_item", "function_item", "impl_item"]);

/** `#[cfg(test)]`, `#[test]`, `#[tokio::test]`, `#[actix_web::test]`... */
const TEST_ATTRIBUTE = /^#\[\s*(cfg\s*\(\s*test\s*\)|([\w:]+::)?test\b)/;

/** Whether a node is an item marked as test code by its attributes. */
export function isTestItem(node: Node): boolean {
  if (!ITEMS.has(node.type)) return false;
  for (
    let a = node.previousNamedSibling;
    a?.type === "attribute_item";
    a = a.previousNamedSibling
  ) {
    if (TEST_ATTRIBUTE.test(a.text)) return true;
  }
  return false;
}

/** Whether a file is a Cargo integration test or bench (`tests/`, `benches/`). */
export function isTestPath(path: string): boolean {
  return /(^|\/)(tests|benches)\//.test(path);
}
