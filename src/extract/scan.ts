// Walks source trees, dispatches files to the extractors, builds one
// boundary graph per root, merges them and links consumers to providers.
// The only module of the extract entry point that touches the file system.
import { readdir, readFile, stat } from "node:fs/promises";
import { basename, join, resolve } from "node:path";
import ignore, { type Ignore } from "ignore";
import type {
  ExtractDiagnostic,
  LanguageExtractor,
  SourceFile,
} from "./extractor.ts";
import { EXTRACTORS } from "./registry.ts";
import type { ExtractedPort } from "./types.ts";
import { addBoundary } from "../boundary/add_boundary.ts";
import { BoundaryGraph, type GraphMetadata } from "../boundary/graph.ts";
import { linkGraph, type LinkResult } from "../boundary/link.ts";
import { linkAnyMethod } from "./_link_any.ts";

/**
 * Directory names a scan never enters: dependencies, VCS data, virtual
 * environments and build output.
 *
 * @example
 * ```ts
 * import { DEFAULT_SKIP_DIRECTORIES } from "@portcullis/portcullis/extract";
 * import assert from "node:assert/strict";
 *
 * assert.ok(DEFAULT_SKIP_DIRECTORIES.includes("node_modules"));
 * ```
 */
export const DEFAULT_SKIP_DIRECTORIES: readonly string[] = [
  "node_modules",
  "bower_components",
  "jspm_packages",
  ".git",
  ".hg",
  ".svn",
  "vendor",
  "third_party",
  "__pycache__",
  ".venv",
  "venv",
  ".tox",
  "site-packages",
  ".next",
  ".nuxt",
  ".svelte-kit",
  "dist",
  "coverage",
  "target",
];

/** Generated files by name: protobuf/gRPC stubs, minified bundles. */
const GENERATED_FILE =
  /(?:\.pb\.go|\.pb\.gw\.go|_grpc\.pb\.go|_pb2\.pyi?|_pb2_grpc\.pyi?|_pb\.js|_pb\.d\.ts|_grpc_pb\.js|_grpc_pb\.d\.ts|\.pb\.ts|\.min\.js|\.min\.mjs|\.bundle\.js|\.g\.cs|\.designer\.cs|\.Designer\.cs|_generated\.go)$|(?:^|\/)zz_generated[^/]*\.go$/;

/** Go's marker for generated files, on a line before the package clause. */
const GO_GENERATED = /^\/\/ Code generated .* DO NOT EDIT\.$/m;

const LANGUAGES: Readonly<Record<string, string>> = {
  ".js": "javascript",
  ".jsx": "javascript",
  ".mjs": "javascript",
  ".cjs": "javascript",
  ".ts": "typescript",
  ".tsx": "typescript",
  ".mts": "typescript",
  ".cts": "typescript",
  ".py": "python",
  ".go": "go",
  ".java": "java",
  ".kt": "kotlin",
  ".cs": "csharp",
  ".rs": "rust",
  ".php": "php",
  ".rb": "ruby",
  ".ex": "elixir",
  ".exs": "elixir",
  ".proto": "protobuf",
  ".json": "openapi",
  ".yaml": "openapi",
  ".yml": "openapi",
};

/**
 * The language a file is counted under in reports, from its extension
 * (`other` when unknown).
 *
 * @example
 * ```ts
 * import { languageOf } from "@portcullis/portcullis/extract";
 * import assert from "node:assert/strict";
 *
 * assert.equal(languageOf("api/users.py"), "python");
 * ```
 */
export function languageOf(path: string): string {
  const dot = path.lastIndexOf(".");
  return (dot === -1 ? undefined : LANGUAGES[path.slice(dot).toLowerCase()]) ??
    "other";
}

/**
 * Progress of a scan, reported as files are read and extracted.
 *
 * @example
 * ```ts
 * import type { ScanProgress } from "@portcullis/portcullis/extract";
 *
 * const progress: ScanProgress = { root: "api", phase: "read", done: 10, total: 40 };
 * ```
 */
