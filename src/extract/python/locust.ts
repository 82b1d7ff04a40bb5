// Locust load tests: `self.client` of a user or task set class (a subclass
// of `locust.HttpUser`, `FastHttpUser`, `TaskSet`...) is an HTTP session
// on the host under test, so its calls are client ports like requests'.
import { baseClasses, libraryClass, MAX_BASES } from "./classes.ts";
import { type PyProject, unwrap } from "./project.ts";
import type { Node } from "../_syntax/compact_tree.ts";

/** Whether `object` is `self.client` in a method of a Locust class. */
export function isLocustClient(object: Node, project: PyProject): boolean {
  if (
    object.type !== "attribute" ||
    object.childForFieldName("object")?.text !== "self" ||
    object.childForFieldName("attribute")?.text !== "client"
  ) return false;
  let scope = object.parent;
  while (scope && scope.type !== "class_definition") scope = scope.parent;
  if (!scope) return false;
  const bases = baseClasses(scope).slice(0, MAX_BASES);
  return bases.some((base) =>
    libraryClass(project, unwrap(base))?.startsWith("locust.") ?? false
  );
}
