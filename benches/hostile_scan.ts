// Scans generated hostile repositories and prints time and peak memory, to
// show that each stays linear in the input (or flat at a budget):
//
//   deno run -A benches/hostile_scan.ts              # every case, a table
//   deno run -A benches/hostile_scan.ts links 2000   # one case, JSON
//
// Cases: `links N` (N fetch("/x") functions and N Flask handlers of /x),
// `copies N` (N hard links to one 1 MiB TypeScript file), `gitignore MB` (a
// .gitignore of MB megabytes), `globstar DEPTH` (`a/**/` ten times then `Q`
// over a directory chain DEPTH deep), `json DEPTH` (graph metadata nested
// DEPTH deep), `mounts LEVELS` (an Express router mounted twice on each of
// LEVELS levels), `scopes N` (N Phoenix routes under N nested scopes),
// `servers N` (an OpenAPI document of N servers x N/10 paths), `nesting N`
// (a JavaScript call nested N deep), `blank MB` (a YAML file of MB megabytes
// of blank lines, the worst case of line-anchored sniffing). Each case runs
// in its own process.
import process from "node:process";
import { fileURLToPath } from "node:url";
import { scan } from "../src/extract/scan.ts";
import { renderReport } from "../src/extract/render_report.ts";
import { BoundaryGraph } from "../src/boundary/graph.ts";

type Figures = Record<string, number | string>;

async function links(root: string, n: number): Promise<void> {
  let client = "";
  let server = "from flask import Flask\napp = Flask(__name__)\n";
  for (let i = 0; i < n; i++) {
    client += `export function call${i}() { return fetch("/x"); }\n`;
    server += `@app.route("/x")\ndef handle${i}():\n    return "ok"\n`;
  }
  await Deno.mkdir(`${root}/web`);
  await Deno.mkdir(`${root}/api`);
  await Deno.writeTextFile(`${root}/web/client.ts`, client);
  await Deno.writeTextFile(`${root}/api/app.py`, server);
}

async function copies(root: string, n: number): Promise<void> {
  const unit = 'export const f = () => fetch("/a/b");\n';
  await Deno.writeTextFile(
    `${root}/blob.ts`,
    unit.repeat(Math.floor(1024 * 1024 / unit.length)),
  );
  for (let i = 1; i < n; i++) {
    await Deno.link(`${root}/blob.ts`, `${root}/copy${i}.ts`);
  }
}

async function gitignore(root: string, megabytes: number): Promise<void> {
  const line = "some/generated/path/*.tmp\n";
  await Deno.writeTextFile(
    `${root}/.gitignore`,
    line.repeat(Math.ceil(megabytes * 1e6 / line.length)),
  );
  await Deno.writeTextFile(`${root}/a.ts`, 'fetch("/a");\n');
}

async function globstar(root: string, depth: number): Promise<void> {
  await Deno.writeTextFile(`${root}/.gitignore`, "a/**/".repeat(10) + "Q\n");
  const chain = `${root}/${Array.from({ length: depth }, () => "a").join("/")}`;
  await Deno.mkdir(chain, { recursive: true });
  await Deno.writeTextFile(`${chain}/x.ts`, 'fetch("/deep");\n');
}

async function mounts(root: string, levels: number): Promise<void> {
  const lines = [
    'const express = require("express");',
    "const r0 = express.Router();",
    'r0.get("/x", (req, res) => res.end());',
  ];
  for (let i = 1; i <= levels; i++) {
    lines.push(
      `const r${i} = express.Router();`,
      `r${i}.use("/a", r${i - 1});`,
      `r${i}.use("/b", r${i - 1});`,
    );
  }
  lines.push("const app = express();", `app.use("/", r${levels});`);
  await Deno.writeTextFile(`${root}/app.js`, lines.join("\n"));
}

async function scopes(root: string, n: number): Promise<void> {
  const text = "defmodule R do\n  use Phoenix.Router\n" +
    Array.from({ length: n }, (_, i) => `scope "/s${i}" do\n`).join("") +
    Array.from({ length: n }, (_, i) => `get "/r${i}", C, :i\n`).join("") +
    "end\n".repeat(n) + "end\n";
  await Deno.writeTextFile(`${root}/router.ex`, text);
}

