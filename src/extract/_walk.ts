// Lists the source files of one root: directories in name order (so a
// budget keeps the first files in path order), `.gitignore` files honoured
// within a byte budget, symbolic links never followed, and names that are
// not valid UTF-8 opened by their raw bytes where the runtime allows it.
import { lstat, readdir, readFile, stat } from "node:fs/promises";
import { join } from "node:path";
import { Buffer } from "node:buffer";
import type { ExtractDiagnostic } from "./extractor.ts";
import { errorCode } from "./_fs_error.ts";
import {
  type GitignoreRules,
  gitignoreVerdict,
  parseGitignore,
} from "./_gitignore.ts";
import type { ScanBudget } from "./scan.ts";

/** A problem of the walk or read; `budget` names the limit that was hit. */
export type ScanProblem = ExtractDiagnostic & { budget?: ScanBudget };

/** A file to read: its path in the root, and where it is on disk. */
export interface Candidate {
  path: string;
  /** Bytes when the name is not valid UTF-8 (Node and Bun open those). */
  absolute: string | Buffer;
}

/** What {@linkcode walkRoot} needs. */
export interface WalkOptions {
  /** Directory names never entered. */
  skip: ReadonlySet<string>;
  /** Whether a file (by its path in the root) is read at all. */
  accepts: (path: string) => boolean;
  /**
   * Whether an accepted file that no `.gitignore` excludes is left out
   * all the same (generated code: the caller counts it).
   * @default {() => false}
   */
  leaveOut?: (path: string) => boolean;
  /** Called with the count of files listed so far, as each is. */
  progress?: (found: number) => void;
  /** Source files listed at most. */
  maxFiles: number;
  /** Bytes of `.gitignore` files that apply to one directory, at most. */
  maxGitignoreBytes: number;
  report: (problem: ScanProblem) => void;
}

interface Entry {
  name: string;
  kind: "file" | "directory" | "other";
  absolute: string | Buffer;
}

interface Matcher {
  /** Segments of the `.gitignore`'s directory in the root. */
  depth: number;
  rules: GitignoreRules;
}

interface Frame {
  relative: string;
  segments: string[];
  matchers: Matcher[];
  /** Bytes of the `.gitignore` files in `matchers`. */
  gitignoreBytes: number;
  entries: Entry[];
  next: number;
}

const STRICT_UTF8 = new TextDecoder("utf-8", { fatal: true });

/** A name's bytes as text, each byte that is not valid UTF-8 as `\xHH`. */
function decodeName(raw: Uint8Array): string {
  let out = "";
  for (let i = 0; i < raw.length;) {
    const byte = raw[i]!;
    const length = byte < 0x80
      ? 1
      : (byte & 0xe0) === 0xc0
      ? 2
      : (byte & 0xf0) === 0xe0
      ? 3
      : (byte & 0xf8) === 0xf0
      ? 4
      : 0;
    if (length > 0 && i + length <= raw.length) {
      try {
        out += STRICT_UTF8.decode(raw.subarray(i, i + length));
        i += length;
        continue;
      } catch {
        // not a valid sequence: the byte is written out below
      }
    }
    out += `\\x${byte.toString(16).toUpperCase().padStart(2, "0")}`;
    i++;
  }
  return out;
}

function joinPath(
  parent: string | Buffer,
  name: string | Buffer,
): string | Buffer {
  if (typeof parent === "string" && typeof name === "string") {
    return join(parent, name);
  }
  return Buffer.concat([
    Buffer.from(parent),
    Buffer.from("/"),
    Buffer.from(name),
  ]);
}

function kindOf(
  info: { isFile(): boolean; isDirectory(): boolean },
): Entry["kind"] {
  return info.isFile() ? "file" : info.isDirectory() ? "directory" : "other";
}

/**
 * The entries of a directory, by name. Names the runtime decoded lossily
 * (U+FFFD) are listed again as bytes: those that are not UTF-8 get their
 * raw path; one the runtime cannot open (Deno) is reported, not skipped
 * as missing.
 */
