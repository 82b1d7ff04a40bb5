// The server ports of a Kotlin routing DSL's route (Ktor, http4k): the path
// under the prefixes of the blocks around it, owned by the function the
// route is declared in.
import type { Node } from "web-tree-sitter";
import { routePorts } from "../_port/http.ts";
import { ownerOf } from "../_syntax/owner.ts";
import { joinPaths, type Value } from "../_value/mod.ts";
import type { KtFile } from "./project.ts";

/** Adds the server ports of a route declared at `node`. */
export function serverRoute(
  c: KtFile,
  node: Node,
  route: { method: string; prefixes: Value[]; path: Value; framework: string },
): void {
  c.ports.push(...routePorts({
    methods: [route.method],
    path: joinPaths(...route.prefixes, route.path),
    prefixed: route.prefixes.length > 0,
    node,
    owner: ownerOf(node, c.pathOf(node), "kotlin"),
    filePath: c.file.path,
    framework: route.framework,
  }));
}
