import type { BoundaryDiff, DiffOptions } from "../../boundary/diff.ts";
import type { BoundaryGraph } from "../../boundary/graph.ts";
import { makeBoundaryId } from "../../boundary/id.ts";
import type { PortRecord } from "../../boundary/port_records.ts";
import type { Mechanism } from "../../boundary/types.ts";
import { openSqlClient, redactUrl } from "../../_postgres/_open.ts";
import {
  messageOf,
  type Rows,
  type SqlClient,
  type SqlSession,
} from "../../_postgres/_sql.ts";
import { checkConfidence, checkLimit, checkRepo } from "./_checks.ts";
import { migrate, SchemaTooNew } from "./_migrations.ts";
import { diffAgainstOrg } from "./_org_diff.ts";
import { httpParts, publishRows, replaceRepo, storable } from "./_publish.ts";
import { linksSql, PORT_COLUMNS, repoLinksSql, SERVED } from "./_link_sql.ts";
import { orgLinks, orgRepository, portRecord, REPO_COLUMNS } from "./_rows.ts";
import { OrgStoreError } from "./org_store_error.ts";
import type {
  BoundarySelector,
  LinksQuery,
  OrgLink,
  OrgRepository,
  OrgStoreOptions,
  PortsQuery,
  PublishOptions,
  PublishResult,
  RepoDependency,
  UnmatchedQuery,
} from "./org_store_types.ts";

const READ = { readOnly: true, isolation: "repeatable read" } as const;

/**
 * The service map of an organisation in PostgreSQL: each repository
 * publishes its boundary graph (its ports, their owners, its metadata and
 * commit), replacing what it published before in one transaction, and the
 * links across repositories are a SQL join on boundary id, so the map grows
 * with the database, not with one process's memory. Queries answer who
 * consumes or provides a boundary, which consumers nothing serves, what a
 * repository depends on and what depends on it, and what would break if a
 * repository's new graph replaced its published one (the CI gate of
 * {@linkcode gateDiff} against the whole organisation).
 *
 * It runs on a PostgreSQL server (`postgres://...`, 15 or later) or on
 * PGlite, PostgreSQL in this process (`pglite:<directory>`, or
 * `pglite:memory`); the tables are created and migrated on open.
 *
 * @example Publish two repositories and ask who consumes a route
 * ```ts
 * import { addBoundary, BoundaryGraph } from "@portcullis/portcullis/boundary";
 * import { OrgStore } from "@portcullis/portcullis/map/store";
 * import assert from "node:assert/strict";
 *
 * const repo = (owner: string, role: "server" | "client"): BoundaryGraph => {
 *   const graph = new BoundaryGraph();
 *   graph.addNode({ id: owner, kind: "function", qualifiedName: owner, name: owner });
 *   addBoundary(graph, owner, { mechanism: "http", role, key: "GET /users/{}", line: 1, col: 1, confidence: 1, detail: {} });
 *   return graph;
 * };
 * await using store = await OrgStore.open("pglite:memory");
 * await store.publish("users", repo("get_user", "server"));
 * await store.publish("web", repo("load_user", "client"));
 *
 * const consumers = await store.consumers({ mechanism: "http", key: "GET /users/{}" });
 * assert.deepEqual(consumers.map((port) => port.graph), ["web"]);
 * assert.deepEqual(await store.dependencies("web"), [{ repo: "users", links: 1, boundaries: 1 }]);
 * ```
 */
export class OrgStore implements AsyncDisposable {
  /** `"postgres"` for a server, `"pglite"` for the embedded database. */
  readonly kind: "postgres" | "pglite";
  readonly #client: SqlClient;
  #closed = false;

  private constructor(client: SqlClient) {
    this.kind = client.kind;
    this.#client = client;
  }

