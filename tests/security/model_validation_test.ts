// Model validation decides requests shaped like the policy's own rules:
// a matcher that throws on every real request is refused at open() and on
// reload, and every stock example of casbin loads and decides as casbin.
import assert from "node:assert/strict";
import { copyFile, mkdtemp, readFile, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { newEnforcer } from "casbin";
import {
  CachedFileEnforcerProvider,
  EnforcerLoadError,
} from "../../src/guard/cached_file_enforcer_provider.ts";
import { CASBIN_EXAMPLES, examplePath } from "../fixtures/casbin_examples.ts";
import {
  decide,
  keyMatchCustom,
  requestsFor,
} from "../fixtures/casbin_example_requests.ts";
import { MODEL } from "../fixtures/guard/casbin.ts";

const POLICY = "p, editor, post, write\np, viewer, post, read\n";

/** Matchers that build, pass an empty-string probe, and throw on real requests. */
const THROWING_MATCHERS: readonly { name: string; matcher: string }[] = [
  {
    name: "an invalid regex behind a conjunct that empty values fail",
    matcher: 'r.obj == p.obj && r.sub.role == p.sub && regexMatch(r.act, "(")',
  },
  {
    name: "a read of an attribute of a string attribute",
    matcher: "r.obj == p.obj && r.sub.role.x.y == p.sub && r.act == p.act",
  },
  {
    name: "a throwing term behind a disjunct that real requests satisfy",
    matcher:
      'r.sub.role == p.sub && r.obj == p.obj && r.act == p.act || regexMatch(r.act, "[")',
  },
  {
    name: "an ipMatch on a value that is never an address",
    matcher: "r.obj == p.obj && ipMatch(r.act, p.act) && r.sub.role == p.sub",
  },
];

async function tempFiles(
  model: string,
  policy: string,
): Promise<{ dir: string; modelPath: string; policyPath: string }> {
  const dir = await mkdtemp(join(tmpdir(), "portcullis-validation-"));
  const modelPath = join(dir, "model.conf");
  const policyPath = join(dir, "policy.csv");
  await writeFile(modelPath, model);
  await writeFile(policyPath, policy);
  return { dir, modelPath, policyPath };
}

for (const { name, matcher } of THROWING_MATCHERS) {
  Deno.test(`open() refuses a model with ${name}`, async () => {
    const files = await tempFiles(
      MODEL.replace(/^m = .*$/m, `m = ${matcher}`),
      POLICY,
    );
    try {
      for (const loadIn of ["main", "worker"] as const) {
        await assert.rejects(
          CachedFileEnforcerProvider.open({ ...files, loadIn, watch: false }),
          (error: unknown) =>
            error instanceof EnforcerLoadError &&
            error.code === "PROBE_FAILED" &&
            /a probe decision failed on a request built from the rule "p, /
              .test(error.message) &&
            !error.message.includes("\n"),
          loadIn,
        );
      }
    } finally {
      await rm(files.dir, { recursive: true });
    }
  });
}

Deno.test("A reload to a model that throws on real requests keeps the last good one and reports it", async () => {
  const files = await tempFiles(MODEL, POLICY);
  const errors: EnforcerLoadError[] = [];
  const reported = Promise.withResolvers<void>();
  try {
    await using provider = await CachedFileEnforcerProvider.open({
      ...files,
      onError: (error) => {
        errors.push(error);
        reported.resolve();
      },
    });
    await writeFile(
      files.modelPath,
      MODEL.replace(/^m = .*$/m, `m = ${THROWING_MATCHERS[0]!.matcher}`),
    );
    await reported.promise;
    assert.equal(errors[0]!.code, "PROBE_FAILED");
    const enforcer = await provider.getEnforcer();
    assert.equal(
      await enforcer.enforce({ role: "editor" }, "post", "write"),
      true,
    );
    assert.equal(
      await enforcer.enforce({ role: "viewer" }, "post", "write"),
      false,
    );
  } finally {
    await rm(files.dir, { recursive: true });
  }
});

Deno.test("A model that reads deeper attributes loads when probe gives the real request shape", async () => {
  const files = await tempFiles(
    MODEL.replace(
      /^m = .*$/m,
      "m = r.obj == p.obj && r.sub.org.unit.name == p.sub && r.act == p.act",
    ),
    "p, sales, post, read\n",
  );
  try {
    await assert.rejects(
      CachedFileEnforcerProvider.open({ ...files, watch: false }),
      { code: "PROBE_FAILED" },
    );
    await using provider = await CachedFileEnforcerProvider.open({
      ...files,
      watch: false,
      probe: [{ org: { unit: { name: "sales" } } }, "post", "read"],
    });
    const enforcer = await provider.getEnforcer();
    assert.equal(
      await enforcer.enforce(
        { org: { unit: { name: "sales" } } },
        "post",
        "read",
      ),
      true,
    );
  } finally {
    await rm(files.dir, { recursive: true });
  }
});

for (const example of CASBIN_EXAMPLES) {
  Deno.test(`casbin's ${example.model} with ${example.policy} loads and decides as casbin`, async () => {
    const dir = await mkdtemp(join(tmpdir(), "portcullis-example-"));
    try {
      const modelPath = join(dir, "model.conf");
      const policyPath = join(dir, "policy.csv");
      await copyFile(examplePath(example.model), modelPath);
      await copyFile(examplePath(example.policy), policyPath);
      const modelText = await readFile(modelPath, "utf8");
      const policyText = await readFile(policyPath, "utf8");
      const functions = Object.fromEntries(
        (example.functions ?? []).map((name) => [name, keyMatchCustom]),
      );
      const casbin = await newEnforcer(modelPath, policyPath);
      for (const [name, fn] of Object.entries(functions)) {
        await casbin.addFunction(name, fn);
      }
      if (example.refused !== undefined) {
        await assert.rejects(
          CachedFileEnforcerProvider.open({
            modelPath,
            policyPath,
            watch: false,
          }),
          { code: example.refused },
        );
        return;
      }
      const requests = requestsFor(example, modelText, policyText);
      for (const loadIn of ["main", "worker"] as const) {
        await using provider = await CachedFileEnforcerProvider.open({
          modelPath,
          policyPath,
          functions,
          loadIn,
          watch: false,
          pollIntervalMs: 0,
        });
        const enforcer = await provider.getEnforcer();
        let allowed = 0;
        for (const values of requests) {
          const expected = await decide((...v) => casbin.enforce(...v), values);
          const actual = await decide(
            (...v) => enforcer.enforce(...v) as boolean | Promise<boolean>,
            values,
          );
          if (expected === true) allowed++;
          if (expected === "throws") {
            // Failing closed: the guard answers 500 to a throw, so a
            // denial is as good; an allow is not.
            assert.notEqual(
              actual,
              true,
              `${loadIn} ${JSON.stringify(values)}`,
            );
          } else {
            assert.equal(
              actual,
              expected,
              `${loadIn} ${JSON.stringify(values)}`,
            );
          }
        }
        // The requests reach the policy: some of them are allowed.
        if (!example.model.startsWith("basic_without")) {
          assert.ok(allowed > 0, "no request was allowed");
        }
      }
    } finally {
      await rm(dir, { recursive: true });
    }
  });
}

Deno.test("A pattern casbin's keyMatch loop never finishes on is refused at load, never decided", async (t) => {
  const restful = MODEL.replace(
    /^m = .*$/m,
    "m = r.sub.role == p.sub && keyMatch2(r.obj, p.obj) && r.act == p.act",
  );
  const cases: {
    name: string;
    model: string;
    policy: string;
    code: string;
    message: RegExp;
  }[] = [
    {
      name: "a rule's pattern with a nameless parameter",
      model: restful,
      policy: "p, viewer, /api/items/:id, read\np, viewer, /api/:, read\n",
      code: "POLICY_INVALID",
      message: /"\/api\/:", on which casbin's keyMatch2 never returns/,
    },
    {
      name: "an unclosed brace under keyMatch3",
      model: restful.replace("keyMatch2", "keyMatch3"),
      policy: "p, viewer, /a/{b, read\n",
      code: "POLICY_INVALID",
      message: /keyMatch3 never returns/,
    },
    {
      name: "a literal pattern in the matcher",
      model: restful.replace(
        "keyMatch2(r.obj, p.obj)",
        'keyMatch5(r.obj, "/x/{")',
      ),
      policy: "p, viewer, post, read\n",
      code: "MODEL_INVALID",
      message: /keyMatch5 never returns/,
    },
    {
      name: "a pattern taken from the request",
      model: restful.replace(
        "keyMatch2(r.obj, p.obj)",
        "keyMatch2(p.obj, r.obj)",
      ),
      policy: "p, viewer, /api/items, read\n",
      code: "MODEL_INVALID",
      message: /takes keyMatch2's pattern from the request/,
    },
  ];
  for (const c of cases) {
    await t.step(c.name, async () => {
      const files = await tempFiles(c.model, c.policy);
      try {
        for (const loadIn of ["main", "worker"] as const) {
          await assert.rejects(
            CachedFileEnforcerProvider.open({ ...files, loadIn, watch: false }),
            (error: unknown) =>
              error instanceof EnforcerLoadError && error.code === c.code &&
              c.message.test(error.message),
            loadIn,
          );
        }
      } finally {
        await rm(files.dir, { recursive: true });
      }
    });
  }
});