export interface ScanProgress {
  /** Label of the root being scanned. */
  root: string;
  /** `walk`: listing files; `read`: reading them; `extract`: running extractors; `link`: linking. */
  phase: "walk" | "read" | "extract" | "link";
  /** Units done in this phase (files read, extractors run). */
  done: number;
  /** Units in this phase. */
  total: number;
}

/**
 * A problem with one file (or one extractor) of a root; the scan went on.
 *
 * @example
 * ```ts
 * import type { ScanDiagnostic } from "@portcullis/portcullis/extract";
 *
 * const problem: ScanDiagnostic = {
 *   root: "api",
 *   filePath: "secret.py",
 *   severity: "error",
 *   message: "Cannot read: EACCES",
 * };
 * ```
 */
export interface ScanDiagnostic extends ExtractDiagnostic {
  /** Label of the root. */
  root: string;
}

/**
 * One port of a scan, with the root and language it was found in.
 *
 * @example
 * ```ts
 * import type { ScannedPort } from "@portcullis/portcullis/extract";
 *
 * const port: ScannedPort = {
 *   root: "web",
 *   language: "typescript",
 *   extractor: "javascript",
 *   ownerId: "web:src/api.ts",
 *   port: {
 *     ref: { mechanism: "http", role: "client", key: "GET /users", line: 3, col: 9, confidence: 1, detail: {} },
 *     owner: { kind: "module", name: "api.ts", qualifiedName: "src/api.ts", filePath: "src/api.ts" },
 *     filePath: "src/api.ts",
 *   },
 * };
 * ```
 */
export interface ScannedPort {
  /** Label of the root. */
  root: string;
  /** Language of the port's file ({@linkcode languageOf}). */
  language: string;
  /** Name of the extractor that found it. */
  extractor: string;
  /** Id of the owner node in the graph. */
  ownerId: string;
  /** The port. */
  port: ExtractedPort;
}

/**
 * Figures for one scanned root.
 *
 * @example
 * ```ts
 * import type { ScannedRoot } from "@portcullis/portcullis/extract";
 *
 * const root: ScannedRoot = { path: "./api", label: "api", files: 12, bytes: 40960, ports: 7 };
 * ```
 */
export interface ScannedRoot {
  /** The root as given. */
  path: string;
  /** Short unique label used in node ids and reports. */
  label: string;
  /** Files read and handed to extractors. */
  files: number;
  /** Bytes of those files. */
  bytes: number;
  /** Ports found. */
  ports: number;
}

/**
 * What {@linkcode scan} returns.
 *
 * @example
 * ```ts ignore
 * import { scan } from "@portcullis/portcullis/extract";
 *
 * const result = await scan(["./web", "./api"]);
 * console.log(result.link.relationsAdded, result.diagnostics.length);
 * ```
 */
export interface ScanResult {
  /** The merged, linked graph of all roots (graphlens schema v1 via `toJSON()`). */
  graph: BoundaryGraph;
  /** One entry per root, in order. */
  roots: ScannedRoot[];
  /** Every port found, by root. */
  ports: ScannedPort[];
  /** Files that could not be read, parsed or fully understood. */
  diagnostics: ScanDiagnostic[];
  /** What linking did (exact keys plus `ANY`-method routes). */
  link: LinkResult;
  /** Files scanned, by language ({@linkcode languageOf}). */
  filesByLanguage: Record<string, number>;
}

/**
 * Options for {@linkcode scan}.
 *
 * @example
 * ```ts
 * import type { ScanOptions } from "@portcullis/portcullis/extract";
 *
 * const options: ScanOptions = { minConfidence: 0.5, maxFileBytes: 512 * 1024 };
 * ```
 */
