// The Phoenix routers of a scan root: routes under the prefixes of the
// `forward`s and endpoint `plug`s that mount each router module, across
// files.
import { CONFIDENCE, joinPaths, routePath } from "../_value/mod.ts";
import type { Forward, ModuleInfo } from "./router.ts";
import type { Token } from "./tokenizer.ts";
import type { ExtractedPort, PortOwner } from "../types.ts";
import { httpBoundaryKey } from "../../boundary/http_path.ts";

const FORWARD_PLUG_CONFIDENCE = CONFIDENCE.weak;

/** Route path texts joined, starting with a slash. */
export function joinRoute(...texts: string[]): string {
  return routePath(joinPaths(...texts)).path;
}

function httpServerPort(
  framework: string,
  at: Token,
  verb: string,
  path: string,
  confidence: number,
  owner: PortOwner,
  filePath: string,
  extra: Record<string, string> = {},
): ExtractedPort | undefined {
  let key: string;
  try {
    key = httpBoundaryKey(verb, path);
  } catch {
    return undefined;
  }
  return {
    ref: {
      mechanism: "http",
      role: "server",
      key,
      line: at.line,
      col: at.col,
      confidence,
      detail: { method: verb, path, framework, ...extra },
    },
    owner,
    filePath,
  };
}

interface Mount {
  prefix: string;
  /** The forward that mounts it (none for a router served at the root). */
  via?: Forward;
}

/**
 * Turns the routes and forwards of every module into ports: a router that
 * another router of the scan forwards to is served under each forward path
 * (and at the root only when an endpoint plugs it directly); a forward to
 * any other plug is `ANY <path>` and `ANY <path>/*`.
 */
export function resolvePorts(
  modules: Map<string, ModuleInfo>,
  endpointPlugs: ReadonlySet<string>,
): ExtractedPort[] {
  const routerNamed = (forward: Forward): string | undefined =>
    forward.candidates.find((c) => modules.get(c)?.router);
  const into = new Map<string, Forward[]>();
  for (const info of modules.values()) {
    for (const forward of info.forwards) {
      const target = routerNamed(forward);
      if (target === undefined) continue;
      let list = into.get(target);
      if (!list) into.set(target, list = []);
      list.push(forward);
    }
  }
  const from = new Map<Forward, string>();
  for (const [name, info] of modules) {
    for (const forward of info.forwards) from.set(forward, name);
  }
  const mountsOf = (name: string, seen: Set<string>): Mount[] => {
    const forwards = into.get(name);
    if (!forwards) return [{ prefix: "" }];
    if (seen.has(name)) return [];
    const next = new Set(seen).add(name);
    const mounts: Mount[] = endpointPlugs.has(name) ? [{ prefix: "" }] : [];
    for (const forward of forwards) {
      for (const outer of mountsOf(from.get(forward)!, next)) {
        mounts.push({
          prefix: joinRoute(outer.prefix, forward.path),
          via: forward,
        });
      }
    }
    return mounts;
  };
  const ports: ExtractedPort[] = [];
  for (const [name, info] of modules) {
    const mounts = mountsOf(name, new Set());
    for (const route of info.routes) {
      for (const mount of mounts) {
        const port = mount.via
          ? httpServerPort(
            route.framework,
            route.at,
            route.verb,
            joinRoute(mount.prefix, route.path),
            Math.min(route.confidence, CONFIDENCE.composed),
            route.owner,
            route.filePath,
            {
              forward: mount.prefix,
              mountedAt: `${mount.via.filePath}:${mount.via.at.line}`,
            },
          )
          : httpServerPort(
            route.framework,
            route.at,
            route.verb,
            route.path,
            route.confidence,
            route.owner,
            route.filePath,
          );
        if (port) ports.push(port);
      }
    }
    for (const forward of info.forwards) {
      if (routerNamed(forward) !== undefined || forward.dev) continue;
      for (
        const [mount, below] of mounts.flatMap((m) =>
          [[m, ""], [m, "*path"]] as const
        )
      ) {
        const path = joinRoute(mount.prefix, forward.path, below);
        const port = httpServerPort(
          forward.framework,
          forward.at,
          "ANY",
          path,
          FORWARD_PLUG_CONFIDENCE,
          forward.owner,
          forward.filePath,
          {
            forward: joinRoute(mount.prefix, forward.path),
            plug: forward.plug,
            ...(mount.via
              ? { mountedAt: `${mount.via.filePath}:${mount.via.at.line}` }
              : {}),
          },
        );
        if (port) ports.push(port);
      }
    }
  }
  return ports;
}

/**
 * `plug MyAppWeb.Router` statements of Phoenix endpoints, and the `plug:`
 * a server serves (`{Bandit, plug: App.Router}`, `Plug.Cowboy`).
 */
export function endpointPlugs(
  tokens: readonly Token[],
  into: Set<string>,
): void {
  let lineStart = true;
  for (let k = 0; k < tokens.length; k++) {
    const t = tokens[k]!;
    if (t.type === "newline") {
      lineStart = true;
      continue;
    }
    if (t.type === "key" && t.text === "plug") {
      const next = tokens[k + 1];
      if (next?.type === "word" && /^[A-Z]/.test(next.text)) {
        into.add(next.text);
      }
    }
    if (lineStart && t.type === "word" && t.text === "plug") {
      const next = tokens[k + 1];
      if (next?.type === "word" && /^[A-Z]/.test(next.text)) {
        into.add(next.text);
      }
    }
    lineStart = false;
  }
}
