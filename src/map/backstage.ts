import type { MapService, ServiceMap } from "./service_map.ts";
import { openApiDocuments } from "./openapi.ts";
import { escapeJsonText } from "../boundary/_display_text.ts";
import { yamlDocuments, type YamlValue } from "./_yaml.ts";

/**
 * A Backstage catalog entity (`backstage.io/v1alpha1`), as
 * {@linkcode backstageEntities} writes it.
 *
 * @example
 * ```ts
 * import type { BackstageEntity } from "@portcullis/portcullis/map";
 *
 * const entity: BackstageEntity = {
 *   apiVersion: "backstage.io/v1alpha1",
 *   kind: "Component",
 *   metadata: { name: "users", annotations: { "portcullis/service": "users" } },
 *   spec: { type: "service", lifecycle: "production", owner: "unknown" },
 * };
 * ```
 */
export interface BackstageEntity {
  /** Always `backstage.io/v1alpha1`. */
  apiVersion: "backstage.io/v1alpha1";
  /** `Component` for a service, `API` for an interface it provides. */
  kind: "Component" | "API";
  /** Name (Backstage's format), description and annotations. */
  metadata: {
    name: string;
    description?: string;
    annotations: Record<string, string>;
  };
  /** The kind's spec. */
  spec: Record<string, string | string[]>;
}

/**
 * Options for {@linkcode backstageEntities}.
 *
 * @example
 * ```ts
 * import type { BackstageOptions } from "@portcullis/portcullis/map";
 *
 * const options: BackstageOptions = { owner: "team-shop", system: "shop" };
 * ```
 */
export interface BackstageOptions {
  /**
   * `spec.owner` of every entity (an entity reference).
   * @default {"unknown"}
   */
  owner?: string;
  /**
   * `spec.lifecycle` of every entity.
   * @default {"production"}
   */
  lifecycle?: string;
  /**
   * `spec.system` of every entity, when given.
   * @default {undefined}
   */
  system?: string;
}

