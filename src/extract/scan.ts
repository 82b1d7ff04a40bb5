// Walks source trees, dispatches files to the extractors, builds one
// boundary graph per root, merges them and links consumers to providers.
// The only module of the extract entry point that touches the file system.
import { readFile } from "node:fs/promises";
import type { Buffer } from "node:buffer";
import { basename, relative, resolve, sep } from "node:path";
import process from "node:process";
import type { LanguageExtractor } from "./extractor.ts";
import { DeployEnvironment } from "./deploy/mod.ts";
import { isTestPath } from "./_test_paths.ts";
import { daprHttpPort } from "./_dapr_http.ts";
import { withEnvironmentBases } from "./_env_base.ts";
import type { ScanDiagnostic, ScanResult, SkippedFile } from "./scan_result.ts";
import { EXTRACTORS } from "./registry.ts";
import type { ExtractedPort } from "./types.ts";
import { addBoundary } from "../boundary/add_boundary.ts";
import { BoundaryGraph, type GraphMetadata } from "../boundary/graph.ts";
import { linkScan } from "./_link_scan.ts";
import { extractIsolated } from "./_extract_isolated.ts";
import { isGeneratedPath, readFiles, type SkipReason } from "./_read_files.ts";
import { resolveRoot } from "./_root_path.ts";
import { type ScanProblem, walkRoot } from "./_walk.ts";
import { ScanError } from "./scan_error.ts";
import type { GatewayRoute } from "./_port/gateway.ts";
import type { ScanBudget } from "./scan_budgets.ts";
import { budgetsOf } from "./_scan_budgets_of.ts";
import type { ScanOptions } from "./scan_options.ts";

export { ScanError, type ScanErrorCode } from "./scan_error.ts";
export { SCAN_BUDGET_DEFAULTS, type ScanBudget } from "./scan_budgets.ts";
export type { ScanOptions, ScanProgress } from "./scan_options.ts";
export type { SkipReason } from "./_read_files.ts";
export type {
  ScanDiagnostic,
  ScannedPort,
  ScannedRoot,
  ScanResult,
  SkippedFile,
} from "./scan_result.ts";

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
 * scan goes on. A file an extractor fails on (it throws, e.g. on nesting
 * deeper than the call stack) costs that file only: an `error` diagnostic
 * names it, the root's `failed` counts it, and the extractor reads the
 * other files again without it. Each root's source text is held only while that root is
 * extracted, and parse trees only while one file is read. Budgets (see
 * {@linkcode ScanBudget}) bound what an untrusted repository can make the
 * scan read and link; a budget hit is a warning diagnostic with `budget`
 * set, also listed in the graph's `budgets_hit` metadata, and the result
 * is partial. Roots are resolved to their real path; a root reached
 * through a symbolic link is refused unless `followRootSymlinks`.
 *
 * @param roots Directories to scan.
 * @param options Extractors, confidence threshold, budgets, progress.
 * @returns The linked graph, the ports, diagnostics and counts.
 * @throws {ScanError} If a root is missing, not a directory or a refused
 *   symbolic link.
 * @throws {RangeError} If `minConfidence` is outside 0..1 or a budget is
 *   not an integer from 1.
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

function readUtf8(path: string | Buffer): Promise<string> {
  return readFile(path, "utf8");
}

/**
 * {@linkcode scan} with the function that reads a source file given
 * explicitly (tests use it to make a file unreadable). A path is bytes
 * when the file's name is not valid UTF-8.
 */
