// Runs the worked example of the README's boundary section, so the
// documentation cannot drift from the code.
import assert from "node:assert/strict";

const README = new URL("../../README.md", import.meta.url);
const ENTRY = new URL("../../src/boundary/mod.ts", import.meta.url).href;

Deno.test("README boundary worked example runs", async () => {
  const text = await Deno.readTextFile(README);
  const start = text.indexOf("<!-- boundary -->");
  assert.ok(start !== -1, "boundary marker");
  const end = text.indexOf("<!-- ", start + 1);
  const section = text.slice(start, end === -1 ? undefined : end);
  const open = section.indexOf("```ts\n");
  assert.ok(open !== -1, "a ts code block");
  const close = section.indexOf("```", open + 6);
  const code = section.slice(open + 6, close).replaceAll(
    '"@portcullis/portcullis/boundary"',
    JSON.stringify(ENTRY),
  );
  const url = "data:application/typescript;base64," +
    btoa(String.fromCharCode(...new TextEncoder().encode(code)));
  await import(url);
});
