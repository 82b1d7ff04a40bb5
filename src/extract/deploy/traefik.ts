// Traefik's routers, from a dynamic configuration file (`http.routers`,
// `http.middlewares`, `http.services`) or from the `traefik.http.*` labels
// of a docker-compose service: a rule's `PathPrefix(`/x`)` / `Path(`/x`)`
// (with `Method(`GET`)`) forwards to the router's service (a load
// balancer's server URL host; for labels, the labelled service itself),
// the prefixes of its `stripPrefix` middlewares removed and an `addPrefix`
// put before. Regex rules (`PathRegexp`) are left out.
import type { GatewayRoute } from "../_port/gateway.ts";
import { prefixRoute, serviceOfHost, splitUrl } from "./prefix_route.ts";

/** A plain-object view of Traefik's `http` section (labels or a file). */
type Tree = { [key: string]: unknown };

/** Whether a YAML text may be a Traefik dynamic configuration. */
export function mayBeTraefik(text: string): boolean {
  return /^\s*routers\s*:/m.test(text) && /\brule\s*:/.test(text);
}

/** Where the routes come from: a file, or one compose service's labels. */
export interface TraefikSource {
  filePath: string;
  gateway: string;
  /** The compose service the labels are on (the routers' default target). */
  service?: string;
  /** The line of a router by name (1 when unknown). */
  lineOf(router: string): number;
}

/** The child of a plain object by a key in any case. */
function child(tree: unknown, key: string): unknown {
  if (tree === null || typeof tree !== "object" || Array.isArray(tree)) {
    return undefined;
  }
  const lower = key.toLowerCase();
  for (const [k, v] of Object.entries(tree)) {
    if (k.toLowerCase() === lower) return v;
  }
  return undefined;
}

function entries(tree: unknown): [string, unknown][] {
  return tree !== null && typeof tree === "object" && !Array.isArray(tree)
    ? Object.entries(tree)
    : [];
}

/** A list written as a YAML sequence or a comma-separated label value. */
function list(value: unknown): string[] {
  if (Array.isArray(value)) return value.map(String);
  if (typeof value === "string") {
    return value.split(",").map((s) => s.trim()).filter((s) => s !== "");
  }
  return [];
}

/** The backticked or quoted arguments of every `Name(...)` in a rule. */
function ruleArgs(rule: string, name: string): string[] {
  const out: string[] = [];
  const call = new RegExp(`\\b${name}\\(([^)]*)\\)`, "g");
  for (const match of rule.matchAll(call)) {
    for (const arg of match[1]!.matchAll(/[`"']([^`"']*)[`"']/g)) {
      out.push(arg[1]!);
    }
  }
  return out;
}

/** Reads the routes of Traefik's `http` section. */
export function traefikRoutes(
  http: unknown,
  source: TraefikSource,
  into: GatewayRoute[],
): void {
  const middlewares = child(http, "middlewares");
  const services = child(http, "services");
  for (const [name, router] of entries(child(http, "routers"))) {
    const rule = child(router, "rule");
    if (typeof rule !== "string" || /PathRegexp|PathPrefixRegexp/.test(rule)) {
      continue;
    }
    const serviceName = String(child(router, "service") ?? "")
      .replace(/@.*$/, "");
    const target = targetOf(services, serviceName) ?? source.service;
    if (target === undefined) continue;
    let strip: string[] = [];
    let add = "";
    for (const used of list(child(router, "middlewares"))) {
      const middleware = child(middlewares, used.replace(/@.*$/, ""));
      strip = strip.concat(
        list(child(child(middleware, "stripPrefix"), "prefixes")),
      );
      const prefix = child(child(middleware, "addPrefix"), "prefix");
      if (typeof prefix === "string") add = prefix;
    }
    const methods = ruleArgs(rule, "Method").map((m) => m.toUpperCase());
    const matches = [
      ...ruleArgs(rule, "PathPrefix").map((p) => ({ p, exact: false })),
      ...ruleArgs(rule, "Path").map((p) => ({ p, exact: true })),
    ];
    // a rule on hosts or headers only takes every path
    if (matches.length === 0) matches.push({ p: "/", exact: false });
    for (const { p, exact } of matches) {
      const stripped = strip.find((s) =>
        p === s || p.startsWith(s.endsWith("/") ? s : s + "/")
      );
      for (const method of methods.length > 0 ? methods : ["ANY"]) {
        const route = prefixRoute({
          gateway: source.gateway,
          id: name,
          prefix: stripped ?? p,
          exact: exact && stripped === undefined,
          method,
          target,
          uri: serviceName || target,
          ...(stripped === undefined ? {} : { replacement: "" }),
          prefixPath: add,
          filePath: source.filePath,
          line: source.lineOf(name),
          framework: "traefik",
        });
        if (!route) continue;
        // a stripped prefix still only matches the rule's own path
        if (stripped !== undefined && p !== stripped) {
          route.path = exact ? p : `${p.replace(/\/+$/, "")}/**`;
        }
        into.push(route);
      }
    }
  }
}

/** The host of a load-balanced service's first server URL. */
function targetOf(services: unknown, name: string): string | undefined {
  if (name === "") return undefined;
  const balancer = child(child(services, name), "loadBalancer");
  const servers = child(balancer, "servers");
  if (!Array.isArray(servers)) return undefined;
  for (const server of servers) {
    const url = child(server, "url");
    const parts = typeof url === "string" ? splitUrl(url) : undefined;
    const host = parts ? serviceOfHost(parts.host) : undefined;
    if (host !== undefined) return host;
  }
  return undefined;
}

/**
 * The `traefik.http.*` labels of a compose service as the tree a file
 * would hold (`traefik.http.routers.api.rule=...` ->
 * `{ routers: { api: { rule } } }`).
 */
export function labelTree(labels: ReadonlyArray<[string, string]>): Tree {
  const tree: Tree = {};
  for (const [key, value] of labels) {
    const parts = key.split(".");
    if (parts[0] !== "traefik" || parts[1] !== "http" || parts.length > 12) {
      continue;
    }
    let node = tree;
    for (const part of parts.slice(2, -1)) {
      const next = node[part];
      if (next === null || typeof next !== "object") node[part] = {};
      node = node[part] as Tree;
    }
    node[parts[parts.length - 1]!] = value;
  }
  return tree;
}