export async function scanWithReader(
  requested: readonly string[],
  options: ScanOptions,
  readText: (absolutePath: string | Buffer) => Promise<string>,
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
  const budgets = budgetsOf(options);
  if (requested.length === 0) {
    throw new ScanError("NO_ROOT", "Cannot scan: no root given");
  }
  // a directory given twice (or by two paths) is scanned once
  const realRoots: string[] = [];
  const roots: string[] = [];
  for (const root of requested) {
    const real = await resolveRoot(root, options.followRootSymlinks === true);
    if (realRoots.includes(real)) continue;
    realRoots.push(real);
    roots.push(root);
  }
  const labels = labelRoots(roots);
  const extractors = options.extractors ?? EXTRACTORS;
  const result: ScanResult = {
    graph: new BoundaryGraph({
      metadata: { generator: "portcullis scan", roots: labels },
    }),
    roots: [],
    ports: [],
    diagnostics: [],
    link: {
      relationsAdded: 0,
      boundariesTotal: 0,
      boundariesLinked: 0,
      cuts: [],
    },
    filesByLanguage: {},
    skippedFiles: [],
  };
  const rootGraphs: BoundaryGraph[] = [];
  const gateways: GatewayRoute[] = [];
  const folders = new Map<string, string[]>();
  const environment = new Map<string, DeployEnvironment>();
  for (let i = 0; i < roots.length; i++) {
    const rootGraph = await scanRoot(
      { path: roots[i]!, realPath: realRoots[i]!, label: labels[i]! },
      extractors,
      { ...options, ...budgets },
      { result, gateways, folders, environment },
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
      "root_paths": rootPaths(roots, labels),
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
  result.link = linkScan(result, {
    minConfidence,
    maxLinksPerBoundary: budgets.maxLinksPerBoundary,
  }, { routes: gateways, directories: folders, environment });
  options.onProgress?.({ root: "", phase: "link", done: 1, total: 1 });
  return result;
}

/**
 * Where each root lies, relative to the working directory (`/`-separated,
 * `.` for itself): reports of the graph give file paths of the repository
 * (SARIF, pull request comments) when the scan ran from its top.
 */
function rootPaths(
  roots: readonly string[],
  labels: readonly string[],
): GraphMetadata {
  const paths: GraphMetadata = {};
  roots.forEach((root, i) => {
    paths[labels[i]!] = relative(process.cwd(), resolve(root))
      .split(sep).join("/") || ".";
  });
  return paths;
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

/** A root: as given, as walked, and its label. */
interface Root {
  path: string;
  realPath: string;
  label: string;
}

async function scanRoot(
  root: Root,
  extractors: readonly LanguageExtractor[],
  options: ScanOptions & Record<ScanBudget, number>,
  into: {
    result: ScanResult;
    gateways: GatewayRoute[];
    /** Service name -> its folders (relative to their root). */
    folders: Map<string, string[]>;
    /** Root label -> the environment its deployment files set. */
    environment: Map<string, DeployEnvironment>;
  },
  readText: (absolutePath: string | Buffer) => Promise<string>,
): Promise<BoundaryGraph> {
  const result = into.result;
  const label = root.label;
  const report = (problem: ScanProblem): void => {
    result.diagnostics.push({ root: label, ...problem });
  };
  const skipped: Record<SkipReason, number> = {
    binary: 0,
    "too-large": 0,
    generated: 0,
  };
  const skippedFiles: SkippedFile[] = [];
  const skip = (filePath: string, reason: SkipReason): void => {
    skipped[reason]++;
    if (skippedFiles.length < options.maxFilesPerRoot) {
      skippedFiles.push({ root: label, filePath, reason });
    }
  };
  const accepts = (path: string): boolean =>
    extractors.some((extractor) => extractor.accepts(path));
  const generated = (path: string): boolean => {
    if (!isGeneratedPath(path)) return false;
    skip(path, "generated");
    return true;
  };

  // 1. walk
  options.onProgress?.({ root: label, phase: "walk", done: 0, total: 0 });
  const candidates = await walkRoot(root.realPath, {
    skip: new Set(options.skipDirectories ?? DEFAULT_SKIP_DIRECTORIES),
    accepts,
    leaveOut: generated,
    progress: (found) =>
      options.onProgress?.({
        root: label,
        phase: "walk",
        done: found,
        total: 0,
      }),
    maxFiles: options.maxFilesPerRoot,
    maxGitignoreBytes: options.maxGitignoreBytes,
    report,
  });
  candidates.sort((a, b) => a.path < b.path ? -1 : a.path > b.path ? 1 : 0);

  // 2. read
  const { files, bytes } = await readFiles(candidates, {
    maxFileBytes: options.maxFileBytes,
    maxBytes: options.maxBytesPerRoot,
    readText,
    report,
    skip,
    progress: (done, total) =>
      options.onProgress?.({ root: label, phase: "read", done, total }),
  });
  for (const file of files) {
    const language = languageOf(file.path);
    result.filesByLanguage[language] = (result.filesByLanguage[language] ?? 0) +
      1;
  }

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
  let portsOver = 0;
  // progress counts files: one is done when the last extractor taking it is
  // (a loop, not findLastIndex: the npm build targets ES2022)
  const lastExtractor = files.map((file) => {
    for (let e = extractors.length - 1; e >= 0; e--) {
      if (extractors[e]!.accepts(file.path)) return e;
    }
    return -1;
  });
  const pending: Array<
    { extractor: LanguageExtractor; ports: readonly ExtractedPort[] }
  > = [];
  for (let e = 0; e < extractors.length; e++) {
    const extractor = extractors[e]!;
    const mine = files.filter((file) => extractor.accepts(file.path));
    options.onProgress?.({
      root: label,
      phase: "extract",
      done: lastExtractor.filter((last) => last < e).length,
      total: files.length,
    });
    if (mine.length === 0) continue;
    const extracted = await extractIsolated(extractor, mine);
    for (const problem of extracted.diagnostics) report(problem);
    if (extracted.gateways) into.gateways.push(...extracted.gateways);
    if (extracted.environment) {
      let env = into.environment.get(label);
      if (env === undefined) {
        env = new DeployEnvironment();
        into.environment.set(label, env);
      }
      for (const setting of extracted.environment) env.add(setting);
    }
    for (const { service, directory } of extracted.serviceFolders ?? []) {
      const list = into.folders.get(service);
      if (list === undefined) into.folders.set(service, [directory]);
      else if (!list.includes(directory)) list.push(directory);
    }
    pending.push({ extractor, ports: extracted.ports });
  }
  // every port once the deployment's environment of the root is known
  const env = into.environment.get(label);
  for (const { extractor, ports } of pending) {
    const rebasedPorts = withEnvironmentBases(ports, env);
    for (const extractedPort of rebasedPorts) {
      const port = daprHttpPort(extractedPort);
      // test code is not the service: its routes are fakes and fixtures
      if (
        port.ref.role === "server" && !options.includeTests &&
        isTestPath(port.filePath)
      ) continue;
      if (portCount >= options.maxPortsPerRoot) {
        portsOver++;
        continue;
      }
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
  if (portsOver > 0) {
    report({
      filePath: "",
      severity: "warning",
      message:
        `Cannot record every port: the extractors found ${portsOver} more than ${options.maxPortsPerRoot}, which are left out (raise maxPortsPerRoot, --max-ports-per-root)`,
      budget: "maxPortsPerRoot",
    });
  }
  options.onProgress?.({
    root: label,
    phase: "extract",
    done: files.length,
    total: files.length,
  });
  result.roots.push({
    path: root.path,
    realPath: root.realPath,
    label,
    files: files.length,
    bytes,
    ports: portCount,
    skipped,
    failed: failedFiles(result.diagnostics, label),
  });
  skippedFiles.sort((a, b) =>
    a.filePath < b.filePath ? -1 : a.filePath > b.filePath ? 1 : 0
  );
  result.skippedFiles.push(...skippedFiles);
  return graph;
}

/** How many files of a root have an `error` diagnostic. */
function failedFiles(
  diagnostics: readonly ScanDiagnostic[],
  label: string,
): number {
  const files = new Set<string>();
  for (const d of diagnostics) {
    if (d.root === label && d.severity === "error" && d.filePath !== "") {
      files.add(d.filePath);
    }
  }
  return files.size;
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
