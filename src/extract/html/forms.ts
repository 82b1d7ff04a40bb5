// HTML forms: a `<form method action>` submits a request to its action,
// and a submit button's `formaction` (with `formmethod`) to its own. Each
// is a client port. Template expressions in an action (`{{ id }}`,
// `<%= id %>`, `${id}`) are holes; an action that starts with one, is
// relative to the page, or is missing (the page's own address) tells no
// path and gives no port.
import {
  clientPath,
  concat,
  hole,
  literal,
  type Value,
} from "../_value/mod.ts";
import { httpPort } from "../_port/http.ts";
import { moduleOwner } from "../_syntax/owner.ts";
import type { ExtractedPort } from "../types.ts";

/** Template expressions of the common template languages. */
const TEMPLATE =
  /\{\{[\s\S]*?\}\}|\{%[\s\S]*?%\}|<%[\s\S]*?%>|\$\{[^}]*\}|@\{[^}]*\}/g;

const ATTRIBUTE = /([A-Za-z_:@][\w:.-]*)\s*(?:=\s*("[^"]*"|'[^']*'|[^\s>]+))?/g;

/** A tag's attributes, names in lower case, values unquoted. */
function attributes(tag: string): Map<string, string> {
  const out = new Map<string, string>();
  const body = tag.replace(/^<\w+/, "").replace(/\/?>$/, "");
  for (const match of body.matchAll(ATTRIBUTE)) {
    const raw = match[2] ?? "";
    const value = /^["']/.test(raw) ? raw.slice(1, -1) : raw;
    out.set(match[1]!.toLowerCase(), value);
  }
  return out;
}

/** The value of an action: literal text and template holes. */
function actionValue(action: string): Value {
  const parts: Value[] = [];
  let at = 0;
  for (const match of action.matchAll(TEMPLATE)) {
    parts.push(literal(action.slice(at, match.index)), hole(match[0]));
    at = match.index! + match[0].length;
  }
  parts.push(literal(action.slice(at)));
  return concat(parts);
}

/** The method of a form (`GET` unless `post`, `put`...); undefined for `dialog`. */
function methodOf(value: string | undefined): string | undefined {
  const method = (value ?? "get").trim().toUpperCase();
  if (method === "" || new RegExp(TEMPLATE.source).test(method)) return "GET";
  return /^(GET|POST|PUT|PATCH|DELETE)$/.test(method) ? method : undefined;
}

/** Line and column (0-based) of an offset. */
function position(
  text: string,
  offset: number,
): { row: number; column: number } {
  let row = 0;
  let lineStart = 0;
  for (
    let i = text.indexOf("\n");
    i !== -1 && i < offset;
    i = text.indexOf("\n", i + 1)
  ) {
    row++;
    lineStart = i + 1;
  }
  return { row, column: offset - lineStart };
}

/** The client ports of the forms of one template file. */
export function formPorts(path: string, text: string): ExtractedPort[] {
  const out: ExtractedPort[] = [];
  const owner = moduleOwner(path);
  const add = (
    method: string | undefined,
    action: string | undefined,
    offset: number,
  ): void => {
    if (method === undefined || action === undefined || action.trim() === "") {
      return;
    }
    const url = actionValue(action.trim());
    const lead = url.parts[0];
    // relative to the page, or from a template expression: no path to tell
    if (
      typeof lead !== "string" || !/^(?:\/|[a-z][a-z0-9+.-]*:\/\/)/i.test(lead)
    ) return;
    const result = clientPath(url);
    if (!result) return;
    const port = httpPort({
      role: "client",
      method,
      path: result.path,
      node: { startPosition: position(text, offset) },
      owner,
      filePath: path,
      confidence: result.confidence,
      framework: "html-form",
    });
    if (port) out.push(port);
  };
  const forms = /<form\b[^>]*>/gi;
  let match: RegExpExecArray | null;
  while ((match = forms.exec(text)) !== null) {
    const form = attributes(match[0]);
    const method = methodOf(form.get("method"));
    add(method, form.get("action"), match.index);
    const close = text.toLowerCase().indexOf("</form", forms.lastIndex);
    const end = close === -1 ? text.length : close;
    const body = text.slice(forms.lastIndex, end);
    for (
      const button of body.matchAll(
        /<(?:button|input)\b[^>]*\bformaction\b[^>]*>/gi,
      )
    ) {
      const attrs = attributes(button[0]);
      const own = attrs.has("formmethod")
        ? methodOf(attrs.get("formmethod"))
        : method;
      add(own, attrs.get("formaction"), forms.lastIndex + button.index!);
    }
  }
  return out;
}
