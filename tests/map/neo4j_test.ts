import assert from "node:assert/strict";
import { BoundaryGraph } from "../../src/boundary/graph.ts";
import { cypherScript, neo4jCsv } from "../../src/map/neo4j.ts";
import {
  hasRawControl,
  HOSTILE,
  hostileGraph,
  polyglotGraph,
} from "./_graphs.ts";
import { cypherErrors } from "./_validators.ts";

Deno.test("cypherScript() is valid Cypher in graphlens's model, for the polyglot fixture and hostile names", async () => {
  for (const graph of [await polyglotGraph(), hostileGraph()]) {
    const script = cypherScript(graph);
    assert.deepEqual(await cypherErrors(script), []);
    assert.ok(!hasRawControl(script));
    assert.match(
      script,
      /^\/\/ \d+ nodes and \d+ relations, written by portcullis-scan in graphlens's Neo4j model\nCREATE CONSTRAINT code_node_id IF NOT EXISTS FOR \(n:Code\) REQUIRE n\.id IS UNIQUE;\n/,
    );
    assert.match(script, /SET n \+= props, n:Boundary;/);
    assert.match(
      script,
      /MERGE \(src\)-\[r:COMMUNICATES_WITH \{rel_key: row\.key\}\]->\(dst\)/,
    );
  }
  // the parser does reject a broken script
  assert.notDeepEqual(await cypherErrors("UNWIND [ AS props"), []);
});

Deno.test("cypherScript() writes each node's properties and escapes every string", () => {
  const graph = new BoundaryGraph();
  graph.addNode({
    id: 'a"b\\c',
    kind: "external_symbol",
    qualifiedName: "q\u202eq",
    name: "n\nn",
    filePath: "f.py",
    span: { startLine: 1, startCol: 2, endLine: 3, endCol: 4 },
    metadata: {
      root: "api",
      weight: 0.5,
      ok: true,
      nested: { no: 1 },
      "odd key`": "v",
    },
  });
  const script = cypherScript(graph);
  assert.ok(
    script.includes(
      '{id: "a\\"b\\\\c", kind: "external_symbol", name: "n\\u000an", qualified_name: "q\\u202eq", file_path: "f.py", span_start_line: 1, span_start_col: 2, span_end_line: 3, span_end_col: 4, meta_root: "api", meta_weight: 0.5, meta_ok: true, `meta_odd key```: "v"}',
    ),
    script,
  );
  assert.match(script, /n:ExternalSymbol;/);
});

/** RFC 4180 records of a CSV text (quotes doubled, no line breaks in fields). */
function records(text: string): string[][] {
  return text.trimEnd().split("\n").map((line) => {
    const fields: string[] = [];
    let i = 0;
    while (i <= line.length) {
      if (line[i] === '"') {
        let value = "";
        i++;
        while (i < line.length) {
          if (line[i] === '"' && line[i + 1] === '"') {
            value += '"';
            i += 2;
          } else if (line[i] === '"') break;
          else value += line[i++];
        }
        fields.push(value);
        i += 2;
      } else {
        const end = line.indexOf(",", i);
        fields.push(line.slice(i, end === -1 ? line.length : end));
        i = end === -1 ? line.length + 1 : end + 1;
      }
    }
    return fields;
  });
}

Deno.test("neo4jCsv() writes neo4j-admin import files: typed headers, one record per line", async () => {
  const graph = await polyglotGraph();
  const { nodes, relationships } = neo4jCsv(graph);
  const nodeRows = records(nodes);
  const header = nodeRows[0]!;
  assert.deepEqual(header.slice(0, 6), [
    "id:ID",
    ":LABEL",
    "kind",
    "name",
    "qualified_name",
    "file_path",
  ]);
  assert.ok(header.includes("span_start_line:long"));
  assert.equal(nodeRows.length - 1, graph.nodes.size);
  for (const row of nodeRows) assert.equal(row.length, header.length);
  assert.ok(nodeRows.some((row) => row[1] === "Code;Boundary"));
  const relationRows = records(relationships);
  assert.deepEqual(relationRows[0]!.slice(0, 3), [
    ":START_ID",
    ":END_ID",
    ":TYPE",
  ]);
  assert.equal(relationRows.length - 1, graph.relations.length);
  assert.ok(relationRows[0]!.includes("meta_confidence:double"));
  for (const row of relationRows) {
    assert.equal(row.length, relationRows[0]!.length);
  }
});

Deno.test("neo4jCsv() keeps hostile names on one line, quoted", () => {
  const { nodes } = neo4jCsv(hostileGraph());
  const rows = records(nodes);
  assert.equal(rows.length - 1, hostileGraph().nodes.size);
  const names = rows.slice(1).map((row) => row[3]);
  for (
    const name of HOSTILE.filter((n) =>
      !hasRawControl(n) && !/[\n\ud800]/.test(n)
    )
  ) {
    assert.ok(names.includes(name), name);
  }
  assert.ok(names.includes("a\\u000ab\\u000d\\u001b[31mred"));
});
