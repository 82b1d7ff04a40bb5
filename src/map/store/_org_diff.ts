// The gate against the organisation: a repository's published ports as the
// base, its head graph, and only the other repositories' ports on the
// boundaries and HTTP paths those touch (diffScope), in one snapshot.
import {
  type BoundaryDiff,
  type DiffOptions,
  diffPorts,
  diffScope,
} from "../../boundary/diff.ts";
import type { BoundaryGraph } from "../../boundary/graph.ts";
import { portRecords } from "../../boundary/port_records.ts";
import type { SqlSession } from "../../_postgres/_sql.ts";
import { PORT_COLUMNS } from "./_link_sql.ts";
import { storable } from "./_publish.ts";
import { portRecord } from "./_rows.ts";

/** Why a repository's graph is partial: the scan budgets it hit. */
function budgetsHit(
  name: string,
  metadata: Record<string, unknown>,
): string[] {
  const hits = metadata["budgets_hit"];
  if (!Array.isArray(hits) || hits.length === 0) return [];
  return [
    `${name}: the scan hit ${hits.length} budget${
      hits.length === 1 ? "" : "s"
    } (budgets_hit), so its graph is partial`,
  ];
}

/** The diff of `repo`'s published ports and `head`, against the others. */
export async function diffAgainstOrg(
  tx: SqlSession,
  repo: string,
  head: BoundaryGraph,
  options: DiffOptions,
): Promise<BoundaryDiff> {
  const headPorts = portRecords(head, repo);
  const base = (await tx.query(
    `SELECT ${PORT_COLUMNS} FROM portcullis_map_ports p
JOIN portcullis_map_owners o USING (repo, owner_id) WHERE p.repo = $1`,
    [repo],
  )).map(portRecord);
  const scope = diffScope(base, headPorts);
  // Two reads, each on its index (an OR of the two would scan the table):
  // the ports on the boundaries, then those on the HTTP paths but not on
  // those boundaries.
  const ids = "(SELECT jsonb_array_elements_text($2::text::jsonb))";
  const from = `SELECT ${PORT_COLUMNS} FROM portcullis_map_ports p
JOIN portcullis_map_owners o USING (repo, owner_id) WHERE p.repo <> $1`;
  const others = (await tx.query(
    `${from} AND p.boundary_id IN ${ids}
UNION ALL
${from} AND p.http_path IN (SELECT jsonb_array_elements_text($3::text::jsonb))
  AND p.boundary_id NOT IN ${ids}`,
    [
      repo,
      JSON.stringify(scope.boundaryIds),
      JSON.stringify(scope.httpPaths.map(storable)),
    ],
  )).map(portRecord);
  // The graphs the diff reads that hit a scan budget make it partial.
  const names = [...new Set(others.map((port) => port.graph))];
  const repos = await tx.query(
    `SELECT repo, metadata::text FROM portcullis_map_repos
WHERE repo = $1 OR repo IN (SELECT jsonb_array_elements_text($2::text::jsonb))
ORDER BY repo`,
    [repo, JSON.stringify(names)],
  );
  const partial: string[] = [];
  for (const row of repos) {
    const name = String(row[0]);
    partial.push(...budgetsHit(
      name === repo ? `${repo} (published)` : name,
      JSON.parse(String(row[1])),
    ));
  }
  partial.push(...budgetsHit(repo, head.metadata));
  return diffPorts({ base, head: headPorts, others, partial }, options);
}
