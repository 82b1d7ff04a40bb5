// docker-compose files: each service's build folder (where its code is)
// and the environment it is given.
import { isMap, isScalar, isSeq } from "yaml";
import { yamlRoots } from "../_syntax/yaml.ts";
import type { ExtractDiagnostic, ServiceFolder } from "../extractor.ts";
import type { GatewayRoute } from "../_port/gateway.ts";
import { type EnvSetting, folderOf } from "./environment.ts";
import { labelTree, traefikRoutes } from "./traefik.ts";

/** What one compose file says. */
export interface ComposeFile {
  folders: ServiceFolder[];
  env: EnvSetting[];
  /** Routes of a proxy the services' labels configure (Traefik). */
  routes: GatewayRoute[];
}

/** Whether a path is a compose file by its name. */
export function isComposeFile(path: string): boolean {
  const name = path.slice(path.lastIndexOf("/") + 1).toLowerCase();
  return /^(?:docker-)?compose(?:[.-][^/]*)?\.ya?ml$/.test(name);
}

/** `a/./b/../c` -> `a/c`; `undefined` when it leaves the scan root. */
export function joinFolder(base: string, relative: string): string | undefined {
  if (relative.startsWith("/") || /^[a-z][a-z0-9+.-]*:/i.test(relative)) {
    return undefined;
  }
  const out: string[] = base === "" ? [] : base.split("/");
  for (const part of relative.split("/")) {
    if (part === "" || part === ".") continue;
    if (part === "..") {
      if (out.length === 0) return undefined;
      out.pop();
    } else out.push(part);
  }
  return out.join("/");
}

function text(node: unknown): string | undefined {
  if (isScalar(node) && node.value !== null && node.value !== undefined) {
    return String(node.value);
  }
  return undefined;
}

/** Reads the services of a compose file. */
export function composeFile(
  path: string,
  source: string,
  diagnostics: ExtractDiagnostic[],
): ComposeFile {
  const out: ComposeFile = { folders: [], env: [], routes: [] };
  const base = folderOf(path);
  for (const root of yamlRoots(path, source, diagnostics)) {
    if (!isMap(root)) continue;
    const services = root.get("services", true);
    if (!isMap(services)) continue;
    for (const item of services.items) {
      const name = text(item.key);
      const body = item.value;
      if (name === undefined || !isMap(body)) continue;
      const build = body.get("build", true);
      const context = isMap(build)
        ? text(build.get("context", true))
        : text(build);
      const directory = context === undefined
        ? undefined
        : joinFolder(base, context);
      if (directory !== undefined) {
        out.folders.push({ service: name, directory });
      }
      readEnvironment(body.get("environment", true), directory, out.env);
      const labels = pairs(body.get("labels", true));
      if (labels.some(([key]) => key.startsWith("traefik.http."))) {
        traefikRoutes(labelTree(labels), {
          filePath: path,
          gateway: "traefik",
          service: name,
          lineOf: (router) => lineOfText(source, `routers.${router}.`),
        }, out.routes);
      }
    }
  }
  return out;
}

/** `environment:` as a map or as a list of `NAME=value`. */
function readEnvironment(
  node: unknown,
  scope: string | undefined,
  into: EnvSetting[],
): void {
  for (const [name, value] of pairs(node)) {
    into.push(scope === undefined ? { name, value } : { name, value, scope });
  }
}

/** A map, or a list of `key=value` (compose `environment:`, `labels:`). */
function pairs(node: unknown): [string, string][] {
  const out: [string, string][] = [];
  if (isMap(node)) {
    for (const item of node.items) {
      const name = text(item.key);
      const value = text(item.value);
      if (name !== undefined && value !== undefined) out.push([name, value]);
    }
  } else if (isSeq(node)) {
    for (const entry of node.items) {
      const line = text(entry);
      const eq = line?.indexOf("=") ?? -1;
      if (line !== undefined && eq > 0) {
        out.push([line.slice(0, eq), line.slice(eq + 1)]);
      }
    }
  }
  return out;
}

/** The 1-based line of the first occurrence of `needle` (1 when absent). */
function lineOfText(source: string, needle: string): number {
  const at = source.indexOf(needle);
  return at === -1 ? 1 : source.slice(0, at).split("\n").length;
}
