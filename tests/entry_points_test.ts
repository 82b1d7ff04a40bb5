// Each entry point loads only what its users need: the guard never pulls in
// the parsers, and the boundary core stays usable in a browser.
import assert from "node:assert/strict";

async function moduleGraph(entry: string): Promise<string[]> {
  const output = await new Deno.Command(Deno.execPath(), {
    args: ["info", "--json", new URL(entry, import.meta.url).pathname],
    stdout: "piped",
    stderr: "piped",
  }).output();
  assert.ok(output.success, new TextDecoder().decode(output.stderr));
  const info = JSON.parse(new TextDecoder().decode(output.stdout)) as {
    modules: { specifier: string }[];
  };
  return info.modules.map((module) => module.specifier);
}

Deno.test("the guard entry point loads no parser, grammar or extractor", async () => {
  for (const entry of ["../src/guard/mod.ts", "../mod.ts"]) {
    const modules = await moduleGraph(entry);
    const heavy = modules.filter((specifier) =>
      specifier.includes("/src/extract/") ||
      specifier.includes("web-tree-sitter") ||
      specifier.includes("tree-sitter-wasm") ||
      specifier.includes("protobufjs")
    );
    assert.deepEqual(heavy, [], `${entry} loads ${heavy.join(", ")}`);
  }
});

Deno.test("the guard entry point loads neither the policy tooling nor OpenTelemetry", async () => {
  for (const entry of ["../src/guard/mod.ts", "../mod.ts"]) {
    const modules = await moduleGraph(entry);
    const extra = modules.filter((specifier) =>
      specifier.includes("/src/policy/") || specifier.includes("/src/cli/") ||
      specifier.includes("opentelemetry") || specifier.includes("/yaml@")
    );
    assert.deepEqual(extra, [], `${entry} loads ${extra.join(", ")}`);
  }
  const otel = await moduleGraph("../src/guard/otel/mod.ts");
  assert.ok(otel.some((specifier) => specifier.includes("opentelemetry")));
});

Deno.test("the boundary entry point imports no node: module and no casbin", async () => {
  const modules = await moduleGraph("../src/boundary/mod.ts");
  const offending = modules.filter((specifier) =>
    specifier.startsWith("node:") || specifier.includes("casbin") ||
    specifier.includes("/src/guard/") || specifier.includes("/src/extract/")
  );
  assert.deepEqual(offending, []);
  assert.ok(
    modules.some((specifier) => specifier.endsWith("/boundary/mod.ts")),
  );
});

Deno.test("the adapters load no parser, and the node adapter no casbin", async () => {
  for (const entry of ["node", "hono", "express"]) {
    const modules = await moduleGraph(`../src/adapters/${entry}/mod.ts`);
    const heavy = modules.filter((specifier) =>
      specifier.includes("/src/extract/") ||
      specifier.includes("/src/boundary/") ||
      specifier.includes("web-tree-sitter") ||
      (entry === "node" && specifier.includes("casbin"))
    );
    assert.deepEqual(heavy, [], `${entry} loads ${heavy.join(", ")}`);
  }
});

Deno.test("the guard entry point loads no database code and no driver", async () => {
  for (const entry of ["../src/guard/mod.ts", "../mod.ts"]) {
    const modules = await moduleGraph(entry);
    const database = modules.filter((specifier) =>
      specifier.includes("/src/guard/postgres/") ||
      /npm:\/?postgres@|pglite/.test(specifier)
    );
    assert.deepEqual(database, [], `${entry} loads ${database.join(", ")}`);
  }
  // The database entry point itself has them.
  const modules = await moduleGraph("../src/guard/postgres/mod.ts");
  assert.ok(modules.some((specifier) => /postgres@3/.test(specifier)));
  assert.ok(modules.some((specifier) => specifier.includes("pglite")));
});

Deno.test("the map entry point imports no node: module, no parser and no guard", async () => {
  const modules = await moduleGraph("../src/map/mod.ts");
  const offending = modules.filter((specifier) =>
    specifier.startsWith("node:") || specifier.includes("casbin") ||
    specifier.includes("/src/guard/") || specifier.includes("/src/extract/") ||
    specifier.includes("web-tree-sitter")
  );
  assert.deepEqual(offending, []);
});

Deno.test("the map store and the policy provider each load only their own database code", async () => {
  const store = await moduleGraph("../src/map/store/mod.ts");
  const foreign = store.filter((specifier) =>
    specifier.includes("/src/guard/") || specifier.includes("/src/extract/") ||
    specifier.includes("casbin") || specifier.includes("web-tree-sitter")
  );
  assert.deepEqual(foreign, []);
  assert.ok(store.some((specifier) => specifier.includes("/src/_postgres/")));
  const guard = await moduleGraph("../src/guard/postgres/mod.ts");
  assert.deepEqual(guard.filter((s) => s.includes("/src/map/")), []);
  // The map entry point loads no database code.
  const map = await moduleGraph("../src/map/mod.ts");
  assert.deepEqual(
    map.filter((s) =>
      s.includes("/src/_postgres/") || /postgres@3|pglite/.test(s)
    ),
    [],
  );
});
