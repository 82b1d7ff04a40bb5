// Turns rows of a casbin rule table into the policy text the enforcer
// loader takes, checking each row as the file provider checks a line: a
// policy type of the model, exactly its number of values, an effect of
// "allow" or "deny", and values that a policy line can carry unchanged.
import { BracketAwareCsvParser, type Model } from "casbin";
import {
  effectFieldIndexes,
  expectedFieldCounts,
  splitPolicyLine,
} from "../_policy/build.ts";
import { EnforcerLoadError } from "../_policy/error.ts";
import type { RuleTableSnapshot } from "./_rule_table_source.ts";

/** One rule as stored: its policy type and values (v0, v1, ...). */
export interface PolicyRule {
  readonly ptype: string;
  readonly values: readonly string[];
}

// Characters that make casbin's line splitter leave its fast path.
const SPECIAL = /[,"()]/;
const LINE_BREAK = /[\r\n]/;

function present(value: unknown): boolean {
  return value !== null && value !== undefined && value !== "";
}

/** Renders and checks rows against one model. */
export class PolicyRowRenderer {
  readonly #counts: Map<string, number>;
  readonly #effects: Map<string, number>;
  readonly #where: string;
  readonly #parser = new BracketAwareCsvParser();
  #parts: string[] = [];
  #ids: number[] = [];

  /**
   * @param model The model the rules must fit.
   * @param where The table, for error messages.
   */
  constructor(model: Model, where: string) {
    this.#counts = expectedFieldCounts(model);
    this.#effects = effectFieldIndexes(model);
    this.#where = where;
  }

  /** The policy types the model defines. */
  get types(): ReadonlyMap<string, number> {
    return this.#counts;
  }

  /**
   * Checks and appends rows of `[id, ptype, v0, v1, ...]`. Throws
   * {@linkcode EnforcerLoadError} (`POLICY_INVALID`) naming the row id.
   */
  add(rows: readonly (readonly unknown[])[]): void {
    const lines: string[] = [];
    for (const row of rows) {
      const id = Number(row[0]);
      lines.push(this.#line(id, row));
      this.#ids.push(id);
    }
    if (lines.length > 0) this.#parts.push(lines.join("\n") + "\n");
  }

  /**
   * The text of every row added (one line per row) and the row id of each
   * line, and resets the renderer.
   */
  finish(): Pick<RuleTableSnapshot, "bytes" | "ids"> {
    const bytes = new TextEncoder().encode(this.#parts.join(""));
    const ids = this.#ids;
    this.#parts = [];
    this.#ids = [];
    return { bytes, ids };
  }

  #refuse(id: number, detail: string): EnforcerLoadError {
    return new EnforcerLoadError(
      "POLICY_INVALID",
      `Cannot load policy from table "${this.#where}": row id ${id} ${detail}`,
      { path: this.#where, line: id },
    );
  }

  #line(id: number, row: readonly unknown[]): string {
    const ptype = typeof row[1] === "string" ? row[1].trim() : "";
    const expected = this.#counts.get(ptype);
    if (expected === undefined) {
      throw this.#refuse(
        id,
        `has unknown policy type "${row[1] ?? ""}" (the model defines ${
          [...this.#counts.keys()].join(", ")
        })`,
      );
    }
    let given = 0;
    for (let i = 2; i < row.length; i++) if (present(row[i])) given = i - 1;
    if (given > expected) {
      throw this.#refuse(
        id,
        `has ${given} values after "${ptype}", expected ${expected}`,
      );
    }
    const values: string[] = [];
    for (let i = 0; i < expected; i++) {
      const raw = row[i + 2];
      if (raw === null || raw === undefined) {
        throw this.#refuse(
          id,
          given > i
            ? `has no value in v${i} (a NULL before v${given - 1})`
            : `has ${given} values after "${ptype}", expected ${expected}`,
        );
      }
      const value = String(raw);
      if (LINE_BREAK.test(value)) {
        throw this.#refuse(id, `has a line break in v${i}`);
      }
      values.push(value);
    }
    const eft = this.#effects.get(ptype);
    if (eft !== undefined) {
      const effect = values[eft]!.trim();
      if (effect !== "allow" && effect !== "deny") {
        throw this.#refuse(
          id,
          `has effect "${effect}", expected "allow" or "deny"`,
        );
      }
    }
    const line = formatPolicyLine(ptype, values, this.#parser);
    if (line === undefined) {
      throw this.#refuse(
        id,
        "has a value that a policy line cannot carry unchanged (unbalanced brackets or quotes)",
      );
    }
    return line;
  }
}

/**
 * The policy line of a rule, such that casbin's line splitter gives back
 * the values (trimmed, as it trims them): plain when that round-trips (no
 * value holds a comma or quote; brackets are fine), otherwise with the
 * values holding a comma, quote or bracket quoted. Undefined when neither
 * form does.
 */
export function formatPolicyLine(
  ptype: string,
  values: readonly string[],
  parser: BracketAwareCsvParser,
): string | undefined {
  const plain = `${ptype}, ${values.join(", ")}`;
  if (!values.some((value) => SPECIAL.test(value))) return plain;
  if (roundTrips(plain, ptype, values, parser)) return plain;
  const quoted = `${ptype}, ${
    values.map((value) =>
      SPECIAL.test(value) ? `"${value.replaceAll('"', '""')}"` : value
    ).join(", ")
  }`;
  return roundTrips(quoted, ptype, values, parser) ? quoted : undefined;
}

function roundTrips(
  line: string,
  ptype: string,
  values: readonly string[],
  parser: BracketAwareCsvParser,
): boolean {
  let fields: string[] | null;
  try {
    fields = splitPolicyLine(line, parser);
  } catch {
    return false;
  }
  return fields !== null && fields.length === values.length + 1 &&
    fields[0] === ptype && values.every((v, i) => fields![i + 1] === v.trim());
}
/**
 * The rule of a row as an adapter stores it: values up to the last
 * non-empty one (for export and comparison).
 */
export function ruleOfRow(row: readonly unknown[]): PolicyRule {
  const values = row.slice(2).map((v) =>
    v === null || v === undefined ? "" : String(v)
  );
  while (values.length > 0 && values.at(-1) === "") values.pop();
  return { ptype: String(row[1] ?? ""), values };
}
