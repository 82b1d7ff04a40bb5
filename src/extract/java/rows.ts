// The row (0-based line) of an offset in a configuration file's text, by a
// binary search over its line starts: configuration readers report many
// ports in one large file without rescanning it for each.

/** A function giving the 0-based row of an offset in `text`. */
export function rowsOf(text: string): (offset: number) => number {
  const starts: number[] = [0];
  for (let i = text.indexOf("\n"); i !== -1; i = text.indexOf("\n", i + 1)) {
    starts.push(i + 1);
  }
  return (offset) => {
    let lo = 0;
    let hi = starts.length - 1;
    while (lo < hi) {
      const mid = (lo + hi + 1) >> 1;
      if (starts[mid]! <= offset) lo = mid;
      else hi = mid - 1;
    }
    return lo;
  };
}
