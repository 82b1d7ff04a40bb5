// Kubernetes Gateway API `HTTPRoute`s: each rule's `matches` (a path of
// type `PathPrefix` or `Exact`, a `method`) go to its first `backendRefs`
// Service, the prefix replaced by a `URLRewrite` filter's
// `ReplacePrefixMatch` (`ReplaceFullPath` sets the whole path).
import { isMap, isSeq } from "yaml";
import { prefixRoute, type RouteDocument } from "./prefix_route.ts";
import { lineOf, matchesOf, scalar, specEntries } from "./yaml_nodes.ts";

/** Reads the routes of one `kind: HTTPRoute` document. */
export function httpRouteRoutes(doc: RouteDocument): void {
  for (const rule of specEntries(doc.root, "rules")) {
    const backends = rule.get("backendRefs");
    const backend = isSeq(backends) ? backends.items[0] : undefined;
    const target = isMap(backend) ? scalar(backend.get("name")) : undefined;
    if (target === undefined) continue;
    const rewrite = rewriteOf(rule.get("filters"));
    for (const match of matchesOf(rule.get("matches"))) {
      const pathMatch = isMap(match) ? match.get("path") : undefined;
      const type = isMap(pathMatch)
        ? scalar(pathMatch.get("type")) ?? "PathPrefix"
        : "PathPrefix";
      if (type !== "PathPrefix" && type !== "Exact") continue;
      const value = isMap(pathMatch) ? scalar(pathMatch.get("value")) : "/";
      if (value === undefined) continue;
      const route = prefixRoute({
        gateway: doc.gateway,
        prefix: value,
        exact: type === "Exact",
        method: isMap(match) ? scalar(match.get("method")) : undefined,
        target,
        uri: target,
        ...(rewrite?.prefix === undefined
          ? {}
          : { replacement: rewrite.prefix }),
        filePath: doc.path,
        line: lineOf(match ?? rule, doc.lines),
        framework: "gateway-api",
      });
      if (!route) continue;
      if (rewrite?.full !== undefined) route.setPath = rewrite.full;
      doc.into.push(route);
    }
  }
}

/** The path rewrite of a rule's `URLRewrite` filter. */
function rewriteOf(
  filters: unknown,
): { prefix?: string; full?: string } | undefined {
  if (!isSeq(filters)) return undefined;
  for (const filter of filters.items) {
    if (!isMap(filter) || scalar(filter.get("type")) !== "URLRewrite") continue;
    const rewrite = filter.get("urlRewrite");
    const pathRewrite = isMap(rewrite) ? rewrite.get("path") : undefined;
    if (!isMap(pathRewrite)) continue;
    const type = scalar(pathRewrite.get("type"));
    if (type === "ReplacePrefixMatch") {
      const prefix = scalar(pathRewrite.get("replacePrefixMatch"));
      if (prefix !== undefined) return { prefix };
    } else if (type === "ReplaceFullPath") {
      const full = scalar(pathRewrite.get("replaceFullPath"));
      if (full !== undefined) return { full };
    }
  }
  return undefined;
}