export interface ScanOptions {
  /**
   * The extractors to run.
   * @default {EXTRACTORS}
   */
  extractors?: readonly LanguageExtractor[];
  /**
   * Links below this combined confidence (consumer × provider) are not
   * made. From 0 to 1.
   * @default {0}
   */
  minConfidence?: number;
  /**
   * Larger files are skipped with a warning (minified bundles, dumps).
   * @default {1048576}
   */
  maxFileBytes?: number;
  /**
   * Directory names never entered.
   * @default {DEFAULT_SKIP_DIRECTORIES}
   */
  skipDirectories?: readonly string[];
  /**
   * Called as the scan proceeds.
   * @default {undefined}
   */
  onProgress?: (progress: ScanProgress) => void;
}

/**
 * An error that stops a scan before it starts: a root that does not exist
 * or is not a directory, or bad options.
 *
 * @example
 * ```ts
 * import { scan, ScanError } from "@portcullis/portcullis/extract";
 * import assert from "node:assert/strict";
 *
 * await assert.rejects(scan(["/no/such/dir"]), ScanError);
 * ```
 */
export class ScanError extends Error {
  /** The root the error is about, if any. */
  readonly root: string | undefined;

  /**
   * Creates a scan error.
   *
   * @param message `Cannot scan: <detail>`.
   * @param root The root the error is about.
   * @param options The cause.
   */
  constructor(message: string, root?: string, options?: ErrorOptions) {
    super(message, options);
    this.name = "ScanError";
    this.root = root;
  }
}

interface Matcher {
  /** Directory of the `.gitignore`, relative to the root ("" for the root). */
  dir: string;
  rules: Ignore;
}

interface Candidate {
  path: string;
  absolute: string;
}

const READ_CONCURRENCY = 16;

/**
 * Scans source trees for interface boundaries. For each root it walks the
 * tree (respecting `.gitignore` files, skipping dependency and build
 * directories and generated code such as `*.pb.go`, `*_pb2.py`,
 * `*.min.js`), runs every extractor on the files it accepts, and builds a
 * graph: a `project` node, `file` nodes, owner nodes (function, method,
 * class or module, with file and span) and their `exposes` / `consumes`
 * relations to boundary nodes. The root graphs are merged (boundary nodes
 * shared) and linked: exact keys, plus HTTP routes without a method
 * restriction (`ANY`) to calls of any method on the same path.
 *
 * Files that cannot be read or parsed are reported in `diagnostics`; the
 * scan goes on. Each root's source text is held only while that root is
 * extracted, and parse trees only while one file is read.
 *
 * @param roots Directories to scan.
 * @param options Extractors, confidence threshold, limits, progress.
 * @returns The linked graph, the ports, diagnostics and counts.
 * @throws {ScanError} If a root is missing or not a directory.
 * @throws {RangeError} If `minConfidence` is outside 0..1.
 *
 * @example Usage
 * ```ts ignore
 * import { renderReport, scan } from "@portcullis/portcullis/extract";
 *
 * const result = await scan(["./services/web", "./services/api"], { minConfidence: 0.5 });
 * console.log(renderReport(result.graph, { format: "text" }));
 * ```
 */
export function scan(
  roots: readonly string[],
  options: ScanOptions = {},
): Promise<ScanResult> {
  return scanWithReader(roots, options, readUtf8);
}

function readUtf8(path: string): Promise<string> {
  return readFile(path, "utf8");
}

/**
 * {@linkcode scan} with the function that reads a source file given
 * explicitly (tests use it to make a file unreadable).
 */
