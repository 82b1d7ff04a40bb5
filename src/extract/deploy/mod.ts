// Deployment configuration and gateways: nginx, Envoy, Kong and Traefik
// proxies, Kubernetes Ingress, Istio and Gateway API routes, and the
// environment Dockerfiles, dotenv files, docker-compose files and Kubernetes
// manifests give services, which fills in the hosts the routes
// forward to (`proxy_pass http://${CART_HOST}:8080/` with `CART_HOST=cart`).
// Reads no ports: gateway routes and service folders, for linking.
import type {
  ExtractDiagnostic,
  ExtractResult,
  LanguageExtractor,
  ServiceFolder,
  SourceFile,
} from "../extractor.ts";
import type { GatewayRoute } from "../_port/gateway.ts";
import { composeFile, isComposeFile } from "./compose.ts";
import {
  DeployEnvironment,
  dockerfileEnv,
  dotenvSettings,
  type EnvSetting,
  isDotenvFile,
} from "./environment.ts";
import { isKubeFile, kubeFile } from "./kube.ts";
import { isNginxFile, nginxRoutes } from "./nginx.ts";
import { isManifest, manifestFolder } from "./manifests.ts";
import { mayBeProxy, proxyRoutes } from "./proxies.ts";

export { DeployEnvironment } from "./environment.ts";

/** Whether a path is a Dockerfile by its name. */
function isDockerfile(path: string): boolean {
  const name = path.slice(path.lastIndexOf("/") + 1).toLowerCase();
  return name === "dockerfile" || name.startsWith("dockerfile.") ||
    name.endsWith(".dockerfile");
}

/** The deepest service folder (not the root) holding a file. */
function serviceFolderOf(
  path: string,
  folders: readonly ServiceFolder[],
): string | undefined {
  let best: string | undefined;
  for (const { directory } of folders) {
    if (directory === "" || !path.startsWith(directory + "/")) continue;
    if (best === undefined || directory.length > best.length) best = directory;
  }
  return best;
}

/** The target of a route with its `${NAME}` placeholders filled in. */
function expandTarget(
  route: GatewayRoute,
  env: DeployEnvironment,
): GatewayRoute {
  if (!route.target.includes("$")) return route;
  const target = env.expand(route.target, route.filePath);
  return target === undefined ? route : { ...route, target };
}

/**
 * Reads deployment configuration: nginx `location` / `proxy_pass` routes,
 * Kubernetes Ingress rules, Istio VirtualServices, Gateway API HTTPRoutes,
 * Envoy, Kong and Traefik (files and compose labels) routes as gateway
 * routes, docker-compose `build`
 * folders and the folders of build manifests (package.json, pom.xml,
 * go.mod, a Dockerfile...) as service folders, and the environment variables of
 * Dockerfile `ENV`, dotenv files, compose `environment:` and Kubernetes
 * `env:` / ConfigMaps to fill in the hosts routes name by variable.
 *
 * @example
 * ```ts
 * import { deployExtractor } from "@portcullis/portcullis/extract";
 * import assert from "node:assert/strict";
 *
 * const result = await deployExtractor.extract([
 *   { path: "web/nginx.conf", text: "server { location /api/ { proxy_pass http://${API}:80/; } }" },
 *   { path: "web/Dockerfile", text: "FROM nginx\nENV API=orders\n" },
 * ]);
 * assert.equal(result.gateways?.[0]?.target, "orders:80");
 * ```
 */
export const deployExtractor: LanguageExtractor = {
  name: "deploy",
  accepts(path: string): boolean {
    return isNginxFile(path) || isDockerfile(path) || isComposeFile(path) ||
      isKubeFile(path) || isManifest(path) || isDotenvFile(path);
  },
  extract(files: readonly SourceFile[]): Promise<ExtractResult> {
    const diagnostics: ExtractDiagnostic[] = [];
    const env = new DeployEnvironment();
    const routes: GatewayRoute[] = [];
    const serviceFolders: ServiceFolder[] = [];
    const manifests: Array<[string, EnvSetting[]]> = [];
    for (const file of files) {
      if (isManifest(file.path)) {
        const folder = manifestFolder(file.path);
        if (folder) serviceFolders.push(folder);
      }
      try {
        if (isDockerfile(file.path)) {
          for (const setting of dockerfileEnv(file.path, file.text)) {
            env.add(setting);
          }
        } else if (isDotenvFile(file.path)) {
          for (const setting of dotenvSettings(file.path, file.text)) {
            env.add(setting);
          }
        } else if (isComposeFile(file.path)) {
          const compose = composeFile(file.path, file.text, diagnostics);
          serviceFolders.push(...compose.folders);
          for (const setting of compose.env) env.add(setting);
          routes.push(...compose.routes);
        } else if (isNginxFile(file.path)) {
          routes.push(...nginxRoutes(file.path, file.text));
        } else if (isKubeFile(file.path)) {
          const kube = kubeFile(file.path, file.text);
          routes.push(...kube.routes);
          if (kube.env.length > 0) manifests.push([file.path, kube.env]);
          if (mayBeProxy(file.text)) {
            routes.push(...proxyRoutes(file.path, file.text, diagnostics));
          }
        }
      } catch (error) {
        diagnostics.push({
          filePath: file.path,
          severity: "warning",
          message: `Cannot read deployment configuration: ${
            error instanceof Error ? error.message : String(error)
          }`,
        });
      }
    }
    // a manifest inside a service's folder configures that service
    for (const [path, settings] of manifests) {
      const scope = serviceFolderOf(path, serviceFolders);
      for (const setting of settings) {
        env.add(scope === undefined ? setting : { ...setting, scope });
      }
    }
    const result: ExtractResult = { ports: [], diagnostics };
    const settings = env.settings();
    if (settings.length > 0) result.environment = settings;
    if (routes.length > 0) {
      result.gateways = routes.map((route) => expandTarget(route, env));
    }
    if (serviceFolders.length > 0) result.serviceFolders = serviceFolders;
    return Promise.resolve(result);
  },
};
