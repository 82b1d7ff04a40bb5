import assert from "node:assert/strict";
import { fileURLToPath } from "node:url";
import { scan, type ScanResult } from "../../src/extract/scan.ts";
import { makeTree, route } from "./_temp_tree.ts";
import { runs } from "./_commands.ts";

function scannedFiles(result: ScanResult): string[] {
  return [...new Set(result.ports.map((p) => p.port.filePath))].sort();
}

function budgetWarnings(result: ScanResult): string[] {
  return result.diagnostics.flatMap((d) =>
    d.budget === undefined ? [] : [`${d.budget} ${d.filePath}`]
  );
}

Deno.test("scan() reads the first maxFilesPerRoot source files in path order and says so", async () => {
  const files: Record<string, string> = {};
  for (let i = 0; i < 30; i++) {
    files[`d${String(i % 3)}/f${String(i).padStart(2, "0")}.ts`] = route(
      `/r${i}`,
    );
  }
  files["notes.txt"] = "not source";
  const root = await makeTree(files);
  try {
    const result = await scan([root], { maxFilesPerRoot: 10 });
    const scanned = scannedFiles(result);
    assert.equal(scanned.length, 10);
    assert.deepEqual(
      scanned,
      Object.keys(files).filter((f) => f.startsWith("d0/")),
    );
    assert.deepEqual(budgetWarnings(result), ["maxFilesPerRoot "]);
    const [warning] = result.diagnostics;
    assert.equal(warning?.severity, "warning");
    assert.match(warning!.message, /more than 10 source files/);
    assert.match(warning!.message, /--max-files-per-root/);
    const recorded = result.graph.metadata["budgets_hit"];
    assert.ok(Array.isArray(recorded));
    assert.equal((recorded[0] as { budget: string }).budget, "maxFilesPerRoot");
  } finally {
    await Deno.remove(root, { recursive: true });
  }
});

Deno.test("scan() reads files in path order until maxBytesPerRoot and says so", async () => {
  const files: Record<string, string> = {};
  for (let i = 0; i < 10; i++) files[`f${i}.ts`] = route(`/r${i}`);
  const size = route("/r0").length;
  const root = await makeTree(files);
  try {
    const result = await scan([root], { maxBytesPerRoot: size * 4 + 1 });
    assert.deepEqual(scannedFiles(result), [
      "f0.ts",
      "f1.ts",
      "f2.ts",
      "f3.ts",
    ]);
    assert.equal(result.roots[0]?.bytes, size * 4);
    assert.deepEqual(budgetWarnings(result), ["maxBytesPerRoot "]);
    assert.match(result.diagnostics[0]!.message, /6 files from "f4\.ts" on/);
  } finally {
    await Deno.remove(root, { recursive: true });
  }
});

Deno.test("scan() does not apply .gitignore files beyond maxGitignoreBytes and says which", async () => {
  const root = await makeTree({
    ".gitignore": "one/\n",
    "sub/.gitignore": "two.ts\n" + "#".repeat(100) + "\n",
    "one/a.ts": route("/one"),
    "sub/two.ts": route("/two"),
  });
  try {
    const result = await scan([root], { maxGitignoreBytes: 50 });
    assert.deepEqual(scannedFiles(result), ["sub/two.ts"]);
    assert.deepEqual(budgetWarnings(result), [
      "maxGitignoreBytes sub/.gitignore",
    ]);
  } finally {
    await Deno.remove(root, { recursive: true });
  }
});

Deno.test("scan() counts maxGitignoreBytes along each directory's parents, not across siblings", async () => {
  const pad = "#".repeat(30) + "\n";
  const root = await makeTree({
    "a/.gitignore": pad + "x.ts\n",
    "b/.gitignore": pad + "x.ts\n",
    "a/x.ts": route("/a"),
    "b/x.ts": route("/b"),
    "b/y.ts": route("/y"),
  });
  try {
    const result = await scan([root], { maxGitignoreBytes: 50 });
    assert.deepEqual(scannedFiles(result), ["b/y.ts"]);
    assert.deepEqual(budgetWarnings(result), []);
  } finally {
    await Deno.remove(root, { recursive: true });
  }
});

Deno.test("scan() matches nested globstars over a 60-deep directory chain without backtracking", async () => {
  const deep = Array.from({ length: 60 }, () => "a").join("/");
  const root = await makeTree({
    // `ignore`'s regular expression for this line backtracks for hours
    ".gitignore": "a/**/".repeat(10) + "Q\n",
    [`${deep}/x.ts`]: route("/deep"),
    [`${deep}/Q/y.ts`]: route("/ignored"),
  });
  try {
    const result = await scan([root]);
    assert.deepEqual(scannedFiles(result), [`${deep}/x.ts`]);
  } finally {
    await Deno.remove(root, { recursive: true });
  }
});

Deno.test("scan() rejects a budget that is not a positive integer", async () => {
  for (const bad of [0, -1, 1.5, Number.NaN]) {
    await assert.rejects(scan(["."], { maxFilesPerRoot: bad }), {
      name: "RangeError",
      message: /maxFilesPerRoot must be an integer from 1/,
    });
  }
});

// `sh` runs on Unix; Bun comes with scripts/dev.sh
const HAS_SH = Deno.build.os !== "windows" && await runs("sh", ["-c", ":"]);
const HAS_BUN = HAS_SH && await runs("bun", ["--version"]);

/** Writes a route file whose name holds the byte 0xFF (not UTF-8). */
async function treeWithInvalidName(): Promise<string> {
  const root = await makeTree({ "ok.ts": route("/ok") });
  const made = await new Deno.Command("sh", {
    args: [
      "-c",
      `printf '%s' "$1" > "$2/bad$(printf '\\377').ts"`,
      "sh",
      route("/bad"),
      root,
    ],
  }).output();
  assert.ok(made.success, "cannot write a file with a non-UTF-8 name");
  return root;
}

Deno.test({
  name:
    "scan() under Deno reports a file whose name is not UTF-8 as such, not as missing",
  ignore: !HAS_SH,
  async fn(): Promise<void> {
    const root = await treeWithInvalidName();
    try {
      const result = await scan([root]);
      assert.deepEqual(scannedFiles(result), ["ok.ts"]);
      assert.equal(result.diagnostics.length, 1);
      const [problem] = result.diagnostics;
      assert.equal(problem?.severity, "error");
      assert.match(problem!.message, /not valid UTF-8/);
      assert.doesNotMatch(problem!.message, /ENOENT/);
    } finally {
      await Deno.remove(root, { recursive: true });
    }
  },
});

const CLI = fileURLToPath(new URL("../../src/extract/cli.ts", import.meta.url));

Deno.test({
  name: "the scan command under Bun reads a file whose name is not UTF-8",
  ignore: !HAS_BUN,
  async fn(): Promise<void> {
    const root = await treeWithInvalidName();
    try {
      const output = await new Deno.Command("bun", {
        args: [CLI, "--format", "json", "--no-progress", root],
        stdout: "piped",
        stderr: "piped",
      }).output();
      const report = JSON.parse(new TextDecoder().decode(output.stdout));
      const files = report.unconsumedProviders.map((p: { filePath: string }) =>
        p.filePath
      ).sort();
      assert.deepEqual(files, ["bad\\xFF.ts", "ok.ts"]);
      assert.deepEqual(report.diagnostics, []);
    } finally {
      await Deno.remove(root, { recursive: true });
    }
  },
});
