// Graphs for the map tests: the polyglot fixture (six services in five
// languages) as a scan links it, and a small graph whose every name is
// hostile (markup, control and bidirectional characters, path tricks).
import { fileURLToPath } from "node:url";
import { addBoundary } from "../../src/boundary/add_boundary.ts";
import { BoundaryGraph } from "../../src/boundary/graph.ts";
import { linkGraph } from "../../src/boundary/link.ts";
import { scan } from "../../src/extract/scan.ts";

const POLYGLOT = fileURLToPath(
  new URL("../fixtures/extract/polyglot", import.meta.url),
);
const SERVICES = [
  "inventory-java",
  "notifier-node",
  "ordering-go",
  "payments-py",
  "users-api",
  "web",
];

let polyglot: Promise<string> | undefined;

/** The polyglot fixture scanned and linked (a fresh copy each call). */
export async function polyglotGraph(): Promise<BoundaryGraph> {
  polyglot ??= scan(SERVICES.map((s) => `${POLYGLOT}/${s}`))
    .then((result) => JSON.stringify(result.graph));
  return BoundaryGraph.fromJSON(await polyglot);
}

/** Names a scanned repository could hold to attack an output format. */
export const HOSTILE = [
  "</script><script>alert(1)</script>",
  "x`y``z",
  "a\nb\r\u001b[31mred",
  "bidi\u202eevil",
  "@here [link](javascript:alert(1)) ![img](x) <b>bold</b>",
  "__proto__",
  "../../etc/passwd",
  "\ud800lone",
  "quote\"and'apostrophe\\back",
  "# not a heading | not | a cell",
];

/**
 * A linked graph with one service per hostile name: each provides
 * `GET /<name>` and calls the next one's route, plus a call nobody serves.
 */
export function hostileGraph(): BoundaryGraph {
  const graph = new BoundaryGraph();
  HOSTILE.forEach((name, i) => {
    const owner = `${name}:${name}.ts::${name}`;
    graph.addNode({
      id: owner,
      kind: "function",
      qualifiedName: `${name}.ts::${name}`,
      name,
      filePath: `${name}.ts`,
      metadata: { root: name },
    });
    const port = {
      mechanism: "http",
      line: i + 1,
      col: 1,
      confidence: 1,
    } as const;
    addBoundary(graph, owner, {
      ...port,
      role: "server",
      key: `GET /${name}`,
      detail: { permission: name },
    }, { filePath: `${name}.ts` });
    addBoundary(graph, owner, {
      ...port,
      role: "client",
      key: `GET /${HOSTILE[(i + 1) % HOSTILE.length]}`,
      detail: {},
    }, { filePath: `${name}.ts` });
    addBoundary(graph, owner, {
      ...port,
      mechanism: "queue",
      role: "client",
      key: `${name}.topic`,
      detail: {},
    }, { filePath: `${name}.ts` });
  });
  linkGraph(graph);
  return graph;
}

/**
 * Whether the text holds a raw character no output may hold: a C0 control
 * other than a newline (ESC, CR...), a line separator or a bidirectional
 * override.
 */
export function hasRawControl(text: string): boolean {
  // deno-lint-ignore no-control-regex
  return /[\u0000-\u0009\u000b-\u001f\u2028\u2029\u202e]/.test(text);
}
