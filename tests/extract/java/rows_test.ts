import assert from "node:assert/strict";
import { rowsOf } from "../../../src/extract/java/rows.ts";

Deno.test("rowsOf gives the row of each offset", () => {
  const text = "a\nbc\n\nd";
  const rowOf = rowsOf(text);
  assert.deepEqual(
    [0, 1, 2, 3, 4, 5, 6, 7].map(rowOf),
    [0, 0, 1, 1, 1, 2, 3, 3],
  );
});
