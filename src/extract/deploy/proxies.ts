// Proxy configuration files that are YAML but no Kubernetes manifest:
// Envoy's static configuration, Kong's declarative configuration and
// Traefik's dynamic configuration, told apart by their top-level keys.
import { isMap, LineCounter } from "yaml";
import { yamlRoots } from "../_syntax/yaml.ts";
import type { ExtractDiagnostic } from "../extractor.ts";
import type { GatewayRoute } from "../_port/gateway.ts";
import { envoyRoutes, mayBeEnvoy } from "./envoy.ts";
import { folderOf } from "./environment.ts";
import { kongRoutes, mayBeKong } from "./kong.ts";
import { mayBeTraefik, traefikRoutes } from "./traefik.ts";
import { escapeRegExp } from "./prefix_route.ts";

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
      traefikRoutes(root.toJSON().http, {
        filePath: path,
        gateway,
        lineOf: (router) => lineOfKey(text, router),
      }, out);
    }
  }
  return out;
}

/** The 1-based line where `key:` is first written (1 when absent). */
function lineOfKey(text: string, key: string): number {
  const at = text.search(
    new RegExp(`^\\s*${escapeRegExp(key)}\\s*:`, "m"),
  );
  return at === -1 ? 1 : text.slice(0, at).split("\n").length;
}
