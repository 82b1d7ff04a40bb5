// The `query` command: questions to the organisation store, as text or JSON.
import { displayText } from "../boundary/_display_text.ts";
import type { PortRecord } from "../boundary/port_records.ts";
import type { OrgStore } from "../map/store/org_store.ts";
import type { BoundarySelector } from "../map/store/org_store_types.ts";
import { processIo } from "./_cli_io.ts";
import {
  type Flag,
  readArgs,
  readMinConfidence,
  readNumber,
  UsageError,
  withUsage,
} from "./_cli_args.ts";
import { DB_USAGE, DEFAULT_DB, withStore } from "./_cli_store.ts";
import type { ScanCliIo } from "./scan_cli.ts";

const USAGE = `Usage: portcullis-scan query [options] <query> [arguments]

Asks the organisation store (filled by publish) about every repository at
once; links across repositories are a join in the database.

Queries:
  repos                        the published repositories and their commits
  consumers <boundary>         who consumes a boundary, in any repository
  providers <boundary>         who provides it
  unmatched                    consumers nothing serves (--repo: of one)
  dependencies <repo>          repositories whose providers it uses
  dependents <repo>            repositories that use its providers
  links                        every link (--repo: with an end in one)

A <boundary> is its id (16 hex digits, as in a graph) or a mechanism and a
key: consumers http "GET /users/{}", providers queue orders.created.

Options:
${DB_USAGE}
  --format <format>        text (default) or json
  --repo <name>            unmatched, links: only this repository's
  --min-confidence <n>     links: leave out pairs below this (0..1)
  --limit <n>              at most this many rows (default 100000)
  -h, --help               show this help

Exit codes: 0 answered, 2 bad arguments or a store that cannot be read.
`;

const QUERIES = [
  "repos",
  "consumers",
  "providers",
  "unmatched",
  "dependencies",
  "dependents",
  "links",
] as const;
type Query = typeof QUERIES[number];

interface QueryArgs {
  words: string[];
  db: string;
  format: "text" | "json";
  repo?: string;
  minConfidence?: number;
  limit?: number;
  help: boolean;
}

const FLAGS: Readonly<Record<string, Flag<QueryArgs>>> = {
  "--db": "db",
  "--repo": "repo",
  "--format": (parsed, value) => {
    const format = value();
    if (format !== "text" && format !== "json") {
      throw new UsageError(
        `Cannot parse arguments: --format must be text or json, got "${
          displayText(format, 100)
        }"`,
      );
    }
    parsed.format = format;
  },
  "--min-confidence": (parsed, value) => {
    parsed.minConfidence = readMinConfidence(value());
  },
  "--limit": (parsed, value) => {
    parsed.limit = Math.trunc(readNumber("--limit", value(), 1, 10_000_000));
  },
};

function parseArgs(args: readonly string[]): QueryArgs {
  const parsed: QueryArgs = {
    words: [],
    db: DEFAULT_DB,
    format: "text",
    help: false,
  };
  readArgs(args, parsed, FLAGS, "words");
  if (parsed.help) return parsed;
  const query = parsed.words[0];
  if (query === undefined || !(QUERIES as readonly string[]).includes(query)) {
    throw new UsageError(
      `Cannot query: expected one of ${QUERIES.join(", ")}, got ${
        query === undefined ? "nothing" : `"${displayText(query, 100)}"`
      }`,
    );
  }
  const wanted: Record<Query, [number, number]> = {
    repos: [0, 0],
    consumers: [1, 2],
    providers: [1, 2],
    unmatched: [0, 0],
    dependencies: [1, 1],
    dependents: [1, 1],
    links: [0, 0],
  };
  const [min, max] = wanted[query as Query];
  const got = parsed.words.length - 1;
  if (got < min || got > max) {
    throw new UsageError(
      `Cannot query ${query}: expected ${
        min === max ? min : `${min} or ${max}`
      } argument(s), got ${got}`,
    );
  }
  return parsed;
}

/**
 * Runs the `query` command with the given arguments (after `query`) and
 * returns the exit code: 0 answered, 2 bad arguments or a store that
 * cannot be read.
 *
 * @param args Command-line arguments, e.g. `["--db", "pglite:org", "dependents", "users"]`.
 * @param io Output streams; defaults to the process.
 * @returns The exit code.
 *
 * @example Usage
 * ```ts
 * import { runQueryCli, type ScanCliIo } from "@portcullis/portcullis/extract";
 * import assert from "node:assert/strict";
 *
 * const out: string[] = [];
 * const io: ScanCliIo = {
 *   stdout: (text) => void out.push(text),
 *   stderr: () => {},
 *   isTty: false,
 *   writeFile: () => Promise.resolve(),
 * };
 * assert.equal(await runQueryCli(["--db", "pglite:memory", "--format", "json", "repos"], io), 0);
 * assert.deepEqual(JSON.parse(out.join("")), []);
 * ```
 */
export function runQueryCli(
  args: readonly string[],
  io: ScanCliIo = processIo(),
): Promise<number> {
  return withUsage(
    args,
    io,
    USAGE,
    parseArgs,
    (options) =>
      withStore(options.db, io, (store) => answer(store, options, io)),
  );
}

function boundaryOf(words: readonly string[]): BoundarySelector {
  return words.length === 1
    ? words[0]!
    : { mechanism: words[0]!, key: words[1]! };
}

function portLine(port: PortRecord): string {
  const where = port.filePath === undefined
    ? ""
    : `  ${port.filePath}${port.line === undefined ? "" : `:${port.line}`}`;
  return `${port.graph}  ${port.owner}${where}  ${port.mechanism} ${port.key}`;
}

async function answer(
  store: OrgStore,
  options: QueryArgs,
  io: ScanCliIo,
): Promise<number> {
  const [query, ...rest] = options.words as [Query, ...string[]];
  const limit = options.limit === undefined ? {} : { limit: options.limit };
  const repo = options.repo === undefined ? {} : { repo: options.repo };
  let value: unknown;
  let lines: string[];
  switch (query) {
    case "repos": {
      const repos = await store.repositories();
      value = repos;
      lines = repos.map((r) =>
        `${r.repo}  ${r.commit ?? "-"}  ${r.ports} ports  ${r.publishedAt}`
      );
      break;
    }
    case "consumers":
    case "providers": {
      const ports = await store[query](boundaryOf(rest), limit);
      value = ports;
      lines = ports.map(portLine);
      break;
    }
    case "unmatched": {
      const ports = await store.unmatchedConsumers({ ...repo, ...limit });
      value = ports;
      lines = ports.map(portLine);
      break;
    }
    case "dependencies":
    case "dependents": {
      const list = await store[query](rest[0]!);
      value = list;
      lines = list.map((d) =>
        `${d.repo}  ${d.links} links  ${d.boundaries} boundaries`
      );
      break;
    }
    case "links": {
      const links = await store.links({
        ...repo,
        ...limit,
        ...(options.minConfidence === undefined
          ? {}
          : { minConfidence: options.minConfidence }),
      });
      value = links;
      lines = links.map((l) =>
        `${l.consumer.repo} ${l.consumer.ownerId} -> ${l.provider.repo} ${l.provider.ownerId}  ${l.mechanism} ${l.provider.key}  ${l.confidence}`
      );
      break;
    }
  }
  if (options.format === "json") {
    io.stdout(`${JSON.stringify(value, null, 2)}\n`);
  } else {
    io.stdout(lines.map((line) => `${displayText(line, 2000)}\n`).join(""));
  }
  return 0;
}
