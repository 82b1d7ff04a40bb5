// The `policy-db` command: `deno task policy:db import policy.csv`, or
// `portcullis-policy-db` from the npm package under Node (the build adds
// the `#!/usr/bin/env node` line). Only node: modules, so the same file
// runs in Deno, Node and Bun.
import process from "node:process";
import { runPolicyCli } from "./_policy_cli.ts";

process.exitCode = await runPolicyCli(process.argv.slice(2), {
  stdout: (text) => void process.stdout.write(text),
  stderr: (text) => void process.stderr.write(text),
  env: process.env,
});
