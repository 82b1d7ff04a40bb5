// Single-file components (Vue `.vue`, Svelte `.svelte`): their code is in
// `<script>` blocks. The rest of the file is blanked out (newlines kept),
// so the script parses as a module and every port keeps its line and
// column in the component file.

/** Whether a path is a single-file component. */
export function isComponent(path: string): boolean {
  return /\.(?:vue|svelte)$/.test(path);
}

/** The text of a component with everything outside `<script>` blanked. */
export function componentScript(text: string): string {
  const out: string[] = [];
  let at = 0;
  const open = /<script\b[^>]*>/gi;
  let match: RegExpExecArray | null;
  while ((match = open.exec(text)) !== null) {
    const start = match.index + match[0].length;
    const close = text.toLowerCase().indexOf("</script", start);
    const end = close === -1 ? text.length : close;
    out.push(blank(text.slice(at, start)), text.slice(start, end));
    at = end;
    open.lastIndex = end;
  }
  out.push(blank(text.slice(at)));
  return out.join("");
}

function blank(text: string): string {
  return text.replace(/[^\n]/g, " ");
}
