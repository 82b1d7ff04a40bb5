// Kubernetes manifests: the environment ConfigMaps and containers' `env:`
// give (not tied to a folder: a manifest does not say where the code is),
// and Ingress rules as gateway routes (a path prefix to a Service; an
// nginx-ingress `rewrite-target` with capture groups rewrites the path),
// Istio VirtualServices and Gateway API HTTPRoutes likewise.
import { isMap, isSeq, LineCounter } from "yaml";
import { yamlRoots } from "../_syntax/yaml.ts";
import type { GatewayRoute } from "../_port/gateway.ts";
import type { EnvSetting } from "./environment.ts";
import { isComposeFile } from "./compose.ts";
import { httpRouteRoutes } from "./gateway_api.ts";
import { virtualServiceRoutes } from "./istio.ts";
import type { RouteDocument } from "./prefix_route.ts";
import { nameOf, scalar, specEntries } from "./yaml_nodes.ts";

/** What one manifest file says. */
export interface KubeFile {
  routes: GatewayRoute[];
  env: EnvSetting[];
}

/** Whether a path may be a Kubernetes manifest (a YAML file, not compose). */
export function isKubeFile(path: string): boolean {
  return /\.ya?ml$/i.test(path) && !isComposeFile(path);
}

const WORKLOADS: ReadonlySet<string> = new Set([
  "Deployment",
  "StatefulSet",
  "DaemonSet",
  "ReplicaSet",
  "Pod",
  "Job",
  "CronJob",
  "DeploymentConfig",
]);

const REWRITE = "nginx.ingress.kubernetes.io/rewrite-target";

/** The readers of the documents that route requests, by their `kind`. */
const ROUTE_KINDS: ReadonlyMap<unknown, (doc: RouteDocument) => void> = new Map(
  [
    ["Ingress", ingressRoutes],
    ["VirtualService", virtualServiceRoutes],
    ["HTTPRoute", httpRouteRoutes],
  ],
);

/** Reads the environment and Ingress routes of a manifest file. */
export function kubeFile(path: string, text: string): KubeFile {
  const out: KubeFile = { routes: [], env: [] };
  // Helm templates and other YAML are not manifests this reader can read
  if (!/^kind:/m.test(text) || !/^apiVersion:/m.test(text)) return out;
  if (text.includes("{{")) return out;
  const lines = new LineCounter();
  for (const root of yamlRoots(path, text, undefined, lines)) {
    if (!isMap(root)) continue;
    const kind: unknown = root.get("kind");
    if (kind === "ConfigMap") {
      const data = root.get("data");
      if (!isMap(data)) continue;
      for (const item of data.items) {
        const name = scalar((item.key as { value?: unknown })?.value);
        const value = scalar((item.value as { value?: unknown })?.value);
        if (name !== undefined && value !== undefined) {
          out.env.push({ name, value });
        }
      }
    } else if (typeof kind === "string" && WORKLOADS.has(kind)) {
      containerEnv(root, out.env);
    } else {
      const read = ROUTE_KINDS.get(kind);
      read?.({ path, gateway: nameOf(root), root, lines, into: out.routes });
    }
  }
  return out;
}

/** Every `env: [{name, value}]` of the containers under a workload. */
function containerEnv(node: unknown, into: EnvSetting[], depth = 0): void {
  if (depth > 12) return;
  if (isMap(node)) {
    for (const item of node.items) {
      const key = (item.key as { value?: unknown })?.value;
      if (key === "env" && isSeq(item.value)) {
        for (const entry of item.value.items) {
          if (!isMap(entry)) continue;
          const name = scalar(entry.get("name"));
          const value = scalar(entry.get("value"));
          if (name !== undefined && value !== undefined) {
            into.push({ name, value });
          }
        }
      } else containerEnv(item.value, into, depth + 1);
    }
  } else if (isSeq(node)) {
    for (const entry of node.items) containerEnv(entry, into, depth + 1);
  }
}

function ingressRoutes(doc: RouteDocument): void {
  const metadata = doc.root.get("metadata");
  const annotations = isMap(metadata) ? metadata.get("annotations") : undefined;
  const rewriteTarget = isMap(annotations)
    ? scalar(annotations.get(REWRITE))
    : undefined;
  for (const rule of specEntries(doc.root, "rules")) {
    const http = rule.get("http");
    const paths = isMap(http) ? http.get("paths") : undefined;
    if (!isSeq(paths)) continue;
    for (const entry of paths.items) {
      if (!isMap(entry)) continue;
      const prefix = scalar(entry.get("path")) ?? "/";
      const backend = entry.get("backend");
      if (!isMap(backend)) continue;
      const service = backend.get("service");
      const target = isMap(service)
        ? scalar(service.get("name"))
        : scalar(backend.get("serviceName"));
      if (target === undefined || !prefix.startsWith("/")) continue;
      let rewrite: GatewayRoute["rewrite"];
      let pattern: string;
      if (rewriteTarget !== undefined) {
        // `/api(/|$)(.*)` -> `/$2`: only a rewrite with capture groups is read
        if (!/\$\d/.test(rewriteTarget)) continue;
        rewrite = {
          pattern: `^${prefix}`,
          replacement: rewriteTarget.replace(/\$(\d)/g, "$$$1"),
        };
        const literal = /^[^()[\]*+?|\\$^]*/.exec(prefix)![0].replace(
          /\/+$/,
          "",
        );
        pattern = `${literal}/**`;
      } else {
        if (/[()[\]*+?|\\$^]/.test(prefix)) continue;
        const base = prefix.replace(/\/+$/, "");
        pattern = scalar(entry.get("pathType")) === "Exact"
          ? prefix
          : `${base}/**`;
      }
      const at = entry.range?.[0] ?? 0;
      doc.into.push({
        gateway: doc.gateway,
        id: "",
        path: pattern,
        method: "ANY",
        target,
        uri: target,
        stripPrefix: 0,
        ...(rewrite ? { rewrite } : {}),
        filePath: doc.path,
        line: doc.lines.linePos(at).line,
        framework: "kubernetes-ingress",
      });
    }
  }
}
