// Gateway route records: what a gateway (Spring Cloud Gateway, an ingress,
// a reverse proxy) accepts and where it forwards it, read from its
// configuration, and the path a request takes through one.

/**
 * One route of a gateway: requests whose path matches `path` (and whose
 * method is `method`) are forwarded to `target`, their path rewritten on
 * the way (`stripPrefix`, then `rewrite`, `setPath`, then `prefixPath`).
 *
 * @example
 * ```ts
 * import { forwardedPath, type GatewayRoute } from "@portcullis/portcullis/extract";
 * import assert from "node:assert/strict";
 *
 * const route: GatewayRoute = {
 *   gateway: "api-gateway",
 *   id: "customers",
 *   path: "/api/customer/**",
 *   method: "ANY",
 *   target: "customers-service",
 *   uri: "lb://customers-service",
 *   stripPrefix: 2,
 *   filePath: "gateway/src/main/resources/application.yml",
 *   line: 12,
 *   framework: "spring-cloud-gateway",
 * };
 * assert.equal(forwardedPath(route, "/api/customer/owners/1"), "/owners/1");
 * ```
 */
export interface GatewayRoute {
  /** The gateway's service (its application name, else its folder). */
  gateway: string;
  /** The route's id (`""` when it has none). */
  id: string;
  /** The incoming path pattern, Ant style (`/api/customer/**`, `/x/*`, `/{id}`). */
  path: string;
  /** The method the route accepts, `ANY` for every method. */
  method: string;
  /** The service it forwards to (`lb://customers` → `customers`, a URL's host). */
  target: string;
  /** The target as written. */
  uri: string;
  /** Leading path segments removed before forwarding (`StripPrefix`). */
  stripPrefix: number;
  /** A regular-expression rewrite of the path (`RewritePath`), JavaScript syntax. */
  rewrite?: { pattern: string; replacement: string };
  /** The path that replaces the request's (`SetPath`), with `{name}` templates. */
  setPath?: string;
  /** A path put before the forwarded one (`PrefixPath`). */
  prefixPath?: string;
  /** The configuration file, relative to the scan root. */
  filePath: string;
  /** 1-based line of the route in that file. */
  line: number;
  /** The gateway's kind, e.g. `spring-cloud-gateway`. */
  framework: string;
}

/** The longest path a gateway route rewrites (a bound on hostile input). */
const MAX_PATH = 2048;

/**
 * The path a request for `path` is forwarded with through `route`, or
 * `undefined` when the route does not match it. Query strings are not
 * part of `path`.
 *
 * @example
 * ```ts
 * import { forwardedPath, type GatewayRoute } from "@portcullis/portcullis/extract";
 * import assert from "node:assert/strict";
 *
 * const route: GatewayRoute = {
 *   gateway: "edge", id: "", path: "/api/**", method: "ANY", target: "users",
 *   uri: "http://users:8080", stripPrefix: 0, filePath: "edge.yml", line: 1,
 *   framework: "spring-cloud-gateway",
 *   rewrite: { pattern: "/api/(?<rest>.*)", replacement: "/v2/$<rest>" },
 * };
 * assert.equal(forwardedPath(route, "/api/users/7"), "/v2/users/7");
 * assert.equal(forwardedPath(route, "/other"), undefined);
 * ```
 */
export function forwardedPath(
  route: GatewayRoute,
  path: string,
): string | undefined {
  if (path.length > MAX_PATH) return undefined;
  const variables = matchAnt(route.path, path);
  if (!variables) return undefined;
  let out = path;
  if (route.stripPrefix > 0) {
    const segments = out.split("/").filter((s) => s !== "");
    out = "/" + segments.slice(route.stripPrefix).join("/");
  }
  if (route.rewrite) {
    try {
      out = out.replace(
        new RegExp(route.rewrite.pattern),
        route.rewrite.replacement,
      );
    } catch {
      return undefined;
    }
  }
  if (route.setPath !== undefined) {
    out = route.setPath.replace(
      /\{([^}]+)\}/g,
      (whole, name: string) => variables.get(name) ?? whole,
    );
  }
  if (route.prefixPath) {
    out = route.prefixPath.replace(/\/+$/, "") +
      (out.startsWith("/") ? out : "/" + out);
  }
  return out === "" ? "/" : out;
}

/**
 * Matches an Ant-style pattern (`**` any number of segments, `*` one
 * segment or part of one, `{name}` one segment) against a path, segment by
 * segment (no backtracking blow-up: at most patterns × path segments
 * steps). Returns the `{name}` values, or undefined when it does not match.
 */
export function matchAnt(
  pattern: string,
  path: string,
): Map<string, string> | undefined {
  const p = pattern.split("/").filter((s) => s !== "");
  const s = path.split("/").filter((x) => x !== "");
  // reachable[i][j]: pattern[0..i) matches path[0..j)
  let reachable = new Array<boolean>(s.length + 1).fill(false);
  reachable[0] = true;
  const variables = new Map<string, string>();
  for (const part of p) {
    const next = new Array<boolean>(s.length + 1).fill(false);
    if (part === "**") {
      let seen = false;
      for (let j = 0; j <= s.length; j++) {
        seen ||= reachable[j]!;
        next[j] = seen;
      }
    } else {
      const name = /^\{([^}:]+)(?::.*)?\}$/.exec(part)?.[1];
      for (let j = 0; j < s.length; j++) {
        if (!reachable[j] || !segmentMatches(part, s[j]!)) continue;
        next[j + 1] = true;
        if (name && !variables.has(name)) variables.set(name, s[j]!);
      }
    }
    reachable = next;
  }
  return reachable[s.length] ? variables : undefined;
}

/** One pattern segment (`*`, `{id}`, `a*b`, literal) against one path segment. */
function segmentMatches(part: string, segment: string): boolean {
  if (part === "*" || /^\{[^}]*\}$/.test(part)) return true;
  if (!part.includes("*")) return part === segment;
  // `a*b*c`: the pieces in order, the first at the start, the last at the end
  const pieces = part.split("*");
  if (!segment.startsWith(pieces[0]!)) return false;
  let at = pieces[0]!.length;
  for (let i = 1; i < pieces.length - 1; i++) {
    const found = segment.indexOf(pieces[i]!, at);
    if (found === -1) return false;
    at = found + pieces[i]!.length;
  }
  const last = pieces[pieces.length - 1]!;
  return segment.length - last.length >= at && segment.endsWith(last);
}
