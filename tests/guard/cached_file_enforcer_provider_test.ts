import assert from "node:assert/strict";
import {
  mkdir,
  mkdtemp,
  readFile,
  rename,
  rm,
  stat,
  symlink,
  unlink,
  utimes,
  writeFile,
} from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { Enforcer as CasbinEnforcer } from "casbin";
import {
  CachedFileEnforcerProvider,
  type CachedFileEnforcerProviderOptions,
  EnforcerLoadError,
  type EnforcerReloadEvent,
} from "../../src/guard/cached_file_enforcer_provider.ts";
import type { Enforcer } from "../../src/guard/enforcer.ts";

const FIXTURES = new URL("../fixtures/policy/", import.meta.url);
const MODEL = await readFile(new URL("model.conf", FIXTURES), "utf8");
const POLICY = await readFile(new URL("policy.csv", FIXTURES), "utf8");
// Same byte length as POLICY: the viewer may write instead of read.
const POLICY_VIEWER_WRITES = POLICY.replace(
  "p, viewer, post, read",
  "p, viewer, post, writ",
);
assert.equal(POLICY_VIEWER_WRITES.length, POLICY.length);

/** Collects hook calls and lets a test wait for them without sleeping. */
class Events {
  readonly reloads: EnforcerReloadEvent[] = [];
  readonly errors: EnforcerLoadError[] = [];
  #wake: (() => void)[] = [];

  readonly onReload = (event: EnforcerReloadEvent): void => {
    this.reloads.push(event);
    this.#notify();
  };
  readonly onError = (error: EnforcerLoadError): void => {
    this.errors.push(error);
    this.#notify();
  };

  #notify(): void {
    const wake = this.#wake;
    this.#wake = [];
    for (const resolve of wake) resolve();
  }

  /**
   * Resolves once `predicate` holds, checking after every hook call. The
   * deadline only turns a missed event into a failure instead of a hang.
   */
  async until(
    predicate: () => boolean | Promise<boolean>,
    what: string,
  ): Promise<void> {
    const deadline = Date.now() + 10_000;
    while (!(await predicate())) {
      const remaining = deadline - Date.now();
      if (remaining <= 0) throw new Error(`Timed out waiting for ${what}`);
      let timer: ReturnType<typeof setTimeout> | undefined;
      await new Promise<void>((resolve) => {
        this.#wake.push(resolve);
        timer = setTimeout(resolve, Math.min(remaining, 50));
      });
      clearTimeout(timer);
    }
  }

  /** Waits for one more reload than `count`. */
  reloaded(count: number): Promise<void> {
    return this.until(() => this.reloads.length > count, "a reload");
  }

  /** Waits for one more error than `count`. */
  failed(count: number): Promise<void> {
    return this.until(() => this.errors.length > count, "a reload error");
  }
}

interface Fixture extends AsyncDisposable {
  dir: string;
  modelPath: string;
  policyPath: string;
  events: Events;
  provider: CachedFileEnforcerProvider;
}

async function tempDir(): Promise<string> {
  return await mkdtemp(join(tmpdir(), "portcullis-provider-"));
}

async function setup(
  options: Partial<CachedFileEnforcerProviderOptions> = {},
  files: { model?: string; policy?: string } = {},
): Promise<Fixture> {
  const dir = await tempDir();
  const modelPath = join(dir, "model.conf");
  const policyPath = join(dir, "policy.csv");
  await writeFile(modelPath, files.model ?? MODEL);
  await writeFile(policyPath, files.policy ?? POLICY);
  const events = new Events();
  let provider: CachedFileEnforcerProvider;
  try {
    provider = await CachedFileEnforcerProvider.open({
      modelPath,
      policyPath,
      onReload: events.onReload,
      onError: events.onError,
      pollIntervalMs: 0,
      ...options,
    });
  } catch (error) {
    await rm(dir, { recursive: true });
    throw error;
  }
  return {
    dir,
    modelPath,
    policyPath,
    events,
    provider,
    async [Symbol.asyncDispose](): Promise<void> {
      await provider.close();
      await rm(dir, { recursive: true, force: true });
    },
  };
}

