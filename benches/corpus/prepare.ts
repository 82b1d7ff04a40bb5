// Checks out every repository of the corpus at its pinned commit, outside
// this repository (third-party code is never committed here).
//
//   deno run -A benches/corpus/prepare.ts [--mirror DIR] [--clone]
//
// Sources, in order: an existing checkout in the cache; a bare git directory
// `<mirror>/<owner>+<name>/repo` (default mirror: $CORPUS_MIRROR or
// /work/.mirror); with --clone, `git clone` from GitHub. Files missing from a
// partial mirror (large blobs) are skipped and listed; symlinks and
// submodules are not written.
import { spawn } from "node:child_process";
import { existsSync } from "node:fs";
import { mkdir, rename, rm, writeFile } from "node:fs/promises";
import { dirname, join, normalize } from "node:path";
import process from "node:process";
import {
  checkoutDir,
  corpusCacheDir,
  readCorpus,
  type TruthFile,
} from "./_corpus.ts";

interface Entry {
  mode: string;
  sha: string;
  path: string;
}

function run(
  args: string[],
  input?: string,
): Promise<{ code: number; out: Uint8Array; err: string }> {
  return new Promise((resolve, reject) => {
    const child = spawn("git", args, { stdio: ["pipe", "pipe", "pipe"] });
    const out: Uint8Array[] = [];
    let err = "";
    child.stdout.on("data", (chunk: Uint8Array) => out.push(chunk));
    child.stderr.on("data", (chunk: Uint8Array) => err += String(chunk));
    child.on("error", reject);
    child.on("close", (code: number | null) => {
      const size = out.reduce((n, c) => n + c.length, 0);
      const all = new Uint8Array(size);
      let at = 0;
      for (const c of out) {
        all.set(c, at);
        at += c.length;
      }
      resolve({ code: code ?? 1, out: all, err });
    });
    child.stdin.end(input ?? "");
  });
}

async function listTree(gitDir: string, commit: string): Promise<Entry[]> {
  const listed = await run([
    `--git-dir=${gitDir}`,
    "ls-tree",
    "-r",
    "-z",
    commit,
  ]);
  if (listed.code !== 0) {
    throw new Error(`Cannot list ${commit} in ${gitDir}: ${listed.err.trim()}`);
  }
  const entries: Entry[] = [];
  for (const record of new TextDecoder().decode(listed.out).split("\0")) {
    if (!record) continue;
    const tab = record.indexOf("\t");
    const [mode, , sha] = record.slice(0, tab).split(" ");
    entries.push({ mode: mode!, sha: sha!, path: record.slice(tab + 1) });
  }
  return entries;
}

/** Writes the blobs of `commit` under `dest`; returns the paths it could not. */
async function exportCommit(
  gitDir: string,
  commit: string,
  dest: string,
): Promise<string[]> {
  const entries = (await listTree(gitDir, commit)).filter((e) =>
    e.mode === "100644" || e.mode === "100755"
  );
  const batch = await run(
    [`--git-dir=${gitDir}`, "cat-file", "--batch"],
    entries.map((e) => e.sha).join("\n") + "\n",
  );
  const data = batch.out;
  const decoder = new TextDecoder();
  const missing: string[] = [];
  let at = 0;
  for (const entry of entries) {
    const eol = data.indexOf(10, at);
    if (eol === -1) throw new Error(`Cannot read ${entry.path}: short output`);
    const header = decoder.decode(data.subarray(at, eol)).split(" ");
    at = eol + 1;
    if (header[1] === "missing" || header.length < 3) {
      missing.push(entry.path);
      continue;
    }
    const size = Number(header[2]);
    const body = data.subarray(at, at + size);
    at += size + 1;
    const target = normalize(join(dest, entry.path));
    if (!target.startsWith(dest + "/")) {
      throw new Error(`Cannot write ${entry.path}: outside the checkout`);
    }
    await mkdir(dirname(target), { recursive: true });
    await writeFile(target, body);
  }
  return missing;
}

async function prepare(
  truth: TruthFile,
  cache: string,
  mirror: string,
  clone: boolean,
): Promise<string> {
  const dest = checkoutDir(cache, truth);
  if (existsSync(dest)) return `${truth.repo}: present in ${dest}`;
  const partial = `${dest}.partial`;
  await rm(partial, { recursive: true, force: true });
  await mkdir(partial, { recursive: true });
  let gitDir = join(mirror, truth.repo.replace("/", "+"), "repo");
  if (!existsSync(gitDir)) {
    if (!clone) {
      return `${truth.repo}: MISSING (no ${gitDir}; fetch it, or pass --clone)`;
    }
    gitDir = `${partial}.git`;
    const cloned = await run([
      "clone",
      "--bare",
      "--quiet",
      `https://github.com/${truth.repo}.git`,
      gitDir,
    ]);
    if (cloned.code !== 0) {
      return `${truth.repo}: MISSING (clone failed: ${cloned.err.trim()})`;
    }
  }
  const missing = await exportCommit(gitDir, truth.commit, partial);
  await rename(partial, dest);
  if (gitDir.endsWith(".partial.git")) {
    await rm(gitDir, { recursive: true, force: true });
  }
  return `${truth.repo}: checked out in ${dest}` +
    (missing.length ? ` (${missing.length} blobs absent: ${missing})` : "");
}

if (import.meta.main) {
  const args = process.argv.slice(2);
  const mirrorAt = args.indexOf("--mirror");
  const mirror = mirrorAt !== -1
    ? args[mirrorAt + 1]!
    : process.env["CORPUS_MIRROR"] ?? "/work/.mirror";
  const cache = corpusCacheDir();
  const corpus = await readCorpus(new URL(".", import.meta.url).pathname);
  await mkdir(cache, { recursive: true });
  let absent = 0;
  for (const { truth } of corpus) {
    const line = await prepare(truth, cache, mirror, args.includes("--clone"));
    if (line.includes("MISSING")) absent++;
    process.stdout.write(line + "\n");
  }
  process.exitCode = absent === 0 ? 0 : 1;
}
