import assert from "node:assert/strict";
import { mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import type { CliIo, Command } from "../../src/cli/command.ts";
import { COMMANDS, runPortcullis } from "../../src/cli/run_portcullis.ts";
import { runCommand } from "../fixtures/run_command.ts";

const EXAMPLES = fileURLToPath(new URL("../../examples/", import.meta.url));
const CASES = join(EXAMPLES, "policy_tests.yaml");

interface Captured extends CliIo {
  out: string;
  err: string;
  files: Map<string, string>;
}

function captured(): Captured {
  const io: Captured = {
    out: "",
    err: "",
    files: new Map(),
    stdout: (text) => void (io.out += text),
    stderr: (text) => void (io.err += text),
    writeFile: (path, text) => {
      io.files.set(path, text);
      return Promise.resolve();
    },
  };
  return io;
}

async function run(...args: string[]): Promise<Captured & { code: number }> {
  const io = captured();
  const code = await runPortcullis(args, io);
  return Object.assign(io, { code });
}

Deno.test("portcullis --help lists every command; no command is a usage error", async () => {
  const help = await run("--help");
  assert.equal(help.code, 0);
  for (const command of COMMANDS) {
    assert.ok(
      help.out.includes(
        `  ${
          command.words.join(" ")
        } ${command.synopsis}\n      ${command.summary}\n`,
      ),
    );
  }
  const none = await run();
  assert.equal(none.code, 2);
  assert.match(none.err, /^Usage: portcullis <command>/);
  const unknown = await run("policy", "lint");
  assert.equal(unknown.code, 2);
  assert.match(unknown.err, /unknown command "policy lint"/);
});

Deno.test("runPortcullis() takes one more command as one more table entry", async () => {
  const lint: Command = {
    words: ["policy", "lint"],
    synopsis: "<p.csv>",
    summary: "lint a policy",
    usage: "Usage: portcullis policy lint <p.csv>\n",
    run: (args, io) => {
      io.stdout(`linted ${args.join(" ")}\n`);
      return Promise.resolve(0);
    },
  };
  const io = captured();
  assert.equal(
    await runPortcullis(["policy", "lint", "p.csv"], io, [...COMMANDS, lint]),
    0,
  );
  assert.equal(io.out, "linted p.csv\n");
  const help = captured();
  await runPortcullis(["--help"], help, [...COMMANDS, lint]);
  assert.match(help.out, /policy lint <p\.csv>\n {6}lint a policy/);
});

Deno.test("portcullis policy test passes, writes JUnit, and enforces --min-coverage", async () => {
  const passed = await run(
    "policy",
    "test",
    CASES,
    "--junit",
    "out.xml",
    "--verbose",
  );
  assert.equal(passed.code, 0, passed.err);
  assert.match(passed.out, /^ {2}ok {4}viewers read posts$/m);
  assert.match(passed.out, /^5 passed, 0 failed/m);
  assert.match(
    passed.files.get("out.xml")!,
    /tests="5" failures="0" errors="0"/,
  );

  const covered = await run("policy", "test", CASES, "--coverage");
  assert.match(
    covered.out,
    /never decided anything:\n {4}line 1: p, admin, post, read\n/,
  );

  const low = await run("policy", "test", CASES, "--min-coverage", "60.5");
  assert.equal(low.code, 1);
  assert.match(low.err, /coverage 60\.0% is below --min-coverage 60\.5%/);
  assert.equal(
    (await run("policy", "test", CASES, "--min-coverage", "60")).code,
    0,
  );

  const json = await run("policy", "test", CASES, "--json");
  assert.equal(JSON.parse(json.out).passed, 5);
});

Deno.test("portcullis policy test exits 1 on a failed case and 2 on bad input", async () => {
  const dir = await mkdtemp(join(tmpdir(), "portcullis-cli-"));
  try {
    const cases = join(dir, "cases.yaml");
    await writeFile(
      cases,
      `model: ${join(EXAMPLES, "model.conf")}
policy: ${join(EXAMPLES, "policy.csv")}
cases:
  - { name: viewers write, subject: viewer, args: [post, write], expect: allow }
`,
    );
    const failed = await run("policy", "test", cases);
    assert.equal(failed.code, 1);
    assert.match(
      failed.out,
      /FAIL {2}viewers write \(line 4\): expected allow, got deny\n/,
    );
    assert.match(
      failed.out,
      /p, editor, post, write: subject role viewer is not editor/,
    );

    await writeFile(
      cases,
      "model: m.conf\npolicy: p.csv\ncases:\n  - { subject: a, expect: maybe }\n",
    );
    const invalid = await run("policy", "test", cases);
    assert.equal(invalid.code, 2);
    assert.match(
      invalid.err,
      /^portcullis: Cannot read policy tests ".*cases\.yaml": case 1 \(line 4\): "expect" must be "allow" or "deny", got "maybe"\n$/,
    );

    const missingFiles = await run("policy", "test", join(dir, "nope.yaml"));
    assert.equal(missingFiles.code, 2);
    assert.match(missingFiles.err, /Cannot read policy tests/);

    await writeFile(
      cases,
      "model: m.conf\npolicy: p.csv\ncases:\n  - { subject: a, expect: deny }\n",
    );
    const noModel = await run("policy", "test", cases);
    assert.equal(noModel.code, 2);
    assert.match(noModel.err, /^portcullis: Cannot load model/);

    for (
      const args of [
        ["policy", "test"],
        ["policy", "test", cases, "--min-coverage", "abc"],
        ["policy", "test", cases, "--nope"],
      ]
    ) {
      const bad = await run(...args);
      assert.equal(bad.code, 2, args.join(" "));
      assert.match(bad.err, /Usage: portcullis policy test/);
    }
  } finally {
    await rm(dir, { recursive: true });
  }
});

Deno.test("portcullis policy explain prints why, as text or JSON", async () => {
  const files = [
    "--model",
    join(EXAMPLES, "model.conf"),
    "--policy",
    join(EXAMPLES, "policy.csv"),
  ];
  const denied = await run(
    "policy",
    "explain",
    ...files,
    "viewer",
    "post",
    "write",
  );
  assert.equal(denied.code, 0, denied.err);
  assert.equal(
    denied.out,
    [
      'deny: {"role":"viewer"}, post, write',
      "  effect: some(where (p.eft == allow))",
      "  no rule allowed it",
      "  nearest rules:",
      "    p, admin, post, write: subject role viewer is not admin",
      "    p, editor, post, write: subject role viewer is not editor",
      "    p, viewer, post, read: act write is not read",
      "",
    ].join("\n"),
  );
  const allowed = await run(
    "policy",
    "explain",
    ...files,
    "--json",
    '{"role":"editor"}',
    "post",
    "write",
  );
  assert.equal(
    JSON.parse(allowed.out).deciding.rule.text,
    "p, editor, post, write",
  );

  assert.equal((await run("policy", "explain", "viewer")).code, 2);
  assert.equal((await run("policy", "explain", ...files)).code, 2);
  const badJson = await run(
    "policy",
    "explain",
    ...files,
    "{role",
    "post",
    "write",
  );
  assert.equal(badJson.code, 2);
  assert.match(badJson.err, /Cannot read the request value "\{role"/);
});

Deno.test("deno task portcullis runs the program with the task's permissions", async () => {
  const root = fileURLToPath(new URL("../../", import.meta.url));
  const task = (...args: string[]) =>
    runCommand(Deno.execPath(), ["task", "-q", "portcullis", ...args], root);
  const passed = await task("policy", "test", CASES, "--junit", "/dev/null");
  assert.equal(passed.code, 0, passed.stderr);
  assert.match(passed.stdout, /^5 passed, 0 failed/m);
  assert.equal((await task("policy", "test", "/nonexistent.yaml")).code, 2);
});