export async function scanWithReader(
  roots: readonly string[],
  options: ScanOptions,
  readText: (absolutePath: string) => Promise<string>,
): Promise<ScanResult> {
  const minConfidence = options.minConfidence ?? 0;
  if (
    typeof minConfidence !== "number" || !(minConfidence >= 0) ||
    minConfidence > 1
  ) {
    throw new RangeError(
      `Cannot scan: minConfidence must be a number from 0 to 1, got ${
        String(minConfidence)
      }`,
    );
  }
  if (roots.length === 0) throw new ScanError("Cannot scan: no root given");
  const labels = labelRoots(roots);
  for (const root of roots) {
    let info;
    try {
      info = await stat(root);
    } catch (error) {
      throw new ScanError(
        `Cannot scan "${root}": ${errorCode(error)}`,
        root,
        { cause: error },
      );
    }
    if (!info.isDirectory()) {
      throw new ScanError(`Cannot scan "${root}": not a directory`, root);
    }
  }
  const extractors = options.extractors ?? EXTRACTORS;
  const result: ScanResult = {
    graph: new BoundaryGraph({
      metadata: { generator: "portcullis scan", roots: labels },
    }),
    roots: [],
    ports: [],
    diagnostics: [],
    link: { relationsAdded: 0, boundariesTotal: 0, boundariesLinked: 0 },
    filesByLanguage: {},
  };
  const rootGraphs: BoundaryGraph[] = [];
  for (let i = 0; i < roots.length; i++) {
    const rootGraph = await scanRoot(
      roots[i]!,
      labels[i]!,
      extractors,
      options,
      result,
      readText,
    );
    rootGraphs.push(rootGraph);
  }
  // the merged graph records what was scanned, for reports read from JSON
  const filesByLanguage: GraphMetadata = {};
  for (const [language, count] of Object.entries(result.filesByLanguage)) {
    filesByLanguage[language] = count;
  }
  result.graph = new BoundaryGraph({
    metadata: {
      generator: "portcullis scan",
      roots: labels,
      "files_by_language": filesByLanguage,
    },
  });
  for (const rootGraph of rootGraphs) {
    result.graph.merge(rootGraph, { allowShared: true });
  }
  // reads finish in any order: report problems by root, then by file
  const rootOrder = new Map(labels.map((label, i) => [label, i]));
  result.diagnostics.sort((a, b) =>
    (rootOrder.get(a.root) ?? 0) - (rootOrder.get(b.root) ?? 0) ||
    (a.filePath < b.filePath ? -1 : a.filePath > b.filePath ? 1 : 0)
  );
  options.onProgress?.({ root: "", phase: "link", done: 0, total: 1 });
  const exact = linkGraph(result.graph, { minConfidence });
  const any = linkAnyMethod(result.graph, minConfidence);
  const linked = new Set<string>();
  for (const relation of result.graph.relationsByKind("communicates_with")) {
    linked.add(String(relation.metadata["boundary_id"]));
    const provider = relation.metadata["provider_boundary_id"];
    if (typeof provider === "string") linked.add(provider);
  }
  result.link = {
    relationsAdded: exact.relationsAdded + any.relationsAdded,
    boundariesTotal: exact.boundariesTotal,
    boundariesLinked: linked.size,
  };
  options.onProgress?.({ root: "", phase: "link", done: 1, total: 1 });
  return result;
}

function labelRoots(roots: readonly string[]): string[] {
  const seen = new Map<string, number>();
  return roots.map((root) => {
    const base = basename(resolve(root)) || "root";
    const count = (seen.get(base) ?? 0) + 1;
    seen.set(base, count);
    return count === 1 ? base : `${base}~${count}`;
  });
}

function errorCode(error: unknown): string {
  if (error && typeof error === "object" && "code" in error) {
    return String((error as { code: unknown }).code);
  }
  return error instanceof Error ? error.message : String(error);
}

