/**
 * The organisation store: the service map of every repository of an
 * organisation in PostgreSQL (a server, or PGlite in this process). Each
 * repository publishes its boundary graph; links across repositories are a
 * SQL join on boundary id; queries answer who consumes or provides a
 * boundary, what nothing serves, what depends on what, and whether a
 * repository's new graph breaks anyone (the CI gate against the
 * organisation). Nothing here is loaded by `@portcullis/portcullis/map`.
 *
 * @example
 * ```ts
 * import { addBoundary, BoundaryGraph } from "@portcullis/portcullis/boundary";
 * import { OrgStore } from "@portcullis/portcullis/map/store";
 * import assert from "node:assert/strict";
 *
 * const graph = new BoundaryGraph();
 * graph.addNode({ id: "load", kind: "function", qualifiedName: "api.ts::load", name: "load" });
 * addBoundary(graph, "load", { mechanism: "http", role: "client", key: "GET /users/{}", line: 3, col: 1, confidence: 1, detail: {} });
 *
 * await using store = await OrgStore.open("pglite:memory");
 * assert.equal((await store.publish("web", graph)).ports, 1);
 * assert.equal((await store.unmatchedConsumers())[0]?.owner, "api.ts::load");
 * ```
 *
 * @module
 */
export { OrgStore } from "./org_store.ts";
export { OrgStoreError, type OrgStoreErrorCode } from "./org_store_error.ts";
export type * from "./org_store_types.ts";
