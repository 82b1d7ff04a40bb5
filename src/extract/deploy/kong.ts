// Kong's declarative configuration (`_format_version`): each service's
// routes (`paths`, `methods`) forward to the service's URL host; with
// `strip_path` (Kong's default) the matched path is removed, and the
// service URL's own path goes before what is forwarded. Regex paths
// (`~/...`) are left out.
import { isMap, isSeq, type YAMLMap } from "yaml";
import {
  prefixRoute,
  type RouteDocument,
  serviceOfHost,
  splitUrl,
} from "./prefix_route.ts";
import { lineOf, scalar } from "./yaml_nodes.ts";

/** Whether a YAML text may be a Kong declarative configuration. */
export function mayBeKong(text: string): boolean {
  return text.includes("_format_version") && text.includes("services");
}

/** Where a Kong service sends requests. */
interface Upstream {
  host: string;
  path: string;
  uri: string;
}

/** Reads the routes of a Kong declarative configuration document. */
export function kongRoutes(doc: RouteDocument): void {
  const { root } = doc;
  if (root.get("_format_version") === undefined) return;
  const services = root.get("services");
  const byName = new Map<string, Upstream>();
  if (isSeq(services)) {
    for (const service of services.items) {
      if (!isMap(service)) continue;
      const upstream = upstreamOf(service);
      const name = scalar(service.get("name"));
      if (upstream && name !== undefined) byName.set(name, upstream);
      const routes = service.get("routes");
      if (!upstream || !isSeq(routes)) continue;
      for (const route of routes.items) {
        if (isMap(route)) readRoute(route, upstream);
      }
    }
  }
  // top-level routes name their service
  const routes = root.get("routes");
  if (isSeq(routes)) {
    for (const route of routes.items) {
      if (!isMap(route)) continue;
      const service = route.get("service");
      const name = isMap(service)
        ? scalar(service.get("name"))
        : scalar(service);
      const upstream = name === undefined ? undefined : byName.get(name);
      if (upstream) readRoute(route, upstream);
    }
  }

  function readRoute(route: YAMLMap, upstream: Upstream): void {
    const paths = route.get("paths");
    if (!isSeq(paths)) return;
    const methods = route.get("methods");
    const methodList = isSeq(methods)
      ? methods.items.map((m) => scalar(m)?.toUpperCase())
        .filter((m): m is string => m !== undefined)
      : [];
    const strip = scalar(route.get("strip_path")) !== "false";
    for (const item of paths.items) {
      const prefix = scalar(item);
      if (prefix === undefined || prefix.startsWith("~")) continue;
      for (const method of methodList.length > 0 ? methodList : ["ANY"]) {
        const read = prefixRoute({
          gateway: doc.gateway,
          id: scalar(route.get("name")) ?? "",
          prefix,
          method,
          target: upstream.host,
          uri: upstream.uri,
          ...(strip ? { replacement: "" } : {}),
          prefixPath: upstream.path,
          filePath: doc.path,
          line: lineOf(item, doc.lines),
          framework: "kong",
        });
        if (read) doc.into.push(read);
      }
    }
  }
}

/** A service's `url`, else its `host`/`path`. */
function upstreamOf(service: YAMLMap): Upstream | undefined {
  const url = scalar(service.get("url"));
  if (url !== undefined) {
    const parts = splitUrl(url);
    const host = parts ? serviceOfHost(parts.host) : undefined;
    return parts && host ? { host, path: parts.path, uri: url } : undefined;
  }
  const hostText = scalar(service.get("host"));
  const host = hostText === undefined ? undefined : serviceOfHost(hostText);
  if (host === undefined) return undefined;
  return { host, path: scalar(service.get("path")) ?? "", uri: hostText! };
}