async function scanRoot(
  root: string,
  label: string,
  extractors: readonly LanguageExtractor[],
  options: ScanOptions,
  result: ScanResult,
  readText: (absolutePath: string) => Promise<string>,
): Promise<BoundaryGraph> {
  const report = (problem: ExtractDiagnostic): void => {
    result.diagnostics.push({ root: label, ...problem });
  };
  const skip = new Set(options.skipDirectories ?? DEFAULT_SKIP_DIRECTORIES);
  const maxBytes = options.maxFileBytes ?? 1024 * 1024;
  const accepts = (path: string): boolean =>
    extractors.some((extractor) => extractor.accepts(path));

  // 1. walk
  options.onProgress?.({ root: label, phase: "walk", done: 0, total: 0 });
  const candidates: Candidate[] = [];
  await walk(resolve(root), "", [], skip, accepts, candidates, report);
  candidates.sort((a, b) => a.path < b.path ? -1 : a.path > b.path ? 1 : 0);

  // 2. read (bounded concurrency)
  const files: SourceFile[] = [];
  let bytes = 0;
  let done = 0;
  let next = 0;
  const texts = new Array<string | undefined>(candidates.length);
  const sizes = new Array<number>(candidates.length).fill(0);
  const worker = async (): Promise<void> => {
    while (next < candidates.length) {
      const index = next++;
      const candidate = candidates[index]!;
      try {
        const size = (await stat(candidate.absolute)).size;
        if (size > maxBytes) {
          report({
            filePath: candidate.path,
            severity: "warning",
            message: `Cannot scan: file is larger than ${maxBytes} bytes`,
          });
        } else {
          const text = await readText(candidate.absolute);
          if (!text.includes("\u0000") && !isGenerated(candidate.path, text)) {
            texts[index] = text;
            sizes[index] = size;
          }
        }
      } catch (error) {
        report({
          filePath: candidate.path,
          severity: "error",
          message: `Cannot read: ${errorCode(error)}`,
        });
      }
      done++;
      options.onProgress?.({
        root: label,
        phase: "read",
        done,
        total: candidates.length,
      });
    }
  };
  await Promise.all(
    Array.from(
      { length: Math.min(READ_CONCURRENCY, candidates.length) },
      worker,
    ),
  );
  for (let i = 0; i < candidates.length; i++) {
    const text = texts[i];
    if (text === undefined) continue;
    const path = candidates[i]!.path;
    files.push({ path, text });
    bytes += sizes[i]!;
    const language = languageOf(path);
    result.filesByLanguage[language] = (result.filesByLanguage[language] ?? 0) +
      1;
  }
  texts.length = 0;

  // 3. extract and build the root graph
  const graph = new BoundaryGraph();
  const projectId = `${label}:`;
  graph.addNode({
    id: projectId,
    kind: "project",
    qualifiedName: label,
    name: label,
    metadata: { root: label },
  });
  const seenPorts = new Set<string>();
  let portCount = 0;
  for (let e = 0; e < extractors.length; e++) {
    const extractor = extractors[e]!;
    const mine = files.filter((file) => extractor.accepts(file.path));
    options.onProgress?.({
      root: label,
      phase: "extract",
      done: e,
      total: extractors.length,
    });
    if (mine.length === 0) continue;
    let extracted;
    try {
      extracted = await extractor.extract(mine);
    } catch (error) {
      report({
        filePath: "",
        severity: "error",
        message: `Cannot extract with ${extractor.name}: ${
          error instanceof Error ? error.message : String(error)
        }`,
      });
      continue;
    }
    for (const problem of extracted.diagnostics) report(problem);
    for (const port of extracted.ports) {
      const ownerId = ensureOwner(graph, projectId, label, port);
      const ref = port.ref;
      const unique =
        `${ownerId}\u0000${ref.mechanism}\u0000${ref.role}\u0000${ref.key}\u0000${ref.line}\u0000${ref.col}`;
      if (seenPorts.has(unique)) continue;
      seenPorts.add(unique);
      const language = languageOf(port.filePath);
      try {
        addBoundary(graph, ownerId, {
          ...ref,
          detail: { ...ref.detail, language, extractor: extractor.name },
        }, { filePath: port.filePath });
      } catch (error) {
        report({
          filePath: port.filePath,
          severity: "warning",
          message:
            `Cannot record port "${ref.key}" at ${ref.line}:${ref.col}: ${
              error instanceof Error ? error.message : String(error)
            }`,
        });
        continue;
      }
      portCount++;
      result.ports.push({
        root: label,
        language,
        extractor: extractor.name,
        ownerId,
        port,
      });
    }
  }
  options.onProgress?.({
    root: label,
    phase: "extract",
    done: extractors.length,
    total: extractors.length,
  });
  result.roots.push({
    path: root,
    label,
    files: files.length,
    bytes,
    ports: portCount,
  });
  return graph;
}

