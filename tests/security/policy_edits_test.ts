// Model and policy files that casbin would load without a word but that do
// not say what their author meant. Each one must stop the provider at
// startup with a typed error naming the file (and the line), and must never
// replace the live enforcer on a reload.
import assert from "node:assert/strict";
import { mkdtemp, rename, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import {
  CachedFileEnforcerProvider,
  EnforcerLoadError,
  type EnforcerLoadErrorCode,
  type EnforcerReloadEvent,
} from "../../src/guard/cached_file_enforcer_provider.ts";
import type { Enforcer } from "../../src/guard/enforcer.ts";

const MODEL = `[request_definition]
r = sub, obj, act

[policy_definition]
p = sub, obj, act

[policy_effect]
e = some(where (p.eft == allow))

[matchers]
m = r.obj == p.obj && r.sub.role == p.sub && r.act == p.act
`;

const POLICY = `# role, object, action
p, admin, post, read
p, admin, post, write
p, viewer, post, read
`;

/** A file content the provider must refuse, and how it must refuse it. */
interface BadFile {
  name: string;
  file: "model" | "policy";
  content: string | Uint8Array;
  code: EnforcerLoadErrorCode;
  line?: number;
  message: RegExp;
}

const MANY_RULES = Array.from(
  { length: 999 },
  (_, i) => `p, role${i}, post, read`,
).join("\n");

const BAD_POLICIES: BadFile[] = [
  {
    name: "a trailing comma",
    file: "policy",
    content: "p, admin, post, read,\n",
    code: "POLICY_INVALID",
    line: 1,
    message: /line 1 has 4 fields after "p", expected 3/,
  },
  {
    name: "a trailing comma on the last of many lines",
    file: "policy",
    content: `${MANY_RULES}\np, admin, post, write,\n`,
    code: "POLICY_INVALID",
    line: 1000,
    message: /line 1000 has 4 fields/,
  },
  {
    name: "too few fields after CRLF lines",
    file: "policy",
    content: "p, admin, post, read\r\np, viewer, post\r\n",
    code: "POLICY_INVALID",
    line: 2,
    message: /line 2 has 2 fields after "p", expected 3/,
  },
  {
    name: "too many fields: an effect column the model does not define",
    file: "policy",
    content: "p, admin, post, read, allow\np, viewer, post, write, deny\n",
    code: "POLICY_INVALID",
    line: 1,
    message: /line 1 has 4 fields after "p", expected 3/,
  },
  {
    name: "an unterminated quote that would swallow the next rules",
    file: "policy",
    content: 'p, "admin, post, read\np, viewer, post, read\n',
    code: "POLICY_INVALID",
    line: 1,
    message: /line 1 is not valid CSV/,
  },
  {
    name: "an unterminated quote in the last field",
    file: "policy",
    content: 'p, admin, post, "read\n',
    code: "POLICY_INVALID",
    line: 1,
    message: /line 1 is not valid CSV/,
  },
  {
    name: "tabs instead of commas",
    file: "policy",
    content: "p\tadmin\tpost\tread\n",
    code: "POLICY_INVALID",
    line: 1,
    message: /line 1 has unknown policy type/,
  },
  {
    name: "semicolons instead of commas",
    file: "policy",
    content: "p; admin; post; read\n",
    code: "POLICY_INVALID",
    line: 1,
    message: /line 1 has unknown policy type/,
  },
  {
    name: "a role line without a role definition",
    file: "policy",
    content: "g, alice, admin\np, admin, post, read\n",
    code: "POLICY_INVALID",
    line: 1,
    message: /line 1 has unknown policy type "g" \(the model defines p\)/,
  },
  {
    name: "an empty file",
    file: "policy",
    content: "",
    code: "POLICY_INVALID",
    message: /it has no rules/,
  },
  {
    name: "only a byte order mark, comments and blank lines",
    file: "policy",
    content: "\uFEFF# todo\r\n\r\n   \n",
    code: "POLICY_INVALID",
    message: /it has no rules/,
  },
  {
    name: "a 1 MB line with a missing field",
    file: "policy",
    content: `p, admin, post, read\np, ${"x".repeat(1_000_000)}, read\n`,
    code: "POLICY_INVALID",
    line: 2,
    message: /line 2 has 2 fields after "p", expected 3/,
  },
  {
    name: "Latin-1 bytes instead of UTF-8",
    file: "policy",
    content: new Uint8Array([
      ...new TextEncoder().encode("p, admin, post, read\np, r"),
      0xe9, // "é" in Latin-1
      ...new TextEncoder().encode("dacteur, post, write\n"),
    ]),
    code: "READ_FAILED",
    message: /not valid UTF-8/,
  },
];

const BAD_MODELS: BadFile[] = [
  {
    name: "an empty model",
    file: "model",
    content: "",
    code: "MODEL_INVALID",
    message: /missing required sections/,
  },
  {
    name: "a matcher cut off after &&",
    file: "model",
    content: MODEL.replace("r.act == p.act", "r.act == p.act &&"),
    code: "MODEL_INVALID",
    message: /matcher "m" does not parse/,
  },
  {
    name: "a matcher with an unbalanced parenthesis",
    file: "model",
    content: MODEL.replace("r.obj == p.obj", "(r.obj == p.obj"),
    code: "MODEL_INVALID",
    message: /matcher "m" does not parse/,
  },
  {
    name: "a matcher reading a request field the model does not define",
    file: "model",
    content: MODEL.replace("r.act == p.act", "r.action == p.act"),
    code: "MODEL_INVALID",
    message: /matcher "m" uses unknown name "r.action"/,
  },
  {
    name: "a matcher reading a policy field the model does not define",
    file: "model",
    content: MODEL.replace("r.act == p.act", "r.act == p.action"),
    code: "MODEL_INVALID",
    message: /matcher "m" uses unknown name "p.action"/,
  },
  {
    name: "a matcher calling a role function the model does not define",
    file: "model",
    content: MODEL.replace("r.sub.role == p.sub", "g(r.sub.role, p.sub)"),
    code: "MODEL_INVALID",
    message: /matcher "m" calls unknown function "g"/,
  },
  {
    name: "a misspelt built-in function",
    file: "model",
    content: MODEL.replace("r.obj == p.obj", "keyMach(r.obj, p.obj)"),
    code: "MODEL_INVALID",
    message: /matcher "m" calls unknown function "keyMach"/,
  },
  {
    name: "a misspelt effect",
    file: "model",
    content: MODEL.replace("p.eft == allow", "p.eft == alow"),
    code: "PROBE_FAILED",
    message: /a probe decision failed/,
  },
  {
    name: "no policy effect section",
    file: "model",
    content: MODEL.replace(/\[policy_effect\]\ne = [^\n]*\n/, ""),
    code: "MODEL_INVALID",
    message: /policy_effect/,
  },
];

/** Collects hook calls; `until` waits for a condition without sleeping. */
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
    for (const resolve of this.#wake.splice(0)) resolve();
  }

  /** The deadline only turns a missed event into a failure, not a hang. */
  async until(predicate: () => boolean, what: string): Promise<void> {
    const deadline = Date.now() + 10_000;
    while (!predicate()) {
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
}

interface Files extends AsyncDisposable {
  modelPath: string;
  policyPath: string;
}

async function files(
  model: string | Uint8Array,
  policy: string | Uint8Array,
): Promise<Files> {
  const dir = await mkdtemp(join(tmpdir(), "portcullis-adversarial-"));
  const modelPath = join(dir, "model.conf");
  const policyPath = join(dir, "policy.csv");
  await writeFile(modelPath, model);
  await writeFile(policyPath, policy);
  return {
    modelPath,
    policyPath,
    [Symbol.asyncDispose]: () => rm(dir, { recursive: true, force: true }),
  };
}

/** Writes a temporary file and renames it over `path`, as editors do. */
async function replaceAtomically(
  path: string,
  content: string | Uint8Array,
): Promise<void> {
  const temporary = `${path}.tmp-${crypto.randomUUID()}`;
  await writeFile(temporary, content);
  await rename(temporary, path);
}

async function decide(
  provider: CachedFileEnforcerProvider,
  role: string,
  action: string,
): Promise<unknown> {
  const enforcer: Enforcer = await provider.getEnforcer();
  return await enforcer.enforce({ role }, "post", action);
}

function assertRefusal(error: unknown, bad: BadFile, path: string): void {
  assert.ok(error instanceof EnforcerLoadError, `${bad.name}: ${error}`);
  assert.equal(error.name, "EnforcerLoadError");
  assert.equal(error.code, bad.code, `${bad.name}: ${error.message}`);
  assert.equal(error.path, path, bad.name);
  assert.equal(error.line, bad.line, bad.name);
  assert.match(error.message, /^Cannot load (model|policy)/);
  assert.match(error.message, bad.message);
  assert.ok(error.message.includes(path), `${bad.name}: names the file`);
  // A short message: a huge line is never copied into it.
  assert.ok(error.message.length < 500, `${bad.name}: short message`);
}

// Every test runs with the policy loaded on the event loop and in the
// provider's worker thread: both must refuse and accept the same files.
const LOAD_IN = ["main", "worker"] as const;

Deno.test("CachedFileEnforcerProvider.open() refuses policy and model files that casbin would load silently", async (t) => {
  for (const loadIn of LOAD_IN) {
    for (const bad of [...BAD_POLICIES, ...BAD_MODELS]) {
      await t.step(`${bad.name} (loadIn: ${loadIn})`, async () => {
        await using fx = await files(
          bad.file === "model" ? bad.content : MODEL,
          bad.file === "policy" ? bad.content : POLICY,
        );
        const path = bad.file === "model" ? fx.modelPath : fx.policyPath;
        await assert.rejects(
          CachedFileEnforcerProvider.open({
            modelPath: fx.modelPath,
            policyPath: fx.policyPath,
            pollIntervalMs: 0,
            loadIn,
          }),
          (error: unknown) => {
            assertRefusal(error, bad, path);
            return true;
          },
        );
      });
    }
  }
});

Deno.test("CachedFileEnforcerProvider keeps the last good enforcer through every silently wrong file, then takes a good one", async (t) => {
  for (const loadIn of LOAD_IN) {
    await t.step(`loadIn: ${loadIn}`, async () => {
      await using fx = await files(MODEL, POLICY);
      const events = new Events();
      await using provider = await CachedFileEnforcerProvider.open({
        modelPath: fx.modelPath,
        policyPath: fx.policyPath,
        onReload: events.onReload,
        onError: events.onError,
        pollIntervalMs: 0,
        loadIn,
      });
      const good = await provider.getEnforcer();
      const check = async (when: string): Promise<void> => {
        assert.equal(
          await provider.getEnforcer(),
          good,
          `${when}: same enforcer`,
        );
        assert.equal(await decide(provider, "admin", "write"), true, when);
        assert.equal(await decide(provider, "viewer", "read"), true, when);
        assert.equal(await decide(provider, "viewer", "write"), false, when);
      };
      for (const bad of [...BAD_POLICIES, ...BAD_MODELS]) {
        const path = bad.file === "model" ? fx.modelPath : fx.policyPath;
        const before = events.errors.length;
        await replaceAtomically(path, bad.content);
        await events.until(
          () =>
            events.errors.slice(before).some((error) =>
              error.code === bad.code && bad.message.test(error.message)
            ),
          `the error for ${bad.name}`,
        );
        for (const error of events.errors.slice(before)) {
          assert.ok(error instanceof EnforcerLoadError);
          assert.equal(error.path, path, bad.name);
        }
        await check(bad.name);
        // Put the good file back: same content as loaded, no reload needed.
        await replaceAtomically(path, bad.file === "model" ? MODEL : POLICY);
      }
      assert.equal(events.reloads.length, 0);
      await check("after every bad file");

      // The watcher still works: a good edit is picked up.
      await replaceAtomically(
        fx.policyPath,
        `${POLICY}p, viewer, post, write\n`,
      );
      await events.until(() => events.reloads.length > 0, "the good reload");
      assert.equal(await decide(provider, "viewer", "write"), true);
      assert.notEqual(await provider.getEnforcer(), good);
    });
  }
});

Deno.test("CachedFileEnforcerProvider reads byte order marks and CRLF line ends as their author meant", async (t) => {
  const variants: Array<[string, string, string]> = [
    ["a BOM before the policy", MODEL, `\uFEFF${POLICY}`],
    ["a BOM before the first rule", MODEL, `\uFEFF${POLICY.slice(23)}`],
    ["a BOM before the model", `\uFEFF${MODEL}`, POLICY],
    [
      "CRLF in both files",
      MODEL.replaceAll("\n", "\r\n"),
      POLICY.replaceAll("\n", "\r\n"),
    ],
    [
      "a BOM and CRLF in both files",
      `\uFEFF${MODEL.replaceAll("\n", "\r\n")}`,
      `\uFEFF${POLICY.replaceAll("\n", "\r\n")}`,
    ],
    ["no newline at the end", MODEL.trimEnd(), POLICY.trimEnd()],
  ];
  for (const loadIn of LOAD_IN) {
    for (const [name, model, policy] of variants) {
      await t.step(`${name} (loadIn: ${loadIn})`, async () => {
        await using fx = await files(model, policy);
        await using provider = await CachedFileEnforcerProvider.open({
          modelPath: fx.modelPath,
          policyPath: fx.policyPath,
          pollIntervalMs: 0,
          loadIn,
        });
        assert.equal(await decide(provider, "admin", "read"), true);
        assert.equal(await decide(provider, "admin", "write"), true);
        assert.equal(await decide(provider, "viewer", "read"), true);
        // The last rule's field is "read", not "read\r".
        assert.equal(await decide(provider, "viewer", "write"), false);
        assert.equal(await decide(provider, "\uFEFFadmin", "read"), false);
      });
    }
  }
});

Deno.test("CachedFileEnforcerProvider keeps a deny rule's effect exact in a deny-override model", async () => {
  const model = `[request_definition]
r = sub, obj, act

[policy_definition]
p = sub, obj, act, eft

[policy_effect]
e = some(where (p.eft == allow)) && !some(where (p.eft == deny))

[matchers]
m = r.sub == p.sub && keyMatch(r.obj, p.obj) && r.act == p.act
`;
  const policy = [
    "p, bob, /docs/*, read, allow",
    "p, bob, /docs/secret, read, deny",
    "",
  ].join("\r\n");
  await using fx = await files(model, policy);
  await using provider = await CachedFileEnforcerProvider.open({
    modelPath: fx.modelPath,
    policyPath: fx.policyPath,
    pollIntervalMs: 0,
  });
  const enforcer = await provider.getEnforcer();
  assert.equal(await enforcer.enforce("bob", "/docs/readme", "read"), true);
  assert.equal(await enforcer.enforce("bob", "/docs/secret", "read"), false);
});