async function decide(
  provider: { getEnforcer(): Enforcer | Promise<Enforcer> },
  role: string,
  action: string,
): Promise<unknown> {
  const enforcer = await provider.getEnforcer();
  return await enforcer.enforce({ role }, "post", action);
}

/** Writes `text` to a temporary file and renames it over `path`. */
async function replaceAtomically(path: string, text: string): Promise<void> {
  const temporary = `${path}.tmp-${crypto.randomUUID()}`;
  await writeFile(temporary, text);
  await rename(temporary, path);
}

Deno.test("CachedFileEnforcerProvider.open() serves the policy of the files", async () => {
  await using fx = await setup();
  assert.equal(await decide(fx.provider, "admin", "write"), true);
  assert.equal(await decide(fx.provider, "editor", "write"), true);
  assert.equal(await decide(fx.provider, "viewer", "read"), true);
  assert.equal(await decide(fx.provider, "viewer", "write"), false);
  assert.equal(await decide(fx.provider, "nobody", "read"), false);
  // Nothing changed: the cached enforcer comes back at once, no promise.
  const first = fx.provider.getEnforcer();
  assert.ok(!(first instanceof Promise));
  assert.equal(fx.provider.getEnforcer(), first);
});

Deno.test("CachedFileEnforcerProvider.open() loads RBAC models with quoted fields", async () => {
  const dir = await tempDir();
  try {
    await using provider = await CachedFileEnforcerProvider.open({
      modelPath: new URL("rbac_model.conf", FIXTURES).pathname,
      policyPath: new URL("rbac_policy.csv", FIXTURES).pathname,
      pollIntervalMs: 0,
    });
    const enforcer = await provider.getEnforcer();
    assert.equal(await enforcer.enforce("alice", "/posts/1", "GET"), true);
    assert.equal(await enforcer.enforce("alice", "/posts/1", "POST"), false);
    assert.equal(await enforcer.enforce("bob", "/posts/1", "POST"), true);
  } finally {
    await rm(dir, { recursive: true });
  }
});

