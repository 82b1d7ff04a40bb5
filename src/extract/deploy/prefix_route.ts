// The route every proxy configuration describes the same way: requests
// whose path starts with a prefix (or is one exact path) go to a target
// service, the matched part replaced on the way (nginx `proxy_pass` with a
// URI, Envoy `prefix_rewrite`, Istio `rewrite.uri`, Kong `strip_path`,
// Traefik `StripPrefix`, Gateway API `ReplacePrefixMatch`).
import type { LineCounter, YAMLMap } from "yaml";
import type { GatewayRoute } from "../_port/gateway.ts";
import { serviceOfHost as serviceOfHostName } from "../../boundary/_service_name.ts";

/** A YAML document of a gateway's configuration, read for its routes. */
export interface RouteDocument {
  /** The file's path. */
  path: string;
  /** The gateway's name. */
  gateway: string;
  /** The document's top-level map. */
  root: YAMLMap;
  /** The line positions of the file. */
  lines: LineCounter;
  /** Where the routes read go. */
  into: GatewayRoute[];
}

/** What a prefix route is made of. */
export interface PrefixRouteSpec {
  /** The gateway's name. */
  gateway: string;
  /** The route's id (`""` when it has none). */
  id?: string;
  /** The matched path: a prefix, or the whole path when `exact`. */
  prefix: string;
  /** Whether only the path itself matches (no sub-paths). */
  exact?: boolean;
  /** The method it accepts (`ANY` when absent). */
  method?: string | undefined;
  /** The service it forwards to. */
  target: string;
  /** The target as written. */
  uri: string;
  /** What replaces the matched prefix (`""` strips it); absent: kept. */
  replacement?: string;
  /** A path put before the forwarded one (an upstream's own path). */
  prefixPath?: string;
  filePath: string;
  line: number;
  framework: string;
}

/** Escapes text for a regular expression. */
export function escapeRegExp(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");
}

/**
 * The gateway route of a prefix (or exact path) match; `undefined` for a
 * prefix that is no absolute path or holds pattern syntax (a regular
 * expression route: what it forwards cannot be told).
 */
export function prefixRoute(spec: PrefixRouteSpec): GatewayRoute | undefined {
  const { prefix } = spec;
  if (!prefix.startsWith("/") || /[()[\]*+?|\\^$]/.test(prefix)) {
    return undefined;
  }
  const base = prefix.replace(/\/+$/, "");
  const path = spec.exact ? prefix : base === "" ? "/**" : `${base}/**`;
  const route: GatewayRoute = {
    gateway: spec.gateway,
    id: spec.id ?? "",
    path,
    method: spec.method ?? "ANY",
    target: spec.target,
    uri: spec.uri,
    stripPrefix: 0,
    filePath: spec.filePath,
    line: spec.line,
    framework: spec.framework,
  };
  if (spec.replacement !== undefined) {
    // a slash the prefix ends with belongs to the match, so does the one
    // after a bare prefix when the replacement brings its own
    const tail = spec.replacement.endsWith("/") && !prefix.endsWith("/")
      ? "/?"
      : "";
    route.rewrite = {
      pattern: spec.exact
        ? `^${escapeRegExp(prefix)}$`
        : `^${escapeRegExp(prefix)}${tail}`,
      replacement: spec.replacement.replace(/\$/g, "$$$$"),
    };
  }
  if (spec.prefixPath && spec.prefixPath !== "/") {
    route.prefixPath = spec.prefixPath;
  }
  return route;
}

/**
 * The service a host names (see the linker's `serviceOfHost`: a DNS name's
 * first label, no port); `undefined` for an IP address or an empty host.
 */
export function serviceOfHost(host: string): string | undefined {
  return serviceOfHostName(host) || undefined;
}

/** The host and path of an `http(s)://host[:port]/path` URL. */
export function splitUrl(
  url: string,
): { host: string; path: string } | undefined {
  const match = /^(?:https?|grpcs?|h2c):\/\/([^/?#]+)([^?#]*)/i.exec(url);
  if (!match) return undefined;
  return { host: match[1]!, path: match[2] || "" };
}