  /**
   * Connects (`postgres://user:password@host:port/db`, `postgresql://...`)
   * or opens PGlite (`pglite:<directory>`, created if missing, or
   * `pglite:memory`), and applies the schema migrations it lacks.
   *
   * @param url Where the database is.
   * @param options Connection settings.
   * @returns The open store.
   * @throws {RangeError} For another kind of URL.
   * @throws {OrgStoreError} If it cannot connect (`CONNECT_FAILED`), the
   * schema cannot be migrated (`SCHEMA_FAILED`), or a newer library
   * migrated it (`SCHEMA_TOO_NEW`).
   *
   * @example
   * ```ts ignore
   * await using store = await OrgStore.open("postgres://map@db/map");
   * ```
   */
  static async open(
    url: string,
    options: OrgStoreOptions = {},
  ): Promise<OrgStore> {
    let client: SqlClient;
    try {
      client = await openSqlClient(url, {
        label: "organisation store",
        maxConnections: options.maxConnections ?? 4,
        connectTimeoutSeconds: options.connectTimeoutSeconds ?? 10,
      });
      await client.query("SELECT 1");
    } catch (error) {
      if (error instanceof RangeError) throw error;
      throw new OrgStoreError(
        "CONNECT_FAILED",
        `Cannot open organisation store "${redactUrl(url)}": ${
          messageOf(error)
        }`,
        { cause: error },
      );
    }
    try {
      await migrate(client);
    } catch (error) {
      await client.close().catch(() => {});
      throw new OrgStoreError(
        error instanceof SchemaTooNew ? "SCHEMA_TOO_NEW" : "SCHEMA_FAILED",
        `Cannot prepare organisation store "${redactUrl(url)}": ${
          messageOf(error)
        }`,
        { cause: error },
      );
    }
    return new OrgStore(client);
  }

  /**
   * Replaces what `repo` published with the ports of `graph`, in one
   * transaction: readers see the old ports or the new ones, never a mix.
   * Publishing the same graph, commit and metadata again changes nothing
   * (`changed: false`); publishes of different repositories run at the
   * same time, those of one repository one after the other.
   *
   * @param repo The repository's name (letters, digits, `. _ - / @ : +`).
   * @param graph Its boundary graph (linked or not: links are the store's).
   * @param options The commit and metadata to keep with it.
   * @returns What was published.
   * @throws {RangeError} For a bad repository name.
   * @throws {OrgStoreError} `PUBLISH_FAILED` if the transaction failed
   * (nothing was changed).
   *
   * @example
   * ```ts ignore
   * const graph = BoundaryGraph.fromJSON(await Deno.readTextFile("web.json"));
   * await store.publish("web", graph, { commit: "4f2a9c1" });
   * ```
   */
  async publish(
    repo: string,
    graph: BoundaryGraph,
    options: PublishOptions = {},
  ): Promise<PublishResult> {
    checkRepo(repo, "publish");
    this.#open("publish");
    const rows = publishRows(
      repo,
      graph,
      options.commit,
      options.metadata ?? graph.metadata,
    );
    try {
      const { changed, large } = await replaceRepo(this.#client, repo, rows);
      // Fresh statistics after a large change, so that the planner joins
      // with hashes, not loops (PGlite has no autovacuum; a server's may
      // come later). Only a table's owner may: the queries work without.
      if (large) {
        await this.#client.query(
          "ANALYZE portcullis_map_ports, portcullis_map_owners",
        ).catch(() => {});
      }
      return {
        repo,
        ports: rows.ports.length,
        owners: rows.owners.length,
        changed,
      };
    } catch (error) {
      throw new OrgStoreError(
        "PUBLISH_FAILED",
        `Cannot publish "${repo}": ${messageOf(error)}`,
        { cause: error },
      );
    }
  }

