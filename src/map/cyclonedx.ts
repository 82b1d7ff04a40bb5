import type { PortRecord } from "../boundary/port_records.ts";
import type { MapService, ServiceFlow, ServiceMap } from "./service_map.ts";

/**
 * A CycloneDX 1.6 bill of materials holding `services`, as
 * {@linkcode cyclonedxBom} writes it (the JSON form).
 *
 * @example
 * ```ts
 * import type { CycloneDxBom } from "@portcullis/portcullis/map";
 *
 * const bom: CycloneDxBom = {
 *   bomFormat: "CycloneDX",
 *   specVersion: "1.6",
 *   serialNumber: "urn:uuid:3e671687-395b-41f5-a30f-a58921a69b79",
 *   version: 1,
 *   metadata: {},
 *   services: [],
 * };
 * ```
 */
export interface CycloneDxBom {
  /** Always `CycloneDX`. */
  bomFormat: "CycloneDX";
  /** Always `1.6`. */
  specVersion: "1.6";
  /** `urn:uuid:...`. */
  serialNumber: string;
  /** Always 1. */
  version: 1;
  /** Tool, timestamp and the system described. */
  metadata: Record<string, unknown>;
  /** One entry per service. */
  services: Record<string, unknown>[];
}

/**
 * Options for {@linkcode cyclonedxBom}.
 *
 * @example
 * ```ts
 * import type { CycloneDxOptions } from "@portcullis/portcullis/map";
 *
 * const options: CycloneDxOptions = { serialNumber: "urn:uuid:3e671687-395b-41f5-a30f-a58921a69b79" };
 * ```
 */
export interface CycloneDxOptions {
  /**
   * The BOM's serial number (`urn:uuid:<RFC 4122 UUID>`).
   * @default {a random UUID}
   */
  serialNumber?: string;
  /**
   * `metadata.timestamp` (ISO 8601), left out when not given so the output
   * is reproducible.
   * @default {undefined}
   */
  timestamp?: string;
}

