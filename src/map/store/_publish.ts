// Publishing one repository's graph: its ports and owners as rows, a digest
// of them, and the transaction that replaces the repository's rows. The
// rows go in as JSON through `jsonb_to_recordset`, a few thousand per
// statement, so that both drivers send one text parameter and no statement
// grows with the graph.
import { sha256 } from "@noble/hashes/sha2.js";
import type { BoundaryGraph, JsonValue } from "../../boundary/graph.ts";
import { type PortRecord, portRecords } from "../../boundary/port_records.ts";
import type { SqlClient, SqlSession } from "../../_postgres/_sql.ts";

/** Rows per INSERT statement. */
const BATCH = 2000;

/** An owner row. */
interface OwnerRow {
  "owner_id": string;
  name: string;
  service: string;
}

/** A port row, without its repository. */
interface PortRow {
  "owner_id": string;
  "boundary_id": string;
  mechanism: string;
  key: string;
  role: string;
  "http_method": string | null;
  "http_path": string | null;
  confidence: number;
  "file_path": string | null;
  line: number | null;
  col: number | null;
  requires: string | null;
}

/** What a publish writes for one repository. */
export interface PublishRows {
  readonly owners: OwnerRow[];
  readonly ports: PortRow[];
  readonly metadata: string;
  readonly commit: string | null;
  readonly digest: string;
}

/** The method and path of an HTTP key; nulls for another mechanism. */
export function httpParts(
  mechanism: string,
  key: string,
): [string | null, string | null] {
  if (mechanism !== "http") return [null, null];
  const space = key.indexOf(" ");
  return space === -1
    ? [null, null]
    : [key.slice(0, space), key.slice(space + 1)];
}

