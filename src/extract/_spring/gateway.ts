// Spring Cloud Gateway routes declared in `application.yml` (the default
// profile's documents): `spring.cloud.gateway.routes` (and the newer
// `server.webflux`/`server.webmvc`/`mvc` homes of the same list) with
// `Path=`/`Method=` predicates and `StripPrefix`, `RewritePath`,
// `SetPath`, `PrefixPath` filters, read as gateway route records.
import {
  isMap,
  isScalar,
  isSeq,
  LineCounter,
  type Node as YamlNode,
  parseAllDocuments,
  type YAMLMap,
} from "yaml";
import type { GatewayRoute } from "../_port/gateway.ts";
import type { SourceFile } from "../extractor.ts";
import { isSpringSettings } from "./settings.ts";

/** Where the route list lives under `spring.cloud.gateway`. */
const HOMES = [
  ["routes"],
  ["server", "webflux", "routes"],
  ["server", "webmvc", "routes"],
  ["mvc", "routes"],
];

/** The most routes read from one file (a bound on hostile input). */
const MAX_ROUTES = 2000;

/** The gateway routes of the Spring settings files of a root. */
export function springGatewayRoutes(
  files: readonly SourceFile[],
): GatewayRoute[] {
  const out: GatewayRoute[] = [];
  for (const file of files) {
    if (!isSpringSettings(file.path) || file.path.endsWith(".properties")) {
      continue;
    }
    if (/-[\w.-]+\.ya?ml$/.test(file.path)) continue; // another profile's
    if (!file.text.includes("gateway")) continue;
    readFile(file, out);
  }
  return out;
}

function readFile(file: SourceFile, out: GatewayRoute[]): void {
  const lines = new LineCounter();
  let documents;
  try {
    documents = parseAllDocuments(file.text, { lineCounter: lines });
  } catch {
    return;
  }
  if (!Array.isArray(documents)) return;
  let name: string | undefined;
  const routes: YAMLMap[] = [];
  for (const doc of documents) {
    if (doc.errors.length > 0 || !isMap(doc.contents)) continue;
    const spring = child(doc.contents, "spring");
    const config = child(child(spring, "config"), "activate");
    if (child(config, "on-profile") || child(spring, "profiles")) continue;
    name ??= text(child(child(spring, "application"), "name"));
    const gateway = child(child(spring, "cloud"), "gateway");
    for (const home of HOMES) {
      let list: unknown = gateway;
      for (const key of home) list = child(list, key);
      if (!isSeq(list)) continue;
      for (const item of list.items) if (isMap(item)) routes.push(item);
    }
  }
  const gateway = name ?? folderOf(file.path);
  for (const route of routes.slice(0, MAX_ROUTES)) {
    const uri = text(child(route, "uri")) ?? "";
    const paths: string[] = [];
    const methods: string[] = [];
    let stripPrefix = 0;
    let rewrite: GatewayRoute["rewrite"];
    let setPath: string | undefined;
    let prefixPath: string | undefined;
    for (const [kind, args] of shortcuts(child(route, "predicates"))) {
      if (kind === "Path") paths.push(...args);
      else if (kind === "Method") {
        methods.push(...args.map((m) => m.toUpperCase()));
      }
    }
    for (const [kind, args] of shortcuts(child(route, "filters"))) {
      if (kind === "StripPrefix") stripPrefix = Number(args[0]) || 0;
      else if (kind === "RewritePath" && args.length >= 2) {
        rewrite = {
          pattern: args[0]!,
          replacement: args[1]!.replace(/\$\\?\{([^}]+)\}/g, "$<$1>"),
        };
      } else if (kind === "SetPath") setPath = args[0];
      else if (kind === "PrefixPath") prefixPath = args[0];
    }
    const line = route.range ? lines.linePos(route.range[0]).line : 1;
    for (const path of paths) {
      for (const method of methods.length > 0 ? methods : ["ANY"]) {
        out.push({
          gateway,
          id: text(child(route, "id")) ?? "",
          path,
          method,
          target: targetOf(uri),
          uri,
          stripPrefix,
          ...(rewrite ? { rewrite } : {}),
          ...(setPath !== undefined ? { setPath } : {}),
          ...(prefixPath !== undefined ? { prefixPath } : {}),
          filePath: file.path,
          line,
          framework: "spring-cloud-gateway",
        });
      }
    }
  }
}

/**
 * The predicates or filters of a route as `[name, args]`: the shortcut
 * form `Path=/a/**,/b/**` and the full form `{ name: Path, args: {...} }`.
 */
function shortcuts(list: unknown): Array<[string, string[]]> {
  const out: Array<[string, string[]]> = [];
  if (!isSeq(list)) return out;
  for (const item of list.items) {
    if (isScalar(item)) {
      const value = String(item.value ?? "");
      const eq = value.indexOf("=");
      if (eq < 0) {
        out.push([value.trim(), []]);
        continue;
      }
      const args = value.slice(eq + 1).split(",").map((a) => a.trim());
      out.push([value.slice(0, eq).trim(), args.filter((a) => a !== "")]);
    } else if (isMap(item)) {
      const name = text(child(item, "name")) ?? "";
      const args = child(item, "args");
      const values: string[] = [];
      if (isMap(args)) {
        for (const pair of args.items) {
          const v = pair.value;
          if (isScalar(v)) values.push(String(v.value));
          else if (isSeq(v)) {
            for (const x of v.items) {
              if (isScalar(x)) values.push(String(x.value));
            }
          }
        }
      } else if (isScalar(args)) values.push(String(args.value));
      out.push([name, values]);
    }
  }
  return out;
}

/** The service a gateway forwards to: `lb://name`, a URL's host. */
export function targetOf(uri: string): string {
  const m = /^[a-z][a-z0-9+.-]*:\/\/([^/:?#]+)/i.exec(uri.trim());
  return m ? m[1]! : uri.trim();
}

/** A gateway's name: its `spring.application.name`, else its folder. */
export function gatewayName(
  settings: { get(path: string, key: string): string | undefined },
  path: string,
): string {
  return settings.get(path, "spring.application.name") ?? folderOf(path);
}

/** The folder a gateway module lives in (above `src/main/…`). */
function folderOf(path: string): string {
  const at = path.lastIndexOf("src/main/");
  const dir = at === -1
    ? path.slice(0, path.lastIndexOf("/") + 1)
    : path.slice(0, at);
  const parts = dir.split("/").filter((p) => p !== "");
  return parts[parts.length - 1] ?? "";
}

function child(node: unknown, key: string): unknown {
  if (!isMap(node)) return undefined;
  return (node as YAMLMap).get(key, true) as YamlNode | undefined;
}

function text(node: unknown): string | undefined {
  return isScalar(node) && node.value !== null ? String(node.value) : undefined;
}
