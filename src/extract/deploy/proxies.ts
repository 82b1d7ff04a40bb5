// Proxy configuration files that are YAML but no Kubernetes manifest:
// Envoy's static configuration, Kong's declarative configuration and
// Traefik's dynamic configuration, told apart by their top-level keys.
import { isMap, isScalar, LineCounter } from "yaml";
import { yamlRoots } from "../_syntax/yaml.ts";
import type { ExtractDiagnostic } from "../extractor.ts";
import type { GatewayRoute } from "../_port/gateway.ts";
import { envoyRoutes, mayBeEnvoy } from "./envoy.ts";
import { folderOf } from "./environment.ts";
import { kongRoutes, mayBeKong } from "./kong.ts";
import { mayBeTraefik, traefikRoutes } from "./traefik.ts";
import { lineOf } from "./yaml_nodes.ts";

/** Whether a YAML text may configure one of the proxies read here. */
export function mayBeProxy(text: string): boolean {
  return mayBeEnvoy(text) || mayBeKong(text) || mayBeTraefik(text);
}

/** The gateway routes of an Envoy, Kong or Traefik YAML file. */
export function proxyRoutes(
  path: string,
  text: string,
  diagnostics: ExtractDiagnostic[],
): GatewayRoute[] {
  const out: GatewayRoute[] = [];
  const folder = folderOf(path);
  const name = path.slice(path.lastIndexOf("/") + 1).replace(/\.ya?ml$/i, "");
  const gateway = folder === ""
    ? name
    : folder.slice(folder.lastIndexOf("/") + 1);
  const lines = new LineCounter();
  for (const root of yamlRoots(path, text, diagnostics, lines)) {
    if (!isMap(root)) continue;
    if (root.has("static_resources")) {
      envoyRoutes({ path, gateway, root, lines, into: out });
    } else if (root.has("_format_version")) {
      kongRoutes({ path, gateway, root, lines, into: out });
    } else if (root.has("http")) {
      const routerLines = keyLines(child(root.get("http"), "routers"), lines);
      traefikRoutes(root.toJSON().http, {
        filePath: path,
        gateway,
        lineOf: (router) => routerLines.get(router) ?? 1,
      }, out);
    }
  }
  return out;
}

/** The child of a YAML map by a key in any case (as Traefik reads them). */
function child(node: unknown, key: string): unknown {
  if (!isMap(node)) return undefined;
  const lower = key.toLowerCase();
  const pair = node.items.find((item) =>
    isScalar(item.key) && String(item.key.value).toLowerCase() === lower
  );
  return pair?.value;
}

/**
 * The line of each key of a YAML map, by the key's text (a key written twice:
 * the last, whose value the map's plain object holds).
 */
function keyLines(node: unknown, lines: LineCounter): Map<string, number> {
  const out = new Map<string, number>();
  if (!isMap(node)) return out;
  for (const item of node.items) {
    if (!isScalar(item.key)) continue;
    out.set(String(item.key.value), lineOf(item.key, lines));
  }
  return out;
}
