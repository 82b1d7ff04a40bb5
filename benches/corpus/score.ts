// Scores the scanner against the corpus of real repositories.
//
//   deno task bench:corpus [--markdown] [--quiet] [name...]
//
// Each repository must be checked out first (deno run -A
// benches/corpus/prepare.ts). Each one is scanned whole with default options
// through the `scan` command, as a new user would run it, in its own process:
// `--format json` gives the links, `--out` the graph with every port.
import { spawn } from "node:child_process";
import { existsSync } from "node:fs";
import { mkdtemp, readFile, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import process from "node:process";
import { checkoutDir, corpusCacheDir, readCorpus } from "./_corpus.ts";
import { renderDetails, renderTable, type ScoreRow } from "./_report.ts";
import { linksFromReport, portsFromGraph } from "./_scan_output.ts";
import { type ScannedLink, type ScannedPort, scoreRepo } from "./_score.ts";

/** A scan stops after this long (a hang is a failure, not a wait). */
const SCAN_TIMEOUT_MS = 15 * 60 * 1000;

const CLI = new URL("../../src/extract/cli.ts", import.meta.url).pathname;

/** What one run of the `scan` command found in one directory. */
export interface CliScan {
  ports: ScannedPort[];
  links: ScannedLink[];
}

/**
 * Runs the `scan` command of this checkout on `root` (default options) and
 * reads its graph and JSON report.
 */
export async function scanWithCli(root: string): Promise<CliScan> {
  const work = await mkdtemp(join(tmpdir(), "corpus-scan-"));
  const graphFile = join(work, "graph.json");
  try {
    const stdout = await new Promise<string>((resolve, reject) => {
      const child = spawn(process.execPath, [
        "run",
        "--allow-read",
        "--allow-write",
        "--allow-env",
        CLI,
        "--no-progress",
        "--format",
        "json",
        "--out",
        graphFile,
        root,
      ], { stdio: ["ignore", "pipe", "pipe"] });
      const out: string[] = [];
      let err = "";
      const timer = setTimeout(() => child.kill("SIGKILL"), SCAN_TIMEOUT_MS);
      child.stdout.setEncoding("utf8");
      child.stderr.setEncoding("utf8");
      child.stdout.on("data", (chunk: string) => out.push(chunk));
      child.stderr.on("data", (chunk: string) => {
        if (err.length < 4096) err += chunk;
      });
      child.on("error", reject);
      child.on("close", (code: number | null, signal: string | null) => {
        clearTimeout(timer);
        if (code === 0) resolve(out.join(""));
        else {
          reject(
            new Error(
              `scan exited with ${signal ?? code}: ${err.trim().slice(-400)}`,
            ),
          );
        }
      });
    });
    return {
      ports: portsFromGraph(JSON.parse(await readFile(graphFile, "utf8"))),
      links: linksFromReport(JSON.parse(stdout)),
    };
  } finally {
    await rm(work, { recursive: true, force: true });
  }
}

if (import.meta.main) {
  const args = process.argv.slice(2);
  const wanted = args.filter((a) => !a.startsWith("--"));
  const corpus = (await readCorpus(new URL(".", import.meta.url).pathname))
    .filter((e) => wanted.length === 0 || wanted.includes(e.name));
  const cache = corpusCacheDir();
  const rows: ScoreRow[] = [];
  for (const { name, truth } of corpus) {
    const dir = checkoutDir(cache, truth);
    if (!existsSync(dir)) {
      rows.push({ name, skipped: `no checkout in ${dir} (run prepare.ts)` });
      continue;
    }
    const started = performance.now();
    try {
      const found = await scanWithCli(dir);
      rows.push({
        name,
        score: scoreRepo(truth, found.ports, found.links),
        seconds: (performance.now() - started) / 1000,
      });
    } catch (error) {
      rows.push({ name, skipped: (error as Error).message });
    }
    process.stderr.write(`scored ${name}\n`);
  }
  process.stdout.write(renderTable(rows, args.includes("--markdown")));
  if (!args.includes("--quiet")) process.stdout.write(renderDetails(rows));
  process.exitCode = rows.some((r) => r.score) ? 0 : 1;
}