/** Adds (once) the file node and the owner node of a port; the owner's id. */
function ensureOwner(
  graph: BoundaryGraph,
  projectId: string,
  label: string,
  port: ExtractedPort,
): string {
  const owner = port.owner;
  const fileId = `${label}:file:${owner.filePath}`;
  if (!graph.hasNode(fileId)) {
    graph.addNode({
      id: fileId,
      kind: "file",
      qualifiedName: owner.filePath,
      name: basename(owner.filePath),
      filePath: owner.filePath,
      metadata: { root: label, language: languageOf(owner.filePath) },
    });
    graph.addRelation({
      sourceId: projectId,
      targetId: fileId,
      kind: "contains",
    });
  }
  const ownerId = `${label}:${owner.qualifiedName}`;
  if (!graph.hasNode(ownerId)) {
    const metadata: GraphMetadata = { root: label };
    graph.addNode({
      id: ownerId,
      kind: owner.kind,
      qualifiedName: owner.qualifiedName,
      name: owner.name,
      filePath: owner.filePath,
      span: owner.span,
      metadata,
    });
    graph.addRelation({
      sourceId: fileId,
      targetId: ownerId,
      kind: "contains",
    });
  }
  return ownerId;
}

function isGenerated(path: string, text: string): boolean {
  if (GENERATED_FILE.test(path)) return true;
  if (path.endsWith(".go")) {
    // the marker must come before the package clause
    const head = text.slice(0, Math.max(0, text.indexOf("\npackage ")) + 1);
    return GO_GENERATED.test(head);
  }
  return false;
}

async function walk(
  absolute: string,
  relative: string,
  matchers: Matcher[],
  skip: ReadonlySet<string>,
  accepts: (path: string) => boolean,
  out: Candidate[],
  report: (problem: ExtractDiagnostic) => void,
): Promise<void> {
  let entries;
  try {
    entries = await readdir(absolute, { withFileTypes: true });
  } catch (error) {
    report({
      filePath: relative,
      severity: "error",
      message: `Cannot read directory: ${errorCode(error)}`,
    });
    return;
  }
  let active = matchers;
  if (entries.some((entry) => entry.name === ".gitignore" && entry.isFile())) {
    try {
      const text = await readFile(join(absolute, ".gitignore"), "utf8");
      active = [...matchers, { dir: relative, rules: ignore().add(text) }];
    } catch (error) {
      report({
        filePath: relative ? `${relative}/.gitignore` : ".gitignore",
        severity: "warning",
        message: `Cannot read: ${errorCode(error)}`,
      });
    }
  }
  const directories: Array<[string, string]> = [];
  for (const entry of entries) {
    const name = entry.name;
    const path = relative ? `${relative}/${name}` : name;
    if (entry.isDirectory()) {
      if (skip.has(name) || ignored(active, path, true)) continue;
      directories.push([join(absolute, name), path]);
    } else if (entry.isFile()) {
      if (!accepts(path) || GENERATED_FILE.test(path)) continue;
      if (ignored(active, path, false)) continue;
      out.push({ path, absolute: join(absolute, name) });
    }
    // symbolic links are not followed (no cycles, no escaping the root)
  }
  for (const [dirAbsolute, dirRelative] of directories) {
    await walk(dirAbsolute, dirRelative, active, skip, accepts, out, report);
  }
}

function ignored(
  matchers: Matcher[],
  path: string,
  directory: boolean,
): boolean {
  let result = false;
  for (const matcher of matchers) {
    const local = matcher.dir === ""
      ? path
      : path.slice(matcher.dir.length + 1);
    const test = directory ? `${local}/` : local;
    const verdict = matcher.rules.test(test);
    if (verdict.ignored) result = true;
    else if (verdict.unignored) result = false;
  }
  return result;
}
