import type { JsonValue } from "../../boundary/graph.ts";

/**
 * Options for {@linkcode OrgStore.open}.
 *
 * @example
 * ```ts
 * import type { OrgStoreOptions } from "@portcullis/portcullis/map/store";
 *
 * const options: OrgStoreOptions = { maxConnections: 4 };
 * ```
 */
export interface OrgStoreOptions {
  /**
   * Connections of the pool (a PostgreSQL server).
   * @default {4}
   */
  maxConnections?: number;
  /**
   * Seconds to wait for a connection before an attempt fails.
   * @default {10}
   */
  connectTimeoutSeconds?: number;
}

/**
 * Options for {@linkcode OrgStore.publish}.
 *
 * @example
 * ```ts
 * import type { PublishOptions } from "@portcullis/portcullis/map/store";
 *
 * const options: PublishOptions = { commit: "4f2a9c1" };
 * ```
 */
export interface PublishOptions {
  /**
   * The commit the graph was scanned at (shown by
   * {@linkcode OrgStore.repositories}).
   */
  commit?: string;
  /**
   * Metadata kept with the repository; the graph's own metadata when not
   * given (a scan records its roots and the budgets it hit there).
   */
  metadata?: Record<string, JsonValue>;
}

/**
 * What {@linkcode OrgStore.publish} did.
 *
 * @example
 * ```ts
 * import type { PublishResult } from "@portcullis/portcullis/map/store";
 *
 * const result: PublishResult = { repo: "web", ports: 12, owners: 5, changed: true };
 * ```
 */
export interface PublishResult {
  /** The repository. */
  repo: string;
  /** Ports it has now. */
  ports: number;
  /** Owners (functions, handlers) of those ports. */
  owners: number;
  /** False when the same graph, commit and metadata were published already. */
  changed: boolean;
}

/**
 * A published repository, as {@linkcode OrgStore.repositories} lists it.
 *
 * @example
 * ```ts
 * import type { OrgRepository } from "@portcullis/portcullis/map/store";
 *
 * const repo: OrgRepository = {
 *   repo: "web", commit: "4f2a9c1", ports: 12, owners: 5,
 *   publishedAt: "2026-12-07T18:00:00.000Z", metadata: {},
 * };
 * ```
 */
export interface OrgRepository {
  /** Its name. */
  repo: string;
  /** The commit published, if given. */
  commit?: string;
  /** Its ports. */
  ports: number;
  /** Owners of its ports. */
  owners: number;
  /** When it was last published, as an ISO 8601 UTC timestamp. */
  publishedAt: string;
  /** Its metadata. */
  metadata: Record<string, JsonValue>;
}

/**
 * One end of an {@linkcode OrgLink}: an owner in a repository, on a
 * boundary.
 *
 * @example
 * ```ts
 * import type { OrgLinkEnd } from "@portcullis/portcullis/map/store";
 *
 * const end: OrgLinkEnd = { repo: "web", ownerId: "web:src/api.ts::load", boundaryId: "2c3c7cba2c035619", key: "GET /users/{}" };
 * ```
 */
export interface OrgLinkEnd {
  /** The repository. */
  repo: string;
  /** Id of the owner node in that repository's graph. */
  ownerId: string;
  /** The boundary its port is on. */
  boundaryId: string;
  /** That boundary's key. */
  key: string;
}

/**
 * A consumer linked to a provider across the organisation, as the
 * in-memory linker would link them in one merged graph.
 *
 * @example
 * ```ts
 * import type { OrgLink } from "@portcullis/portcullis/map/store";
 *
 * const link: OrgLink = {
 *   mechanism: "http",
 *   consumer: { repo: "web", ownerId: "load", boundaryId: "b1", key: "GET /users/{}" },
 *   provider: { repo: "users", ownerId: "get_user", boundaryId: "b1", key: "GET /users/{}" },
 *   confidence: 0.9,
 * };
 * ```
 */
export interface OrgLink {
  /** The mechanism. */
  mechanism: string;
  /** The consumer. */
  consumer: OrgLinkEnd;
  /** The provider; on another boundary only for an `ANY`-method HTTP link. */
  provider: OrgLinkEnd;
  /** Consumer confidence × provider confidence. */
  confidence: number;
}

/**
 * Options of {@linkcode OrgStore.links}.
 *
 * @example
 * ```ts
 * import type { LinksQuery } from "@portcullis/portcullis/map/store";
 *
 * const query: LinksQuery = { repo: "web", minConfidence: 0.5 };
 * ```
 */
export interface LinksQuery {
  /** Only links with an end in this repository. */
  repo?: string;
  /**
   * Pairs below this confidence are left out; a number from 0 to 1.
   * @default {0}
   */
  minConfidence?: number;
  /**
   * At most this many links (an integer from 1).
   * @default {100000}
   */
  limit?: number;
}

/**
 * Options of the queries that list ports.
 *
 * @example
 * ```ts
 * import type { PortsQuery } from "@portcullis/portcullis/map/store";
 *
 * const query: PortsQuery = { limit: 100 };
 * ```
 */
export interface PortsQuery {
  /**
   * At most this many ports (an integer from 1).
   * @default {100000}
   */
  limit?: number;
}

/**
 * Options of {@linkcode OrgStore.unmatchedConsumers}.
 *
 * @example
 * ```ts
 * import type { UnmatchedQuery } from "@portcullis/portcullis/map/store";
 *
 * const query: UnmatchedQuery = { repo: "web" };
 * ```
 */
export interface UnmatchedQuery extends PortsQuery {
  /** Only consumers of this repository. */
  repo?: string;
}

/**
 * A boundary named by its id (16 hex digits) or by its mechanism and key.
 *
 * @example
 * ```ts
 * import type { BoundarySelector } from "@portcullis/portcullis/map/store";
 *
 * const ref: BoundarySelector = { mechanism: "http", key: "GET /users/{}" };
 * ```
 */
export type BoundarySelector = string | { mechanism: string; key: string };

/**
 * Another repository that one depends on (or that depends on it), with
 * how many links and boundaries join them.
 *
 * @example
 * ```ts
 * import type { RepoDependency } from "@portcullis/portcullis/map/store";
 *
 * const dependency: RepoDependency = { repo: "users", links: 3, boundaries: 2 };
 * ```
 */
export interface RepoDependency {
  /** The other repository. */
  repo: string;
  /** Links between the two. */
  links: number;
  /** Distinct provider boundaries those links reach. */
  boundaries: number;
}
