import type { PortRecord } from "../boundary/port_records.ts";
import type { MapService, ServiceMap } from "./service_map.ts";

/**
 * An OpenAPI 3.1 document, as {@linkcode openApiDocuments} writes it.
 *
 * @example
 * ```ts
 * import type { OpenApiDocument } from "@portcullis/portcullis/map";
 *
 * const document: OpenApiDocument = {
 *   openapi: "3.1.0",
 *   info: { title: "users", version: "0.0.0", description: "Routes found in the code" },
 *   paths: {},
 * };
 * ```
 */
export interface OpenApiDocument {
  /** Always `3.1.0`. */
  openapi: "3.1.0";
  /** The service's name as title. */
  info: { title: string; version: string; description: string };
  /** Path templates -> method -> operation. */
  paths: Record<string, Record<string, unknown>>;
}

/**
 * Options for {@linkcode openApiDocuments}.
 *
 * @example
 * ```ts
 * import type { OpenApiOptions } from "@portcullis/portcullis/map";
 *
 * const options: OpenApiOptions = { version: "2.3.0" };
 * ```
 */
export interface OpenApiOptions {
  /**
   * `info.version` of every document.
   * @default {"0.0.0"}
   */
  version?: string;
}

/** The operations of an OpenAPI path item, by their field names. */
export const OPERATION_METHODS: ReadonlySet<string> = new Set([
  "get",
  "put",
  "post",
  "delete",
  "options",
  "head",
  "patch",
  "trace",
]);
/** What a route without a method restriction (`ANY`) is listed under. */
const ANY_METHODS = ["get", "put", "post", "delete", "patch"];

/**
 * A normalized path as an OpenAPI path template: each `{}` parameter
 * becomes `{p1}`, `{p2}`...; any other brace is percent-encoded.
 */
function pathTemplate(path: string): { template: string; params: string[] } {
  const params: string[] = [];
  let template = "";
  for (let i = 0; i < path.length; i++) {
    const char = path[i]!;
    if (char === "{" && path[i + 1] === "}") {
      const name = `p${params.length + 1}`;
      params.push(name);
      template += `{${name}}`;
      i++;
    } else if (char === "{") template += "%7B";
    else if (char === "}") template += "%7D";
    else template += char;
  }
  return { template, params };
}

function operationId(
  method: string,
  template: string,
  taken: Set<string>,
): string {
  const base =
    `${method}${template.replace(/[^A-Za-z0-9]+/g, "_").replace(/_+$/, "")}` ||
    method;
  let id = base;
  for (let n = 2; taken.has(id); n++) id = `${base}_${n}`;
  taken.add(id);
  return id;
}

function source(port: PortRecord): string {
  return `${port.filePath ?? "?"}${
    port.line === undefined ? "" : `:${port.line}`
  }`;
}

function document(
  service: MapService,
  version: string,
): OpenApiDocument | undefined {
  const routes = service.provides.filter((port) => port.mechanism === "http");
  if (routes.length === 0) return undefined;
  const paths: Record<string, Record<string, unknown>> = {};
  const taken = new Set<string>();
  for (const port of routes) {
    const space = port.key.indexOf(" ");
    if (space === -1) continue;
    const verb = port.key.slice(0, space).toLowerCase();
    const methods = verb === "any" ? ANY_METHODS : [verb];
    const { template, params } = pathTemplate(port.key.slice(space + 1));
    for (const method of methods) {
      if (!OPERATION_METHODS.has(method)) continue;
      const item = paths[template] ??= {};
      const existing = item[method] as Record<string, unknown> | undefined;
      if (existing !== undefined) {
        (existing["x-portcullis-sources"] as string[]).push(source(port));
        continue;
      }
      const operation: Record<string, unknown> = {
        operationId: operationId(method, template, taken),
        summary: port.owner,
        responses: {
          default: { description: "Not known: the route was found in code" },
        },
        "x-portcullis-sources": [source(port)],
      };
      if (params.length > 0) {
        operation["parameters"] = params.map((name) => ({
          name,
          in: "path",
          required: true,
          schema: { type: "string" },
        }));
      }
      if (port.requires !== undefined) {
        operation["x-portcullis-requires"] = port.requires;
      }
      item[method] = operation;
    }
  }
  return {
    openapi: "3.1.0",
    info: {
      title: service.name,
      version,
      description:
        "The HTTP routes static analysis found in this service's code (portcullis-scan): paths and methods only.",
    },
    paths,
  };
}

/**
 * An OpenAPI 3.1 skeleton of each service's HTTP routes: its paths (each
 * `{}` parameter named `p1`, `p2`... and declared as a string path
 * parameter), methods (`ANY` listed under get, put, post, delete and
 * patch), the owner as `summary`, where the route was found
 * (`x-portcullis-sources`) and the permission the guard requires
 * (`x-portcullis-requires`). Bodies and responses are not known. Services
 * without HTTP routes get no document.
 *
 * @param map The service map.
 * @param options `info.version`.
 * @returns Documents by service name.
 *
 * @example Usage
 * ```ts
 * import { addBoundary, BoundaryGraph } from "@portcullis/portcullis/boundary";
 * import { openApiDocuments, serviceMap } from "@portcullis/portcullis/map";
 * import assert from "node:assert/strict";
 *
 * const graph = new BoundaryGraph();
 * graph.addNode({ id: "u", kind: "function", qualifiedName: "app.py::get_user", name: "get_user", metadata: { root: "users" } });
 * addBoundary(graph, "u", { mechanism: "http", role: "server", key: "GET /users/{}", line: 4, col: 1, confidence: 1, detail: {} }, { filePath: "app.py" });
 *
 * const { users } = openApiDocuments(serviceMap(graph));
 * assert.deepEqual(Object.keys(users?.paths ?? {}), ["/users/{p1}"]);
 * ```
 */
export function openApiDocuments(
  map: ServiceMap,
  options: OpenApiOptions = {},
): Record<string, OpenApiDocument> {
  const out: Record<string, OpenApiDocument> = {};
  for (const service of map.services) {
    const doc = document(service, options.version ?? "0.0.0");
    // an own property even for a service named "__proto__"
    if (doc !== undefined) {
      Object.defineProperty(out, service.name, {
        value: doc,
        enumerable: true,
        writable: true,
        configurable: true,
      });
    }
  }
  return out;
}
