import type { BoundaryRef } from "../boundary/types.ts";

/**
 * A region of a source file, 1-based lines and columns, end inclusive of the
 * last character's line.
 *
 * @example
 * ```ts
 * import type { SourceSpan } from "@portcullis/portcullis/extract";
 *
 * const span: SourceSpan = { startLine: 3, startCol: 1, endLine: 9, endCol: 2 };
 * ```
 */
export interface SourceSpan {
  /** 1-based first line. */
  startLine: number;
  /** 1-based first column. */
  startCol: number;
  /** 1-based last line. */
  endLine: number;
  /** 1-based column just past the last character. */
  endCol: number;
}

/**
 * The code element that owns a port: the enclosing function, method or
 * class, or the module (file) for top-level code.
 *
 * @example
 * ```ts
 * import type { PortOwner } from "@portcullis/portcullis/extract";
 *
 * const owner: PortOwner = {
 *   kind: "function",
 *   name: "listUsers",
 *   qualifiedName: "src/users.ts::listUsers",
 *   filePath: "src/users.ts",
 *   span: { startLine: 3, startCol: 1, endLine: 9, endCol: 2 },
 * };
 * ```
 */
export interface PortOwner {
  /** Graph node kind of the owner. */
  kind: "function" | "method" | "class" | "module";
  /** Short name, e.g. `listUsers`. */
  name: string;
  /** Unique within a scan root: `<file path>::<Class>.<method>`. */
  qualifiedName: string;
  /** Path relative to the scan root, with `/` separators. */
  filePath: string;
  /** Where the owner is defined. */
  span?: SourceSpan;
}

/**
 * One port an extractor found: the boundary reference and its owner.
 *
 * @example
 * ```ts
 * import type { ExtractedPort } from "@portcullis/portcullis/extract";
 *
 * const port: ExtractedPort = {
 *   ref: {
 *     mechanism: "http",
 *     role: "client",
 *     key: "GET /users/{}",
 *     line: 4,
 *     col: 9,
 *     confidence: 1,
 *     detail: { method: "GET", path: "/users/${id}", framework: "fetch" },
 *   },
 *   owner: {
 *     kind: "module",
 *     name: "api.ts",
 *     qualifiedName: "src/api.ts",
 *     filePath: "src/api.ts",
 *   },
 *   filePath: "src/api.ts",
 * };
 * ```
 */
export interface ExtractedPort {
  /** The boundary reference (key already normalized). */
  ref: BoundaryRef;
  /** The enclosing code element. */
  owner: PortOwner;
  /** The file of the port, relative to the scan root. */
  filePath: string;
}
