// The statements of a write transaction on the rule table. Every write
// transaction first locks the revision row, so that writers run one after
// the other and each sees the rules the previous one committed: a
// read-modify-write never loses an update. A write that would change
// nothing runs no data statement, so the revision stays where it was.
import { ruleOfRow } from "./_policy_rows.ts";
import type { PolicySchema } from "./_schema.ts";
import type { SqlSession } from "../../_postgres/_sql.ts";
import { revisionOf } from "./_rule_table_source.ts";

/** A rule as a policy line splits: the policy type, then its values. */
export type RuleFields = readonly string[];

/**
 * Checks rules given to a write: arrays of at least two strings (the
 * policy type and a value), at most one value per `v` column, no line
 * breaks. Returns them with trailing empty values dropped.
 */
export function checkRules(
  rules: readonly RuleFields[],
  columns: number,
): string[][] {
  if (!Array.isArray(rules)) {
    throw new TypeError("Cannot write rules: expected an array of rules");
  }
  return rules.map((rule, index) => {
    if (
      !Array.isArray(rule) || !rule.every((f) => typeof f === "string")
    ) {
      throw new TypeError(
        `Cannot write rules: rule ${index} is not an array of strings`,
      );
    }
    const fields = rule.map((field) => field.trim());
    while (fields.length > 1 && fields.at(-1) === "") fields.pop();
    if (fields.length < 2 || fields[0] === "") {
      throw new RangeError(
        `Cannot write rules: rule ${index} needs a policy type and at least one value`,
      );
    }
    if (fields.length - 1 > columns) {
      throw new RangeError(
        `Cannot write rules: rule ${index} has ${
          fields.length - 1
        } values, the table has ${columns} value columns`,
      );
    }
    if (fields.some((field) => /[\r\n]/.test(field))) {
      throw new RangeError(
        `Cannot write rules: rule ${index} has a line break in a value`,
      );
    }
    return fields;
  });
}

/** The write statements over one table. */
export class RuleWrites {
  readonly #schema: PolicySchema;
  readonly #columns: readonly string[];
  readonly #input: string;
  readonly #matches: string;

  constructor(schema: PolicySchema, columns: readonly string[]) {
    this.#schema = schema;
    this.#columns = columns;
    // The rules of a JSON array parameter, as rows of the table's columns.
    this.#input = `SELECT r->>0 AS ptype, ${
      columns.map((c, i) => `r->>${i + 1} AS ${c}`).join(", ")
    }, n FROM jsonb_array_elements($1::text::jsonb) WITH ORDINALITY AS e(r, n)`;
    this.#matches = [
      "x.ptype = i.ptype",
      ...columns.map((c) => `coalesce(x.${c}, '') = coalesce(i.${c}, '')`),
    ].join(" AND ");
  }

  /** Locks the revision row (until commit); returns the revision. */
  async lock(tx: SqlSession): Promise<number> {
    const [row] = await tx.query(
      `SELECT revision FROM ${this.#schema.revision} FOR UPDATE`,
    );
    return revisionOf(row?.[0]);
  }

  /** The revision as this transaction sees it. */
  async revision(tx: SqlSession): Promise<number> {
    const [row] = await tx.query(
      `SELECT revision FROM ${this.#schema.revision}`,
    );
    return revisionOf(row?.[0]);
  }

  /** Every rule, in id order, trailing empty values dropped. */
  async rules(tx: SqlSession): Promise<string[][]> {
    const rows = await tx.query(
      `SELECT id, ptype, ${
        this.#columns.join(", ")
      } FROM ${this.#schema.rules} ORDER BY id`,
    );
    return rows.map((row) => {
      const rule = ruleOfRow(row);
      return [rule.ptype, ...rule.values];
    });
  }

  /** Inserts the rules not in the table yet; returns how many. */
  async add(tx: SqlSession, rules: string[][]): Promise<number> {
    rules = distinct(rules);
    if (rules.length === 0) return 0;
    const missing = await tx.query(
      `SELECT jsonb_agg(jsonb_build_array(${
        ["ptype", ...this.#columns].map((c) => `i.${c}`).join(", ")
      }) ORDER BY i.n) FROM (${this.#input}) i WHERE NOT EXISTS (SELECT 1 FROM ${this.#schema.rules} x WHERE ${this.#matches})`,
      [JSON.stringify(rules)],
    );
    const rows = missing[0]?.[0];
    if (rows === null || rows === undefined) return 0;
    const list = typeof rows === "string" ? JSON.parse(rows) : rows;
    return await this.#insert(tx, list as unknown[][]);
  }

  /** Deletes the rows of these rules; returns how many. */
  async remove(tx: SqlSession, rules: string[][]): Promise<number> {
    if (rules.length === 0) return 0;
    const params = [JSON.stringify(rules)];
    const [found] = await tx.query(
      `SELECT count(*) FROM ${this.#schema.rules} x WHERE EXISTS (SELECT 1 FROM (${this.#input}) i WHERE ${this.#matches})`,
      params,
    );
    if (Number(found?.[0]) === 0) return 0;
    const [deleted] = await tx.query(
      `WITH gone AS (DELETE FROM ${this.#schema.rules} x USING (${this.#input}) i WHERE ${this.#matches} RETURNING 1) SELECT count(*) FROM gone`,
      params,
    );
    return Number(deleted?.[0]);
  }

  /**
   * Makes the table hold exactly `rules` (in that order), unless it holds
   * the same rules already. Returns whether it changed.
   */
  async replace(tx: SqlSession, rules: string[][]): Promise<boolean> {
    const current = await this.rules(tx);
    if (sameRules(current, rules)) return false;
    await tx.query(`DELETE FROM ${this.#schema.rules}`);
    await this.#insert(tx, rules);
    return true;
  }

  async #insert(tx: SqlSession, rows: readonly unknown[][]): Promise<number> {
    if (rows.length === 0) return 0;
    const columns = ["ptype", ...this.#columns];
    await tx.query(
      `INSERT INTO ${this.#schema.rules} (${columns.join(", ")}) SELECT ${
        columns.map((_, i) => `r->>${i}`).join(", ")
      } FROM jsonb_array_elements($1::text::jsonb) WITH ORDINALITY AS e(r, n) ORDER BY n`,
      [JSON.stringify(rows)],
    );
    return rows.length;
  }
}

/** The rules without repeats, in their first order. */
function distinct(rules: string[][]): string[][] {
  const seen = new Set<string>();
  return rules.filter((rule) => {
    const key = JSON.stringify(rule);
    if (seen.has(key)) return false;
    seen.add(key);
    return true;
  });
}

/** Whether two rule lists hold the same rules (order aside). */
function sameRules(a: string[][], b: string[][]): boolean {
  if (a.length !== b.length) return false;
  const key = (rule: string[]): string => JSON.stringify(rule);
  const counts = new Map<string, number>();
  for (const rule of a) counts.set(key(rule), (counts.get(key(rule)) ?? 0) + 1);
  for (const rule of b) {
    const left = counts.get(key(rule));
    if (left === undefined || left === 0) return false;
    counts.set(key(rule), left - 1);
  }
  return true;
}
