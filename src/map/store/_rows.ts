// Rows of the store's queries as the library's records.
import type { JsonValue } from "../../boundary/graph.ts";
import type { PortRecord } from "../../boundary/port_records.ts";
import type { Rows } from "../../_postgres/_sql.ts";
import type { OrgLink, OrgRepository } from "./org_store_types.ts";

function text(value: unknown): string {
  return typeof value === "string" ? value : String(value ?? "");
}

/** A row of `PORT_COLUMNS` as a port record. */
export function portRecord(row: unknown[]): PortRecord {
  const port: PortRecord = {
    graph: text(row[0]),
    boundaryId: text(row[1]),
    mechanism: text(row[2]),
    key: text(row[3]),
    role: row[4] === "server" ? "server" : "client",
    ownerId: text(row[5]),
    owner: text(row[6]),
    service: text(row[7]),
    confidence: Number(row[8]),
  };
  if (row[9] !== null && row[9] !== undefined) port.filePath = text(row[9]);
  if (row[10] !== null && row[10] !== undefined) port.line = Number(row[10]);
  if (row[11] !== null && row[11] !== undefined) port.col = Number(row[11]);
  if (row[12] !== null && row[12] !== undefined) port.requires = text(row[12]);
  return port;
}

/** Rows of `linksSql` as links. */
export function orgLinks(rows: Rows): OrgLink[] {
  return rows.map((row) => ({
    mechanism: text(row[8]),
    consumer: {
      repo: text(row[0]),
      ownerId: text(row[1]),
      boundaryId: text(row[2]),
      key: text(row[3]),
    },
    provider: {
      repo: text(row[4]),
      ownerId: text(row[5]),
      boundaryId: text(row[6]),
      key: text(row[7]),
    },
    confidence: Number(row[9]),
  }));
}

/** The columns `orgRepository` reads. */
export const REPO_COLUMNS = `repo, commit_sha, port_count, owner_count,
  to_char(published_at AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"'),
  metadata::text`;

/** A row of `REPO_COLUMNS` as a repository. */
export function orgRepository(row: unknown[]): OrgRepository {
  const [name, commit, ports, owners, publishedAt, metadata] = row;
  const repo: OrgRepository = {
    repo: text(name),
    ports: Number(ports),
    owners: Number(owners),
    publishedAt: text(publishedAt),
    metadata: JSON.parse(text(metadata)) as Record<string, JsonValue>,
  };
  if (typeof commit === "string") repo.commit = commit;
  return repo;
}