Deno.test("CachedFileEnforcerProvider.open() rejects missing and invalid files", async (t) => {
  const cases: {
    name: string;
    model?: string;
    policy?: string;
    missing?: "model" | "policy";
    code: string;
    file: "model" | "policy";
    line?: number;
    message: RegExp;
  }[] = [
    {
      name: "missing model",
      missing: "model",
      code: "NOT_FOUND",
      file: "model",
      message: /Cannot load model: ".*model\.conf" does not exist/,
    },
    {
      name: "missing policy",
      missing: "policy",
      code: "NOT_FOUND",
      file: "policy",
      message: /Cannot load policy: ".*policy\.csv" does not exist/,
    },
    {
      name: "model that is not a model",
      model: "this is not a model\n",
      code: "MODEL_INVALID",
      file: "model",
      message: /Cannot load model/,
    },
    {
      name: "model without matchers",
      model: MODEL.replace(/\[matchers\][^]*$/, ""),
      code: "MODEL_INVALID",
      file: "model",
      message: /matchers/,
    },
    {
      name: "matcher that does not parse",
      model: MODEL.replace("r.act == p.act", "r.act == p.act)"),
      code: "MODEL_INVALID",
      file: "model",
      message: /matcher "m" does not parse/,
    },
    {
      name: "matcher calling an unknown function",
      model: MODEL.replace("r.act == p.act", "nosuch(r.act, p.act)"),
      code: "MODEL_INVALID",
      file: "model",
      message: /matcher "m" calls unknown function "nosuch"/,
    },
    {
      name: "matcher reading an undefined token",
      model: MODEL.replace("r.act == p.act", "r.act == p.action"),
      code: "MODEL_INVALID",
      file: "model",
      message: /matcher "m" uses unknown name "p.action"/,
    },
    {
      name: "matcher that throws on every request",
      model: MODEL.replace("m = ", 'm = regexMatch(r.act, "(") && '),
      code: "PROBE_FAILED",
      file: "model",
      message: /a probe decision failed/,
    },
    {
      name: "line with too few fields",
      policy: "p, admin, post, read\np, editor, post\n",
      code: "POLICY_INVALID",
      file: "policy",
      line: 2,
      message: /line 2 has 2 fields after "p", expected 3/,
    },
    {
      name: "line with too many fields",
      policy: "p, admin, post, read, now\n",
      code: "POLICY_INVALID",
      file: "policy",
      line: 1,
      message: /line 1 has 4 fields after "p", expected 3/,
    },
    {
      name: "unterminated quote",
      policy: 'p, admin, post, read\np, "editor, post, read\n',
      code: "POLICY_INVALID",
      file: "policy",
      line: 2,
      message: /line 2 is not valid CSV/,
    },
    {
      name: "unknown policy type",
      policy: "p, admin, post, read\ng, alice, admin\n",
      code: "POLICY_INVALID",
      file: "policy",
      line: 2,
      message: /line 2 has unknown policy type "g"/,
    },
    {
      name: "policy with no rules",
      policy: "# nothing yet\n\n",
      code: "POLICY_INVALID",
      file: "policy",
      message: /it has no rules/,
    },
    {
      name: "empty policy file",
      policy: "",
      code: "POLICY_INVALID",
      file: "policy",
      message: /it has no rules/,
    },
    {
      name: "policy that is not UTF-8",
      policy: "p, admin, post, read\n\uFFFD",
      code: "READ_FAILED",
      file: "policy",
      message: /not valid UTF-8/,
    },
  ];
  for (const c of cases) {
    await t.step(c.name, async () => {
      const dir = await tempDir();
      try {
        const modelPath = join(dir, "model.conf");
        const policyPath = join(dir, "policy.csv");
        if (c.missing !== "model") await writeFile(modelPath, c.model ?? MODEL);
        if (c.missing !== "policy") {
          const policy = c.policy ?? POLICY;
          await writeFile(
            policyPath,
            policy.endsWith("\uFFFD")
              ? new Uint8Array([
                ...new TextEncoder().encode(policy.slice(0, -1)),
                0xff,
              ])
              : policy,
          );
        }
        await assert.rejects(
          CachedFileEnforcerProvider.open({
            modelPath,
            policyPath,
            pollIntervalMs: 0,
          }),
          (error: unknown) => {
            assert.ok(error instanceof EnforcerLoadError);
            assert.equal(error.name, "EnforcerLoadError");
            assert.equal(error.code, c.code);
            assert.equal(
              error.path,
              c.file === "model" ? modelPath : policyPath,
            );
            assert.equal(error.line, c.line);
            assert.match(error.message, c.message);
            return true;
          },
        );
      } finally {
        await rm(dir, { recursive: true });
      }
    });
  }
});

Deno.test("CachedFileEnforcerProvider.open() accepts an empty policy with allowEmptyPolicy", async () => {
  await using fx = await setup({ allowEmptyPolicy: true }, { policy: "" });
  assert.equal(await decide(fx.provider, "admin", "read"), false);
});

Deno.test("CachedFileEnforcerProvider.open() rejects a failing prepare hook", async () => {
  const dir = await tempDir();
  try {
    const modelPath = join(dir, "model.conf");
    const policyPath = join(dir, "policy.csv");
    await writeFile(modelPath, MODEL);
    await writeFile(policyPath, POLICY);
    await assert.rejects(
      CachedFileEnforcerProvider.open({
        modelPath,
        policyPath,
        pollIntervalMs: 0,
        prepare: () => Promise.reject(new Error("index too large")),
      }),
      { name: "EnforcerLoadError", code: "PREPARE_FAILED" },
    );
    await assert.rejects(
      CachedFileEnforcerProvider.open({
        modelPath,
        policyPath,
        pollIntervalMs: 0,
        prepare: () => ({}) as unknown as Enforcer,
      }),
      { name: "EnforcerLoadError", code: "PREPARE_FAILED" },
    );
  } finally {
    await rm(dir, { recursive: true });
  }
});

