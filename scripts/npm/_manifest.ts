// package.json of an npm package.
import denoJson from "../../deno.json" with { type: "json" };
import { jsPath } from "./_bundle.ts";
import { typesPath } from "./_declarations.ts";
import { type NpmPackage, PACKAGES, REPOSITORY } from "./layout.ts";

/** Packages only some entry points need at run time, or only for types. */
const OPTIONAL_PEERS: Record<string, string> = {
  hono: "Hono middleware (portcullis/hono)",
  "@opentelemetry/api":
    "OpenTelemetry spans of decisions (portcullis/guard/otel)",
  postgres:
    "PostgreSQL for the policy provider (portcullis/guard/postgres) and the organisation store (portcullis-boundary/map/store)",
  "@electric-sql/pglite":
    "the embedded PGlite database of the policy provider and the organisation store",
  // 52 MB of native prebuilds and sources around one 4 MB WASM file:
  // installed by those who scan Kotlin.
  "@tree-sitter-grammars/tree-sitter-kotlin":
    "the Kotlin grammar of the scanner",
  "portcullis-scan": "the route-vs-policy audit (portcullis audit, auditApp)",
};

/**
 * The exports of one entry point. The JavaScript is ESM only: `import`, and
 * `require` for Node 20.19+/22.12+ and Bun, which load ESM with require()
 * (no entry point uses top-level await); `default` for other tools. One
 * declaration file serves both, so TypeScript's CommonJS consumers need
 * `module: "nodenext"` (TypeScript 5.8+), which knows require(esm).
 */
function conditions(file: string): Record<string, string> {
  const js = jsPath(file);
  return { types: typesPath(file), import: js, require: js, default: js };
}

/** Builds package.json for `npm` at `version`. */
export function manifest(
  npm: NpmPackage,
  version: string,
  imported: string[],
): Record<string, unknown> {
  const pinned: Record<string, string> = denoJson.imports;
  const dependencies: Record<string, string> = {};
  const peerDependencies: Record<string, string> = {};
  const peerDependenciesMeta: Record<string, { optional: true }> = {};
  for (const name of [...new Set(imported)].sort()) {
    if (PACKAGES.some((other) => other.name === name)) {
      if (OPTIONAL_PEERS[name] !== undefined) {
        peerDependencies[name] = `^${version}`;
        peerDependenciesMeta[name] = { optional: true };
      } else dependencies[name] = version;
      continue;
    }
    const pin = pinned[name]?.match(/^npm:(@?[^@]+)@(.+)$/)?.[2];
    if (pin === undefined) {
      throw new Error(
        `Cannot build the npm packages: "${name}" is imported but not pinned as an npm: import in deno.json`,
      );
    }
    if (OPTIONAL_PEERS[name] !== undefined) {
      peerDependencies[name] = `^${pin}`;
      peerDependenciesMeta[name] = { optional: true };
    } else {
      dependencies[name] = pin;
    }
  }
  const exports: Record<string, Record<string, string>> = {};
  for (const [subpath, file] of Object.entries(npm.entries)) {
    exports[subpath] = conditions(file);
  }
  exports["./package.json"] = { default: "./package.json" };
  // TypeScript's node10 resolution reads no "exports": map the subpaths.
  const typesVersions: Record<string, string[]> = {};
  for (const [subpath, file] of Object.entries(npm.entries)) {
    if (subpath !== ".") typesVersions[subpath.slice(2)] = [typesPath(file)];
  }
  const root = npm.entries["."];
  const bin = Object.fromEntries(
    Object.entries(npm.bins).map(([name, file]) => [name, jsPath(file)]),
  );
  return {
    name: npm.name,
    version,
    description: npm.description,
    keywords: npm.keywords,
    license: denoJson.license,
    repository: { type: "git", url: `git+${REPOSITORY}.git` },
    homepage: `${REPOSITORY}#readme`,
    bugs: { url: `${REPOSITORY}/issues` },
    type: "module",
    sideEffects: false,
    engines: { node: ">=20" },
    ...(root === undefined
      ? {}
      : { main: jsPath(root), types: typesPath(root) }),
    exports,
    ...(Object.keys(typesVersions).length > 0
      ? { typesVersions: { "*": typesVersions } }
      : {}),
    ...(Object.keys(bin).length > 0 ? { bin } : {}),
    files: ["esm", "types", "README.md", "CHANGELOG.md", "LICENSE"],
    dependencies,
    ...(Object.keys(peerDependencies).length > 0
      ? { peerDependencies, peerDependenciesMeta }
      : {}),
  };
}
