// Istio VirtualService routes: each `http` entry's `match` (`uri.prefix`,
// `uri.exact`; `regex` is left out) sends requests to its `route`
// destination's host, the matched prefix replaced by `rewrite.uri`.
import { isMap, isSeq } from "yaml";
import {
  prefixRoute,
  type RouteDocument,
  serviceOfHost,
} from "./prefix_route.ts";
import { lineOf, matchesOf, scalar, specEntries } from "./yaml_nodes.ts";

/** Reads the routes of one `kind: VirtualService` document. */
export function virtualServiceRoutes(doc: RouteDocument): void {
  for (const entry of specEntries(doc.root, "http")) {
    const destinations = entry.get("route");
    const first = isSeq(destinations) ? destinations.items[0] : undefined;
    const destination = isMap(first) ? first.get("destination") : undefined;
    const host = isMap(destination)
      ? scalar(destination.get("host"))
      : undefined;
    const target = host === undefined ? undefined : serviceOfHost(host);
    if (target === undefined || host === undefined) continue;
    const rewrite = entry.get("rewrite");
    const replacement = isMap(rewrite) ? scalar(rewrite.get("uri")) : undefined;
    for (const match of matchesOf(entry.get("match"))) {
      const uri = isMap(match) ? match.get("uri") : undefined;
      const method = isMap(match) ? match.get("method") : undefined;
      const exact = isMap(uri) ? scalar(uri.get("exact")) : undefined;
      const prefix = isMap(uri) ? scalar(uri.get("prefix")) : undefined;
      // a match on something else than the path (headers, a regex) is
      // not told apart: without a path it covers every path
      if (isMap(uri) && exact === undefined && prefix === undefined) continue;
      const route = prefixRoute({
        gateway: doc.gateway,
        id: scalar(entry.get("name")) ?? "",
        prefix: exact ?? prefix ?? "/",
        exact: exact !== undefined,
        method: isMap(method)
          ? scalar(method.get("exact"))?.toUpperCase()
          : undefined,
        target,
        uri: host,
        ...(replacement === undefined ? {} : { replacement }),
        filePath: doc.path,
        line: lineOf(match ?? entry, doc.lines),
        framework: "istio",
      });
      if (route) doc.into.push(route);
    }
  }
}
