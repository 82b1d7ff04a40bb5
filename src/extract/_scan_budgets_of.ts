// The budgets of one scan: each option, or its default; checked.
import type { ScanOptions } from "./scan_options.ts";
import { SCAN_BUDGET_DEFAULTS, type ScanBudget } from "./scan_budgets.ts";

/** Each budget of the options, or its default; checked. */
export function budgetsOf(options: ScanOptions): Record<ScanBudget, number> {
  const budgets = { ...SCAN_BUDGET_DEFAULTS };
  for (const name of Object.keys(budgets) as ScanBudget[]) {
    const value = options[name] ?? budgets[name];
    if (!Number.isSafeInteger(value) || value < 1) {
      throw new RangeError(
        `Cannot scan: ${name} must be an integer from 1, got ${String(value)}`,
      );
    }
    budgets[name] = value;
  }
  return budgets;
}
