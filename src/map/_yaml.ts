// A small YAML writer for JSON values: block mappings and sequences, every
// string double-quoted with JSON escapes (valid YAML 1.2 and 1.1), so no
// value can start a comment, an anchor, a tag, a document or a new key, and
// control, C1 and bidirectional characters are `\uXXXX`.
import { escapeJsonText } from "../boundary/_display_text.ts";

/** A JSON value as YAML writes it. */
export type YamlValue =
  | string
  | number
  | boolean
  | null
  | readonly YamlValue[]
  | { readonly [key: string]: YamlValue | undefined };

function scalar(value: string | number | boolean | null): string {
  if (typeof value === "string") return escapeJsonText(JSON.stringify(value));
  if (typeof value === "number") {
    if (!Number.isFinite(value)) {
      throw new RangeError("Cannot write YAML: a number must be finite");
    }
    return String(value);
  }
  return String(value);
}

function isCollection(
  value: YamlValue,
): value is readonly YamlValue[] | { readonly [key: string]: YamlValue } {
  return value !== null && typeof value === "object";
}

function isEmpty(value: YamlValue): boolean {
  if (Array.isArray(value)) return value.length === 0;
  return isCollection(value) &&
    Object.values(value).every((v) => v === undefined);
}

function lines(value: YamlValue, indent: string, out: string[]): void {
  if (Array.isArray(value)) {
    for (const item of value as readonly YamlValue[]) {
      if (isCollection(item) && !isEmpty(item)) {
        const nested: string[] = [];
        lines(item, `${indent}  `, nested);
        out.push(`${indent}- ${nested[0]!.slice(indent.length + 2)}`);
        out.push(...nested.slice(1));
      } else out.push(`${indent}- ${inline(item)}`);
    }
    return;
  }
  for (const [key, item] of Object.entries(value as object)) {
    if (item === undefined) continue;
    const name = scalar(key);
    if (isCollection(item) && !isEmpty(item)) {
      out.push(`${indent}${name}:`);
      lines(item, `${indent}  `, out);
    } else out.push(`${indent}${name}: ${inline(item)}`);
  }
}

function inline(value: YamlValue): string {
  if (Array.isArray(value)) return "[]";
  if (isCollection(value)) return "{}";
  return scalar(value as string | number | boolean | null);
}

/**
 * YAML documents, each starting with `---`. Every value must be a JSON
 * value; `undefined` object entries are left out.
 */
export function yamlDocuments(documents: readonly YamlValue[]): string {
  const out: string[] = [];
  for (const document of documents) {
    out.push("---");
    if (isCollection(document) && !isEmpty(document)) {
      lines(document, "", out);
    } else out.push(inline(document));
  }
  return out.join("\n") + "\n";
}
