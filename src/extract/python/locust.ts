// Locust load tests: `self.client` of a user or task set class (a subclass
// of `locust.HttpUser`, `FastHttpUser`, `TaskSet`...) is an HTTP session
// on the host under test, so its calls are client ports like requests';
// so is `user.client` in a helper of a Locust file that takes the user.
import { baseClasses, libraryClass, MAX_BASES } from "./classes.ts";
import { type PyProject, unwrap } from "./project.ts";
import type { Node } from "../_syntax/compact_tree.ts";

/** Whether `object` is `self.client` in a method of a Locust class. */
export function isLocustClient(object: Node, project: PyProject): boolean {
  if (
    object.type !== "attribute" ||
    object.childForFieldName("attribute")?.text !== "client"
  ) return false;
  const holder = object.childForFieldName("object")?.text;
  if (holder !== "self") {
    return holder !== undefined && isUserParameter(object, holder);
  }
  let scope = object.parent;
  while (scope && scope.type !== "class_definition") scope = scope.parent;
  if (!scope) return false;
  const bases = baseClasses(scope).slice(0, MAX_BASES);
  return bases.some((base) =>
    libraryClass(project, unwrap(base))?.startsWith("locust.") ?? false
  );
}

/**
 * Whether `name` is a parameter of the function around `node` in a file
 * that imports Locust: a helper a task calls with its user
 * (`def signup(user, name): user.client.post("/signup")`).
 */
function isUserParameter(node: Node, name: string): boolean {
  let fn = node.parent;
  while (fn && fn.type !== "function_definition") fn = fn.parent;
  const parameters = fn?.childForFieldName("parameters");
  if (!parameters) return false;
  let named = false;
  for (let i = 0; i < parameters.namedChildCount; i++) {
    const p = parameters.namedChild(i);
    const id = p?.type === "identifier" ? p : p?.namedChild(0);
    if (id?.text === name) named = true;
  }
  if (!named) return false;
  let root: Node = fn!;
  while (root.parent) root = root.parent;
  return /^\s*(?:from\s+locust\b|import\s+locust\b)/m.test(root.text);
}
