// The HTTP port of a Go route or call the readers of one framework each find
// (go-zero, beego, huma, go-restful, Dapr): where it is, whose it is and how
// sure the reader is of its method.
import { type Node, ownerOf } from "../_syntax/compact_tree.ts";
import type { PathResult, Value } from "../_value/mod.ts";
import { CONFIDENCE, isEmpty, joinPaths, routePath } from "../_value/mod.ts";
import { httpPort } from "../_port/http.ts";
import type { ExtractedPort } from "../types.ts";
import type { GoProject } from "./project.ts";

/** Where and what a Go reader found. */
export interface GoRoute {
  /** The node the port is reported at. */
  at: Node;
  /** A node inside the owning code element (default: `at`). */
  owner?: Node;
  role?: "server" | "client";
  /** The HTTP method; `undefined` when not known (`ANY`, weak). */
  method: string | undefined;
  path: PathResult;
  framework: string;
  /** The most the reader allows. */
  confidence?: number;
  extra?: Record<string, string>;
}

/** The HTTP port of a route (or call) of a Go file. */
export function goRoutePort(
  project: GoProject,
  route: GoRoute,
): ExtractedPort | undefined {
  const file = project.fileOf(route.at)?.file.path ?? "";
  return httpPort({
    role: route.role ?? "server",
    method: route.method ?? "ANY",
    path: route.path.path,
    node: route.at,
    owner: ownerOf(route.owner ?? route.at, file, "go"),
    filePath: file,
    confidence: Math.min(
      route.path.confidence,
      route.confidence ?? CONFIDENCE.literal,
      route.method ? CONFIDENCE.literal : CONFIDENCE.weak,
    ),
    framework: route.framework,
    ...(route.extra ? { extra: route.extra } : {}),
  });
}

/**
 * The path of a route registered under a prefix (a group, namespace or web
 * service root): a prefix that is not empty counts as composed.
 */
export function prefixedRoutePath(prefix: Value, path: Value): PathResult {
  return routePath(joinPaths(prefix, path), !isEmpty(prefix));
}
