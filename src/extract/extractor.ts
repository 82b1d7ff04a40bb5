// The contract between the scanner and the per-language extractors.
import type { ExtractedPort } from "./types.ts";
import type { GatewayRoute } from "./_port/gateway.ts";

/**
 * A file handed to an extractor: path relative to the scan root.
 *
 * @example
 * ```ts
 * import type { SourceFile } from "@portcullis/portcullis/extract";
 *
 * const file: SourceFile = { path: "src/app.ts", text: "fetch('/users');" };
 * ```
 */
export interface SourceFile {
  /** Relative to the scan root, `/` separators. */
  path: string;
  /** The whole text, decoded as UTF-8. */
  text: string;
}

/**
 * A problem with one file; the scan goes on.
 *
 * @example
 * ```ts
 * import type { ExtractDiagnostic } from "@portcullis/portcullis/extract";
 *
 * const diagnostic: ExtractDiagnostic = {
 *   filePath: "app/main.py",
 *   severity: "warning",
 *   message: "Cannot parse: syntax error at 12:4",
 * };
 * ```
 */
export interface ExtractDiagnostic {
  /** Relative file path. */
  filePath: string;
  /** `error`: the file was skipped; `warning`: partly understood. */
  severity: "error" | "warning";
  /** Short message, e.g. `Cannot parse: syntax error at 12:4`. */
  message: string;
}

/**
 * What an extractor returns for the files of its language.
 *
 * @example
 * ```ts
 * import { type ExtractResult, javascriptExtractor } from "@portcullis/portcullis/extract";
 * import assert from "node:assert/strict";
 *
 * const result: ExtractResult = await javascriptExtractor.extract([
 *   { path: "client.ts", text: 'await fetch("/users/42");' },
 * ]);
 * assert.equal(result.ports[0]?.ref.key, "GET /users/{}");
 * assert.deepEqual(result.diagnostics, []);
 * ```
 */
export interface ExtractResult {
  /** Every port found. */
  ports: ExtractedPort[];
  /** Files it could not (fully) understand. */
  diagnostics: ExtractDiagnostic[];
  /**
   * Routes of gateways (Spring Cloud Gateway...) read from configuration or
   * code: what a gateway forwards where, for linking a consumer to a
   * provider through it. Not ports.
   */
  gateways?: GatewayRoute[];
  /**
   * Where deployment files (docker-compose `build`) say a service's code
   * is: for linking a call to a named host, or a gateway route to its
   * target, to that service's routes. Not ports.
   */
  serviceFolders?: ServiceFolder[];
  /**
   * Environment variables deployment files set (Dockerfile `ENV`, dotenv,
   * compose `environment:`, Kubernetes `env:` and ConfigMaps): for telling
   * which service a call reaches when its URL's host comes from one
   * (`http://${BALANCES_ADDR}/balances`). Not ports.
   */
  environment?: EnvironmentSetting[];
}

/**
 * One environment variable a deployment file sets, and the folder it
 * applies to.
 *
 * @example
 * ```ts
 * import type { EnvironmentSetting } from "@portcullis/portcullis/extract";
 *
 * const setting: EnvironmentSetting = { name: "CART_ADDR", value: "cart:8080", scope: "web" };
 * ```
 */
export interface EnvironmentSetting {
  /** The variable's name. */
  name: string;
  /** Its value as written. */
  value: string;
  /**
   * The folder it applies to (relative to the scan root, `/`-separated,
   * `""` for all of it); absent when the file does not say (a Kubernetes
   * manifest outside any service's folder).
   */
  scope?: string;
}

/**
 * A service a deployment file names and the folder its code is built from.
 *
 * @example
 * ```ts
 * import type { ServiceFolder } from "@portcullis/portcullis/extract";
 *
 * const folder: ServiceFolder = { service: "cart", directory: "services/cart" };
 * ```
 */
export interface ServiceFolder {
  /** The service's name, as hosts call it (`cart` in `http://cart:8080`). */
  service: string;
  /** Relative to the scan root, `/`-separated, `""` for the root itself. */
  directory: string;
}

/**
 * One language (or document format) extractor. It receives all files of the
 * scan root that it `accepts`, so it can resolve prefixes and constants
 * across files (FastAPI `include_router`, Go router groups, imported
 * constants) before it emits ports.
 *
 * @example A minimal extractor for a made-up route file format
 * ```ts
 * import { httpBoundaryKey } from "@portcullis/portcullis/boundary";
 * import type { LanguageExtractor } from "@portcullis/portcullis/extract";
 * import assert from "node:assert/strict";
 *
 * const routesFile: LanguageExtractor = {
 *   name: "routes",
 *   accepts: (path) => path.endsWith(".routes"),
 *   extract: (files) =>
 *     Promise.resolve({
 *       diagnostics: [],
 *       ports: files.flatMap((file) =>
 *         file.text.split("\n").filter(Boolean).map((line, index) => {
 *           const [method = "ANY", path = "/"] = line.split(" ");
 *           return {
 *             ref: {
 *               mechanism: "http" as const,
 *               role: "server" as const,
 *               key: httpBoundaryKey(method, path),
 *               line: index + 1,
 *               col: 1,
 *               confidence: 1,
 *               detail: { method, path },
 *             },
 *             owner: {
 *               kind: "module" as const,
 *               name: file.path,
 *               qualifiedName: file.path,
 *               filePath: file.path,
 *             },
 *             filePath: file.path,
 *           };
 *         })
 *       ),
 *     }),
 * };
 * const { ports } = await routesFile.extract([
 *   { path: "api.routes", text: "GET /users/:id\n" },
 * ]);
 * assert.equal(ports[0]?.ref.key, "GET /users/{}");
 * ```
 */
export interface LanguageExtractor {
  /** Short name used in reports: `typescript`, `python`, `openapi`... */
  name: string;
  /** Whether a relative path belongs to this extractor. */
  accepts(path: string): boolean;
  /** Finds the ports in the given files. */
  extract(files: readonly SourceFile[]): Promise<ExtractResult>;
}
