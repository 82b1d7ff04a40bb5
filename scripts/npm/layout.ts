// How the one JSR package (@portcullis/portcullis, its entry points in
// deno.json "exports") is split into npm packages, so that each install
// holds only what its users run: the guard and its adapters (casbin, jose),
// the boundary core (zod), and the scanner (parsers and WASM grammars, most
// of the weight), which depends on the boundary core. The npm smoke test
// and the adapter cases bundled for Node and Bun use the same mapping.
import denoJson from "../../deno.json" with { type: "json" };

/** One npm package built from a set of JSR entry points. */
export interface NpmPackage {
  /** The npm package name. */
  name: string;
  description: string;
  keywords: string[];
  /** npm subpath (".", "./guard") -> source file, from deno.json exports. */
  entries: Record<string, string>;
  /** JSR subpath -> npm subpath of this package. */
  jsrSubpaths: Record<string, string>;
  /** Executables: bin name -> source file. */
  bins: Record<string, string>;
  /** Packages the code resolves by name at run time, not by import. */
  resolvedAtRunTime: string[];
  /** The source folders this package's bundles hold; others are imported. */
  owns: (file: string) => boolean;
}

export const JSR_NAME: string = denoJson.name;
export const CORE = "portcullis";
export const BOUNDARY = "portcullis-boundary";
export const SCAN = "portcullis-scan";
/** Where the npm packages are built, each in a folder named after it. */
export const NPM_DIR = "npm";

/** The repository, for package.json `repository`, `homepage` and `bugs`. */
export const REPOSITORY = "https://github.com/portcullis/portcullis";

const exports: Record<string, string> = denoJson.exports;

function source(subpath: string): string {
  const file = exports[subpath];
  if (file === undefined) {
    throw new Error(
      `Cannot lay out the npm packages: deno.json exports no "${subpath}"`,
    );
  }
  return file;
}

const GUARD_SUBPATHS = [
  "./guard",
  "./guard/otel",
  "./guard/postgres",
  "./policy",
  "./node",
  "./hono",
  "./express",
];

export const PACKAGES: readonly NpmPackage[] = [{
  // The guard half: what a guard user installs. Its root is the guard (the
  // JSR root also re-exports the boundary core, which needs zod).
  name: CORE,
  description:
    "Route-level authorization over casbin for web-standard (Request) => Response handlers, with node:http, Hono and Express adapters",
  keywords: [
    "authorization",
    "casbin",
    "rbac",
    "abac",
    "guard",
    "middleware",
    "hono",
    "express",
    "jwt",
  ],
  entries: {
    ".": source("./guard"),
    ...Object.fromEntries(GUARD_SUBPATHS.map((sub) => [sub, source(sub)])),
  },
  jsrSubpaths: {
    ".": ".",
    ...Object.fromEntries(GUARD_SUBPATHS.map((sub) => [sub, sub])),
  },
  bins: {
    portcullis: "./src/cli/portcullis.ts",
    "portcullis-policy-db": "./src/guard/postgres/cli.ts",
  },
  resolvedAtRunTime: [],
  owns: (file) =>
    file.startsWith("src/guard/") || file.startsWith("src/adapters/") ||
    file.startsWith("src/policy/") || file.startsWith("src/cli/"),
}, {
  name: BOUNDARY,
  description:
    "A graph of the interface boundaries between services (HTTP routes, gRPC methods, queue topics, Temporal activities): ids, path normalization, the graph, the linker, a breaking-change diff, and exports to Backstage, CycloneDX, Neo4j and OpenAPI",
  keywords: [
    "boundaries",
    "microservices",
    "architecture",
    "service-graph",
    "graphlens",
  ],
  // The map (diff reports, the gate, exports) needs only the boundary core:
  // it ships here, so a store or a dashboard gets it without the parsers.
  // The organisation store is its own entry point, whose database drivers
  // are optional peers.
  entries: {
    ".": source("./boundary"),
    "./map": source("./map"),
    "./map/store": source("./map/store"),
  },
  jsrSubpaths: {
    "./boundary": ".",
    "./map": "./map",
    "./map/store": "./map/store",
  },
  bins: {},
  resolvedAtRunTime: [],
  owns: (file) =>
    file.startsWith("src/boundary/") || file.startsWith("src/map/"),
}, {
  name: SCAN,
  description:
    "Finds the interface boundaries (HTTP routes, gRPC methods, queue topics, Temporal activities) in source code of many languages: the portcullis-scan command and its extractors",
  keywords: [
    "static-analysis",
    "tree-sitter",
    "routes",
    "openapi",
    "grpc",
    "microservices",
    "architecture",
    "boundaries",
  ],
  entries: { ".": source("./extract") },
  jsrSubpaths: { "./extract": "." },
  bins: { "portcullis-scan": "./src/extract/cli.ts" },
  resolvedAtRunTime: [
    "@vscode/tree-sitter-wasm",
    "@tree-sitter-grammars/tree-sitter-kotlin",
  ],
  owns: (file) => file.startsWith("src/extract/"),
}];

/**
 * The npm specifier for a JSR one: "@portcullis/portcullis/extract" ->
 * "portcullis-scan", "@portcullis/portcullis/guard" -> "portcullis/guard".
 * Returns undefined for a specifier of another package.
 */
export function npmSpecifier(specifier: string): string | undefined {
  if (specifier !== JSR_NAME && !specifier.startsWith(`${JSR_NAME}/`)) {
    return undefined;
  }
  const subpath = `.${specifier.slice(JSR_NAME.length)}`;
  for (const npm of PACKAGES) {
    const target = npm.jsrSubpaths[subpath];
    if (target !== undefined) {
      return target === "." ? npm.name : `${npm.name}${target.slice(1)}`;
    }
  }
  throw new Error(`Cannot map ${specifier} to npm: no package exports it`);
}

/**
 * The npm specifier of the entry point a source file belongs to, for
 * imports that cross from one npm package into another: a file under
 * src/boundary/ is reached through "portcullis/boundary".
 */
export function entryOfFile(file: string): string | undefined {
  // The deepest entry folder holding the file: src/map/store/ before src/map/.
  let best: { folder: string; subpath: string } | undefined;
  for (const [subpath, source] of Object.entries(exports)) {
    const folder = source.replace(/^\.\//, "").replace(/[^/]+$/, "");
    if (
      folder !== "" && file.startsWith(folder) &&
      folder.length > (best?.folder.length ?? 0)
    ) best = { folder, subpath };
  }
  return best === undefined
    ? undefined
    : npmSpecifier(`${JSR_NAME}${best.subpath.slice(1)}`);
}
