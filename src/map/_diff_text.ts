// The diff as text, for a CI log: every value from a graph shown with
// control, C1 and bidirectional characters as `\uXXXX`.
import { displayText } from "../boundary/_display_text.ts";
import type { BoundaryDiff, ProviderChange } from "../boundary/diff.ts";
import type { PortRecord } from "../boundary/port_records.ts";
import type { GateVerdict } from "./gate.ts";
import {
  changeKeys,
  changeWords,
  count,
  first,
  type ListLimit,
  ownerName,
  place,
  type RootPaths,
} from "./_diff_parts.ts";

const FIELD_LENGTH = 1000;

function show(value: string): string {
  return displayText(value, FIELD_LENGTH);
}

/** Options shared by the diff formats. */
export interface DiffView {
  roots: RootPaths;
  verdict: GateVerdict | undefined;
  limit: ListLimit;
}

function portLine(port: PortRecord, view: DiffView): string {
  return `${show(port.graph)} ${show(place(port, view.roots))}  ${
    show(ownerName(port))
  }`;
}

function section<T>(
  lines: string[],
  title: string,
  list: readonly T[],
  view: DiffView,
  write: (item: T) => void,
): void {
  lines.push("", `${title} (${list.length})`);
  const shown = first(list, view.limit);
  for (const item of shown) write(item);
  if (shown.length < list.length) {
    lines.push(`  ... and ${list.length - shown.length} more`);
  }
}

function changes(
  lines: string[],
  title: string,
  list: readonly ProviderChange[],
  view: DiffView,
): void {
  section(lines, title, list, view, (change) => {
    const at = change.after ?? change.before;
    lines.push(
      `  ${show(changeKeys(change))}  (${changeWords(change)})  ${
        portLine(at, view)
      }`,
    );
    for (const consumer of first(change.consumers, view.limit)) {
      lines.push(
        `    used by ${portLine(consumer, view)}  ${show(consumer.key)}`,
      );
    }
  });
}

function ports(
  lines: string[],
  title: string,
  list: readonly PortRecord[],
  view: DiffView,
): void {
  section(lines, title, list, view, (port) => {
    lines.push(
      `  ${show(port.mechanism)} ${show(port.key)}  ${portLine(port, view)}`,
    );
  });
}

/** The one-line summary every format starts with. */
export function summary(diff: BoundaryDiff): string {
  return `${count(diff.breaking.length, "breaking change")}, ${
    count(diff.lostConsumers.length, "consumer")
  } without provider, ${
    count(diff.newUnmatchedConsumers.length, "new unmatched consumer")
  }, ${
    count(diff.newUnconsumedProviders.length, "new unconsumed provider")
  } (ports: base ${diff.counts.base}, head ${diff.counts.head}, others ${diff.counts.others})`;
}

/** The diff as text. */
export function renderDiffText(diff: BoundaryDiff, view: DiffView): string {
  const lines = [`Boundary diff: ${summary(diff)}`];
  if (view.verdict !== undefined) {
    lines.push(
      view.verdict.passed
        ? "Gate: passed"
        : `Gate: failed (${view.verdict.reasons.map(show).join("; ")})`,
    );
  }
  if (diff.partial.length > 0) {
    lines.push("Partial input:", ...diff.partial.map((r) => `  ${show(r)}`));
  }
  changes(lines, "Breaking provider changes", diff.breaking, view);
  ports(lines, "Consumers that lost their provider", diff.lostConsumers, view);
  ports(lines, "New unmatched consumers", diff.newUnmatchedConsumers, view);
  ports(lines, "New unconsumed providers", diff.newUnconsumedProviders, view);
  changes(lines, "Safe provider changes", diff.safeChanges, view);
  if (view.limit !== undefined) {
    lines.push(
      "",
      `Shortened: the first ${view.limit} entries of each list are shown`,
    );
  }
  return lines.join("\n") + "\n";
}
