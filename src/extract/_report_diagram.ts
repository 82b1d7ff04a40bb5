// Diagrams of a report: a Mermaid flowchart and a Graphviz digraph, one
// node per code element, grouped by root, solid edges for links and dashed
// ones to unmatched calls. Labels are escaped for each syntax, so a name or
// key from a scanned repository stays a label: no Mermaid directive or
// comment, no Graphviz entity, no control character in the SVG.
import type { ReportPort, ScanReport } from "./report.ts";
import { formatConfidence, type ReportCut, show } from "./_report_text.ts";

/** Stable short node ids for diagrams. */
class Ids {
  #ids = new Map<string, string>();
  #prefix: string;
  constructor(prefix: string) {
    this.#prefix = prefix;
  }
  get(key: string): string {
    let id = this.#ids.get(key);
    if (!id) this.#ids.set(key, id = `${this.#prefix}${this.#ids.size}`);
    return id;
  }
}

interface DiagramNode {
  id: string;
  label: string;
  root: string;
}

function diagramNodes(report: ScanReport, ids: Ids): DiagramNode[] {
  const nodes = new Map<string, DiagramNode>();
  const add = (port: ReportPort): void => {
    if (nodes.has(port.ownerId)) return;
    nodes.set(port.ownerId, {
      id: ids.get(port.ownerId),
      label: port.owner,
      root: port.root,
    });
  };
  for (const link of report.links) {
    add(link.consumer);
    add(link.provider);
  }
  for (const port of report.unmatchedConsumers) add(port);
  return [...nodes.values()];
}

function groupByRoot(nodes: DiagramNode[]): Map<string, DiagramNode[]> {
  const groups = new Map<string, DiagramNode[]>();
  for (const node of nodes) {
    let list = groups.get(node.root);
    if (!list) groups.set(node.root, list = []);
    list.push(node);
  }
  return groups;
}

/**
 * A Mermaid label: entity codes for what Mermaid reads (`"`, `#` of an
 * entity, `%` of a comment or `%%{init}%%` directive, `<`, `>`, a backtick
 * of a markdown string), and control characters and newlines as `\uXXXX`.
 */
function mermaidText(value: string): string {
  return show(value).replace(
    /["#%<>`]/g,
    (char) => char === '"' ? "#quot;" : `#${char.charCodeAt(0)};`,
  );
}

/** The links and unmatched calls to draw: the first ones under a cut. */
function drawn(report: ScanReport, cut: ReportCut | undefined): ScanReport {
  if (cut === undefined) return report;
  return {
    ...report,
    links: report.links.slice(0, cut.entriesPerList),
    unmatchedConsumers: report.unmatchedConsumers.slice(0, cut.entriesPerList),
  };
}

/** What a diagram draws: its links, node ids and nodes grouped by root. */
interface DiagramLayout {
  /** The report under the cut. */
  report: ScanReport;
  /** The ids of the code elements. */
  ids: Ids;
  /** The nodes of each root (`""`: no root). */
  groups: Map<string, DiagramNode[]>;
}

function layout(full: ScanReport, cut: ReportCut | undefined): DiagramLayout {
  const report = drawn(full, cut);
  const ids = new Ids("n");
  return { report, ids, groups: groupByRoot(diagramNodes(report, ids)) };
}

/** A Mermaid flowchart of the report. */
export function renderMermaid(
  full: ScanReport,
  cut: ReportCut | undefined,
): string {
  const { report, ids, groups } = layout(full, cut);
  const lines = ["flowchart LR"];
  if (cut !== undefined) {
    lines.push(
      `%% shortened to ${cut.maxBytes} bytes: the first ${cut.entriesPerList} links and unmatched calls are drawn`,
    );
  }
  let group = 0;
  for (const [root, nodes] of groups) {
    const indent = root ? "    " : "  ";
    if (root) lines.push(`  subgraph g${group++}["${mermaidText(root)}"]`);
    for (const node of nodes) {
      lines.push(`${indent}${node.id}["${mermaidText(node.label)}"]`);
    }
    if (root) lines.push("  end");
  }
  for (const link of report.links) {
    lines.push(
      `  ${ids.get(link.consumer.ownerId)} -->|"${
        mermaidText(`${link.key} (${formatConfidence(link.confidence)})`)
      }"| ${ids.get(link.provider.ownerId)}`,
    );
  }
  const missing = new Ids("u");
  for (const port of report.unmatchedConsumers) {
    const target = missing.get(`${port.mechanism}:${port.key}`);
    lines.push(
      `  ${ids.get(port.ownerId)} -.->|"${
        mermaidText(port.key)
      }"| ${target}(["${
        mermaidText(`unmatched ${port.mechanism}: ${port.key}`)
      }"])`,
    );
  }
  return lines.join("\n") + "\n";
}

/**
 * A quoted DOT string: control characters and newlines as `\uXXXX` (shown
 * as such: the backslash is escaped), `"` and `\` escaped, and `&` written
 * `&amp;` so Graphviz decodes no character reference into its SVG.
 */
function dotText(value: string): string {
  return `"${
    show(value).replaceAll("\\", "\\\\").replaceAll('"', '\\"')
      .replaceAll("&", "&amp;")
  }"`;
}

/** A Graphviz digraph of the report. */
export function renderDot(
  full: ScanReport,
  cut: ReportCut | undefined,
): string {
  const { report, ids, groups } = layout(full, cut);
  const lines = [
    "digraph boundaries {",
    "  rankdir=LR;",
    "  node [shape=box];",
  ];
  if (cut !== undefined) {
    lines.unshift(
      `// shortened to ${cut.maxBytes} bytes: the first ${cut.entriesPerList} links and unmatched calls are drawn`,
    );
  }
  let group = 0;
  for (const [root, nodes] of groups) {
    if (root) {
      lines.push(
        `  subgraph cluster_${group++} {`,
        `    label=${dotText(root)};`,
      );
    }
    for (const node of nodes) {
      lines.push(`    ${node.id} [label=${dotText(node.label)}];`);
    }
    if (root) lines.push("  }");
  }
  for (const link of report.links) {
    lines.push(
      `  ${ids.get(link.consumer.ownerId)} -> ${
        ids.get(link.provider.ownerId)
      } [label=${
        dotText(`${link.key} (${formatConfidence(link.confidence)})`)
      }];`,
    );
  }
  const missing = new Ids("u");
  const declared = new Set<string>();
  for (const port of report.unmatchedConsumers) {
    const target = missing.get(`${port.mechanism}:${port.key}`);
    if (!declared.has(target)) {
      declared.add(target);
      lines.push(
        `  ${target} [shape=ellipse, style=dashed, label=${
          dotText(`unmatched ${port.mechanism}: ${port.key}`)
        }];`,
      );
    }
    lines.push(
      `  ${ids.get(port.ownerId)} -> ${target} [style=dashed, label=${
        dotText(port.key)
      }];`,
    );
  }
  lines.push("}");
  return lines.join("\n") + "\n";
}