const UUID =
  /^urn:uuid:[0-9a-f]{8}-[0-9a-f]{4}-[1-5][0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/;

// RFC 3986 pchar and "/" are kept; everything else is percent-encoded (as
// UTF-8), so an endpoint is a valid IRI reference whatever the key holds.
const KEEP = /[A-Za-z0-9\-._~!$&'()*+,;=:@/]/;

function encode(text: string): string {
  let out = "";
  for (
    const char of text.replace(
      /[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/g,
      "\ufffd",
    )
  ) {
    if (KEEP.test(char)) out += char;
    else {
      for (const byte of new TextEncoder().encode(char)) {
        out += `%${byte.toString(16).toUpperCase().padStart(2, "0")}`;
      }
    }
  }
  return out;
}

/** The endpoint URI of a port: the path for HTTP, `<mechanism>:<key>` else. */
function endpoint(port: PortRecord): string {
  if (port.mechanism === "http") {
    const space = port.key.indexOf(" ");
    return encode(space === -1 ? port.key : port.key.slice(space + 1));
  }
  return `${encode(port.mechanism)}:${encode(port.key)}`;
}

function reference(service: string): string {
  return `urn:portcullis:service:${encode(service)}`;
}

/** A flow into or out of a service, as a CycloneDX data flow. */
function dataFlow(
  flow: ServiceFlow,
  direction: "inbound" | "outbound",
): Record<string, unknown> {
  const [other, word, end] = direction === "inbound"
    ? [flow.from, "from", "source"]
    : [flow.to, "to", "destination"];
  return {
    flow: direction,
    classification: "unclassified",
    name: `${flow.mechanism} ${word} ${other}`,
    description: flow.keys.join(", "),
    [end]: [reference(other)],
  };
}

function entry(service: MapService, map: ServiceMap): Record<string, unknown> {
  const out: Record<string, unknown> = {
    "bom-ref": reference(service.name),
    name: service.name,
  };
  const endpoints = [...new Set(service.provides.map(endpoint))].sort();
  if (endpoints.length > 0) out["endpoints"] = endpoints;
  const guarded = service.provides.filter((p) => p.requires !== undefined);
  if (
    service.provides.length > 0 && guarded.length === service.provides.length
  ) {
    out["authenticated"] = true;
  }
  if (guarded.length > 0) out["x-trust-boundary"] = true;
  const data: Record<string, unknown>[] = [];
  for (const flow of map.flows) {
    if (flow.to === service.name && flow.from !== service.name) {
      data.push(dataFlow(flow, "inbound"));
    }
    if (flow.from === service.name && flow.to !== service.name) {
      data.push(dataFlow(flow, "outbound"));
    }
  }
  if (data.length > 0) out["data"] = data;
  const properties = [
    ...service.provides.map((p) => ({
      name: "portcullis:provides",
      value: `${p.mechanism} ${p.key}`,
    })),
    ...service.consumes.map((p) => ({
      name: "portcullis:consumes",
      value: `${p.mechanism} ${p.key}`,
    })),
    ...guarded.map((p) => ({
      name: "portcullis:requires",
      value: `${p.key} ${p.requires}`,
    })),
  ];
  if (properties.length > 0) out["properties"] = properties;
  return out;
}

/**
 * A CycloneDX 1.6 BOM of a service map's `services`: per service its
 * `endpoints` (HTTP paths, `grpc:`, `queue:`, `temporal:` URIs, all
 * percent-encoded), its data flows to and from the services it calls or
 * is called by (`data`, with the keys in the description), `authenticated`
 * when the guard requires a permission or a user on every route it
 * provides, `x-trust-boundary` when it does on some, and every port as a
 * `portcullis:provides` / `portcullis:consumes` property.
 *
 * @param map The service map; its name is the BOM's subject.
 * @param options Serial number and timestamp.
 * @returns The BOM (serialize it with `JSON.stringify`).
 * @throws {SyntaxError} If `serialNumber` is not `urn:uuid:<UUID>`.
 *
 * @example Usage
 * ```ts
 * import { addBoundary, BoundaryGraph } from "@portcullis/portcullis/boundary";
 * import { cyclonedxBom, serviceMap } from "@portcullis/portcullis/map";
 * import assert from "node:assert/strict";
 *
 * const graph = new BoundaryGraph();
 * graph.addNode({ id: "u", kind: "function", qualifiedName: "app.py::get_user", name: "get_user", metadata: { root: "users" } });
 * addBoundary(graph, "u", { mechanism: "http", role: "server", key: "GET /users/{}", line: 4, col: 1, confidence: 1, detail: { permission: "user:read" } });
 *
 * const bom = cyclonedxBom(serviceMap(graph, { name: "shop" }));
 * assert.deepEqual(bom.services[0]?.endpoints, ["/users/%7B%7D"]);
 * assert.equal(bom.services[0]?.authenticated, true);
 * ```
 */
export function cyclonedxBom(
  map: ServiceMap,
  options: CycloneDxOptions = {},
): CycloneDxBom {
  const serialNumber = options.serialNumber ??
    `urn:uuid:${globalThis.crypto.randomUUID()}`;
  if (!UUID.test(serialNumber)) {
    throw new SyntaxError(
      `Cannot write the BOM: serialNumber must be urn:uuid:<UUID>, got "${serialNumber}"`,
    );
  }
  const metadata: Record<string, unknown> = {
    tools: {
      components: [{ type: "application", name: "portcullis-scan" }],
    },
    component: {
      type: "application",
      "bom-ref": "urn:portcullis:system",
      name: map.name,
    },
  };
  if (options.timestamp !== undefined) {
    metadata["timestamp"] = options.timestamp;
  }
  return {
    bomFormat: "CycloneDX",
    specVersion: "1.6",
    serialNumber,
    version: 1,
    metadata,
    services: map.services.map((service) => entry(service, map)),
  };
}
