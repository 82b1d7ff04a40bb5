// The diff as SARIF 2.1.0, for code scanning: one result per finding at
// the file and line of the change in this repository (a removed provider
// where it was, a changed one where it is now, a consumer where it calls).
// Findings in other repositories are named in the messages only.
import type { BoundaryDiff, ProviderChange } from "../boundary/diff.ts";
import type { PortRecord } from "../boundary/port_records.ts";
import {
  changeKeys,
  changeWords,
  count,
  first,
  ownerName,
  pathOf,
  place,
} from "./_diff_parts.ts";
import type { DiffView } from "./_diff_text.ts";
import { type SarifRule, sarifTool, uriOf } from "./_sarif.ts";

const RULES: readonly SarifRule[] = [
  {
    id: "PC001",
    name: "BreakingProviderChange",
    text:
      "A provider (HTTP route, gRPC method, queue topic, Temporal activity) was removed or changed while consumers still use it.",
    level: "error",
  },
  {
    id: "PC002",
    name: "ConsumerLostProvider",
    text: "A consumer calls a boundary that nothing provides any more.",
    level: "error",
  },
  {
    id: "PC003",
    name: "NewUnmatchedConsumer",
    text: "A new consumer calls a boundary that nothing provides.",
    level: "warning",
  },
  {
    id: "PC004",
    name: "NewUnconsumedProvider",
    text: "A new provider that nothing consumes.",
    level: "note",
  },
];

function location(port: PortRecord, view: DiffView): Record<string, unknown> {
  const region: Record<string, number> = {};
  if (port.line !== undefined && port.line >= 1) {
    region["startLine"] = port.line;
    if (port.col !== undefined && port.col >= 1) {
      region["startColumn"] = port.col;
    }
  }
  return {
    physicalLocation: {
      artifactLocation: {
        uri: uriOf(pathOf(port, view.roots)),
        uriBaseId: "%SRCROOT%",
      },
      ...(Object.keys(region).length > 0 ? { region } : {}),
    },
  };
}

function result(
  ruleIndex: number,
  message: string,
  port: PortRecord,
  view: DiffView,
): Record<string, unknown> {
  const rule = RULES[ruleIndex]!;
  return {
    ruleId: rule.id,
    ruleIndex,
    level: rule.level,
    message: { text: message },
    locations: [location(port, view)],
    partialFingerprints: {
      "portcullisBoundary/v1":
        `${rule.id}:${port.role}:${port.ownerId}:${port.mechanism}:${port.key}`,
    },
  };
}

function who(port: PortRecord, view: DiffView): string {
  return `${port.graph} ${place(port, view.roots)} (${ownerName(port)})`;
}

function breaking(change: ProviderChange, view: DiffView): string {
  const consumers = first(change.consumers, view.limit);
  const rest = change.consumers.length - consumers.length;
  return `${changeKeys(change)}: ${changeWords(change)} while ${
    count(change.consumers.length, "consumer")
  } still use${change.consumers.length === 1 ? "s" : ""} it: ${
    consumers.map((c) => who(c, view)).join("; ")
  }${rest > 0 ? `; and ${rest} more` : ""}`;
}

/** The diff as a SARIF 2.1.0 log (an object; the caller serializes it). */
export function sarifLog(
  diff: BoundaryDiff,
  view: DiffView & { repository: string },
): Record<string, unknown> {
  const results: Record<string, unknown>[] = [];
  const mine = (port: PortRecord): boolean => port.graph === view.repository;
  for (const change of first(diff.breaking, view.limit)) {
    const at = change.after ?? change.before;
    results.push(result(0, breaking(change, view), at, view));
  }
  const portFindings: [number, readonly PortRecord[], string][] = [
    [1, diff.lostConsumers.filter(mine), "nothing provides it any more"],
    [2, diff.newUnmatchedConsumers, "nothing provides it"],
    [3, diff.newUnconsumedProviders, "nothing consumes it"],
  ];
  for (const [rule, ports, words] of portFindings) {
    for (const port of first(ports, view.limit)) {
      results.push(
        result(rule, `${port.mechanism} ${port.key}: ${words}`, port, view),
      );
    }
  }
  return {
    $schema: "https://json.schemastore.org/sarif-2.1.0.json",
    version: "2.1.0",
    runs: [{
      tool: sarifTool("portcullis-scan", RULES),
      originalUriBaseIds: {
        "%SRCROOT%": { description: { text: "The repository's root" } },
      },
      results,
      ...(diff.partial.length > 0
        ? {
          invocations: [{
            executionSuccessful: false,
            toolExecutionNotifications: diff.partial.map((reason) => ({
              level: "error",
              message: { text: reason },
            })),
          }],
        }
        : {}),
    }],
  };
}