/** Backstage's name format: 1-63 of [A-Za-z0-9-_.], alphanumeric ends. */
const NAME = /^([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9]$/;

/** Gives each wanted name a valid, unused Backstage name. */
class Names {
  #taken = new Set<string>();

  name(wanted: string): string {
    let base = wanted.replace(/[^A-Za-z0-9_.-]+/g, "-").slice(0, 63)
      .replace(/^[^A-Za-z0-9]+|[^A-Za-z0-9]+$/g, "");
    if (!NAME.test(base)) base = "unnamed";
    let name = base;
    for (let n = 2; this.#taken.has(name); n++) {
      name = `${base.slice(0, 63 - String(n).length - 1)}-${n}`;
    }
    this.#taken.add(name);
    return name;
  }
}

const API_TYPES: Readonly<Record<string, string>> = {
  http: "openapi",
  grpc: "grpc",
  queue: "queue",
  temporal: "temporal",
};

function mechanisms(service: MapService): string[] {
  return [...new Set(service.provides.map((port) => port.mechanism))].sort();
}

function described(service: MapService): string {
  const parts = mechanisms(service).map((mechanism) =>
    `${
      service.provides.filter((p) => p.mechanism === mechanism).length
    } ${mechanism}`
  );
  return `Found by portcullis-scan. Provides: ${
    parts.join(", ") || "nothing"
  }; consumes ${service.consumes.length} interfaces.`;
}

/**
 * Backstage catalog entities for a service map: a `Component` (type
 * `service`) per service, and an `API` per service and mechanism it
 * provides (`<service>-<mechanism>`; type `openapi` with the
 * {@linkcode openApiDocuments} skeleton as definition for HTTP, else
 * `grpc`, `queue` or `temporal` with the keys as definition). A component's
 * `providesApis` lists its APIs and `consumesApis` the APIs its code calls
 * (from the map's flows), so the catalog's relations come from code, not
 * from hand-written YAML. Names are made valid for Backstage (and unique);
 * the `portcullis/service` annotation keeps the service's own name.
 *
 * @param map The service map.
 * @param options Owner, lifecycle and system of every entity.
 * @returns The entities: components first, then APIs.
 *
 * @example Usage
 * ```ts
 * import { addBoundary, BoundaryGraph, linkGraph } from "@portcullis/portcullis/boundary";
 * import { backstageEntities, serviceMap } from "@portcullis/portcullis/map";
 * import assert from "node:assert/strict";
 *
 * const graph = new BoundaryGraph();
 * graph.addNode({ id: "w", kind: "function", qualifiedName: "api.ts::load", name: "load", metadata: { root: "web" } });
 * graph.addNode({ id: "u", kind: "function", qualifiedName: "app.py::get_user", name: "get_user", metadata: { root: "users" } });
 * const port = { mechanism: "http", key: "GET /users/{}", line: 1, col: 1, confidence: 1, detail: {} } as const;
 * addBoundary(graph, "u", { ...port, role: "server" });
 * addBoundary(graph, "w", { ...port, role: "client" });
 * linkGraph(graph);
 *
 * const entities = backstageEntities(serviceMap(graph), { owner: "team-shop" });
 * const web = entities.find((e) => e.metadata.name === "web");
 * assert.deepEqual(web?.spec.consumesApis, ["users-http"]);
 * ```
 */
export function backstageEntities(
  map: ServiceMap,
  options: BackstageOptions = {},
): BackstageEntity[] {
  const common: Record<string, string> = {
    lifecycle: options.lifecycle ?? "production",
    owner: options.owner ?? "unknown",
  };
  if (options.system !== undefined) common["system"] = options.system;
  const names = new Names();
  const componentName = new Map<string, string>();
  for (const service of map.services) {
    componentName.set(service.name, names.name(service.name));
  }
  const apiName = new Map<string, string>();
  for (const service of map.services) {
    for (const mechanism of mechanisms(service)) {
      apiName.set(
        `${service.name}\u0000${mechanism}`,
        names.name(`${service.name}-${mechanism}`),
      );
    }
  }
  const openapi = openApiDocuments(map);
  const components: BackstageEntity[] = [];
  const apis: BackstageEntity[] = [];
  for (const service of map.services) {
    const provides = mechanisms(service).map((mechanism) =>
      apiName.get(`${service.name}\u0000${mechanism}`)!
    );
    const consumes = [
      ...new Set(
        map.flows.filter((flow) => flow.from === service.name)
          .map((flow) => apiName.get(`${flow.to}\u0000${flow.mechanism}`))
          .filter((name): name is string => name !== undefined),
      ),
    ].sort();
    components.push({
      apiVersion: "backstage.io/v1alpha1",
      kind: "Component",
      metadata: {
        name: componentName.get(service.name)!,
        description: described(service),
        annotations: { "portcullis/service": service.name },
      },
      spec: {
        type: "service",
        ...common,
        providesApis: provides,
        consumesApis: consumes,
      },
    });
    for (const mechanism of mechanisms(service)) {
      const keys = [
        ...new Set(
          service.provides.filter((p) => p.mechanism === mechanism)
            .map((p) => p.key),
        ),
      ];
      const definition =
        mechanism === "http" && Object.hasOwn(openapi, service.name)
          ? escapeJsonText(JSON.stringify(openapi[service.name], null, 2))
          : keys.join("\n");
      apis.push({
        apiVersion: "backstage.io/v1alpha1",
        kind: "API",
        metadata: {
          name: apiName.get(`${service.name}\u0000${mechanism}`)!,
          description:
            `${keys.length} ${mechanism} interfaces of ${service.name}, found in code by portcullis-scan.`,
          annotations: { "portcullis/service": service.name },
        },
        spec: {
          type: API_TYPES[mechanism] ?? mechanism,
          ...common,
          definition,
        },
      });
    }
  }
  return [...components, ...apis];
}

/**
 * Backstage entities as one YAML file (documents separated by `---`), as
 * a catalog `Location` reads it. Every string is double-quoted with JSON
 * escapes.
 *
 * @param entities The entities.
 * @returns The YAML text.
 *
 * @example Usage
 * ```ts
 * import { backstageYaml } from "@portcullis/portcullis/map";
 * import assert from "node:assert/strict";
 *
 * const yaml = backstageYaml([{
 *   apiVersion: "backstage.io/v1alpha1",
 *   kind: "Component",
 *   metadata: { name: "users", annotations: {} },
 *   spec: { type: "service", lifecycle: "production", owner: "unknown" },
 * }]);
 * assert.match(yaml, /^---\n"apiVersion": "backstage.io\/v1alpha1"\n/);
 * ```
 */
export function backstageYaml(entities: readonly BackstageEntity[]): string {
  return yamlDocuments(entities as unknown as YamlValue[]);
}
