// Values kept under a constant key of a mapping: `app.config["CART_URI"] =
// "http://{}/cart".format(...)` in one place, `app.config["CART_URI"]` read
// in another (Flask's configuration, a settings dict). A read takes the
// value the module assigns to the same object and key; keys assigned more
// than once with different texts are left unresolved.
import { findAll, type Node, stringValue } from "../_syntax/compact_tree.ts";
import type { PyModule } from "./module.ts";

const ASSIGNMENTS: ReadonlySet<string> = new Set(["assignment"]);

/** Per module: `object\0key` -> the assigned value, `null` when ambiguous. */
const cache = new WeakMap<PyModule, Map<string, Node | null>>();

/** The key of a `subscript` read or target: object text and string key. */
function keyOf(subscript: Node): string | undefined {
  const object = subscript.childForFieldName("value");
  const index = subscript.childForFieldName("subscript");
  if (!object || !index || index.type !== "string") return undefined;
  const key = stringValue(index);
  return key === undefined ? undefined : `${object.text}\u0000${key}`;
}

function assignmentsOf(module: PyModule): Map<string, Node | null> {
  let found = cache.get(module);
  if (found !== undefined) return found;
  found = new Map();
  for (const assignment of findAll(module.tree.rootNode, ASSIGNMENTS)) {
    const left = assignment.childForFieldName("left");
    const right = assignment.childForFieldName("right");
    if (left?.type !== "subscript" || !right) continue;
    const key = keyOf(left);
    if (key === undefined) continue;
    const earlier = found.get(key);
    if (earlier === undefined) found.set(key, right);
    else if (earlier !== null && earlier.text !== right.text) {
      found.set(key, null);
    }
  }
  cache.set(module, found);
  return found;
}

/** The value the module assigns to the subscript `object["key"]` read here. */
export function subscriptValue(
  module: PyModule,
  subscript: Node,
): Node | undefined {
  const key = keyOf(subscript);
  if (key === undefined) return undefined;
  return assignmentsOf(module).get(key) ?? undefined;
}
