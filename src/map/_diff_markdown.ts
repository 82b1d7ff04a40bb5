// The diff as GitHub-flavoured Markdown, for a pull request comment: a
// verdict, a count table, then each list. Everything from a graph is in a
// code span (see _markdown.ts).
import type { BoundaryDiff, ProviderChange } from "../boundary/diff.ts";
import type { PortRecord } from "../boundary/port_records.ts";
import { code } from "./_markdown.ts";
import {
  changeKeys,
  changeWords,
  first,
  ownerName,
  place,
} from "./_diff_parts.ts";
import type { DiffView } from "./_diff_text.ts";

function port(p: PortRecord, view: DiffView): string {
  return `${code(p.graph)} ${code(place(p, view.roots))} (${
    code(ownerName(p))
  })`;
}

/**
 * Writes the items of `list` up to the view's limit, each with `write`,
 * then a bullet that counts the items left out.
 */
function limited<T>(
  lines: string[],
  list: readonly T[],
  view: DiffView,
  write: (item: T) => void,
  indent = "",
): void {
  const shown = first(list, view.limit);
  for (const item of shown) write(item);
  if (shown.length < list.length) {
    lines.push(`${indent}- ... and ${list.length - shown.length} more`);
  }
}

function changeList(
  lines: string[],
  list: readonly ProviderChange[],
  view: DiffView,
): void {
  limited(lines, list, view, (change) => {
    const at = change.after ?? change.before;
    lines.push(
      `- **${changeWords(change)}**: ${code(changeKeys(change))} at ${
        port(at, view)
      }${change.consumers.length > 0 ? ", used by:" : ""}`,
    );
    limited(lines, change.consumers, view, (consumer) => {
      lines.push(`  - ${port(consumer, view)} ${code(consumer.key)}`);
    }, "  ");
  });
}

function portList(
  lines: string[],
  list: readonly PortRecord[],
  view: DiffView,
): void {
  limited(lines, list, view, (p) => {
    lines.push(`- ${code(`${p.mechanism} ${p.key}`)} at ${port(p, view)}`);
  });
}

/** The diff as Markdown. */
export function renderDiffMarkdown(
  diff: BoundaryDiff,
  view: DiffView,
): string {
  const verdict = view.verdict;
  const lines: string[] = [];
  if (verdict === undefined) lines.push("### Boundary diff");
  else if (verdict.passed) {
    lines.push("### :white_check_mark: Boundary gate passed");
  } else {
    lines.push(
      `### :x: Boundary gate failed: ${
        verdict.reasons.map((reason) => code(reason)).join(", ")
      }`,
    );
  }
  lines.push(
    "",
    "| finding | count |",
    "| --- | ---: |",
    `| breaking provider changes | ${diff.breaking.length} |`,
    `| consumers that lost their provider | ${diff.lostConsumers.length} |`,
    `| new unmatched consumers | ${diff.newUnmatchedConsumers.length} |`,
    `| new unconsumed providers | ${diff.newUnconsumedProviders.length} |`,
    `| safe provider changes | ${diff.safeChanges.length} |`,
    "",
    `Ports compared: base ${diff.counts.base}, head ${diff.counts.head}, other repositories ${diff.counts.others}.`,
  );
  if (diff.partial.length > 0) {
    lines.push("", "**Partial input**, the gate cannot vouch for it:");
    for (const reason of diff.partial) lines.push(`- ${code(reason)}`);
  }
  const sections: [string, () => void][] = [
    ["Breaking provider changes", () => changeList(lines, diff.breaking, view)],
    [
      "Consumers that lost their provider",
      () => portList(lines, diff.lostConsumers, view),
    ],
    [
      "New unmatched consumers",
      () => portList(lines, diff.newUnmatchedConsumers, view),
    ],
    [
      "New unconsumed providers",
      () => portList(lines, diff.newUnconsumedProviders, view),
    ],
  ];
  const sizes = [
    diff.breaking.length,
    diff.lostConsumers.length,
    diff.newUnmatchedConsumers.length,
    diff.newUnconsumedProviders.length,
  ];
  sections.forEach(([title, write], i) => {
    if (sizes[i] === 0) return;
    lines.push("", `#### ${title}`, "");
    write();
  });
  if (diff.safeChanges.length > 0) {
    lines.push(
      "",
      `<details><summary>Safe provider changes (${diff.safeChanges.length})</summary>`,
      "",
    );
    changeList(lines, diff.safeChanges, view);
    lines.push("", "</details>");
  }
  if (view.limit !== undefined) {
    lines.push(
      "",
      `_Shortened: the first ${view.limit} entries of each list are shown._`,
    );
  }
  return lines.join("\n") + "\n";
}