Deno.test("CachedFileEnforcerProvider.open() rejects bad options", async () => {
  await assert.rejects(
    CachedFileEnforcerProvider.open({
      modelPath: "model.conf",
      policyPath: "policy.csv",
      pollIntervalMs: -1,
    }),
    RangeError,
  );
});

Deno.test("CachedFileEnforcerProvider notices each kind of edit", async (t) => {
  await using fx = await setup();
  const { provider, events, policyPath, modelPath } = fx;
  const viewerPolicy = (action: string): string =>
    POLICY.replace("p, viewer, post, read", `p, viewer, post, ${action}`);

  await t.step("in-place write", async () => {
    const count = events.reloads.length;
    await writeFile(policyPath, viewerPolicy("write"));
    await events.reloaded(count);
    assert.deepEqual(events.reloads.at(-1)?.changed, ["policy"]);
    assert.equal(await decide(provider, "viewer", "write"), true);
    assert.equal(await decide(provider, "viewer", "read"), false);
  });

  await t.step("atomic rename", async () => {
    const count = events.reloads.length;
    await replaceAtomically(policyPath, viewerPolicy("share"));
    await events.reloaded(count);
    assert.equal(await decide(provider, "viewer", "share"), true);
    assert.equal(await decide(provider, "viewer", "write"), false);
  });

  await t.step("delete then recreate", async () => {
    const errors = events.errors.length;
    const count = events.reloads.length;
    await unlink(policyPath);
    await events.failed(errors);
    assert.equal(events.errors.at(-1)?.code, "NOT_FOUND");
    // The last good policy is still served while the file is missing.
    assert.equal(await decide(provider, "viewer", "share"), true);
    await writeFile(policyPath, viewerPolicy("print"));
    await events.reloaded(count);
    assert.equal(await decide(provider, "viewer", "print"), true);
    assert.equal(await decide(provider, "viewer", "share"), false);
  });

  await t.step("two same-size edits within the same second", async () => {
    const first = viewerPolicy("aaaa");
    const second = viewerPolicy("bbbb");
    assert.equal(first.length, second.length);
    const when = new Date(Math.floor(Date.now() / 1000) * 1000);
    await writeFile(policyPath, first);
    await utimes(policyPath, when, when);
    await writeFile(policyPath, second);
    await utimes(policyPath, when, when);
    // Both edits may be handled by one reload or by two: the second wins.
    await events.until(
      async () => await decide(provider, "viewer", "bbbb") === true,
      "the second edit",
    );
    assert.equal(await decide(provider, "viewer", "aaaa"), false);
    assert.equal(await decide(provider, "viewer", "print"), false);
  });

  await t.step("model edit", async () => {
    const count = events.reloads.length;
    // The new model ignores the action.
    await writeFile(modelPath, MODEL.replace(" && r.act == p.act", ""));
    await events.reloaded(count);
    assert.deepEqual(events.reloads.at(-1)?.changed, ["model"]);
    assert.equal(await decide(provider, "viewer", "delete"), true);
    assert.equal(await decide(provider, "nobody", "read"), false);
  });
});

