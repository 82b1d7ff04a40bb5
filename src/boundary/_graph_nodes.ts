// Checking and copying the nodes a BoundaryGraph stores.
import { jsonEqual } from "./_json.ts";
import { nodeKindSet } from "./graph_kinds.ts";
import type {
  GraphMetadata,
  GraphNode,
  GraphNodeInit,
  NodeSpan,
} from "./graph_types.ts";
import type { NodeKind } from "./graph_kinds.ts";

function isPosition(value: unknown): boolean {
  return typeof value === "number" && Number.isInteger(value) && value >= 0;
}

export function checkNode(node: GraphNodeInit): void {
  if (node === null || typeof node !== "object") {
    throw new TypeError("Cannot add node: expected an object");
  }
  if (typeof node.id !== "string" || node.id === "") {
    throw new TypeError("Cannot add node: id must be a non-empty string");
  }
  if (!nodeKindSet.has(node.kind)) {
    throw new TypeError(
      `Cannot add node "${node.id}": unknown node kind "${node.kind}"`,
    );
  }
  if (typeof node.qualifiedName !== "string" || typeof node.name !== "string") {
    throw new TypeError(
      `Cannot add node "${node.id}": qualifiedName and name must be strings`,
    );
  }
  if (node.filePath !== undefined && typeof node.filePath !== "string") {
    throw new TypeError(
      `Cannot add node "${node.id}": filePath must be a string`,
    );
  }
  const span = node.span;
  if (
    span !== undefined &&
    (span === null || typeof span !== "object" ||
      !isPosition(span.startLine) || !isPosition(span.startCol) ||
      !isPosition(span.endLine) || !isPosition(span.endCol))
  ) {
    throw new TypeError(
      `Cannot add node "${node.id}": span must hold four integers >= 0`,
    );
  }
  if (
    node.metadata !== undefined &&
    (node.metadata === null || typeof node.metadata !== "object" ||
      Array.isArray(node.metadata))
  ) {
    throw new TypeError(
      `Cannot add node "${node.id}": metadata must be an object`,
    );
  }
}

export function makeNode(init: GraphNodeInit): GraphNode {
  const node: {
    id: string;
    kind: NodeKind;
    qualifiedName: string;
    name: string;
    filePath?: string;
    span?: NodeSpan;
    metadata: Readonly<GraphMetadata>;
  } = {
    id: init.id,
    kind: init.kind,
    qualifiedName: init.qualifiedName,
    name: init.name,
    metadata: init.metadata ?? {},
  };
  if (init.filePath !== undefined) node.filePath = init.filePath;
  if (init.span !== undefined) {
    const s = init.span;
    node.span = {
      startLine: s.startLine,
      startCol: s.startCol,
      endLine: s.endLine,
      endCol: s.endCol,
    };
  }
  return node;
}

export function nodesEqual(a: GraphNode, b: GraphNode): boolean {
  if (
    a.id !== b.id || a.kind !== b.kind ||
    a.qualifiedName !== b.qualifiedName || a.name !== b.name ||
    a.filePath !== b.filePath
  ) return false;
  const sa = a.span;
  const sb = b.span;
  if (sa !== sb) {
    if (
      sa === undefined || sb === undefined ||
      sa.startLine !== sb.startLine || sa.startCol !== sb.startCol ||
      sa.endLine !== sb.endLine || sa.endCol !== sb.endCol
    ) return false;
  }
  return jsonEqual(a.metadata, b.metadata);
}
