// The `portcullis-scan` command (`scan`, the default, `diff`, `export`,
// `publish` and `query`): `deno task scan <dir...>`, or `portcullis-scan` from the npm package under
// Node (the build adds the `#!/usr/bin/env node` line). Only node: modules,
// so the same file runs in Deno, Node and Bun.
import process from "node:process";
import { displayText } from "../boundary/_display_text.ts";
import { runCli } from "./run_cli.ts";

try {
  process.exitCode = await runCli(process.argv.slice(2));
} catch (error) {
  process.stderr.write(
    `Cannot scan: ${
      displayText(error instanceof Error ? error.message : String(error), 2000)
    }\n`,
  );
  process.exitCode = 2;
}
