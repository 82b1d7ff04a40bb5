// Renders corpus scores: a table (plain or Markdown) and, per repository,
// the misses, false ports, missed links and wrong links for reading.
import type { RepoScore } from "./_score.ts";

/** One row of the table: a repository and its score (or why it has none). */
export interface ScoreRow {
  name: string;
  score?: RepoScore;
  /** Why the repository was not scored (not checked out, scan failed). */
  skipped?: string;
  seconds?: number;
}

function pct(value: number): string {
  return (value * 100).toFixed(1) + "%";
}

/** Sums of the scored rows, as one score (micro average). */
export function totalOf(rows: readonly ScoreRow[]): RepoScore | undefined {
  const scored = rows.flatMap((r) => r.score ? [r.score] : []);
  if (scored.length === 0) return undefined;
  const sum = (f: (s: RepoScore) => number): number =>
    scored.reduce((n, s) => n + f(s), 0);
  const truthPorts = sum((s) => s.truthPorts);
  const scannedPorts = sum((s) => s.scannedPorts);
  const truePorts = sum((s) => s.truePorts);
  const ignoredPorts = sum((s) => s.ignoredPorts);
  const truthLinks = sum((s) => s.truthLinks);
  const foundLinks = sum((s) => s.foundLinks);
  const counted = scannedPorts - ignoredPorts;
  return {
    truthPorts,
    scannedPorts,
    truePorts,
    ignoredPorts,
    precision: counted === 0 ? 1 : truePorts / counted,
    recall: truthPorts === 0 ? 1 : truePorts / truthPorts,
    truthLinks,
    foundLinks,
    linkRecall: truthLinks === 0 ? 1 : foundLinks / truthLinks,
    scannedLinks: sum((s) => s.scannedLinks),
    wrongLinks: sum((s) => s.wrongLinks),
    misses: [],
    falsePorts: [],
    missedLinks: [],
    wrongLinkList: [],
  };
}

const HEADER = [
  "repository",
  "truth ports",
  "scanned",
  "precision",
  "recall",
  "truth links",
  "link recall",
  "wrong links",
];

function cells(name: string, s: RepoScore): string[] {
  return [
    name,
    String(s.truthPorts),
    String(s.scannedPorts),
    pct(s.precision),
    pct(s.recall),
    String(s.truthLinks),
    pct(s.linkRecall),
    String(s.wrongLinks),
  ];
}

/** The table of scores, with a total row; `markdown` gives a Markdown table. */
export function renderTable(
  rows: readonly ScoreRow[],
  markdown: boolean,
): string {
  const body: string[][] = [];
  for (const row of rows) {
    if (row.score) body.push(cells(row.name, row.score));
    else body.push([row.name, `not scored: ${row.skipped ?? "unknown"}`]);
  }
  const total = totalOf(rows);
  if (total) body.push(cells(markdown ? "**all**" : "all", total));
  if (markdown) {
    const line = (c: string[]): string => `| ${c.join(" | ")} |`;
    return [
      line(HEADER),
      line(HEADER.map((_, i) => i === 0 ? "---" : "---:")),
      ...body.map(line),
    ].join("\n") + "\n";
  }
  const widths = HEADER.map((h, i) =>
    Math.max(
      h.length,
      ...body.map((c) => c.length === HEADER.length ? (c[i] ?? "").length : 0),
    )
  );
  const line = (c: string[]): string =>
    c.length === HEADER.length
      ? c.map((v, i) => i === 0 ? v.padEnd(widths[i]!) : v.padStart(widths[i]!))
        .join("  ")
      : c.join("  ");
  return [line(HEADER), ...body.map(line)].join("\n") + "\n";
}

/** The misses, false ports and link problems of each scored repository. */
export function renderDetails(rows: readonly ScoreRow[]): string {
  const out: string[] = [];
  for (const { name, score } of rows) {
    if (!score) continue;
    out.push(`\n## ${name}`);
    out.push(`missed ports (${score.misses.length}):`);
    for (const p of score.misses) {
      out.push(
        `  ${p.role} ${p.mechanism} ${p.key}  ${p.file}:${p.line}` +
          (p.framework ? `  [${p.framework}]` : ""),
      );
    }
    out.push(`false ports (${score.falsePorts.length}):`);
    for (const p of score.falsePorts) {
      out.push(
        `  ${p.role} ${p.mechanism} ${p.key}  ${p.file}:${p.line}  (confidence ${p.confidence})`,
      );
    }
    out.push(`missed links (${score.missedLinks.length}):`);
    for (const l of score.missedLinks) out.push(`  ${l}`);
    out.push(`wrong links (${score.wrongLinkList.length}):`);
    for (const l of score.wrongLinkList) out.push(`  ${l}`);
  }
  return out.join("\n") + "\n";
}
