// The `portcullis` program: `deno task portcullis <command> ...`, or
// `portcullis` from the npm package under Node (the build adds the
// `#!/usr/bin/env node` line). Only node: modules, so the same file runs in
// Deno, Node and Bun.
import { writeFile } from "node:fs/promises";
import process from "node:process";
import { runPortcullis } from "./run_portcullis.ts";

try {
  process.exitCode = await runPortcullis(process.argv.slice(2), {
    stdout: (text) => void process.stdout.write(text),
    stderr: (text) => void process.stderr.write(text),
    writeFile: (path, text) => writeFile(path, text),
  });
} catch (error) {
  process.stderr.write(
    `portcullis: ${error instanceof Error ? error.message : String(error)}\n`,
  );
  process.exitCode = 2;
}