Deno.test("CachedFileEnforcerProvider keeps the last good enforcer when a reload fails", async (t) => {
  await using fx = await setup();
  const { provider, events, policyPath, modelPath } = fx;
  const broken: {
    name: string;
    file: "model" | "policy";
    text: string;
    code: string;
  }[] = [
    {
      name: "too few fields",
      file: "policy",
      text: "p, viewer, post\n",
      code: "POLICY_INVALID",
    },
    {
      name: "too many fields",
      file: "policy",
      text: "p, viewer, post, write, x\n",
      code: "POLICY_INVALID",
    },
    {
      name: "unterminated quote",
      file: "policy",
      text: 'p, "viewer, post, write\n',
      code: "POLICY_INVALID",
    },
    {
      name: "unknown type",
      file: "policy",
      text: "x, viewer, post, write\n",
      code: "POLICY_INVALID",
    },
    {
      name: "half-written (empty) file",
      file: "policy",
      text: "",
      code: "POLICY_INVALID",
    },
    {
      name: "broken matcher",
      file: "model",
      text: MODEL.replace("r.act == p.act", "r.act == (p.act"),
      code: "MODEL_INVALID",
    },
    {
      name: "matcher that throws on every request",
      file: "model",
      text: MODEL.replace("m = ", 'm = regexMatch(r.act, "(") && '),
      code: "PROBE_FAILED",
    },
    {
      name: "unparseable model",
      file: "model",
      text: "[matchers]\n",
      code: "MODEL_INVALID",
    },
  ];
  for (const b of broken) {
    await t.step(b.name, async () => {
      const before = await provider.getEnforcer();
      const errors = events.errors.length;
      const reloads = events.reloads.length;
      await writeFile(b.file === "model" ? modelPath : policyPath, b.text);
      await events.failed(errors);
      assert.equal(events.errors.at(-1)?.code, b.code);
      assert.equal(events.reloads.length, reloads);
      assert.equal(await provider.getEnforcer(), before);
      // Never fails open: the old policy's answers, no throw.
      assert.equal(await decide(provider, "viewer", "read"), true);
      assert.equal(await decide(provider, "viewer", "write"), false);
      // Restore the good file; the good content is the loaded one, so no
      // rebuild is needed, but a later good edit must load.
      await writeFile(modelPath, MODEL);
      await writeFile(policyPath, POLICY);
    });
  }

  await t.step("a fixed file loads again", async () => {
    const reloads = events.reloads.length;
    await writeFile(policyPath, POLICY + "p, viewer, post, write\n");
    await events.reloaded(reloads);
    assert.equal(await decide(provider, "viewer", "write"), true);
  });
});

Deno.test("CachedFileEnforcerProvider reports the same broken content once", async () => {
  await using fx = await setup();
  const { events, policyPath } = fx;
  await writeFile(policyPath, "p, viewer\n");
  await events.failed(0);
  // Rewriting the same broken bytes, and touching the file, are not new
  // failures; the next distinct failure is.
  await writeFile(policyPath, "p, viewer\n");
  const later = new Date(Date.now() + 5000);
  await utimes(policyPath, later, later);
  await writeFile(policyPath, "p, editor\n");
  await events.failed(1);
  assert.deepEqual(events.errors.map((e) => e.line), [1, 1]);
  assert.match(events.errors[0]!.message, /has 1 fields/);
  assert.equal(events.errors.length, 2);
});

Deno.test("CachedFileEnforcerProvider logs a failed reload once by default", async () => {
  const logged: unknown[][] = [];
  // deno-lint-ignore no-console
  const original = console.error;
  // deno-lint-ignore no-console
  console.error = (...args: unknown[]) => logged.push(args);
  try {
    const dir = await tempDir();
    const modelPath = join(dir, "model.conf");
    const policyPath = join(dir, "policy.csv");
    await writeFile(modelPath, MODEL);
    await writeFile(policyPath, POLICY);
    const reloads: EnforcerReloadEvent[] = [];
    const provider = await CachedFileEnforcerProvider.open({
      modelPath,
      policyPath,
      pollIntervalMs: 0,
      onReload: (event) => reloads.push(event),
    });
    try {
      await writeFile(policyPath, "p, viewer\n");
      const events = new Events();
      await events.until(() => logged.length > 0, "a log line");
      for (let i = 0; i < 100; i++) {
        assert.equal(await decide(provider, "viewer", "read"), true);
      }
      await writeFile(policyPath, POLICY + "p, viewer, post, write\n");
      await events.until(() => reloads.length > 0, "a reload");
      assert.equal(logged.length, 1);
      assert.match(String(logged[0]![0]), /Cannot load policy/);
    } finally {
      await provider.close();
      await rm(dir, { recursive: true });
    }
  } finally {
    // deno-lint-ignore no-console
    console.error = original;
  }
});

