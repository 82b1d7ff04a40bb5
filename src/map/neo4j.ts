import type { BoundaryGraph } from "../boundary/graph.ts";
import { canonicalKey } from "../boundary/_json.ts";
import {
  neo4jRows,
  type NodeRow,
  type RelationRow,
  type Scalar,
} from "./_neo4j_rows.ts";

// Rows per UNWIND statement.
const BATCH = 500;

/** A property name Cypher reads without quotes. */
const IDENTIFIER = /^[A-Za-z_][A-Za-z0-9_]*$/;
/** Characters a property name may not hold at all. */
// deno-lint-ignore no-control-regex
const CONTROL = /[\u0000-\u001f\u007f-\u009f\u2028\u2029]/;
/** Characters written as `\uXXXX` in a Cypher string. */
const ESCAPED =
  // deno-lint-ignore no-control-regex
  /[\u0000-\u001f\u007f-\u009f\u061c\u200b\u200e\u200f\u2028-\u202e\u2060\u2066-\u2069\ufeff\ufffe\uffff]|[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/g;

function cypherString(value: string): string {
  return `"${
    value.replaceAll("\\", "\\\\").replaceAll('"', '\\"').replace(
      ESCAPED,
      (char) => `\\u${char.charCodeAt(0).toString(16).padStart(4, "0")}`,
    )
  }"`;
}

function cypherKey(name: string): string {
  return IDENTIFIER.test(name) ? name : `\`${name.replaceAll("`", "``")}\``;
}

function cypherValue(value: Scalar): string {
  return typeof value === "string" ? cypherString(value) : String(value);
}

function cypherMap(props: Map<string, Scalar>): string {
  const parts: string[] = [];
  for (const [key, value] of props) {
    if (!CONTROL.test(key)) {
      parts.push(`${cypherKey(key)}: ${cypherValue(value)}`);
    }
  }
  return `{${parts.join(", ")}}`;
}

function batches<T>(rows: readonly T[]): T[][] {
  const out: T[][] = [];
  for (let i = 0; i < rows.length; i += BATCH) {
    out.push(rows.slice(i, i + BATCH));
  }
  return out;
}

/** A relation's identity, so loading the script twice adds nothing. */
function relationKey(row: RelationRow): string {
  return canonicalKey({
    type: row.type,
    source: row.source,
    target: row.target,
    props: Object.fromEntries(row.props),
  });
}

/**
 * A Cypher script that loads a graph into Neo4j with `cypher-shell`, in
 * graphlens's model: a uniqueness constraint on `Code.id`, then batches of
 * `UNWIND [...] AS props MERGE (n:Code {id: props.id}) SET n += props,
 * n:<Label>` per node kind, then `UNWIND ... MATCH ... MERGE` per relation
 * kind. Node properties are `id`, `kind`, `name`, `qualified_name`,
 * `file_path`, `span_*` and `meta_<key>` for scalar metadata; relation
 * properties are `meta_<key>`. Unlike graphlens, a relation is merged on
 * a `rel_key` of its ends, type and properties, so two links between one
 * pair over different boundaries stay two. Loading it twice changes
 * nothing. Strings are double-quoted, with control, C1 and bidirectional
 * characters as `\uXXXX`.
 *
 * @param graph The graph.
 * @returns The script, one statement per `;`.
 *
 * @example Usage
 * ```ts
 * import { BoundaryGraph } from "@portcullis/portcullis/boundary";
 * import { cypherScript } from "@portcullis/portcullis/map";
 * import assert from "node:assert/strict";
 *
 * const graph = new BoundaryGraph();
 * graph.addNode({ id: "f1", kind: "function", qualifiedName: "app.py::main", name: "main" });
 * const script = cypherScript(graph);
 * assert.match(script, /MERGE \(n:Code \{id: props\.id\}\)\nSET n \+= props, n:Function;/);
 * ```
 */
export function cypherScript(graph: BoundaryGraph): string {
  const { nodes, relations } = neo4jRows(graph);
  const out = [
    `// ${graph.nodes.size} nodes and ${graph.relations.length} relations, written by portcullis-scan in graphlens's Neo4j model`,
    "CREATE CONSTRAINT code_node_id IF NOT EXISTS FOR (n:Code) REQUIRE n.id IS UNIQUE;",
  ];
  for (const [label, rows] of nodes) {
    for (const batch of batches<NodeRow>(rows)) {
      out.push(
        `UNWIND [\n${
          batch.map((row) => `  ${cypherMap(row.props)}`).join(",\n")
        }\n] AS props`,
        "MERGE (n:Code {id: props.id})",
        `SET n += props, n:${label};`,
      );
    }
  }
  for (const [type, rows] of relations) {
    for (const batch of batches<RelationRow>(rows)) {
      out.push(
        `UNWIND [\n${
          batch.map((row) =>
            `  {source_id: ${cypherString(row.source)}, target_id: ${
              cypherString(row.target)
            }, key: ${cypherString(relationKey(row))}, props: ${
              cypherMap(row.props)
            }}`
          ).join(",\n")
        }\n] AS row`,
        "MATCH (src:Code {id: row.source_id})",
        "MATCH (dst:Code {id: row.target_id})",
        `MERGE (src)-[r:${type} {rel_key: row.key}]->(dst)`,
        "SET r += row.props;",
      );
    }
  }
  return out.join("\n") + "\n";
}

/** One field of {@linkcode neo4jCsv}: quoted when a string. */
function csvField(value: Scalar | undefined): string {
  if (value === undefined) return "";
  if (typeof value !== "string") return String(value);
  // one record per line, so control characters are written as \uXXXX
  const text = value.replace(
    ESCAPED,
    (char) => `\\u${char.charCodeAt(0).toString(16).padStart(4, "0")}`,
  );
  return `"${text.replaceAll('"', '""')}"`;
}

/** The neo4j-admin type of a column: int, float, boolean or string. */
function columnType(values: Iterable<Scalar>): string {
  let type: string | undefined;
  for (const value of values) {
    const own = typeof value === "boolean"
      ? "boolean"
      : typeof value === "number"
      ? (Number.isInteger(value) ? "long" : "double")
      : "string";
    if (type === undefined) type = own;
    else if (type !== own) {
      type = (type === "long" && own === "double") ||
          (type === "double" && own === "long")
        ? "double"
        : "string";
    }
  }
  return type ?? "string";
}

/** The node properties every node may have come first, in this order. */
const FIRST = [
  "kind",
  "name",
  "qualified_name",
  "file_path",
  "span_start_line",
  "span_start_col",
  "span_end_line",
  "span_end_col",
];

function rank(name: string): number {
  const at = FIRST.indexOf(name);
  return at === -1 ? FIRST.length : at;
}

function table(
  fixed: string[],
  rows: readonly { props: Map<string, Scalar> }[],
  leading: (row: number) => string[],
  skip: ReadonlySet<string>,
): string {
  const names: string[] = [];
  const seen = new Set<string>();
  for (const row of rows) {
    for (const key of row.props.keys()) {
      if (!seen.has(key) && !skip.has(key) && !CONTROL.test(key)) {
        seen.add(key);
        names.push(key);
      }
    }
  }
  names.sort((a, b) => rank(a) - rank(b) || (a < b ? -1 : a > b ? 1 : 0));
  const typed = names.map((name) => {
    const type = columnType(
      rows.map((row) => row.props.get(name)).filter((v): v is Scalar =>
        v !== undefined
      ),
    );
    return { name, type };
  });
  const header = [
    ...fixed,
    ...typed.map(({ name, type }) =>
      csvField(type === "string" ? name : `${name}:${type}`)
    ),
  ];
  const lines = [header.join(",")];
  rows.forEach((row, i) => {
    lines.push([
      ...leading(i),
      ...typed.map(({ name, type }) => {
        const value = row.props.get(name);
        return type === "string" && value !== undefined
          ? csvField(String(value))
          : csvField(value);
      }),
    ].join(","));
  });
  return lines.join("\n") + "\n";
}

/**
 * A graph as the two CSV files `neo4j-admin database import full` reads
 * (`--nodes=nodes.csv --relationships=relationships.csv`), in the same
 * model as {@linkcode cypherScript}: `nodes.csv` has `id:ID`, `:LABEL`
 * (`Code;<Label>`) and a column per property (the fixed ones first, then
 * `meta_*` sorted), typed `:long`, `:double` or `:boolean` when every
 * value is; `relationships.csv` has `:START_ID`,
 * `:END_ID`, `:TYPE` and a column per property. Every string is quoted
 * (`"` doubled); control, C1 and bidirectional characters are written as
 * `\uXXXX`, so each record is one line.
 *
 * @param graph The graph.
 * @returns The two files' text.
 *
 * @example Usage
 * ```ts
 * import { BoundaryGraph } from "@portcullis/portcullis/boundary";
 * import { neo4jCsv } from "@portcullis/portcullis/map";
 * import assert from "node:assert/strict";
 *
 * const graph = new BoundaryGraph();
 * graph.addNode({ id: "f1", kind: "function", qualifiedName: "app.py::main", name: "main" });
 * const { nodes } = neo4jCsv(graph);
 * assert.equal(nodes.split("\n")[1], '"f1","Code;Function","function","main","app.py::main"');
 * ```
 */
export function neo4jCsv(
  graph: BoundaryGraph,
): { nodes: string; relationships: string } {
  const { nodes, relations } = neo4jRows(graph);
  const nodeRows = [...nodes.values()].flat();
  const relationRows = [...relations.values()].flat();
  return {
    nodes: table(
      ["id:ID", ":LABEL"],
      nodeRows,
      (i) => [
        csvField(nodeRows[i]!.props.get("id")),
        csvField(`Code;${nodeRows[i]!.label}`),
      ],
      new Set(["id"]),
    ),
    relationships: table(
      [":START_ID", ":END_ID", ":TYPE"],
      relationRows,
      (i) => {
        const row = relationRows[i]!;
        return [csvField(row.source), csvField(row.target), csvField(row.type)];
      },
      new Set(),
    ),
  };
}
