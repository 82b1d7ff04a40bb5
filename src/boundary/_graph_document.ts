// Validation of a graphlens schema-version-1 document read from untrusted
// JSON: bounded nesting (checked without recursion before zod sees a
// value), one node or relation at a time, and a bounded list of issues.
import type { z } from "zod";
import {
  type graphDocumentSchema,
  metadataSchema,
  nodeDocumentSchema,
  relationDocumentSchema,
} from "./_graph_schema.ts";
import { formatPath, toIssues } from "./_issues.ts";
import { BoundaryValidationError, type ValidationIssue } from "./errors.ts";

/** Deepest metadata value accepted: `{ "a": [1] }` is 2 levels deep. */
export const MAX_METADATA_DEPTH = 64;

/** Issues kept in the error; the others are counted. */
export const MAX_ISSUES = 100;

/** A validated document. */
export type ValidGraphDocument = z.infer<typeof graphDocumentSchema>;

class Issues {
  readonly list: ValidationIssue[] = [];
  count = 0;
  add(issue: ValidationIssue): void {
    this.count++;
    if (this.list.length < MAX_ISSUES) this.list.push(issue);
  }
}

interface Frame {
  value: unknown;
  depth: number;
  key: PropertyKey;
  parent: Frame | undefined;
}

/**
 * The path (below `value`) of the first value nested deeper than
 * {@linkcode MAX_METADATA_DEPTH}, or `undefined`. Iterative, so any depth
 * (and a cycle in an object built in code) ends at the limit.
 */
function tooDeep(value: unknown): PropertyKey[] | undefined {
  const stack: Frame[] = [{ value, depth: 0, key: "", parent: undefined }];
  while (stack.length > 0) {
    const frame = stack.pop()!;
    const current = frame.value;
    if (current === null || typeof current !== "object") continue;
    if (frame.depth >= MAX_METADATA_DEPTH) {
      const path: PropertyKey[] = [];
      for (let f: Frame | undefined = frame; f?.parent; f = f.parent) {
        path.push(f.key);
      }
      return path.reverse();
    }
    const depth = frame.depth + 1;
    if (Array.isArray(current)) {
      for (let i = current.length - 1; i >= 0; i--) {
        stack.push({ value: current[i], depth, key: i, parent: frame });
      }
    } else {
      for (const key of Object.keys(current)) {
        const child = (current as Record<string, unknown>)[key];
        stack.push({ value: child, depth, key, parent: frame });
      }
    }
  }
  return undefined;
}

/** False (with an issue) when `metadata` is nested too deeply. */
function checkDepth(
  metadata: unknown,
  at: readonly PropertyKey[],
  issues: Issues,
): boolean {
  const below = tooDeep(metadata);
  if (below === undefined) return true;
  issues.add({
    path: formatPath([...at, ...below], "$"),
    message: `nested more than ${MAX_METADATA_DEPTH} levels deep`,
  });
  return false;
}

/** Parses one part of the document, or adds its issues. */
function parsePart<T>(
  schema: z.ZodType<T>,
  value: unknown,
  at: readonly PropertyKey[],
  issues: Issues,
): T | undefined {
  const result = schema.safeParse(value);
  if (result.success) return result.data;
  for (const issue of toIssues(result.error.issues, "$", at)) {
    issues.add(issue);
  }
  return undefined;
}

/** Validates the items of `nodes` or `relations`, one at a time. */
function parseItems<T>(
  items: unknown,
  field: "nodes" | "relations",
  schema: z.ZodType<T>,
  issues: Issues,
): T[] {
  const parsed: T[] = [];
  if (!Array.isArray(items)) {
    issues.add({ path: `$.${field}`, message: "expected an array" });
    return parsed;
  }
  for (let i = 0; i < items.length; i++) {
    const item = items[i];
    const at = [field, i];
    const metadata = item !== null && typeof item === "object"
      ? (item as { metadata?: unknown }).metadata
      : undefined;
    if (!checkDepth(metadata, [...at, "metadata"], issues)) continue;
    const value = parsePart(schema, item, at, issues);
    if (value !== undefined) parsed.push(value);
  }
  return parsed;
}

function checkDuplicateIds(nodes: unknown, issues: Issues): void {
  if (!Array.isArray(nodes)) return;
  const seenIds = new Set<string>();
  for (let i = 0; i < nodes.length; i++) {
    const id = (nodes[i] as { id?: unknown } | null)?.id;
    if (typeof id !== "string" || id === "") continue;
    if (seenIds.has(id)) {
      issues.add({
        path: `$.nodes[${i}].id`,
        message: `duplicate node id ${
          JSON.stringify(id.length > 100 ? `${id.slice(0, 100)}...` : id)
        }`,
      });
    }
    seenIds.add(id);
  }
}

/**
 * Checks a parsed graph document and returns it typed.
 *
 * @throws {BoundaryValidationError} Naming the JSON path of the first
 *   {@linkcode MAX_ISSUES} problems and counting all: an unsupported
 *   `schema_version` alone, else schema problems in document order, then
 *   duplicate node ids.
 */
export function validateGraphDocument(data: unknown): ValidGraphDocument {
  const issues = new Issues();
  if (data === null || typeof data !== "object" || Array.isArray(data)) {
    issues.add({ path: "$", message: "expected an object" });
    throw new BoundaryValidationError("load graph", issues.list);
  }
  const document = data as Record<string, unknown>;
  const version = document["schema_version"];
  if (version !== 1) {
    const shown = typeof version === "string"
      ? JSON.stringify(version.slice(0, 40))
      : typeof version === "object" && version !== null
      ? Array.isArray(version) ? "an array" : "an object"
      : String(version);
    throw new BoundaryValidationError("load graph", [{
      path: "$.schema_version",
      message: `unsupported schema_version ${shown}; expected 1`,
    }]);
  }
  let metadata: ValidGraphDocument["metadata"];
  if (
    document["metadata"] !== undefined &&
    checkDepth(document["metadata"], ["metadata"], issues)
  ) {
    metadata = parsePart(
      metadataSchema,
      document["metadata"],
      ["metadata"],
      issues,
    );
  }
  const nodes = parseItems(
    document["nodes"],
    "nodes",
    nodeDocumentSchema,
    issues,
  );
  const relations = parseItems(
    document["relations"],
    "relations",
    relationDocumentSchema,
    issues,
  );
  checkDuplicateIds(document["nodes"], issues);
  if (issues.count > 0) {
    throw new BoundaryValidationError("load graph", issues.list, {
      issueCount: issues.count,
    });
  }
  return { "schema_version": 1, metadata, nodes, relations };
}
