// Kubernetes manifests: the environment ConfigMaps and containers' `env:`
// give (not tied to a folder: a manifest does not say where the code is),
// and Ingress rules as gateway routes (a path prefix to a Service; an
// nginx-ingress `rewrite-target` with capture groups rewrites the path),
// Istio VirtualServices and Gateway API HTTPRoutes likewise.
import { isMap, isSeq, LineCounter, type YAMLMap } from "yaml";
import { yamlRoots } from "../_syntax/yaml.ts";
import type { GatewayRoute } from "../_port/gateway.ts";
import type { EnvSetting } from "./environment.ts";
import { isComposeFile } from "./compose.ts";
import { httpRouteRoutes } from "./gateway_api.ts";
import { virtualServiceRoutes } from "./istio.ts";
import { nameOf, scalar } from "./yaml_nodes.ts";

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
    } else if (kind === "Ingress") {
      ingressRoutes(path, root, lines, out.routes);
    } else if (kind === "VirtualService") {
      virtualServiceRoutes(path, root, lines, out.routes);
    } else if (kind === "HTTPRoute") {
      httpRouteRoutes(path, root, lines, out.routes);
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

function ingressRoutes(
  path: string,
  root: YAMLMap,
  lines: LineCounter,
  into: GatewayRoute[],
): void {
  const metadata = root.get("metadata");
  const name = nameOf(root);
  const annotations = isMap(metadata) ? metadata.get("annotations") : undefined;
  const rewriteTarget = isMap(annotations)
    ? scalar(annotations.get(REWRITE))
    : undefined;
  const spec = root.get("spec");
  const rules = isMap(spec) ? spec.get("rules") : undefined;
  if (!isSeq(rules)) return;
  for (const rule of rules.items) {
    const http = isMap(rule) ? rule.get("http") : undefined;
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
      into.push({
        gateway: name,
        id: "",
        path: pattern,
        method: "ANY",
        target,
        uri: target,
        stripPrefix: 0,
        ...(rewrite ? { rewrite } : {}),
        filePath: path,
        line: lines.linePos(at).line,
        framework: "kubernetes-ingress",
      });
    }
  }
}
