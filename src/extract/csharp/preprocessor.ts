// C# conditional compilation: `#if X ... #elif Y ... #else ... #endif`.
// The grammar nests what a directive guards in its own nodes (a class's
// methods inside `#if` are no longer members of the class body), so the
// source is read as one build would compile it: the first branch of every
// `#if`, the others blanked, the directive lines too. Lines keep their
// numbers and columns.

/** Directives nested deeper than this are not tracked (a bound on hostile input). */
const MAX_DEPTH = 64;

/** The source with `#if` directives resolved to their first branch. */
export function firstBranches(text: string): string {
  if (!/^[ \t]*#[ \t]*if\b/m.test(text)) return text;
  const lines = text.split("\n");
  // per open `#if`: whether the branch being read is kept
  const keeping: boolean[] = [];
  // how many of them read a branch that is not kept
  let skipping = 0;
  let depth = 0;
  for (let i = 0; i < lines.length; i++) {
    const line = lines[i]!;
    const directive = /^[ \t]*#[ \t]*(if|elif|else|endif)\b/.exec(line)?.[1];
    const active = skipping === 0;
    if (directive === "if") {
      depth++;
      if (depth <= MAX_DEPTH) keeping.push(true);
      lines[i] = blank(line);
    } else if (directive === "elif" || directive === "else") {
      if (depth > 0 && depth <= MAX_DEPTH && keeping.at(-1)) {
        keeping[keeping.length - 1] = false;
        skipping++;
      }
      lines[i] = blank(line);
    } else if (directive === "endif") {
      if (depth > 0 && depth <= MAX_DEPTH && keeping.pop() === false) {
        skipping--;
      }
      if (depth > 0) depth--;
      lines[i] = blank(line);
    } else if (!active) {
      lines[i] = blank(line);
    }
  }
  return lines.join("\n");
}

/** A line of spaces as long as `line` (a `\r` kept). */
function blank(line: string): string {
  return line.endsWith("\r")
    ? " ".repeat(line.length - 1) + "\r"
    : " ".repeat(line.length);
}
