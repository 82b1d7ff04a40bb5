// The ground-truth files of the corpus: their shape, how to read them, and
// where the checked-out repositories live. Shared by prepare.ts and score.ts.
import { readdir, readFile } from "node:fs/promises";
import { homedir } from "node:os";
import { join } from "node:path";
import process from "node:process";
import { httpBoundaryKey } from "../../src/boundary/http_path.ts";

/** One interface end in a repository, written down by reading its code. */
export interface TruthPort {
  /** Unique within the file; links refer to it. */
  id: string;
  /** The service (deployable) it belongs to, a key of `services`. */
  service: string;
  mechanism: "http" | "grpc" | "queue" | "temporal";
  /** `server` exposes (route, RPC implementation, consumer of a topic, activity or workflow definition); `client` consumes. */
  role: "server" | "client";
  /** The boundary key as the scanner writes it (`GET /users/{}`, `pkg.Svc/Method`, a topic, an activity name). */
  key: string;
  /** Path relative to the repository root. */
  file: string;
  /** 1-based line of the declaration or call (informative; used to pair duplicates). */
  line: number;
  /**
   * Other files where reporting this port is equally right, e.g. where a
   * Temporal activity or a gRPC implementation is registered, or where a
   * wrapper that sends the request is defined.
   */
  also?: string[];
  /** Library or framework, informative. */
  framework?: string;
  /** `activity` or `workflow` for Temporal ports. */
  kind?: string;
  /** Left out of precision and recall: a scanned port that matches it counts neither way. */
  uncertain?: boolean;
  /** Why it is uncertain (required when `uncertain`). */
  reason?: string;
  /** Anything a reader should know. */
  note?: string;
}

/** A consumer-to-provider link a real deployment has. */
export interface TruthLink {
  /** Id of the client port. */
  consumer: string;
  /** Id of the server port. */
  provider: string;
  /** The gateway, ingress or proxy the call passes through, when it does. */
  via?: string;
  uncertain?: boolean;
  reason?: string;
}

/** One repository of the corpus and its ground truth. */
export interface TruthFile {
  /** `owner/name` on GitHub. */
  repo: string;
  /** The commit the truth was written against (40 hex digits). */
  commit: string;
  summary: string;
  /** Service name -> directory (or file prefix) in the repository. */
  services: Record<string, string>;
  /** Gateways, ingress and proxies that route between consumers and providers. */
  gateways?: { name: string; file: string; rule: string }[];
  /** What is in and out of scope for this repository, and why. */
  notes: string[];
  ports: TruthPort[];
  links: TruthLink[];
}

/** The truth file's name without `.json`, e.g. `robot-shop`. */
export interface CorpusEntry {
  name: string;
  truth: TruthFile;
}

const HEX40 = /^[0-9a-f]{40}$/;
const MECHANISMS = new Set(["http", "grpc", "queue", "temporal"]);

/** Where the repositories are checked out: `$CORPUS_DIR`, else `~/.cache/portcullis-corpus`. */
export function corpusCacheDir(): string {
  const fromEnv = process.env["CORPUS_DIR"];
  if (fromEnv) return fromEnv;
  const base = process.env["XDG_CACHE_HOME"] || join(homedir(), ".cache");
  return join(base, "portcullis-corpus");
}

/** The directory one repository is checked out in. */
export function checkoutDir(cache: string, truth: TruthFile): string {
  return join(
    cache,
    `${truth.repo.replace("/", "+")}@${truth.commit.slice(0, 12)}`,
  );
}

/** The key as the scanner writes it: HTTP keys normalized, others as given. */
export function canonicalKey(mechanism: string, key: string): string {
  if (mechanism !== "http") return key;
  const space = key.indexOf(" ");
  if (space === -1) throw new SyntaxError(`HTTP key without a method: ${key}`);
  return httpBoundaryKey(key.slice(0, space), key.slice(space + 1));
}

/** Checks a parsed truth file; returns the problems found (empty when valid). */
export function validateTruth(truth: TruthFile): string[] {
  const problems: string[] = [];
  if (typeof truth.repo !== "string" || !truth.repo.includes("/")) {
    problems.push("repo must be owner/name");
  }
  if (!HEX40.test(String(truth.commit))) {
    problems.push("commit must be 40 hex digits");
  }
  if (!Array.isArray(truth.ports) || !Array.isArray(truth.links)) {
    problems.push("ports and links must be arrays");
    return problems;
  }
  const ids = new Map<string, TruthPort>();
  for (const port of truth.ports) {
    const where = `port ${port.id}`;
    if (ids.has(port.id)) problems.push(`${where}: duplicate id`);
    ids.set(port.id, port);
    if (!MECHANISMS.has(port.mechanism)) {
      problems.push(`${where}: unknown mechanism`);
    }
    if (port.role !== "server" && port.role !== "client") {
      problems.push(`${where}: role must be server or client`);
    }
    if (!(port.service in (truth.services ?? {}))) {
      problems.push(`${where}: unknown service ${port.service}`);
    }
    for (const file of [port.file, ...(port.also ?? [])]) {
      if (typeof file !== "string" || file.startsWith("/")) {
        problems.push(`${where}: file must be relative`);
      }
    }
    if (!Number.isInteger(port.line) || port.line < 1) {
      problems.push(`${where}: line must be a positive integer`);
    }
    if (port.uncertain && !port.reason) {
      problems.push(`${where}: uncertain without a reason`);
    }
    try {
      if (canonicalKey(port.mechanism, port.key) !== port.key) {
        problems.push(
          `${where}: key is not normalized (${
            canonicalKey(port.mechanism, port.key)
          })`,
        );
      }
    } catch (error) {
      problems.push(`${where}: ${(error as Error).message}`);
    }
  }
  for (const link of truth.links) {
    const consumer = ids.get(link.consumer);
    const provider = ids.get(link.provider);
    const where = `link ${link.consumer} -> ${link.provider}`;
    if (!consumer || consumer.role !== "client") {
      problems.push(`${where}: consumer is not a client port`);
    }
    if (!provider || provider.role !== "server") {
      problems.push(`${where}: provider is not a server port`);
    }
    if (consumer && provider && consumer.mechanism !== provider.mechanism) {
      problems.push(`${where}: mechanisms differ`);
    }
    if (link.uncertain && !link.reason) {
      problems.push(`${where}: uncertain without a reason`);
    }
  }
  return problems;
}

/** Reads and validates every `*.json` truth file of a directory, by name. */
export async function readCorpus(dir: string): Promise<CorpusEntry[]> {
  const names = (await readdir(dir)).filter((n) => n.endsWith(".json")).sort();
  const entries: CorpusEntry[] = [];
  for (const file of names) {
    const truth = JSON.parse(
      await readFile(join(dir, file), "utf8"),
    ) as TruthFile;
    const problems = validateTruth(truth);
    if (problems.length > 0) {
      throw new SyntaxError(
        `Cannot read ${file}: ${problems.slice(0, 10).join("; ")}`,
      );
    }
    entries.push({ name: file.slice(0, -".json".length), truth });
  }
  return entries;
}
