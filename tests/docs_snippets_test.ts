// Runs the Deno snippets of the documentation pages (those followed by a
// `<!-- test: deno` comment, see scripts/_doc_snippets.ts), with the hidden
// checks after each. The Node snippets run against the npm packages in
// scripts/smoke_npm.ts.
import { join } from "node:path";
import { DOC_PAGES, docSnippets } from "../scripts/_doc_snippets.ts";

const root = new URL("../", import.meta.url);

for (const snippet of await docSnippets(root, DOC_PAGES, "deno")) {
  Deno.test(`the snippet at ${snippet.where} runs`, async () => {
    // Written inside the project, so deno.json's imports and the package's
    // own name (@portcullis/portcullis) resolve as in user code.
    const file = await Deno.makeTempFile({
      dir: join(root.pathname, "tests"),
      prefix: "_snippet_",
      suffix: ".ts",
    });
    try {
      await Deno.writeTextFile(file, snippet.code);
      await import(`file://${file}`);
    } finally {
      await Deno.remove(file);
    }
  });
}
