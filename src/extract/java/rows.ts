// The row (0-based line) of an offset in a configuration file's text, by
// the line counter of the YAML reader (a binary search over the line
// starts): configuration readers report many ports in one large file
// without rescanning it for each.
import { LineCounter } from "yaml";

/** A function giving the 0-based row of an offset in `text`. */
export function rowsOf(text: string): (offset: number) => number {
  const lines = new LineCounter();
  lines.addNewLine(0);
  for (let i = text.indexOf("\n"); i !== -1; i = text.indexOf("\n", i + 1)) {
    lines.addNewLine(i + 1);
  }
  return (offset) => lines.linePos(offset).line - 1;
}
