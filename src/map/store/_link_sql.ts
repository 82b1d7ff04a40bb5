// The SQL of the organisation's links: a join of consumers and providers on
// boundary id, plus, for HTTP, a join on the path where one side's method is
// `ANY`, with the rules of the in-memory linker (`linkGraph` and the scan's
// ANY-method pass): one side per owner and boundary with its best
// confidence, a link's confidence the product, pairs below the threshold
// left out, and never an owner to itself.

/** The columns of a port as queries return it (with its owner's). */
export const PORT_COLUMNS = `p.repo, p.boundary_id, p.mechanism, p.key,
  p.role, p.owner_id, o.name, o.service, p.confidence, p.file_path, p.line,
  p.col, p.requires`;

/** One side: an owner on a boundary, with its best confidence. */
function side(role: "client" | "server", where: string): string {
  return `SELECT repo, owner_id, boundary_id, min(mechanism) AS mechanism,
    min(key) AS key, min(http_method) AS http_method,
    min(http_path) AS http_path, max(confidence) AS confidence
  FROM portcullis_map_ports
  WHERE role = '${role}'${where === "" ? "" : ` AND ${where}`}
  GROUP BY repo, owner_id, boundary_id`;
}

/**
 * Conditions on one side's rows (`portcullis_map_ports`): one for every
 * join, or one for the join on boundary id and one for the joins on an
 * HTTP path (so each can use its index).
 */
export type SideFilter = string | { boundary: string; path: string };

/**
 * Filters of a links query, as SQL conditions on the consumers' and the
 * providers' rows or on the pair (`c`, `p`); the parameters they use start
 * at `$2` (`$1` is the confidence threshold).
 */
export interface LinkFilter {
  /** Conditions on the consumers' rows. */
  readonly consumers?: SideFilter;
  /** Conditions on the providers' rows. */
  readonly providers?: SideFilter;
  /** Conditions on the pair (`c`, `p`). */
  readonly pair?: string;
}

function on(filter: SideFilter | undefined, join: "boundary" | "path"): string {
  return filter === undefined
    ? ""
    : typeof filter === "string"
    ? filter
    : filter[join];
}

/**
 * The links as rows: consumer repo, owner id, boundary id and key; provider
 * repo, owner id, boundary id and key; mechanism; confidence. Three joins:
 * on boundary id, then an `ANY` consumer with the providers on its path,
 * then the other consumers with the `ANY` providers on their path; the
 * last two only read the `ANY` side's ports first, so they stay small.
 */
export function linksSql(filter: LinkFilter = {}): string {
  const pair = filter.pair === undefined ? "" : ` AND (${filter.pair})`;
  const consumers = (join: "boundary" | "path", where: string): string =>
    `(${side("client", and(on(filter.consumers, join), where))}) c`;
  const providers = (join: "boundary" | "path", where: string): string =>
    `(${side("server", and(on(filter.providers, join), where))}) p`;
  const select = `SELECT c.repo, c.owner_id, c.boundary_id, c.key,
  p.repo, p.owner_id, p.boundary_id, p.key, c.mechanism,
  c.confidence * p.confidence AS confidence`;
  const apart = `NOT (c.repo = p.repo AND c.owner_id = p.owner_id)
  AND c.confidence * p.confidence >= $1${pair}`;
  const onPath =
    "ON p.http_path = c.http_path AND p.boundary_id <> c.boundary_id";
  return `${select}
FROM ${consumers("boundary", "")}
JOIN ${providers("boundary", "")} ON p.boundary_id = c.boundary_id
WHERE ${apart}
UNION ALL
${select}
FROM ${consumers("path", "http_method = 'ANY'")}
JOIN ${providers("path", "http_path IS NOT NULL")} ${onPath}
WHERE ${apart}
UNION ALL
${select}
FROM ${consumers("path", "http_path IS NOT NULL AND http_method <> 'ANY'")}
JOIN ${providers("path", "http_method = 'ANY'")} ${onPath}
WHERE ${apart}`;
}

function and(a: string, b: string): string {
  return a === "" ? b : b === "" ? a : `(${a}) AND ${b}`;
}

/**
 * Whether a provider serves the consumer port `c` (a row of
 * `portcullis_map_ports`): the condition of an unmatched consumer, negated.
 */
export const SERVED = `EXISTS (
  SELECT 1 FROM portcullis_map_ports s
  WHERE s.role = 'server' AND s.boundary_id = c.boundary_id
    AND NOT (s.repo = c.repo AND s.owner_id = c.owner_id)
) OR (c.http_path IS NOT NULL AND EXISTS (
  SELECT 1 FROM portcullis_map_ports s
  WHERE s.role = 'server' AND s.http_path = c.http_path
    AND s.boundary_id <> c.boundary_id AND s.mechanism = 'http'
    AND (c.http_method = 'ANY' OR s.http_method = 'ANY')
    AND NOT (s.repo = c.repo AND s.owner_id = c.owner_id)
))`;

/**
 * The links of repository `$2` from one end: as the `consumer` (its
 * consumers, and only the providers on their boundaries and HTTP paths) or
 * as the `provider`; `others` keeps only links to other repositories. The
 * join never reads the whole table.
 */
export function repoLinksSql(
  end: "consumer" | "provider",
  others: boolean,
): string {
  const own = end === "consumer" ? "client" : "server";
  const scope = {
    boundary: `boundary_id IN (SELECT boundary_id FROM portcullis_map_ports
    WHERE repo = $2 AND role = '${own}')`,
    path: `http_path IN (SELECT http_path FROM portcullis_map_ports
    WHERE repo = $2 AND role = '${own}' AND http_path IS NOT NULL)`,
  };
  return end === "consumer"
    ? linksSql({
      consumers: "repo = $2",
      providers: scope,
      ...(others ? { pair: "p.repo <> $2" } : {}),
    })
    : linksSql({
      providers: "repo = $2",
      consumers: scope,
      ...(others ? { pair: "c.repo <> $2" } : {}),
    });
}
