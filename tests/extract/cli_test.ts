import assert from "node:assert/strict";
import { fileURLToPath } from "node:url";
import { existsSync } from "node:fs";
import { fixturePath } from "./_fixtures.ts";
import { runs } from "./_commands.ts";

const WEB = fixturePath("polyglot/web");
const API = fixturePath("polyglot/users-api");
const CLI = fileURLToPath(new URL("../../src/extract/cli.ts", import.meta.url));

async function run(
  args: string[],
): Promise<{ code: number; stdout: string; stderr: string }> {
  const output = await new Deno.Command(Deno.execPath(), {
    args: ["run", "--allow-read", "--allow-env", CLI, ...args],
    stdout: "piped",
    stderr: "piped",
  }).output();
  const decoder = new TextDecoder();
  return {
    code: output.code,
    stdout: decoder.decode(output.stdout),
    stderr: decoder.decode(output.stderr),
  };
}

Deno.test("the scan command sets exit code 1 for unmatched consumers with --fail-on-unmatched", async () => {
  const result = await run(["--fail-on-unmatched", WEB]);
  assert.equal(result.code, 1);
  assert.match(result.stdout, /Unmatched consumers \(3\)/);
  assert.match(result.stderr, /3 unmatched consumer\(s\)/);
});

Deno.test("the scan command exits 0 with the links on stdout", async () => {
  const result = await run(["--format", "json", WEB, API]);
  assert.equal(result.code, 0);
  assert.equal(JSON.parse(result.stdout).links.length, 3);
});

Deno.test("the scan command exits 2 with one clear line for a missing root", async () => {
  const result = await run(["/no/such/portcullis/root"]);
  assert.equal(result.code, 2);
  assert.equal(
    result.stderr,
    'Cannot scan "/no/such/portcullis/root": no such directory\n',
  );
  assert.equal(result.stdout, "");
});

Deno.test("the scan command writes --out to the file system", async () => {
  const dir = await Deno.makeTempDir({ prefix: "portcullis-cli-" });
  try {
    const output = await new Deno.Command(Deno.execPath(), {
      args: [
        "run",
        "--allow-read",
        "--allow-write",
        "--allow-env",
        CLI,
        "--out",
        `${dir}/graph.json`,
        "--format",
        "dot",
        WEB,
        API,
      ],
      stdout: "piped",
      stderr: "piped",
    }).output();
    assert.equal(output.code, 0);
    const document = JSON.parse(await Deno.readTextFile(`${dir}/graph.json`));
    assert.equal(document.schema_version, 1);
    assert.equal(
      document.relations.filter((r: { kind: string }) =>
        r.kind === "communicates_with"
      ).length,
      3,
    );
    assert.match(
      new TextDecoder().decode(output.stdout),
      /^digraph boundaries/,
    );
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});

const DEV = fileURLToPath(new URL("../../scripts/dev.sh", import.meta.url));
const TOOLS = fileURLToPath(
  new URL("../../.tools/node_modules/.bin/deno", import.meta.url),
);

Deno.test({
  name: "scripts/dev.sh scan resolves a relative root from where it was run",
  // dev.sh installs its tools on first use: only where they are
  ignore: !existsSync(TOOLS),
  async fn(): Promise<void> {
    const dir = await Deno.makeTempDir({ prefix: "portcullis-dev-" });
    try {
      await Deno.mkdir(`${dir}/app`);
      await Deno.writeTextFile(
        `${dir}/app/server.ts`,
        'import express from "express";\nconst app = express();\napp.get("/here", (q, s) => s.end());\n',
      );
      const output = await new Deno.Command("bash", {
        args: [DEV, "scan", "--format", "json", "./app"],
        cwd: dir,
        stdout: "piped",
        stderr: "piped",
      }).output();
      const stderr = new TextDecoder().decode(output.stderr);
      assert.equal(output.code, 0, stderr);
      assert.deepEqual(
        JSON.parse(new TextDecoder().decode(output.stdout))
          .unconsumedProviders.map((p: { key: string }) => p.key),
        ["GET /here"],
      );
    } finally {
      await Deno.remove(dir, { recursive: true });
    }
  },
});

/** Whether `script` (util-linux) can give a command a terminal here. */
const SCRIPT = await runs("script", ["--version"]);

Deno.test({
  name:
    "the progress bar shows the walk and counts files on a terminal, and stays off when stdout is not one",
  ignore: !SCRIPT,
  async fn(): Promise<void> {
    const dir = await Deno.makeTempDir({ prefix: "portcullis-tty-" });
    try {
      const scan =
        `"${Deno.execPath()}" run --allow-read --allow-env "${CLI}" "${WEB}"`;
      const onTerminal = async (command: string): Promise<string> => {
        const output = await new Deno.Command("script", {
          args: ["-qec", command, "/dev/null"],
          stdout: "piped",
          stderr: "piped",
        }).output();
        assert.equal(output.code, 0);
        return new TextDecoder().decode(output.stdout);
      };
      const both = await onTerminal(scan);
      // the bar redraws its line: carriage return, then erase the line
      const redraw = "\r\u001b[2K[";
      assert.match(
        both.split(redraw).join("<bar>"),
        /<bar>\.+\] walk web \d+ files found/,
      );
      assert.match(
        both.split(redraw).join("<bar>"),
        /<bar>#+\] extract web (\d+)\/\1 files/,
      );
      const piped = await onTerminal(`${scan} > "${dir}/report.txt"`);
      assert.ok(!piped.includes("\u001b[2K"), piped);
      assert.match(piped, /Scanned \d+ files in 1 root/);
      assert.match(await Deno.readTextFile(`${dir}/report.txt`), /^\d+ ports/);
    } finally {
      await Deno.remove(dir, { recursive: true });
    }
  },
});
