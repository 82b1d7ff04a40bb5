// Temporal port records: activities keyed by the name the SDK registers,
// servers at definitions and clients at calls from workflows.
import type { ExtractDiagnostic } from "../extractor.ts";
import type { GrammarName } from "../_syntax/parser.ts";
import {
  findAll,
  namedChildren,
  type Node,
  ownerOf,
  positionOf,
  stringValue,
} from "../_syntax/compact_tree.ts";
import { CONFIDENCE } from "../_value/confidence.ts";
import type { ExtractedPort } from "../types.ts";

/** Where the Temporal readers collect ports and diagnostics. */
export interface TemporalOut {
  ports: ExtractedPort[];
  diagnostics: ExtractDiagnostic[];
}

/** One activity port: where, whose, which name and how sure. */
export interface ActivityInit {
  /** Where the port is reported. */
  at: Node;
  /** A node inside the owning code element (default: `at`). */
  owner?: Node;
  filePath: string;
  grammar: GrammarName;
  role: "server" | "client";
  /** The activity type name. */
  name: string;
  confidence: number;
  /** The SDK, e.g. `temporalio`. */
  sdk: string;
  extra?: Record<string, string>;
}

/** Adds an activity port. */
export function emitActivity(out: TemporalOut, init: ActivityInit): void {
  const { line, col } = positionOf(init.at);
  out.ports.push({
    ref: {
      mechanism: "temporal",
      role: init.role,
      key: init.name,
      line,
      col,
      confidence: init.confidence,
      detail: { activity: init.name, framework: init.sdk, ...init.extra },
    },
    owner: ownerOf(init.owner ?? init.at, init.filePath, init.grammar),
    filePath: init.filePath,
  });
}

const DECLARATORS: ReadonlySet<string> = new Set(["variable_declarator"]);

/**
 * A literal string, or a same-file constant holding one (`static final` /
 * `const`, confidence `composed`).
 */
export function declaredString(
  node: Node | undefined,
  root: Node,
): { text: string; confidence: number } | undefined {
  if (!node) return undefined;
  const literal = stringValue(node);
  if (literal !== undefined) return { text: literal, confidence: 1 };
  const name = node.type === "identifier"
    ? node.text
    : node.type === "field_access" || node.type === "member_access_expression"
    ? node.childForFieldName(node.type === "field_access" ? "field" : "name")
      ?.text
    : undefined;
  if (!name) return undefined;
  for (const declarator of findAll(root, DECLARATORS)) {
    if (declarator.childForFieldName("name")?.text !== name) continue;
    const value = declarator.childForFieldName("value") ??
      namedChildren(declarator).find((n) => n.type !== "identifier");
    const text = value ? stringValue(value) : undefined;
    if (text !== undefined) return { text, confidence: CONFIDENCE.composed };
  }
  return undefined;
}

/** Last segment of a (qualified, generic) type name: `a.b.C<T>` → `C`. */
export function simpleType(text: string): string {
  const bare = text.replace(/<[\s\S]*$/, "").replace(/\?$/, "").trim();
  return bare.slice(bare.lastIndexOf(".") + 1);
}

/** Adds an activity port of one file (see {@linkcode activities}). */
export type EmitActivity = (
  at: Node,
  role: "server" | "client",
  name: string,
  confidence?: number,
  more?: { owner?: Node; extra?: Record<string, string> },
) => void;

/** The {@linkcode EmitActivity} of one file read with one SDK. */
export function activities(
  out: TemporalOut,
  filePath: string,
  grammar: GrammarName,
  sdk: string,
): EmitActivity {
  return (at, role, name, confidence = 1, more = {}) =>
    emitActivity(out, {
      at,
      filePath,
      grammar,
      role,
      name,
      confidence,
      sdk,
      ...more,
    });
}
