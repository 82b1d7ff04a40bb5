// The calls around a node that it is passed into as part of a lambda
// argument (`path("/api", () -> { get(...) })`, `"/api".nest { GET(...) }`),
// for the route DSLs that nest routes in lambdas.
import type { Node } from "web-tree-sitter";

/** A lambda around a node and the call it is an argument of. */
export interface LambdaCall<C> {
  lambda: Node;
  call: C;
}

/**
 * The lambdas of type `lambdaType` around `node`, innermost first, each with
 * the call it is an argument of (its parent's parent, read by `callOf`);
 * a lambda that is no call's argument is passed over.
 */
export function* lambdaCalls<C>(
  node: Node,
  lambdaType: string,
  callOf: (holder: Node) => C | undefined,
): Generator<LambdaCall<C>> {
  for (let n: Node | null = node.parent; n; n = n.parent) {
    if (n.type !== lambdaType) continue;
    const holder = n.parent?.parent;
    const call = holder ? callOf(holder) : undefined;
    if (call) yield { lambda: n, call };
  }
}
