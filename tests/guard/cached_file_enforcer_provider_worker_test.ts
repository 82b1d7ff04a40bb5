// CachedFileEnforcerProvider loading policies in its worker (`loadIn`):
// the same answers and the same load errors as a load on the event loop.
import assert from "node:assert/strict";
import { mkdtemp, readFile, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import {
  CachedFileEnforcerProvider,
  type CachedFileEnforcerProviderOptions,
  EnforcerLoadError,
  type EnforcerReloadEvent,
} from "../../src/guard/cached_file_enforcer_provider.ts";
import { CompiledEnforcer } from "../../src/guard/_index/compiled_enforcer.ts";
import { IndexedEnforcer } from "../../src/guard/indexed_enforcer.ts";

const FIXTURES = new URL("../fixtures/policy/", import.meta.url);
const MODEL = await readFile(new URL("model.conf", FIXTURES), "utf8");
const POLICY = await readFile(new URL("policy.csv", FIXTURES), "utf8");

const RBAC_MODEL = `[request_definition]
r = sub, obj, act

[policy_definition]
p = sub, obj, act, eft

[role_definition]
g = _, _

[policy_effect]
e = some(where (p.eft == allow)) && !some(where (p.eft == deny))

[matchers]
m = g(r.sub, p.sub) && r.obj == p.obj && r.act == p.act
`;

const RBAC_POLICY = `p, reader, post, read, allow
p, writer, post, write, allow
p, banned, post, read, deny
g, writer, reader
g, alice, writer
g, bob, reader
g, mallory, reader
g, mallory, banned
`;

interface Files {
  dir: string;
  modelPath: string;
  policyPath: string;
}

async function files(
  model: string,
  policy: string | Uint8Array,
): Promise<Files> {
  const dir = await mkdtemp(join(tmpdir(), "portcullis-worker-"));
  const modelPath = join(dir, "model.conf");
  const policyPath = join(dir, "policy.csv");
  await writeFile(modelPath, model);
  await writeFile(policyPath, policy);
  return { dir, modelPath, policyPath };
}

async function open(
  f: Files,
  options: Partial<CachedFileEnforcerProviderOptions> = {},
): Promise<CachedFileEnforcerProvider> {
  return await CachedFileEnforcerProvider.open({
    modelPath: f.modelPath,
    policyPath: f.policyPath,
    pollIntervalMs: 0,
    loadIn: "worker",
    ...options,
  });
}

Deno.test("CachedFileEnforcerProvider with loadIn: worker decides like casbin, roles and deny rules included", async () => {
  const f = await files(RBAC_MODEL, RBAC_POLICY);
  try {
    await using worker = await open(f);
    await using main = await open(f, { loadIn: "main" });
    const compiled = await worker.getEnforcer();
    assert.ok(compiled instanceof CompiledEnforcer);
    assert.ok((await main.getEnforcer()) instanceof IndexedEnforcer);
    const requests: unknown[][] = [];
    for (const user of ["alice", "bob", "mallory", "writer", "eve", ""]) {
      for (const act of ["read", "write", "delete"]) {
        requests.push([user, "post", act], [user, "page", act]);
      }
    }
    let allowed = 0;
    for (const request of requests) {
      const expected = await (await main.getEnforcer()).enforce(...request);
      assert.equal(await compiled.enforce(...request), expected, `${request}`);
      if (expected) allowed++;
    }
    assert.ok(allowed >= 4, "the requests must include allowed ones");
    // alice -> writer -> reader: both roles' rules apply; mallory is
    // banned from reading although she is a reader.
    assert.equal(await compiled.enforce("alice", "post", "read"), true);
    assert.equal(await compiled.enforce("mallory", "post", "read"), false);
    // The index decided everything: casbin's enforcer was never built.
    assert.equal((compiled as CompiledEnforcer).casbinLoaded, false);
  } finally {
    await rm(f.dir, { recursive: true });
  }
});

Deno.test("CachedFileEnforcerProvider with loadIn: worker builds casbin for requests the index cannot decide", async () => {
  const f = await files(MODEL, POLICY);
  try {
    await using provider = await open(f, {
      functions: { never: () => false },
    });
    const enforcer = await provider.getEnforcer();
    assert.ok(enforcer instanceof CompiledEnforcer);
    assert.equal(enforcer.casbinLoaded, false);
    assert.equal(
      await enforcer.enforce({ role: "viewer" }, "post", "read"),
      true,
    );
    // A number is compared with `==` by casbin: the index leaves it to casbin.
    assert.equal(await enforcer.enforce({ role: 1 }, "post", "read"), false);
    assert.equal(enforcer.casbinLoaded, true);
    // A member of undefined: casbin throws, and so does the enforcer.
    await assert.rejects(async () =>
      await enforcer.enforce(undefined, "post", "read")
    );
    // Two values instead of three: casbin's error.
    await assert.rejects(async () =>
      await enforcer.enforce({ role: "viewer" }, "post")
    );
  } finally {
    await rm(f.dir, { recursive: true });
  }
});

Deno.test("CachedFileEnforcerProvider with loadIn: worker reloads edits and keeps the last good policy", async () => {
  const f = await files(MODEL, POLICY);
  try {
    const reloads: EnforcerReloadEvent[] = [];
    const errors: EnforcerLoadError[] = [];
    await using provider = await open(f, {
      debounceMs: 5,
      onReload: (event) => reloads.push(event),
      onError: (error) => errors.push(error),
    });
    const viewerWrites = async () =>
      await (await provider.getEnforcer()).enforce(
        { role: "viewer" },
        "post",
        "write",
      );
    assert.equal(await viewerWrites(), false);
    await writeFile(f.policyPath, POLICY + "p, viewer, post, write\n");
    await until(() => reloads.length === 1);
    assert.equal(await viewerWrites(), true);
    assert.ok((await provider.getEnforcer()) instanceof CompiledEnforcer);
    assert.equal(reloads[0]!.rules, POLICY.match(/^[pg]\d*,/gm)!.length + 1);
    assert.equal(reloads[0]!.loadedIn, "worker");

    await writeFile(f.policyPath, "p, viewer, post\n");
    await until(() => errors.length === 1);
    assert.equal(errors[0]!.code, "POLICY_INVALID");
    assert.equal(errors[0]!.line, 1);
    assert.equal(await viewerWrites(), true, "the last good policy serves");
  } finally {
    await rm(f.dir, { recursive: true });
  }
});

Deno.test("CachedFileEnforcerProvider with loadIn: worker keeps the last good enforcer during a reload, unless staleWhileReload is false", async (t) => {
  for (const staleWhileReload of [undefined, false]) {
    await t.step(`staleWhileReload: ${staleWhileReload}`, async () => {
      const f = await files(MODEL, POLICY);
      try {
        let reloaded = false;
        await using provider = await open(f, {
          debounceMs: 50,
          onReload: () => reloaded = true,
          ...(staleWhileReload === undefined ? {} : { staleWhileReload }),
        });
        const old = provider.getEnforcer();
        assert.ok(!(old instanceof Promise));
        await writeFile(f.policyPath, POLICY + "p, viewer, post, write\n");
        let waited = false;
        while (!reloaded) {
          const current = provider.getEnforcer();
          if (current instanceof Promise) {
            waited = true;
            // A request that waits is decided by the new policy.
            assert.equal(
              await (await current).enforce(
                { role: "viewer" },
                "post",
                "write",
              ),
              true,
            );
          } else if (!reloaded) {
            assert.equal(current, old);
          }
          await new Promise((resolve) => setTimeout(resolve, 1));
        }
        assert.equal(waited, staleWhileReload === false);
        const current = provider.getEnforcer();
        assert.ok(!(current instanceof Promise));
        assert.notEqual(current, old);
        assert.equal(
          await current.enforce({ role: "viewer" }, "post", "write"),
          true,
        );
      } finally {
        await rm(f.dir, { recursive: true });
      }
    });
  }
});

Deno.test("CachedFileEnforcerProvider with loadIn: worker refuses the files a load on the event loop refuses, with the same error", async (t) => {
  const cases: {
    name: string;
    model?: string;
    policy?: string | Uint8Array;
  }[] = [
    {
      name: "policy that is not UTF-8",
      policy: new Uint8Array([
        ...new TextEncoder().encode("p, a, b, c\n"),
        0xff,
      ]),
    },
    { name: "unknown policy type", policy: "p, a, b, c\nq, a, b, c\n" },
    { name: "too few fields", policy: "p, a, b, c\np, a, b\n" },
    { name: "too many fields", policy: "p, a, b, c, d\n" },
    { name: "empty policy", policy: "# nothing\n\n" },
    { name: "unterminated quote", policy: 'p, "a, b, c\n' },
    { name: "carriage return inside a line", policy: 'p, a, "b"\r, c\n' },
    {
      name: "effect neither allow nor deny",
      model: RBAC_MODEL,
      policy: "p, a, b, c, deny # no\n",
    },
    { name: "unparseable model", model: "[matchers]\n" },
    {
      name: "matcher naming an unknown function",
      model: MODEL.replace("m = ", "m = nope(r.act) && "),
    },
    {
      name: "matcher that throws on every request",
      model: MODEL.replace("m = ", 'm = regexMatch(r.act, "(") && '),
    },
  ];
  for (const c of cases) {
    await t.step(c.name, async () => {
      const f = await files(c.model ?? MODEL, c.policy ?? POLICY);
      try {
        const refusal = async (loadIn: "main" | "worker") => {
          const error = await open(f, { loadIn }).then(
            async (provider) => {
              await provider.close();
              return undefined;
            },
            (error: unknown) => error,
          );
          assert.ok(error instanceof EnforcerLoadError, `${loadIn}: ${error}`);
          return {
            code: error.code,
            message: error.message,
            path: error.path,
            line: error.line,
          };
        };
        assert.deepEqual(await refusal("worker"), await refusal("main"));
      } finally {
        await rm(f.dir, { recursive: true });
      }
    });
  }
});

Deno.test("CachedFileEnforcerProvider with loadIn: worker loads models the index cannot answer on the event loop", async () => {
  // `!=`: casbin decides, behind IndexedEnforcer as on the event loop.
  const f = await files(
    (await readFile(new URL("rbac_model.conf", FIXTURES), "utf8")).replace(
      "r.act == p.act",
      'r.act == p.act && r.act != "HEAD"',
    ),
    await readFile(new URL("rbac_policy.csv", FIXTURES), "utf8"),
  );
  try {
    await using provider = await open(f);
    const enforcer = await provider.getEnforcer();
    assert.ok(enforcer instanceof IndexedEnforcer);
    assert.equal(enforcer.indexed, false);
    assert.equal(await enforcer.enforce("alice", "/posts/1", "GET"), true);
    assert.equal(await enforcer.enforce("alice", "/posts/1", "POST"), false);
  } finally {
    await rm(f.dir, { recursive: true });
  }
});

Deno.test("CachedFileEnforcerProvider falls back to the event loop when its worker cannot start", async () => {
  // A Deno process that may read only the policy directory cannot load the
  // worker's module: the provider must still load and reload the policy.
  const f = await files(MODEL, POLICY);
  try {
    const script = join(f.dir, "serve.ts");
    const provider = new URL(
      "../../src/guard/cached_file_enforcer_provider.ts",
      import.meta.url,
    );
    await writeFile(
      script,
      `import { CachedFileEnforcerProvider } from ${
        JSON.stringify(provider.href)
      };
import { writeFile } from "node:fs/promises";
let reloaded = 0;
let loadedIn;
const provider = await CachedFileEnforcerProvider.open({
  modelPath: ${JSON.stringify(f.modelPath)},
  policyPath: ${JSON.stringify(f.policyPath)},
  loadIn: "worker",
  pollIntervalMs: 50,
  onReload: (event) => {
    loadedIn = event.loadedIn;
    reloaded++;
  },
});
const before = await (await provider.getEnforcer()).enforce({ role: "viewer" }, "post", "write");
await writeFile(${JSON.stringify(f.policyPath)}, "p, viewer, post, write\\n");
while (reloaded === 0) await new Promise((resolve) => setTimeout(resolve, 20));
const after = await (await provider.getEnforcer()).enforce({ role: "viewer" }, "post", "write");
await provider.close();
console.log(JSON.stringify({ before, after, loadedIn }));
`,
    );
    const output = await new Deno.Command(Deno.execPath(), {
      args: [
        "run",
        "--quiet",
        "--no-prompt",
        // casbin's minimatch reads it.
        "--allow-env=__MINIMATCH_TESTING_PLATFORM__",
        `--allow-read=${f.dir}`,
        `--allow-write=${f.dir}`,
        "--config",
        new URL("../../deno.json", import.meta.url).pathname,
        script,
      ],
      stdout: "piped",
      stderr: "piped",
    }).output();
    const stderr = new TextDecoder().decode(output.stderr);
    assert.equal(output.code, 0, stderr);
    // Without a word on stderr (Deno reports a worker that cannot load its
    // module as an uncaught error, even when it is handled).
    assert.equal(stderr, "");
    assert.deepEqual(
      JSON.parse(new TextDecoder().decode(output.stdout)),
      { before: false, after: true, loadedIn: "main" },
    );
  } finally {
    await rm(f.dir, { recursive: true });
  }
});

Deno.test("CachedFileEnforcerProvider rejects an unknown loadIn", async () => {
  const f = await files(MODEL, POLICY);
  try {
    await assert.rejects(
      open(f, { loadIn: "thread" as "worker" }),
      /loadIn must be "auto", "worker" or "main", got thread/,
    );
  } finally {
    await rm(f.dir, { recursive: true });
  }
});

async function until(predicate: () => boolean): Promise<void> {
  const deadline = Date.now() + 10_000;
  while (!predicate()) {
    if (Date.now() > deadline) throw new Error("Timed out");
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
}