async function listDirectory(
  absolute: string | Buffer,
  relative: string,
  report: (problem: ScanProblem) => void,
): Promise<Entry[]> {
  const dirents = await readdir(absolute, { withFileTypes: true });
  const entries: Entry[] = [];
  let lossy = false;
  for (const dirent of dirents) {
    const name = String(dirent.name);
    if (name.includes("\uFFFD")) lossy = true;
    entries.push({
      name,
      kind: kindOf(dirent),
      absolute: joinPath(absolute, name),
    });
  }
  if (lossy) {
    const raws = await readdir(absolute, { encoding: "buffer" });
    entries.length = 0;
    for (const raw of raws) {
      const name = decodeName(raw);
      const path = relative ? `${relative}/${name}` : name;
      const rawPath = joinPath(absolute, Buffer.from(raw));
      try {
        entries.push({
          name,
          kind: kindOf(await lstat(rawPath)),
          absolute: rawPath,
        });
      } catch (error) {
        const code = errorCode(error);
        report({
          filePath: path,
          severity: "error",
          message: code === "ENOENT" && name.includes("\uFFFD")
            ? "Cannot read: the name is not valid UTF-8 and this runtime cannot open it (Node and Bun can)"
            : `Cannot read: ${code}`,
        });
      }
    }
  }
  return entries.sort((a, b) => a.name < b.name ? -1 : a.name > b.name ? 1 : 0);
}

function ignored(
  matchers: readonly Matcher[],
  segments: readonly string[],
  directory: boolean,
): boolean {
  let result = false;
  for (const matcher of matchers) {
    const verdict = gitignoreVerdict(
      matcher.rules,
      segments,
      matcher.depth,
      directory,
    );
    if (verdict !== undefined) result = verdict;
  }
  return result;
}

/**
 * Lists the files of a root that `accepts` takes, in path order, up to
 * `maxFiles`. Directories that cannot be read, `.gitignore` files over the
 * byte budget and a file count over the budget are reported; the walk goes
 * on (or, at the file budget, stops with what it has).
 */
export async function walkRoot(
  root: string,
  options: WalkOptions,
): Promise<Candidate[]> {
  const out: Candidate[] = [];
  const open = async (
    absolute: string | Buffer,
    relative: string,
    segments: string[],
    parent: Pick<Frame, "matchers" | "gitignoreBytes">,
  ): Promise<Frame | undefined> => {
    let entries: Entry[];
    try {
      entries = await listDirectory(absolute, relative, options.report);
    } catch (error) {
      options.report({
        filePath: relative,
        severity: "error",
        message: `Cannot read directory: ${errorCode(error)}`,
      });
      return undefined;
    }
    const gitignore = entries.find((e) =>
      e.name === ".gitignore" && e.kind === "file"
    );
    let { matchers, gitignoreBytes } = parent;
    if (gitignore) {
      const path = relative ? `${relative}/.gitignore` : ".gitignore";
      try {
        const size = (await stat(gitignore.absolute)).size;
        if (gitignoreBytes + size > options.maxGitignoreBytes) {
          options.report({
            filePath: path,
            severity: "warning",
            message:
              `Cannot apply .gitignore: with those of its parent directories it holds more than ${options.maxGitignoreBytes} bytes, so its patterns are not applied (raise maxGitignoreBytes, --max-gitignore-bytes)`,
            budget: "maxGitignoreBytes",
          });
        } else {
          const text = await readFile(gitignore.absolute, "utf8");
          const rules = parseGitignore(text);
          matchers = [...matchers, { depth: segments.length, rules }];
          gitignoreBytes += size;
        }
      } catch (error) {
        options.report({
          filePath: path,
          severity: "warning",
          message: `Cannot read: ${errorCode(error)}`,
        });
      }
    }
    return { relative, segments, matchers, gitignoreBytes, entries, next: 0 };
  };

  const first = await open(root, "", [], { matchers: [], gitignoreBytes: 0 });
  const stack: Frame[] = first ? [first] : [];
  while (stack.length > 0) {
    const frame = stack.at(-1)!;
    const entry = frame.entries[frame.next++];
    if (entry === undefined) {
      stack.pop();
      continue;
    }
    const path = frame.relative
      ? `${frame.relative}/${entry.name}`
      : entry.name;
    const segments = [...frame.segments, entry.name];
    if (entry.kind === "directory") {
      if (options.skip.has(entry.name)) continue;
      if (ignored(frame.matchers, segments, true)) continue;
      const child = await open(entry.absolute, path, segments, frame);
      if (child) stack.push(child);
    } else if (entry.kind === "file") {
      if (!options.accepts(path)) continue;
      if (ignored(frame.matchers, segments, false)) continue;
      if (options.leaveOut?.(path)) continue;
      if (out.length >= options.maxFiles) {
        options.report({
          filePath: "",
          severity: "warning",
          message:
            `Cannot scan every file: there are more than ${options.maxFiles} source files, so only the first ${options.maxFiles} in path order are scanned (raise maxFilesPerRoot, --max-files-per-root)`,
          budget: "maxFilesPerRoot",
        });
        break;
      }
      out.push({ path, absolute: entry.absolute });
      options.progress?.(out.length);
    }
    // symbolic links are not followed (no cycles, no escaping the root)
  }
  return out;
}