Deno.test("CachedFileEnforcerProvider.getEnforcer() after a detected change returns the new policy", async () => {
  await using fx = await setup({ debounceMs: 20 });
  const { provider, policyPath, events } = fx;
  await writeFile(policyPath, POLICY + "p, viewer, post, write\n");
  // Poll until the change is detected: from then on, getEnforcer() waits
  // for the reload instead of returning the old enforcer.
  let pending: Enforcer | Promise<Enforcer> = provider.getEnforcer();
  await events.until(() => {
    pending = provider.getEnforcer();
    return pending instanceof Promise;
  }, "the change to be detected");
  const enforcer = await pending;
  assert.equal(
    await enforcer.enforce({ role: "viewer" }, "post", "write"),
    true,
  );
});

Deno.test("CachedFileEnforcerProvider with staleWhileReload never makes a request wait", async () => {
  await using fx = await setup({ staleWhileReload: true, debounceMs: 20 });
  const { provider, policyPath, events } = fx;
  const old = provider.getEnforcer();
  await writeFile(policyPath, POLICY + "p, viewer, post, write\n");
  await events.until(() => {
    const current = provider.getEnforcer();
    assert.ok(!(current instanceof Promise));
    return current !== old;
  }, "the new enforcer");
  assert.equal(await decide(provider, "viewer", "write"), true);
});

Deno.test("CachedFileEnforcerProvider lets requests in flight finish on their enforcer", async () => {
  await using fx = await setup();
  const { provider, policyPath, events } = fx;
  const before = await provider.getEnforcer();
  await writeFile(policyPath, "p, viewer, post, write\n");
  await events.reloaded(0);
  const after = await provider.getEnforcer();
  assert.notEqual(after, before);
  // The old enforcer was not emptied or reloaded in place.
  assert.equal(await before.enforce({ role: "admin" }, "post", "write"), true);
  assert.equal(
    await before.enforce({ role: "viewer" }, "post", "write"),
    false,
  );
  assert.equal(await after.enforce({ role: "admin" }, "post", "write"), false);
  assert.equal(await after.enforce({ role: "viewer" }, "post", "write"), true);
});

Deno.test("CachedFileEnforcerProvider answers with the old or the new policy during reloads, never an error", async () => {
  // A policy large enough that a build spans several event-loop turns,
  // small enough that casbin's linear-time decisions stay quick.
  const filler = Array.from(
    { length: 3_000 },
    (_, i) => `p, role${i}, doc${i}, read`,
  ).join("\n");
  const policyA = `${filler}\np, viewer, post, read\n`;
  const policyB = `${filler}\np, viewer, post, read\np, viewer, post, write\n`;
  await using fx = await setup({}, { policy: policyA });
  const { provider, policyPath, events } = fx;
  let stop = false;
  let requests = 0;
  let waited = 0;
  const writeAnswers = new Set<unknown>();
  const client = async (): Promise<void> => {
    while (!stop) {
      const pending = provider.getEnforcer();
      if (pending instanceof Promise) waited++;
      const enforcer = await pending;
      // Allowed by both policies, denied by both, and allowed by one.
      assert.equal(
        await enforcer.enforce({ role: "viewer" }, "post", "read"),
        true,
      );
      assert.equal(
        await enforcer.enforce({ role: "viewer" }, "post", "delete"),
        false,
      );
      assert.equal(
        await enforcer.enforce({ role: "admin" }, "post", "read"),
        false,
      );
      writeAnswers.add(
        await enforcer.enforce({ role: "viewer" }, "post", "write"),
      );
      requests++;
      await new Promise((resolve) => setTimeout(resolve, 0));
    }
  };
  const clients = Array.from({ length: 4 }, client);
  for (let i = 0; i < 6; i++) {
    const count = events.reloads.length;
    const next = i % 2 === 0 ? policyB : policyA;
    if (i % 3 === 0) await replaceAtomically(policyPath, next);
    else await writeFile(policyPath, next);
    await events.reloaded(count);
  }
  stop = true;
  await Promise.all(clients);
  assert.ok(requests > 0);
  assert.ok(waited > 0, "some requests waited for a reload");
  assert.deepEqual([...writeAnswers].sort(), [false, true]);
});

