import { BracketAwareCsvParser } from "casbin";
import { splitPolicyLine } from "../_policy/build.ts";
import { formatPolicyLine } from "./_policy_rows.ts";
import type { PolicyDatabase } from "./policy_database.ts";
import { messageOf } from "../../_postgres/_sql.ts";

/**
 * What {@linkcode importPolicyCsv} resolves to.
 *
 * @example
 * ```ts ignore
 * const { rules, changed, revision } = await importPolicyCsv(database, text);
 * ```
 */
export interface ImportPolicyCsvResult {
  /** How many rules the file holds. */
  readonly rules: number;
  /**
   * Whether the table changed (`"replace"`: it did not hold exactly these
   * rules; `"add"`: at least one rule was new).
   */
  readonly changed: boolean;
  /** The policy revision after the import. */
  readonly revision: number;
}

/** The rules of a policy file, split as casbin's file adapter does. */
function parsePolicyCsv(text: string): string[][] {
  const parser = new BracketAwareCsvParser();
  const rules: string[][] = [];
  const lines = text.split("\n");
  for (let i = 0; i < lines.length; i++) {
    const line = lines[i]!;
    const trimmed = line.trim();
    if (trimmed === "" || trimmed.startsWith("#")) continue;
    let fields: string[] | null;
    try {
      fields = splitPolicyLine(line, parser);
    } catch (error) {
      throw new SyntaxError(
        `Cannot import policy: line ${i + 1} is not valid CSV (${
          messageOf(error)
        })`,
      );
    }
    if (fields === null || fields.length < 2 || fields[0] === "") {
      throw new SyntaxError(
        `Cannot import policy: line ${
          i + 1
        } needs a policy type and at least one value`,
      );
    }
    rules.push(fields);
  }
  return rules;
}

/**
 * Loads a casbin `policy.csv` into the rule table, in one transaction: by
 * default the table then holds exactly the file's rules (`mode: "add"`
 * adds the missing ones and keeps the others). Lines are split as casbin's
 * file adapter splits them; blank and `#` lines are skipped. Every
 * provider on the table reloads once, when the transaction commits.
 *
 * @param database The policy database.
 * @param text The content of a policy file.
 * @param options `mode`: `"replace"` (default) or `"add"`.
 * @returns How many rules the file held, whether the table changed, and
 * the revision after the import.
 * @throws {SyntaxError} If a line is not valid CSV or has no value.
 * @throws {RangeError} If a rule has more values than the table has
 * columns, or a line break in a value.
 *
 * @example
 * ```ts ignore
 * import { readFile } from "node:fs/promises";
 * await importPolicyCsv(database, await readFile("policy.csv", "utf8"));
 * ```
 */
export async function importPolicyCsv(
  database: PolicyDatabase,
  text: string,
  options: { mode?: "replace" | "add" } = {},
): Promise<ImportPolicyCsvResult> {
  const rules = parsePolicyCsv(text);
  const mode = options.mode ?? "replace";
  if (mode !== "replace" && mode !== "add") {
    throw new RangeError(
      `Cannot import policy: mode must be "replace" or "add", got ${
        String(mode)
      }`,
    );
  }
  const result = mode === "replace"
    ? await database.replaceRules(rules)
    : await database.addRules(rules);
  const changed = typeof result.changed === "boolean"
    ? result.changed
    : result.changed > 0;
  return { rules: rules.length, changed, revision: result.revision };
}

/**
 * Writes the rule table as a casbin `policy.csv`, one line per row in id
 * order, each line such that casbin's file adapter reads back the row's
 * values.
 *
 * @param database The policy database.
 * @returns The policy file's text (empty for an empty table).
 * @throws {RangeError} If a value cannot be written on a policy line (a
 * line break, or brackets and quotes no quoting preserves).
 *
 * @example
 * ```ts ignore
 * import { writeFile } from "node:fs/promises";
 * await writeFile("policy.csv", await exportPolicyCsv(database));
 * ```
 */
export async function exportPolicyCsv(
  database: PolicyDatabase,
): Promise<string> {
  const parser = new BracketAwareCsvParser();
  const lines = (await database.rules()).map((rule, index) => {
    const [ptype, ...values] = rule;
    const line = values.some((value) => /[\r\n]/.test(value))
      ? undefined
      : formatPolicyLine(ptype!, values, parser);
    if (line === undefined) {
      throw new RangeError(
        `Cannot export policy: rule ${
          index + 1
        } has a value a policy line cannot carry (${JSON.stringify(rule)})`,
      );
    }
    return line;
  });
  return lines.map((line) => `${line}\n`).join("");
}
