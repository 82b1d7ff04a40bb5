// Envoy's static configuration: the routes of every `route_config`
// (`virtual_hosts[].routes[]`: `match.prefix` or `match.path`, a
// `route.cluster`, `route.prefix_rewrite`) go to the host the cluster's
// endpoints name (`socket_address.address`), else to the cluster's name.
// Regex matches and rewrites are left out.
import { isMap, isSeq, type YAMLMap } from "yaml";
import type { GatewayRoute } from "../_port/gateway.ts";
import {
  prefixRoute,
  type RouteDocument,
  serviceOfHost,
} from "./prefix_route.ts";
import { lineOf, scalar } from "./yaml_nodes.ts";

/** Nesting deeper than this is not searched (a bound on hostile input). */
const MAX_DEPTH = 24;

/** Whether a YAML text may be an Envoy configuration. */
export function mayBeEnvoy(text: string): boolean {
  return text.includes("static_resources") && text.includes("virtual_hosts");
}

/** Reads the routes of an Envoy configuration document. */
export function envoyRoutes(doc: RouteDocument): void {
  const resources = doc.root.get("static_resources");
  if (!isMap(resources)) return;
  const hosts = clusterHosts(resources.get("clusters"));
  const visit = (node: unknown, depth: number): void => {
    if (depth > MAX_DEPTH) return;
    if (isMap(node)) {
      const virtualHosts = node.get("virtual_hosts");
      if (isSeq(virtualHosts)) {
        for (const host of virtualHosts.items) {
          const routes = isMap(host) ? host.get("routes") : undefined;
          if (!isSeq(routes)) continue;
          for (const route of routes.items) {
            const read = isMap(route) ? routeOf(doc, route, hosts) : undefined;
            if (read) doc.into.push(read);
          }
        }
        return;
      }
      for (const item of node.items) visit(item.value, depth + 1);
    } else if (isSeq(node)) {
      for (const item of node.items) visit(item, depth + 1);
    }
  };
  visit(resources.get("listeners"), 0);
}

function routeOf(
  doc: RouteDocument,
  entry: YAMLMap,
  hosts: ReadonlyMap<string, string>,
): GatewayRoute | undefined {
  const match = entry.get("match");
  const action = entry.get("route");
  if (!isMap(match) || !isMap(action)) return undefined;
  const cluster = scalar(action.get("cluster"));
  if (cluster === undefined) return undefined;
  const exact = scalar(match.get("path"));
  const prefix = scalar(match.get("prefix"));
  if (exact === undefined && prefix === undefined) return undefined;
  const replacement = scalar(action.get("prefix_rewrite"));
  return prefixRoute({
    gateway: doc.gateway,
    id: scalar(entry.get("name")) ?? "",
    prefix: exact ?? prefix!,
    exact: exact !== undefined,
    target: hosts.get(cluster) ?? cluster,
    uri: cluster,
    ...(replacement === undefined ? {} : { replacement }),
    filePath: doc.path,
    line: lineOf(entry, doc.lines),
    framework: "envoy",
  });
}

/** Each cluster's first endpoint host that names a service, by cluster name. */
function clusterHosts(clusters: unknown): Map<string, string> {
  const out = new Map<string, string>();
  if (!isSeq(clusters)) return out;
  for (const cluster of clusters.items) {
    if (!isMap(cluster)) continue;
    const name = scalar(cluster.get("name"));
    if (name === undefined) continue;
    const address = firstAddress(cluster, 0);
    const service = address === undefined ? undefined : serviceOfHost(address);
    if (service !== undefined) out.set(name, service);
  }
  return out;
}

/** The first `socket_address.address` under a node. */
function firstAddress(node: unknown, depth: number): string | undefined {
  if (depth > MAX_DEPTH) return undefined;
  if (isMap(node)) {
    const socket = node.get("socket_address");
    if (isMap(socket)) {
      const address = scalar(socket.get("address"));
      if (address !== undefined) return address;
    }
    for (const item of node.items) {
      const found = firstAddress(item.value, depth + 1);
      if (found !== undefined) return found;
    }
  } else if (isSeq(node)) {
    for (const item of node.items) {
      const found = firstAddress(item, depth + 1);
      if (found !== undefined) return found;
    }
  }
  return undefined;
}