async function servers(root: string, n: number): Promise<void> {
  const text = "openapi: 3.0.0\nservers:\n" +
    Array.from({ length: n }, (_, i) => `  - url: http://h${i}/v${i}\n`)
      .join("") +
    "paths:\n" +
    Array.from({ length: n / 10 }, (_, i) => `  /p${i}:\n    get: {}\n`)
      .join("");
  await Deno.writeTextFile(`${root}/api.yaml`, text);
}

async function nesting(root: string, n: number): Promise<void> {
  await Deno.writeTextFile(
    `${root}/a.js`,
    `fetch("/ok");\nf(${"g(".repeat(n)}1${")".repeat(n)});\n`,
  );
}

async function blank(root: string, megabytes: number): Promise<void> {
  await Deno.writeTextFile(
    `${root}/config.yaml`,
    "\n".repeat(Math.floor(megabytes * 1024 * 1024) - 1),
  );
}

const CASES: Record<string, (root: string, n: number) => Promise<void>> = {
  links,
  copies,
  gitignore,
  globstar,
  mounts,
  scopes,
  servers,
  nesting,
  blank,
};

async function runCase(name: string, n: number): Promise<Figures> {
  const started = performance.now();
  if (name === "json") {
    const deep = "[".repeat(n) + "]".repeat(n);
    const text =
      `{"schema_version":1,"nodes":[{"id":"a","kind":"function","qualified_name":"a","name":"a","metadata":{"x":${deep}}}],"relations":[]}`;
    let outcome = "loaded";
    try {
      BoundaryGraph.fromJSON(text);
    } catch (error) {
      outcome = (error as Error).name;
    }
    return {
      outcome,
      seconds: Number(((performance.now() - started) / 1000).toFixed(2)),
      maxRssMB: Math.round(process.resourceUsage().maxRSS / 1024),
    };
  }
  const root = await Deno.makeTempDir({ prefix: "portcullis-hostile-" });
  try {
    await CASES[name]!(root, n);
    const scanStarted = performance.now();
    const result = await scan([root]);
    const text = renderReport(result.graph, {
      diagnostics: result.diagnostics,
    });
    return {
      seconds: Number(((performance.now() - scanStarted) / 1000).toFixed(2)),
      files: result.roots[0]!.files,
      ports: result.ports.length,
      links: result.link.relationsAdded,
      budgetsHit: result.diagnostics.filter((d) => d.budget).length,
      reportKB: Math.round(new TextEncoder().encode(text).length / 1024),
      maxRssMB: Math.round(process.resourceUsage().maxRSS / 1024),
    };
  } finally {
    await Deno.remove(root, { recursive: true });
  }
}

const SUITE: Array<[string, number]> = [
  ["links", 500],
  ["links", 1000],
  ["links", 2000],
  ["links", 4000],
  ["copies", 100],
  ["copies", 1000],
  ["copies", 4500],
  ["gitignore", 10],
  ["gitignore", 50],
  ["globstar", 60],
  ["globstar", 600],
  ["json", 100_000],
  ["json", 1_000_000],
  ["mounts", 11],
  ["mounts", 22],
  ["scopes", 1_000],
  ["scopes", 4_000],
  ["servers", 2_000],
  ["servers", 8_000],
  ["nesting", 10_000],
  ["nesting", 40_000],
  ["blank", 0.25],
  ["blank", 1],
];

if (Deno.args.length >= 2) {
  const figures = await runCase(Deno.args[0]!, Number(Deno.args[1]));
  // deno-lint-ignore no-console
  console.log(JSON.stringify(figures));
} else {
  const self = fileURLToPath(import.meta.url);
  const rows: string[] = [];
  for (const [name, n] of SUITE) {
    const output = await new Deno.Command(Deno.execPath(), {
      args: ["run", "-A", self, name, String(n)],
      stderr: "inherit",
    }).output();
    const figures = JSON.parse(new TextDecoder().decode(output.stdout));
    rows.push(
      `| ${name} ${n} | ${
        Object.entries(figures).map(([k, v]) => `${k} ${v}`).join(", ")
      } |`,
    );
    // deno-lint-ignore no-console
    console.log(rows.at(-1));
  }
}