Deno.test("CachedFileEnforcerProvider applies prepare to every new enforcer", async () => {
  const prepared: CasbinEnforcer[] = [];
  class Counting implements Enforcer {
    calls = 0;
    constructor(readonly inner: CasbinEnforcer) {}
    enforce(...rvals: unknown[]): Promise<boolean> {
      this.calls++;
      return this.inner.enforce(...rvals);
    }
  }
  const dir = await tempDir();
  const modelPath = join(dir, "model.conf");
  const policyPath = join(dir, "policy.csv");
  await writeFile(modelPath, MODEL);
  await writeFile(policyPath, POLICY);
  const events = new Events();
  try {
    await using provider = await CachedFileEnforcerProvider.open({
      modelPath,
      policyPath,
      pollIntervalMs: 0,
      onReload: events.onReload,
      prepare: (enforcer) => {
        // The hook receives a real casbin enforcer.
        assert.ok(enforcer instanceof CasbinEnforcer);
        prepared.push(enforcer);
        return new Counting(enforcer);
      },
    });
    const first = await provider.getEnforcer();
    assert.ok(first instanceof Counting);
    assert.equal(await first.enforce({ role: "viewer" }, "post", "read"), true);
    assert.equal(first.calls, 1);
    await writeFile(policyPath, "p, viewer, post, write\n");
    await events.reloaded(0);
    const second = await provider.getEnforcer();
    assert.ok(second instanceof Counting);
    assert.notEqual(second, first);
    assert.equal(prepared.length, 2);
    assert.equal(second.inner, prepared[1]);
  } finally {
    await rm(dir, { recursive: true });
  }
});

Deno.test("CachedFileEnforcerProvider survives hooks that throw", async () => {
  await using fx = await setup({
    onReload: () => {
      throw new Error("hook failed");
    },
    onError: () => {
      throw new Error("hook failed");
    },
  });
  const { provider, policyPath, events } = fx;
  await writeFile(policyPath, "p, viewer\n");
  await writeFile(policyPath, POLICY + "p, viewer, post, write\n");
  await events.until(
    async () => await decide(provider, "viewer", "write") === true,
    "the reload after a throwing hook",
  );
});

Deno.test("CachedFileEnforcerProvider without a watcher detects edits with the stat check", async (t) => {
  await using fx = await setup({ watch: false, pollIntervalMs: 20 });
  const { provider, policyPath, events } = fx;

  await t.step("in-place write", async () => {
    const count = events.reloads.length;
    await writeFile(policyPath, POLICY + "p, viewer, post, write\n");
    await events.reloaded(count);
    assert.equal(await decide(provider, "viewer", "write"), true);
  });

  await t.step(
    "same-size edit with an unchanged modification time",
    async () => {
      await writeFile(policyPath, POLICY);
      await events.until(() => events.reloads.length >= 2, "the reset");
      const info = await stat(policyPath);
      const count = events.reloads.length;
      await writeFile(policyPath, POLICY_VIEWER_WRITES);
      await utimes(policyPath, info.atime!, info.mtime!);
      await events.reloaded(count);
      assert.equal(await decide(provider, "viewer", "writ"), true);
    },
  );
});

Deno.test("CachedFileEnforcerProvider.close() stops everything and is idempotent", async () => {
  const fx = await setup({ pollIntervalMs: 10 });
  const enforcer = await fx.provider.getEnforcer();
  await fx.provider.close();
  await fx.provider.close();
  assert.throws(() => fx.provider.getEnforcer(), {
    name: "Error",
    message: "Cannot get enforcer: the provider is closed",
  });
  // Enforcers already handed out keep answering.
  assert.equal(
    await enforcer.enforce({ role: "viewer" }, "post", "read"),
    true,
  );
  // Edits after close trigger nothing (the sanitizers check no timer or
  // watcher is left behind).
  await writeFile(fx.policyPath, "p, viewer, post, write\n");
  await fx[Symbol.asyncDispose]();
  assert.equal(fx.events.reloads.length, 0);
});

