// A graph's nodes and relations as Neo4j rows, the way graphlens exports
// them: every node is a `Code` with a label from its kind (`Function`,
// `Boundary`...); properties are `id`, `kind`, `name`, `qualified_name`,
// `file_path`, `span_*` and `meta_<key>` for each scalar metadata value;
// a relation's type is its kind in capitals (`COMMUNICATES_WITH`).
import type {
  BoundaryGraph,
  GraphMetadata,
  GraphNode,
} from "../boundary/graph.ts";

/** A property value Neo4j stores. */
export type Scalar = string | number | boolean;

/** A node as a label and properties. */
export interface NodeRow {
  label: string;
  props: Map<string, Scalar>;
}

/** A relation as a type, its ends and properties. */
export interface RelationRow {
  type: string;
  source: string;
  target: string;
  props: Map<string, Scalar>;
}

/** `external_symbol` -> `ExternalSymbol`. */
export function labelOf(kind: string): string {
  return kind.split("_").map((part) =>
    part.charAt(0).toUpperCase() + part.slice(1)
  ).join("");
}

function meta(props: Map<string, Scalar>, metadata: GraphMetadata): void {
  for (const [key, value] of Object.entries(metadata)) {
    if (
      typeof value === "string" || typeof value === "boolean" ||
      (typeof value === "number" && Number.isFinite(value))
    ) props.set(`meta_${key}`, value);
  }
}

function nodeRow(node: GraphNode): NodeRow {
  const props = new Map<string, Scalar>([
    ["id", node.id],
    ["kind", node.kind],
    ["name", node.name],
    ["qualified_name", node.qualifiedName],
  ]);
  if (node.filePath !== undefined) props.set("file_path", node.filePath);
  if (node.span !== undefined) {
    props.set("span_start_line", node.span.startLine);
    props.set("span_start_col", node.span.startCol);
    props.set("span_end_line", node.span.endLine);
    props.set("span_end_col", node.span.endCol);
  }
  meta(props, node.metadata);
  return { label: labelOf(node.kind), props };
}

/** The nodes by label, and the relations by type, in graph order. */
export function neo4jRows(graph: BoundaryGraph): {
  nodes: Map<string, NodeRow[]>;
  relations: Map<string, RelationRow[]>;
} {
  const nodes = new Map<string, NodeRow[]>();
  for (const node of graph.nodes.values()) {
    const row = nodeRow(node);
    const list = nodes.get(row.label);
    if (list === undefined) nodes.set(row.label, [row]);
    else list.push(row);
  }
  const relations = new Map<string, RelationRow[]>();
  for (const relation of graph.relations) {
    const props = new Map<string, Scalar>();
    meta(props, relation.metadata);
    const type = relation.kind.toUpperCase();
    const row = {
      type,
      source: relation.sourceId,
      target: relation.targetId,
      props,
    };
    const list = relations.get(type);
    if (list === undefined) relations.set(type, [row]);
    else list.push(row);
  }
  return { nodes, relations };
}