// PostgreSQL text holds neither NUL nor a lone UTF-16 surrogate: both
// become U+FFFD, as TextEncoder encodes a lone surrogate (and so as the
// boundary id of such a key is computed).
const UNSTORABLE =
  // deno-lint-ignore no-control-regex
  /\u0000|[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/g;

/** `text` as PostgreSQL can store it. */
export function storable(text: string): string {
  return text.replace(UNSTORABLE, "\ufffd");
}

function storableOrNull(text: string | undefined): string | null {
  return text === undefined ? null : storable(text);
}

function integer(value: number | undefined): number | null {
  return value !== undefined && Number.isSafeInteger(value) &&
      Math.abs(value) <= 2 ** 31 - 1
    ? value
    : null;
}

function portRow(port: PortRecord): PortRow {
  const [method, path] = httpParts(port.mechanism, port.key);
  return {
    "owner_id": storable(port.ownerId),
    "boundary_id": storable(port.boundaryId),
    mechanism: storable(port.mechanism),
    key: storable(port.key),
    role: port.role,
    "http_method": method === null ? null : storable(method),
    "http_path": path === null ? null : storable(path),
    // A confidence outside 0..1 (a hand-made graph) is clamped.
    confidence: Math.min(1, Math.max(0, port.confidence)),
    "file_path": storableOrNull(port.filePath),
    line: integer(port.line),
    col: integer(port.col),
    requires: storableOrNull(port.requires),
  };
}

const HEX = "0123456789abcdef";

function hex(bytes: Uint8Array): string {
  let out = "";
  for (const byte of bytes) out += HEX[byte >> 4]! + HEX[byte & 15]!;
  return out;
}

/** The rows of `graph` published as `repo`, with their digest. */
export function publishRows(
  repo: string,
  graph: BoundaryGraph,
  commit: string | undefined,
  metadata: Record<string, JsonValue>,
): PublishRows {
  const owners = new Map<string, OwnerRow>();
  const ports: PortRow[] = [];
  for (const port of portRecords(graph, repo)) {
    const ownerId = storable(port.ownerId);
    if (!owners.has(ownerId)) {
      owners.set(ownerId, {
        "owner_id": ownerId,
        name: storable(port.owner),
        service: storable(port.service),
      });
    }
    ports.push(portRow(port));
  }
  const metadataText = JSON.stringify(
    metadata,
    (_key, value) => typeof value === "string" ? storable(value) : value,
  );
  const ownerRows = [...owners.values()];
  // The digest covers everything a publish writes, so an identical publish
  // is recognised and changes nothing.
  const digest = hex(sha256(new TextEncoder().encode(JSON.stringify([
    commit ?? null,
    metadataText,
    ownerRows,
    ports,
  ]))));
  return {
    owners: ownerRows,
    ports,
    metadata: metadataText,
    commit: commit ?? null,
    digest,
  };
}

async function insertBatches(
  tx: SqlSession,
  rows: readonly object[],
  statement: string,
  repo: string,
): Promise<void> {
  for (let i = 0; i < rows.length; i += BATCH) {
    await tx.query(statement, [repo, JSON.stringify(rows.slice(i, i + BATCH))]);
  }
}

const INSERT_OWNERS =
  `INSERT INTO portcullis_map_owners (repo, owner_id, name, service)
SELECT $1, owner_id, name, service
FROM jsonb_to_recordset($2::text::jsonb) AS x(owner_id text, name text, service text)`;

const INSERT_PORTS = `INSERT INTO portcullis_map_ports (repo, owner_id,
  boundary_id, mechanism, key, role, http_method, http_path, confidence,
  file_path, line, col, requires)
SELECT $1, owner_id, boundary_id, mechanism, key, role, http_method,
  http_path, confidence, file_path, line, col, requires
FROM jsonb_to_recordset($2::text::jsonb) AS x(owner_id text, boundary_id text,
  mechanism text, key text, role text, http_method text, http_path text,
  confidence double precision, file_path text, line integer, col integer,
  requires text)`;

/** What {@linkcode replaceRepo} did. */
export interface Replaced {
  /** False when the same rows were published already. */
  readonly changed: boolean;
  /** Whether it changed a tenth or more of the ports: time to ANALYZE. */
  readonly large: boolean;
}

/**
 * Replaces the rows of `repo` by `rows` in one transaction.
 * The repository's row is locked first, so publishes of one repository
 * run one after the other and publishes of different ones do not wait.
 */
export async function replaceRepo(
  client: SqlClient,
  repo: string,
  rows: PublishRows,
): Promise<Replaced> {
  return await client.transaction(
    { readOnly: false, isolation: "read committed" },
    async (tx) => {
      await tx.query(
        `INSERT INTO portcullis_map_repos (repo, digest, port_count, owner_count)
VALUES ($1, '', 0, 0) ON CONFLICT (repo) DO NOTHING`,
        [repo],
      );
      const current = await tx.query(
        `SELECT digest, port_count,
  (SELECT coalesce(sum(port_count), 0)::bigint FROM portcullis_map_repos)
FROM portcullis_map_repos WHERE repo = $1 FOR UPDATE`,
        [repo],
      );
      const [digest, before, total] = current[0] ?? [];
      if (digest === rows.digest) return { changed: false, large: false };
      // Like autovacuum's threshold: 10% of the table, plus 50 rows.
      const written = Number(before ?? 0) + rows.ports.length;
      const large = written * 10 >= Number(total ?? 0) + 500;
      await tx.query("DELETE FROM portcullis_map_ports WHERE repo = $1", [
        repo,
      ]);
      await tx.query("DELETE FROM portcullis_map_owners WHERE repo = $1", [
        repo,
      ]);
      await insertBatches(tx, rows.owners, INSERT_OWNERS, repo);
      await insertBatches(tx, rows.ports, INSERT_PORTS, repo);
      await tx.query(
        `UPDATE portcullis_map_repos SET commit_sha = $2, metadata = $3::text::jsonb,
  digest = $4, port_count = $5, owner_count = $6, published_at = now()
WHERE repo = $1`,
        [
          repo,
          rows.commit,
          rows.metadata,
          rows.digest,
          rows.ports.length,
          rows.owners.length,
        ],
      );
      return { changed: true, large };
    },
  );
}