Deno.test("CachedFileEnforcerProvider.close() during a reload stops it", async () => {
  const filler = Array.from(
    { length: 50_000 },
    (_, i) => `p, role${i}, doc${i}, read`,
  ).join("\n");
  const fx = await setup({ debounceMs: 0 });
  await writeFile(fx.policyPath, filler);
  await fx.events.until(() => {
    const pending = fx.provider.getEnforcer();
    return pending instanceof Promise;
  }, "the reload to start");
  await fx[Symbol.asyncDispose]();
  assert.equal(fx.events.reloads.length, 0);
});

Deno.test("CachedFileEnforcerProvider watches files in different directories", async () => {
  const modelDir = await tempDir();
  const policyDir = await tempDir();
  try {
    const modelPath = join(modelDir, "model.conf");
    const policyPath = join(policyDir, "policy.csv");
    await writeFile(modelPath, MODEL);
    await writeFile(policyPath, POLICY);
    const events = new Events();
    await using provider = await CachedFileEnforcerProvider.open({
      modelPath,
      policyPath,
      pollIntervalMs: 0,
      onReload: events.onReload,
      onError: events.onError,
    });
    await writeFile(policyPath, POLICY + "p, viewer, post, write\n");
    await events.reloaded(0);
    assert.equal(await decide(provider, "viewer", "write"), true);
    await writeFile(modelPath, MODEL.replace(" && r.act == p.act", ""));
    await events.reloaded(1);
    assert.deepEqual(events.reloads[1]?.changed, ["model"]);
    assert.equal(await decide(provider, "viewer", "delete"), true);
  } finally {
    await rm(modelDir, { recursive: true });
    await rm(policyDir, { recursive: true });
  }
});

Deno.test("CachedFileEnforcerProvider follows a swapped symlinked directory", async () => {
  // The layout of a Kubernetes ConfigMap volume: policy.csv -> ..data/policy.csv,
  // ..data -> a versioned directory, swapped by renaming a new symlink.
  const dir = await tempDir();
  try {
    const version = async (name: string, policy: string): Promise<void> => {
      await mkdir(join(dir, name));
      await writeFile(join(dir, name, "model.conf"), MODEL);
      await writeFile(join(dir, name, "policy.csv"), policy);
    };
    await version("v1", POLICY);
    await symlink("v1", join(dir, "..data"));
    await symlink(join("..data", "model.conf"), join(dir, "model.conf"));
    await symlink(join("..data", "policy.csv"), join(dir, "policy.csv"));
    const events = new Events();
    await using provider = await CachedFileEnforcerProvider.open({
      modelPath: join(dir, "model.conf"),
      policyPath: join(dir, "policy.csv"),
      pollIntervalMs: 0,
      onReload: events.onReload,
      onError: events.onError,
    });
    await version("v2", POLICY + "p, viewer, post, write\n");
    await symlink("v2", join(dir, "..data_tmp"));
    await rename(join(dir, "..data_tmp"), join(dir, "..data"));
    await events.reloaded(0);
    assert.equal(await decide(provider, "viewer", "write"), true);
    assert.deepEqual(events.errors, []);
  } finally {
    await rm(dir, { recursive: true });
  }
});

Deno.test("CachedFileEnforcerProvider.close() ends a reload waiting out its debounce", async () => {
  const fx = await setup({ debounceMs: 60_000 });
  await writeFile(fx.policyPath, POLICY + "p, viewer, post, write\n");
  let pending: Enforcer | Promise<Enforcer> = fx.provider.getEnforcer();
  await fx.events.until(() => {
    pending = fx.provider.getEnforcer();
    return pending instanceof Promise;
  }, "the change to be detected");
  // The reload sleeps for a minute; close() must not wait for it, and the
  // request that waited gets the last good enforcer.
  await fx[Symbol.asyncDispose]();
  const enforcer = await pending;
  assert.equal(
    await enforcer.enforce({ role: "viewer" }, "post", "write"),
    false,
  );
  assert.equal(fx.events.reloads.length, 0);
});