  /**
   * Removes a repository and its ports from the organisation.
   *
   * @param repo The repository.
   * @returns Whether it was published.
   *
   * @example
   * ```ts ignore
   * await store.unpublish("legacy-billing");
   * ```
   */
  async unpublish(repo: string): Promise<boolean> {
    checkRepo(repo, "unpublish");
    const rows = await this.#write("unpublish", async (tx) => {
      await tx.query("DELETE FROM portcullis_map_ports WHERE repo = $1", [
        repo,
      ]);
      return await tx.query(
        "DELETE FROM portcullis_map_repos WHERE repo = $1 RETURNING repo",
        [repo],
      );
    });
    return rows.length > 0;
  }

  /**
   * The published repositories, by name.
   *
   * @returns Each repository with its commit, counts and metadata.
   *
   * @example
   * ```ts ignore
   * for (const repo of await store.repositories()) console.log(repo.repo, repo.commit);
   * ```
   */
  async repositories(): Promise<OrgRepository[]> {
    const rows = await this.#query(
      "list repositories",
      `SELECT ${REPO_COLUMNS} FROM portcullis_map_repos ORDER BY repo`,
    );
    return rows.map(orgRepository);
  }

  /**
   * The ports a repository published, in boundary order.
   *
   * @param repo The repository.
   * @returns Its ports (none if it was never published).
   *
   * @example
   * ```ts ignore
   * const ports = await store.ports("web");
   * ```
   */
  async ports(repo: string): Promise<PortRecord[]> {
    checkRepo(repo, "list ports");
    const rows = await this.#query(
      "list ports",
      `SELECT ${PORT_COLUMNS} FROM portcullis_map_ports p
JOIN portcullis_map_owners o USING (repo, owner_id)
WHERE p.repo = $1 ORDER BY p.boundary_id, p.role, p.owner_id, p.line`,
      [repo],
    );
    return rows.map(portRecord);
  }

  /**
   * The consumers of a boundary across the organisation: the client ports
   * on it, and for HTTP those on its path when one side's method is `ANY`.
   *
   * @param boundary Its id, or its mechanism and key.
   * @param query A limit.
   * @returns The consumer ports, by repository, file and line.
   *
   * @example
   * ```ts ignore
   * const callers = await store.consumers({ mechanism: "http", key: "GET /users/{}" });
   * ```
   */
  consumers(
    boundary: BoundarySelector,
    query: PortsQuery = {},
  ): Promise<PortRecord[]> {
    return this.#side("client", boundary, query);
  }

  /**
   * The providers of a boundary across the organisation: the server ports
   * on it, and for HTTP those on its path when one side's method is `ANY`.
   *
   * @param boundary Its id, or its mechanism and key.
   * @param query A limit.
   * @returns The provider ports, by repository, file and line.
   *
   * @example
   * ```ts ignore
   * const servers = await store.providers({ mechanism: "queue", key: "orders.created" });
   * ```
   */
  providers(
    boundary: BoundarySelector,
    query: PortsQuery = {},
  ): Promise<PortRecord[]> {
    return this.#side("server", boundary, query);
  }

  async #side(
    role: "client" | "server",
    boundary: BoundarySelector,
    query: PortsQuery,
  ): Promise<PortRecord[]> {
    const action = role === "client" ? "list consumers" : "list providers";
    const limit = checkLimit(query.limit, action);
    const ref = await this.#boundary(boundary, action);
    if (ref === undefined) return [];
    const [method, path] = httpParts(ref.mechanism, ref.key);
    const rows = await this.#query(
      action,
      `SELECT ${PORT_COLUMNS} FROM portcullis_map_ports p
JOIN portcullis_map_owners o USING (repo, owner_id)
WHERE p.role = $1 AND (p.boundary_id = $2 OR (p.http_path = $3
  AND p.boundary_id <> $2 AND (p.http_method = 'ANY' OR $4 = 'ANY')))
ORDER BY p.repo, p.file_path, p.line, p.owner_id LIMIT $5`,
      [role, ref.id, path === null ? null : storable(path), method, limit],
    );
    return rows.map(portRecord);
  }

  /** The id, mechanism and key of a boundary reference. */
  async #boundary(
    boundary: BoundarySelector,
    action: string,
  ): Promise<{ id: string; mechanism: string; key: string } | undefined> {
    if (typeof boundary === "object" && boundary !== null) {
      const { mechanism, key } = boundary;
      if (typeof mechanism !== "string" || typeof key !== "string") {
        throw new TypeError(
          `Cannot ${action}: mechanism and key must be strings`,
        );
      }
      return {
        id: makeBoundaryId(mechanism as Mechanism, key),
        mechanism,
        key,
      };
    }
    if (typeof boundary !== "string" || !/^[0-9a-f]{16}$/.test(boundary)) {
      throw new SyntaxError(
        `Cannot ${action}: a boundary id is 16 lower-case hex digits, got ${
          JSON.stringify(String(boundary).slice(0, 100))
        }`,
      );
    }
    const rows = await this.#query(
      action,
      "SELECT mechanism, key FROM portcullis_map_ports WHERE boundary_id = $1 LIMIT 1",
      [boundary],
    );
    const row = rows[0];
    if (row === undefined) return undefined;
    return { id: boundary, mechanism: String(row[0]), key: String(row[1]) };
  }

  /**
   * The links of the organisation (or of one repository): every consumer
   * paired with every provider of its boundary, across repositories, by a
   * SQL join on boundary id, with the rules of the in-memory linker; see
   * the documentation's "Organisation store" for which apply.
   *
   * @param query A repository, a confidence floor, a limit.
   * @returns The links, by consumer then provider.
   *
   * @example
   * ```ts ignore
   * const links = await store.links({ repo: "web", minConfidence: 0.5 });
   * ```
   */
  async links(query: LinksQuery = {}): Promise<OrgLink[]> {
    const floor = checkConfidence(query.minConfidence, "list links");
    const limit = checkLimit(query.limit, "list links");
    const params: unknown[] = [floor];
    let sql: string;
    if (query.repo === undefined) sql = linksSql();
    else {
      params.push(checkRepo(query.repo, "list links"));
      sql = `(${repoLinksSql("consumer", false)})
UNION (${repoLinksSql("provider", false)})`;
    }
    params.push(limit);
    const rows = await this.#query(
      "list links",
      `SELECT * FROM (${sql}) l ORDER BY 1, 2, 3, 5, 6, 7 LIMIT $${params.length}`,
      params,
    );
    return orgLinks(rows);
  }

  /**
   * The consumers that no provider anywhere in the organisation serves
   * (a call to a route nobody exposes, a topic nobody reads).
   *
   * @param query A repository, a limit.
   * @returns The consumer ports, by repository, file and line.
   *
   * @example
   * ```ts ignore
   * const dangling = await store.unmatchedConsumers({ repo: "web" });
   * ```
   */
  async unmatchedConsumers(query: UnmatchedQuery = {}): Promise<PortRecord[]> {
    const action = "list unmatched consumers";
    const limit = checkLimit(query.limit, action);
    const params: unknown[] = [limit];
    let where = "";
    if (query.repo !== undefined) {
      params.push(checkRepo(query.repo, action));
      where = " AND c.repo = $2";
    }
    const columns = PORT_COLUMNS.replaceAll("p.", "c.");
    const rows = await this.#query(
      action,
      `SELECT ${columns} FROM portcullis_map_ports c
JOIN portcullis_map_owners o USING (repo, owner_id)
WHERE c.role = 'client'${where} AND NOT (${SERVED})
ORDER BY c.repo, c.file_path, c.line, c.owner_id LIMIT $1`,
      params,
    );
    return rows.map(portRecord);
  }

  /**
   * The other repositories whose providers serve consumers of `repo`.
   *
   * @param repo The repository.
   * @returns Each with its link and boundary counts, most links first.
   *
   * @example
   * ```ts ignore
   * const upstream = await store.dependencies("web");
   * ```
   */
  dependencies(repo: string): Promise<RepoDependency[]> {
    return this.#dependencies(repo, "consumer");
  }

  /**
   * The other repositories whose consumers `repo`'s providers serve.
   *
   * @param repo The repository.
   * @returns Each with its link and boundary counts, most links first.
   *
   * @example
   * ```ts ignore
   * const downstream = await store.dependents("users-api");
   * ```
   */
  dependents(repo: string): Promise<RepoDependency[]> {
    return this.#dependencies(repo, "provider");
  }

  async #dependencies(
    repo: string,
    end: "consumer" | "provider",
  ): Promise<RepoDependency[]> {
    const action = end === "consumer" ? "list dependencies" : "list dependents";
    checkRepo(repo, action);
    const sql = repoLinksSql(end, true);
    const other = end === "consumer" ? "repo_p" : "repo_c";
    const rows = await this.#query(
      action,
      `SELECT other, count(*)::integer, count(DISTINCT boundary)::integer
FROM (SELECT l.${other} AS other, l.boundary_p AS boundary
  FROM (${sql}) AS l(repo_c, owner_c, boundary_c, key_c, repo_p, owner_p,
    boundary_p, key_p, mechanism, confidence)) d
GROUP BY other ORDER BY 2 DESC, 1`,
      [0, repo],
    );
    return rows.map((row) => ({
      repo: String(row[0]),
      links: Number(row[1]),
      boundaries: Number(row[2]),
    }));
  }

  /**
   * What replacing `repo`'s published graph by `head` would do, against
   * every other published repository: the diff a CI gate judges with
   * {@linkcode gateDiff}. Only the other repositories' ports on the
   * boundaries and HTTP paths of the repository's old and new ports are
   * read. A repository never published is compared with an empty graph.
   *
   * @param repo The repository.
   * @param head Its graph after the change (a pull request's scan).
   * @param options A confidence floor.
   * @returns The diff.
   *
   * @example
   * ```ts ignore
   * const diff = await store.diff("users-api", headGraph);
   * const verdict = gateDiff(diff, "breaking");
   * ```
   */
  async diff(
    repo: string,
    head: BoundaryGraph,
    options: DiffOptions = {},
  ): Promise<BoundaryDiff> {
    const action = `diff "${checkRepo(repo, "diff")}"`;
    checkConfidence(options.minConfidence, action);
    return await this.#read(
      action,
      (tx) => diffAgainstOrg(tx, repo, head, options),
    );
  }

  /**
   * Closes the connections (or the embedded database). Idempotent.
   *
   * @example
   * ```ts ignore
   * await store.close();
   * ```
   */
  async close(): Promise<void> {
    if (this.#closed) return;
    this.#closed = true;
    await this.#client.close();
  }

  /**
   * Closes the store (`await using`).
   *
   * @example
   * ```ts ignore
   * await using store = await OrgStore.open("pglite:memory");
   * ```
   */
  [Symbol.asyncDispose](): Promise<void> {
    return this.close();
  }

  #open(action: string): void {
    if (this.#closed) {
      throw new OrgStoreError(
        "QUERY_FAILED",
        `Cannot ${action}: the organisation store is closed`,
      );
    }
  }

  /** Runs `fn` on the client; its failure is an `OrgStoreError` of `code`. */
  async #run<T>(
    action: string,
    code: "QUERY_FAILED" | "PUBLISH_FAILED",
    fn: (client: SqlClient) => Promise<T>,
  ): Promise<T> {
    this.#open(action);
    try {
      return await fn(this.#client);
    } catch (error) {
      throw new OrgStoreError(code, `Cannot ${action}: ${messageOf(error)}`, {
        cause: error,
      });
    }
  }

  /** One statement: it sees one snapshot, no transaction needed. */
  #query(
    action: string,
    text: string,
    params: readonly unknown[] = [],
  ): Promise<Rows> {
    return this.#run(action, "QUERY_FAILED", (c) => c.query(text, params));
  }

  /** Statements that must see one snapshot. */
  #read<T>(action: string, fn: (tx: SqlSession) => Promise<T>): Promise<T> {
    return this.#run(action, "QUERY_FAILED", (c) => c.transaction(READ, fn));
  }

  #write<T>(action: string, fn: (tx: SqlSession) => Promise<T>): Promise<T> {
    return this.#run(
      action,
      "PUBLISH_FAILED",
      (c) =>
        c.transaction({ readOnly: false, isolation: "read committed" }, fn),
    );
  }
}
