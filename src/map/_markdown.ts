// Text from a scanned repository in GitHub-flavoured Markdown (a pull
// request comment) is always put in a code span: no HTML, link, autolink,
// image, mention or emphasis can come out of a route, a file or an owner.
import { displayText } from "../boundary/_display_text.ts";

/** Longest value shown in one field; the rest is counted. */
const FIELD_LENGTH = 300;

/**
 * A code span holding `value`: control, bidirectional and invisible
 * characters as `\uXXXX` (so no newline ends the span), fenced by more
 * backticks than the value holds in a row, padded when it starts or ends
 * with one.
 */
export function code(value: string): string {
  const shown = displayText(value, FIELD_LENGTH);
  let longest = 0;
  let run = 0;
  for (const char of shown) {
    run = char === "`" ? run + 1 : 0;
    if (run > longest) longest = run;
  }
  const fence = "`".repeat(longest + 1);
  const pad = shown.startsWith("`") || shown.endsWith("`") ||
      shown.trim() === ""
    ? " "
    : "";
  return `${fence}${pad}${shown}${pad}${fence}`;
}
