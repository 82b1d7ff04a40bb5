// Records or checks the scan output of the extraction fixtures (and, given a
// checkout of OWASP Noir, of its functional-test fixtures) as sorted text, so
// that a change to the extractors shows every port it adds, drops or alters:
//
//   deno run -A benches/golden/golden.ts check [--noir <noir-source>]
//   deno run -A benches/golden/golden.ts write [--noir <noir-source>]
//
// `fixtures.txt`: one line per port of each `tests/fixtures/extract/<dir>`
// (file, position, key, confidence, owner, detail) and per diagnostic.
// `noir.txt`: one compact line per port of each Noir fixture (its roots as
// the peer suite lists them). `check` prints a unified diff and exits 1 on a
// difference.
import { scan } from "../../src/extract/scan.ts";

const HERE = new URL(".", import.meta.url).pathname;
const FIXTURES = new URL("../../tests/fixtures/extract/", import.meta.url)
  .pathname;

function sortedJson(value: unknown): string {
  if (value && typeof value === "object" && !Array.isArray(value)) {
    const entries = Object.entries(value as Record<string, unknown>)
      .sort(([a], [b]) => a < b ? -1 : a > b ? 1 : 0)
      .map(([k, v]) => `${JSON.stringify(k)}:${sortedJson(v)}`);
    return `{${entries.join(",")}}`;
  }
  return JSON.stringify(value);
}

async function scanLines(
  label: string,
  roots: string[],
  compact: boolean,
): Promise<string[]> {
  const lines: string[] = [];
  let result;
  try {
    result = await scan(roots);
  } catch (error) {
    return [`${label}\tFAILED ${String(error)}`];
  }
  for (const { root, port, extractor } of result.ports) {
    const ref = port.ref;
    const where = `${root}/${port.filePath}:${ref.line}` +
      (compact ? "" : `:${ref.col}`);
    const head =
      `${label}\t${where}\t${ref.mechanism} ${ref.role} ${ref.key}\t${ref.confidence}`;
    lines.push(
      compact
        ? head
        : `${head}\t${extractor}\t${port.owner.kind} ${port.owner.qualifiedName}\t${
          sortedJson(ref.detail)
        }`,
    );
  }
  if (!compact) {
    for (const d of result.diagnostics) {
      lines.push(
        `${label}\tdiagnostic ${d.root}/${d.filePath} ${d.severity}: ${d.message}`,
      );
    }
  }
  return lines;
}

async function fixtureLines(): Promise<string[]> {
  const dirs: string[] = [];
  for await (const entry of Deno.readDir(FIXTURES)) {
    if (entry.isDirectory) dirs.push(entry.name);
  }
  dirs.sort();
  const lines: string[] = [];
  for (const dir of dirs) {
    lines.push(...await scanLines(dir, [FIXTURES + dir], false));
  }
  return lines.sort();
}

async function noirLines(source: string): Promise<string[]> {
  const base = `${source}/spec/functional_test`;
  const groups: Array<[string, string[]]> = [];
  for await (const lang of Deno.readDir(`${base}/fixtures`)) {
    if (!lang.isDirectory) continue;
    for await (const fw of Deno.readDir(`${base}/fixtures/${lang.name}`)) {
      if (!fw.isDirectory) continue;
      groups.push([`${lang.name}/${fw.name}`, [
        `${base}/fixtures/${lang.name}/${fw.name}`,
      ]]);
    }
  }
  groups.sort(([a], [b]) => a < b ? -1 : a > b ? 1 : 0);
  const lines: string[] = [];
  for (const [label, roots] of groups) {
    lines.push(...await scanLines(label, roots, true));
  }
  return lines.sort();
}

async function compare(name: string, lines: string[]): Promise<boolean> {
  const path = HERE + name;
  const text = lines.join("\n") + "\n";
  let before = "";
  try {
    before = await Deno.readTextFile(path);
  } catch {
    // no golden yet
  }
  if (before === text) return true;
  const current = await Deno.makeTempFile({ suffix: `-${name}` });
  await Deno.writeTextFile(current, text);
  const diff = await new Deno.Command("diff", {
    args: ["-u", path, current],
    stdout: "inherit",
  }).output();
  await Deno.remove(current);
  return diff.code === 0;
}

const [mode, ...rest] = Deno.args;
const noirIndex = rest.indexOf("--noir");
const noir = noirIndex === -1 ? undefined : rest[noirIndex + 1];
if (mode !== "check" && mode !== "write") {
  throw new TypeError("usage: golden.ts check|write [--noir <noir-source>]");
}
const sets: Array<[string, string[]]> = [[
  "fixtures.txt",
  await fixtureLines(),
]];
if (noir) sets.push(["noir.txt", await noirLines(noir)]);
let same = true;
for (const [name, lines] of sets) {
  if (mode === "write") {
    await Deno.writeTextFile(HERE + name, lines.join("\n") + "\n");
  } else if (!await compare(name, lines)) {
    same = false;
  }
}
if (!same) Deno.exit(1);
