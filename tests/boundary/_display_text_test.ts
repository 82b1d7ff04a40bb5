import assert from "node:assert/strict";
import {
  displayText,
  escapeJsonText,
} from "../../src/boundary/_display_text.ts";

Deno.test("displayText() escapes controls, C1, bidi and invisible characters", () => {
  const cases: Array<[string, string]> = [
    ["plain /users/{id} ünïcödé 日本", "plain /users/{id} ünïcödé 日本"],
    ["a\nb\r\tc", "a\\u000ab\\u000d\\u0009c"],
    ["\u001b]0;title\u0007\u001b[2J", "\\u001b]0;title\\u0007\\u001b[2J"],
    ["\u009b31m\u0085", "\\u009b31m\\u0085"],
    [
      "\u202euser\u202c\u2066x\u2069\u200f",
      "\\u202euser\\u202c\\u2066x\\u2069\\u200f",
    ],
    ["a\u2028b\u200bc\ufeff", "a\\u2028b\\u200bc\\ufeff"],
    ["\ud800x\udfff", "\\ud800x\\udfff"],
    ["emoji 😀 kept", "emoji 😀 kept"],
  ];
  for (const [input, expected] of cases) {
    assert.equal(displayText(input), expected);
  }
});

Deno.test("displayText() cuts long text without splitting an escape or a pair", () => {
  assert.equal(displayText("abcdef", 4), "abcd... (2 more characters)");
  assert.equal(displayText("ab\ncd", 4), "ab... (8 more characters)");
  assert.equal(displayText("a😀b", 2), "a... (3 more characters)");
  assert.equal(displayText("abc", 3), "abc");
});

Deno.test("escapeJsonText() keeps the JSON value and escapes what JSON.stringify leaves raw", () => {
  const value = { key: "\u009b2J \u202e \u2028 \u007f ok", "\u2066k": [1] };
  const json = escapeJsonText(JSON.stringify(value, null, 2));
  assert.ok(!/[\u007f-\u009f\u202e\u2028\u2066]/.test(json));
  assert.deepEqual(JSON.parse(json), value);
});
