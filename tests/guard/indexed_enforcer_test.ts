import assert from "node:assert/strict";
import {
  EnforceContext,
  Enforcer as CasbinEnforcer,
  newEnforcer,
  newModelFromString,
  StringAdapter,
} from "casbin";
import { CachedFileEnforcerProvider } from "../../src/guard/cached_file_enforcer_provider.ts";
import {
  IndexedEnforcer,
  indexEnforcer,
} from "../../src/guard/indexed_enforcer.ts";

function model(matcher: string, options: {
  request?: string;
  policy?: string;
  effect?: string;
  extra?: string;
} = {}): string {
  return `[request_definition]
r = ${options.request ?? "sub, obj, act"}

[policy_definition]
p = ${options.policy ?? "sub, obj, act"}
${options.extra ?? ""}
[policy_effect]
e = ${options.effect ?? "some(where (p.eft == allow))"}

[matchers]
m = ${matcher}
`;
}

const SEED = model("r.obj == p.obj && r.sub.role == p.sub && r.act == p.act");
const SEED_POLICY = `p, admin, post, read
p, admin, post, write
p, editor, post, read
p, editor, post, write
p, viewer, post, read`;

async function casbinOf(text: string, policy = ""): Promise<CasbinEnforcer> {
  const m = newModelFromString(text);
  return policy === ""
    ? await newEnforcer(m)
    : await newEnforcer(m, new StringAdapter(policy));
}

/** Makes every call that reaches casbin fail, to prove the index answered. */
function forbidCasbin(enforcer: CasbinEnforcer): void {
  const refuse = (): never => {
    throw new Error("casbin was asked");
  };
  enforcer.enforce = refuse;
  enforcer.enforceSync = refuse;
}

/** Counts the calls that reach casbin's enforce. */
function countCasbin(enforcer: CasbinEnforcer): { calls: number } {
  const counter = { calls: 0 };
  const enforce = CasbinEnforcer.prototype.enforce;
  enforcer.enforce = (...rvals: unknown[]) => {
    counter.calls++;
    return enforce.apply(enforcer, rvals);
  };
  return counter;
}

Deno.test("IndexedEnforcer.enforce() answers the seed model from the index, as casbin does", async (t) => {
  const casbin = await casbinOf(SEED, SEED_POLICY);
  const requests: unknown[][] = [
    [{ role: "admin" }, "post", "write"],
    [{ role: "editor" }, "post", "write"],
    [{ role: "viewer" }, "post", "read"],
    [{ role: "viewer" }, "post", "write"],
    [{ role: "nobody" }, "post", "read"],
    [{ role: "admin" }, "comment", "read"],
    ["admin", "post", "read"], // a string subject has no role
    [{}, "post", "read"],
  ];
  const expected: boolean[] = [];
  for (const request of requests) {
    expected.push(await casbin.enforce(...request));
  }
  const indexed = IndexedEnforcer.from(casbin);
  forbidCasbin(casbin);
  await t.step("the index is used", () => {
    assert.equal(indexed.indexed, true);
    assert.equal(indexed.reason, undefined);
  });
  await t.step("answers match casbin, synchronously", () => {
    assert.deepEqual(requests.map((r) => indexed.enforce(...r)), expected);
    assert.deepEqual(expected, [
      true,
      true,
      true,
      false,
      false,
      false,
      false,
      false,
    ]);
  });
});

Deno.test("IndexedEnforcer.enforce() reproduces casbin's deny-override and allow-and-deny effects", async (t) => {
  const policy = `p, alice, doc, read, allow
p, alice, doc, read, deny
p, bob, doc, read, allow
p, carol, doc, read, other`;
  for (
    const [effect, answers] of [
      ["!some(where (p.eft == deny))", [false, true, true, true]],
      [
        "some(where (p.eft == allow)) && !some(where (p.eft == deny))",
        [false, true, false, false],
      ],
      ["some(where (p.eft == allow))", [true, true, false, false]],
    ] as const
  ) {
    await t.step(effect, async () => {
      const casbin = await casbinOf(
        model("r.sub == p.sub && r.obj == p.obj && r.act == p.act", {
          policy: "sub, obj, act, eft",
          effect,
        }),
        policy,
      );
      const requests = ["alice", "bob", "carol", "dave"].map((
        who,
      ) => [who, "doc", "read"]);
      const expected = [];
      for (const r of requests) expected.push(await casbin.enforce(...r));
      assert.deepEqual(expected, answers);
      const indexed = await indexEnforcer(casbin);
      assert.equal(indexed.indexed, true);
      forbidCasbin(casbin);
      assert.deepEqual(requests.map((r) => indexed.enforce(...r)), answers);
    });
  }
});

Deno.test("IndexedEnforcer.enforce() throws where casbin throws", async (t) => {
  const casbin = await casbinOf(SEED, SEED_POLICY);
  const indexed = IndexedEnforcer.from(casbin);
  await t.step("a missing subject, when a rule's object matches", async () => {
    await assert.rejects(
      async () => await indexed.enforce(undefined, "post", "read"),
      TypeError,
    );
    await assert.rejects(
      async () => await casbin.enforce(undefined, "post", "read"),
      TypeError,
    );
  });
  await t.step("but not when no rule gets that far, as in casbin", async () => {
    assert.equal(await indexed.enforce(undefined, "comment", "read"), false);
    assert.equal(await casbin.enforce(undefined, "comment", "read"), false);
  });
  await t.step("a request of the wrong size", async () => {
    await assert.rejects(
      async () => await indexed.enforce({ role: "admin" }, "post"),
      { message: /invalid request size/ },
    );
  });
  await t.step("a getter that throws", async () => {
    const subject = {
      get role(): string {
        throw new RangeError("no role");
      },
    };
    await assert.rejects(
      async () => await indexed.enforce(subject, "post", "read"),
      RangeError,
    );
  });
});

Deno.test("IndexedEnforcer.enforce() lets casbin convert non-string values", async () => {
  const casbin = await casbinOf(
    model("r.sub == p.sub && r.obj == p.obj && r.act == p.act"),
    "p, 1, post, read",
  );
  const indexed = IndexedEnforcer.from(casbin);
  assert.equal(indexed.indexed, true);
  const calls = countCasbin(casbin);
  // casbin's matcher uses ==, so the number 1 equals the policy's "1".
  assert.equal(await indexed.enforce(1, "post", "read"), true);
  assert.equal(await indexed.enforce(["1"], "post", "read"), true);
  assert.equal(calls.calls, 2);
  assert.equal(await indexed.enforce("1", "post", "read"), true);
  assert.equal(await indexed.enforce(null, "post", "read"), false);
  assert.equal(calls.calls, 2);
});

Deno.test("IndexedEnforcer.enforce() compares === without conversion", async () => {
  const casbin = await casbinOf(
    model("r.sub === p.sub && r.obj == p.obj"),
    "p, 1, post, read",
  );
  const indexed = IndexedEnforcer.from(casbin);
  forbidCasbin(casbin);
  assert.equal(indexed.enforce(1, "post", "read"), false);
  assert.equal(indexed.enforce("1", "post", "read"), true);
});

Deno.test("IndexedEnforcer reads matchers the way casbin parses them", async (t) => {
  await t.step("brackets, parentheses, reversed sides", async () => {
    const casbin = await casbinOf(
      model('p.obj == r.obj && (r.sub["role"] == p.sub && r.act == p.act)'),
      SEED_POLICY,
    );
    const indexed = IndexedEnforcer.from(casbin);
    assert.equal(indexed.indexed, true);
    forbidCasbin(casbin);
    assert.equal(indexed.enforce({ role: "editor" }, "post", "write"), true);
    assert.equal(indexed.enforce({ role: "viewer" }, "post", "write"), false);
  });
  await t.step("nested attributes", async () => {
    const casbin = await casbinOf(
      model("r.sub.org.role == p.sub && r.obj == p.obj && r.act == p.act"),
      SEED_POLICY,
    );
    const indexed = IndexedEnforcer.from(casbin);
    forbidCasbin(casbin);
    assert.equal(
      indexed.enforce({ org: { role: "admin" } }, "post", "write"),
      true,
    );
  });
  await t.step(
    "CSV quoting and spaces come from casbin's own parser",
    async () => {
      const casbin = await casbinOf(
        model("r.sub == p.sub && r.obj == p.obj && r.act == p.act"),
        'p,  "a, b" ,"say ""hi""",  read  ',
      );
      const expected = await casbin.enforce("a, b", 'say "hi"', "read");
      const indexed = IndexedEnforcer.from(casbin);
      forbidCasbin(casbin);
      assert.equal(indexed.enforce("a, b", 'say "hi"', "read"), expected);
      assert.equal(expected, true);
    },
  );
});

Deno.test("IndexedEnforcer falls back to casbin for what the index cannot answer", async (t) => {
  const cases: [string, string, string, unknown[], string][] = [
    [
      "g() with a domain read from the policy",
      model(
        "g(r.sub, p.sub, p.dom) && r.dom == p.dom && r.obj == p.obj && r.act == p.act",
        {
          request: "sub, dom, obj, act",
          policy: "sub, dom, obj, act",
          extra: "[role_definition]\ng = _, _, _\n",
        },
      ),
      "p, admin, d1, post, write\ng, alice, admin, d1",
      ["alice", "d1", "post", "write"],
      "a request value as domain",
    ],
    [
      "g() twice",
      model("g(r.sub, p.sub) && g(r.obj, p.obj) && r.act == p.act", {
        extra: "[role_definition]\ng = _, _\n",
      }),
      "p, admin, post, write\ng, alice, admin",
      ["alice", "post", "write"],
      "more than once",
    ],
    [
      "a pattern function with its arguments swapped",
      model("r.sub == p.sub && keyMatch(p.obj, r.obj) && r.act == p.act"),
      "p, alice, /posts/*, read",
      ["alice", "/posts/*", "read"],
      "does not take a request value and a policy field",
    ],
    [
      "a function casbin does not define",
      model("r.sub == p.sub && keyMatchCustom(r.obj, p.obj)"),
      "p, alice, /posts/*, read",
      ["alice", "/posts/1", "read"],
      "a function the index does not evaluate",
    ],
    [
      "a regular expression casbin cannot compile",
      model("r.sub == p.sub && regexMatch(r.act, p.act)"),
      "p, bob, /posts, read\np, alice, /posts, *read",
      ["bob", "/posts", "read"],
      "policy rule 2: the regexMatch pattern",
    ],
    [
      "a keyMatch4 pattern casbin throws on when it matches",
      model("r.sub == p.sub && keyMatch4(r.obj, p.obj)"),
      "p, alice, /posts/{id}/(a|b), read",
      ["alice", "/posts/1/a", "read"],
      "tokens and groups differ",
    ],
    [
      "an effect casbin does not define",
      model("r.sub == p.sub && r.obj == p.obj && r.act == p.act", {
        effect: "some(where (p.eft == deny))",
      }),
      "p, alice, post, read",
      ["alice", "post", "read"],
      "policy effect",
    ],
    [
      "a constant",
      model('r.sub == p.sub && r.act == "read"'),
      "p, alice, post, read",
      ["alice", "post", "read"],
      "does not compare a request value",
    ],
    [
      "a member casbin refuses to read",
      model("r.sub.constructor == p.sub && r.obj == p.obj"),
      "p, alice, post, read",
      [{}, "post", "read"],
      "does not compare a request value",
    ],
    [
      "a rule without the compared field",
      model("r.sub == p.sub && r.obj == p.obj && r.act == p.act"),
      "p, alice, post",
      ["alice", "post", undefined],
      "has no string in a field",
    ],
    [
      "an empty policy (casbin then evaluates empty fields)",
      model("r.sub == p.sub && r.obj == p.obj && r.act == p.act"),
      "",
      ["", "", ""],
      "the policy is empty",
    ],
  ];
  for (const [name, text, policy, request, reason] of cases) {
    await t.step(name, async () => {
      const casbin = await casbinOf(text, policy);
      const indexed = IndexedEnforcer.from(casbin);
      assert.equal(indexed.indexed, false);
      assert.match(indexed.reason ?? "", new RegExp(reason));
      const expected = await casbin.enforce(...request).then(
        (value) => ({ value }),
        (error: Error) => ({ error: error.message }),
      );
      const actual = await Promise.resolve(indexed.enforce(...request)).then(
        (value) => ({ value }),
        (error: Error) => ({ error: error.message }),
      );
      assert.deepEqual(actual, expected);
    });
  }
  await t.step("a rule with a number (from a custom adapter)", async () => {
    const casbin = await casbinOf(
      model("r.sub == p.sub && r.obj == p.obj && r.act == p.act"),
    );
    casbin.getModel().addPolicy("p", "p", [
      1 as unknown as string,
      "post",
      "read",
    ]);
    const indexed = IndexedEnforcer.from(casbin);
    assert.match(indexed.reason ?? "", /rule 1 has no string/);
    // casbin's == makes the string "1" equal the number 1.
    assert.equal(await casbin.enforce("1", "post", "read"), true);
    assert.equal(await indexed.enforce("1", "post", "read"), true);
  });
  await t.step(
    "the empty policy allows an empty request in casbin",
    async () => {
      const casbin = await casbinOf(
        model("r.sub == p.sub && r.obj == p.obj && r.act == p.act"),
      );
      assert.equal(
        await IndexedEnforcer.from(casbin).enforce("", "", ""),
        true,
      );
    },
  );
  await t.step("an EnforceContext goes to casbin", async () => {
    const casbin = await casbinOf(SEED, SEED_POLICY);
    const indexed = IndexedEnforcer.from(casbin);
    const calls = countCasbin(casbin);
    const context = new EnforceContext("r", "p", "e", "m");
    assert.equal(
      await indexed.enforce(context, { role: "admin" }, "post", "read"),
      true,
    );
    assert.equal(calls.calls, 1);
  });
  await t.step(
    "a disabled enforcer allows everything, as casbin does",
    async () => {
      const casbin = await casbinOf(SEED, SEED_POLICY);
      casbin.enableEnforce(false);
      const indexed = IndexedEnforcer.from(casbin);
      assert.equal(indexed.indexed, false);
      assert.equal(await indexed.enforce({ role: "x" }, "y", "z"), true);
    },
  );
  await t.step("a subclass that overrides enforce()", async () => {
    class Custom extends CasbinEnforcer {
      override enforce(): Promise<boolean> {
        return Promise.resolve(true);
      }
    }
    const casbin = await casbinOf(SEED, SEED_POLICY);
    Object.setPrototypeOf(casbin, Custom.prototype);
    const indexed = IndexedEnforcer.from(casbin);
    assert.match(indexed.reason ?? "", /overrides enforce/);
    assert.equal(await indexed.enforce({ role: "x" }, "y", "z"), true);
  });
});

const RBAC = model("g(r.sub, p.sub) && r.obj == p.obj && r.act == p.act", {
  extra: "[role_definition]\ng = _, _\n",
});

Deno.test("IndexedEnforcer answers RESTful, multi-tenant and priority models from the index, as casbin does", async (t) => {
  const cases: [string, string, string, unknown[][]][] = [
    [
      "RESTful RBAC: keyMatch2 paths and regexMatch methods",
      model(
        "g(r.sub, p.sub) && keyMatch2(r.obj, p.obj) && regexMatch(r.act, p.act)",
        { extra: "[role_definition]\ng = _, _\n" },
      ),
      `p, reader, /posts/:id, GET
p, writer, /posts/:id, (GET)|(PUT)
p, writer, /posts/:id/comments/*, POST
g, alice, writer
g, bob, reader`,
      [
        ["alice", "/posts/1", "PUT"],
        ["bob", "/posts/1", "PUT"],
        ["bob", "/posts/1", "GET"],
        ["bob", "/posts/1/x", "GET"],
        ["alice", "/posts/1/comments/2/3", "POST"],
        ["alice", "/posts/1/comments", "POST"],
        ["carol", "/posts/1", "GET"],
      ],
    ],
    [
      "domains: g(r.sub, p.sub, r.dom)",
      model(
        "g(r.sub, p.sub, r.dom) && r.dom == p.dom && r.obj == p.obj && r.act == p.act",
        {
          request: "sub, dom, obj, act",
          policy: "sub, dom, obj, act",
          extra: "[role_definition]\ng = _, _, _\n",
        },
      ),
      `p, admin, t1, data, write
p, admin, t2, data, write
g, alice, admin, t1`,
      [
        ["alice", "t1", "data", "write"],
        ["alice", "t2", "data", "write"],
        ["admin", "t2", "data", "write"],
      ],
    ],
    [
      "priority: the first matching rule decides",
      model("g(r.sub, p.sub) && keyMatch(r.obj, p.obj) && r.act == p.act", {
        policy: "priority, sub, obj, act, eft",
        effect: "priority(p.eft) || deny",
        extra: "[role_definition]\ng = _, _\n",
      }),
      `p, 10, staff, /docs/*, read, allow
p, 1, alice, /docs/secret*, read, deny
g, alice, staff`,
      [
        ["alice", "/docs/secret/1", "read"],
        ["alice", "/docs/public", "read"],
        ["bob", "/docs/public", "read"],
      ],
    ],
    [
      "ipMatch and globMatch",
      model(
        "ipMatch(r.sub, p.sub) && globMatch(r.obj, p.obj) && r.act == p.act",
      ),
      `p, 10.0.0.0/8, /files/**, read
p, 192.168.1.7, /files/*.txt, write`,
      [
        ["10.1.2.3", "/files/a/b", "read"],
        ["11.1.2.3", "/files/a/b", "read"],
        ["192.168.1.7", "/files/a.txt", "write"],
        ["192.168.1.7", "/files/a/b.txt", "write"],
      ],
    ],
  ];
  for (const [name, text, policy, requests] of cases) {
    await t.step(name, async () => {
      const casbin = await casbinOf(text, policy);
      const expected: boolean[] = [];
      for (const r of requests) expected.push(await casbin.enforce(...r));
      assert.ok(expected.includes(true) && expected.includes(false));
      const indexed = IndexedEnforcer.from(casbin);
      assert.equal(indexed.indexed, true, indexed.reason);
      forbidCasbin(casbin);
      assert.deepEqual(requests.map((r) => indexed.enforce(...r)), expected);
    });
  }
});

Deno.test("IndexedEnforcer answers g(r.sub, p.sub) with casbin's role links", async (t) => {
  // alice -> editor -> viewer; r0 -> r1 -> ... -> r12 (deeper than casbin's
  // 10 levels).
  const lines = [
    "p, viewer, post, read",
    "p, editor, post, write",
    "p, r10, deep, read",
    "p, r11, deep, write",
    "g, alice, editor",
    "g, editor, viewer",
  ];
  for (let i = 0; i < 12; i++) lines.push(`g, r${i}, r${i + 1}`);
  const casbin = await casbinOf(RBAC, lines.join("\n"));
  const requests = [
    ["alice", "post", "read"],
    ["alice", "post", "write"],
    ["editor", "post", "read"],
    ["viewer", "post", "write"],
    ["bob", "post", "read"],
    ["viewer", "post", "read"],
    ["r0", "deep", "read"],
    ["r0", "deep", "write"],
  ];
  const expected: boolean[] = [];
  for (const r of requests) expected.push(await casbin.enforce(...r));
  assert.deepEqual(expected, [
    true,
    true,
    true,
    false,
    false,
    true,
    true,
    false,
  ]);
  const indexed = IndexedEnforcer.from(casbin);
  await t.step("from the index, transitively, up to casbin's depth", () => {
    assert.equal(indexed.indexed, true);
    const original = {
      enforce: casbin.enforce,
      enforceSync: casbin.enforceSync,
    };
    forbidCasbin(casbin);
    assert.deepEqual(requests.map((r) => indexed.enforce(...r)), expected);
    Object.assign(casbin, original);
  });
  await t.step("a role added later goes to casbin", async () => {
    await casbin.addRoleForUser("bob", "viewer");
    assert.equal(await indexed.enforce("bob", "post", "read"), true);
    assert.equal(indexed.indexed, false);
  });
  await t.step(
    "a role manager with a matching function goes to casbin",
    async () => {
      const patterned = await casbinOf(
        RBAC,
        "p, viewer, post, read\ng, user:*, viewer",
      );
      const fast = IndexedEnforcer.from(patterned);
      await patterned.addNamedMatchingFunc(
        "g",
        (name: string, pattern: string) =>
          name === pattern ||
          (pattern.endsWith("*") && name.startsWith(pattern.slice(0, -1))),
      );
      await patterned.buildRoleLinks();
      assert.equal(await patterned.enforce("user:1", "post", "read"), true);
      const calls = countCasbin(patterned);
      assert.equal(await fast.enforce("user:1", "post", "read"), true);
      assert.equal(calls.calls, 1);
    },
  );
});

Deno.test("IndexedEnforcer notices rules added or removed after indexing", async () => {
  const casbin = await casbinOf(SEED, SEED_POLICY);
  const indexed = IndexedEnforcer.from(casbin, { cache: true });
  assert.equal(indexed.enforce({ role: "guest" }, "post", "read"), false);
  await casbin.addPolicy("guest", "post", "read");
  assert.equal(await indexed.enforce({ role: "guest" }, "post", "read"), true);
  assert.equal(indexed.indexed, false);
  assert.match(indexed.reason ?? "", /changed/);
  await casbin.removePolicy("guest", "post", "read");
  assert.equal(await indexed.enforce({ role: "guest" }, "post", "read"), false);
  assert.equal(indexed.cacheSize, 0);
});

Deno.test("IndexedEnforcer caches the decisions casbin makes, per instance", async (t) => {
  // `!=`: a matcher casbin decides.
  const text = model(
    'r.sub.role == p.sub && keyMatch(r.obj, p.obj) && r.act != "none"',
  );
  const casbin = await casbinOf(text, "p, editor, /posts/*, write");
  const indexed = IndexedEnforcer.from(casbin, { cache: { maxEntries: 2 } });
  const calls = countCasbin(casbin);
  await t.step("a repeated request is answered from the cache", async () => {
    assert.equal(
      await indexed.enforce({ role: "editor" }, "/posts/1", "write"),
      true,
    );
    assert.equal(
      indexed.enforce({ role: "editor" }, "/posts/1", "write"),
      true,
    );
    assert.equal(calls.calls, 1);
  });
  await t.step(
    "requests that differ in a value do not share an entry",
    async () => {
      assert.equal(
        await indexed.enforce({ role: "viewer" }, "/posts/1", "write"),
        false,
      );
      assert.equal(calls.calls, 2);
    },
  );
  await t.step("the cache is bounded", async () => {
    await indexed.enforce({ role: "editor" }, "/posts/2", "write");
    assert.equal(indexed.cacheSize, 2);
  });
  await t.step("uncachable values skip the cache", async () => {
    class Subject {
      role = "editor";
    }
    const before = calls.calls;
    await indexed.enforce(new Subject(), "/posts/1", "write");
    await indexed.enforce(new Subject(), "/posts/1", "write");
    assert.equal(calls.calls, before + 2);
  });
  await t.step(
    "a new indexed enforcer starts with an empty cache",
    async () => {
      const reloaded = await casbinOf(text, "p, viewer, /posts/*, write");
      const next = IndexedEnforcer.from(reloaded, { cache: true });
      assert.equal(next.cacheSize, 0);
      assert.equal(
        await next.enforce({ role: "editor" }, "/posts/1", "write"),
        false,
      );
    },
  );
  await t.step("errors are not cached", async () => {
    const before = calls.calls;
    await assert.rejects(async () =>
      await indexed.enforce(null, "/posts/1", "write")
    );
    await assert.rejects(async () =>
      await indexed.enforce(null, "/posts/1", "write")
    );
    assert.equal(calls.calls, before + 2);
  });
});

Deno.test("IndexedEnforcer uses a key function when one is given", async () => {
  const casbin = await casbinOf(
    model('r.sub.role == p.sub && keyMatch(r.obj, p.obj) && r.act != "none"'),
    "p, editor, /posts/*, write",
  );
  const keys: unknown[][] = [];
  const indexed = IndexedEnforcer.from(casbin, {
    cache: {
      key: (rvals) => {
        keys.push([...rvals]);
        const user = rvals[0] as { role?: unknown; id?: unknown };
        return typeof user.id === "string"
          ? JSON.stringify([user.id, user.role, rvals[1], rvals[2]])
          : undefined;
      },
    },
  });
  const calls = countCasbin(casbin);
  class User {
    constructor(readonly id: string, readonly role: string) {}
  }
  await indexed.enforce(new User("u1", "editor"), "/posts/1", "write");
  assert.equal(
    await indexed.enforce(new User("u1", "editor"), "/posts/1", "write"),
    true,
  );
  assert.equal(calls.calls, 1);
  await indexed.enforce({ role: "editor" }, "/posts/1", "write");
  await indexed.enforce({ role: "editor" }, "/posts/1", "write");
  assert.equal(calls.calls, 3);
  assert.equal(keys.length, 4);
});

Deno.test("IndexedEnforcer with fallback enforceSync answers synchronously", async () => {
  const casbin = await casbinOf(
    model('r.sub == p.sub && keyMatch(r.obj, p.obj) && r.act != "none"'),
    "p, alice, /posts/*, read",
  );
  const indexed = IndexedEnforcer.from(casbin, { fallback: "enforceSync" });
  assert.equal(indexed.indexed, false);
  assert.equal(indexed.enforce("alice", "/posts/1", "read"), true);
  assert.equal(indexed.enforce("bob", "/posts/1", "read"), false);
});

Deno.test("IndexedEnforcer answers a 100,000-rule policy from the index", async () => {
  // Not a timing test: casbin is never asked. The rules go straight into
  // casbin's model, as its adapters put them (parsing 100,000 CSV lines
  // would take most of the test's time).
  const casbin = await casbinOf(SEED, "p, viewer, post, read");
  const policy = casbin.getModel().model.get("p")!.get("p")!.policy;
  for (let i = 0; i < 100_000; i++) {
    policy.push([`role${i}`, `obj${i}`, "read"]);
  }
  const indexed = IndexedEnforcer.from(casbin);
  assert.equal(indexed.indexed, true);
  forbidCasbin(casbin);
  assert.equal(
    indexed.enforce({ role: "role99999" }, "obj99999", "read"),
    true,
  );
  assert.equal(indexed.enforce({ role: "role99999" }, "obj1", "read"), false);
  assert.equal(indexed.enforce({ role: "viewer" }, "post", "read"), true);
});

Deno.test("indexEnforcer() lets the event loop run while it indexes a large policy", async (t) => {
  const casbin = await casbinOf(SEED, "p, viewer, post, read");
  const policy = casbin.getModel().model.get("p")!.get("p")!.policy;
  for (let i = 0; i < 20_000; i++) policy.push([`role${i}`, `obj${i}`, "read"]);
  await t.step("timers fire before the index is ready", async () => {
    const events: string[] = [];
    const timer = new Promise<void>((resolve) =>
      setTimeout(() => {
        events.push("timer");
        resolve();
      }, 0)
    );
    const indexed = await indexEnforcer(casbin);
    events.push("indexed");
    await timer;
    assert.deepEqual(events, ["timer", "indexed"]);
    assert.equal(indexed.indexed, true);
    assert.equal(
      indexed.enforce({ role: "role19999" }, "obj19999", "read"),
      true,
    );
  });
  await t.step("IndexedEnforcer.from() blocks, as documented", async () => {
    const events: string[] = [];
    const timer = new Promise<void>((resolve) =>
      setTimeout(() => {
        events.push("timer");
        resolve();
      }, 0)
    );
    IndexedEnforcer.from(casbin);
    events.push("indexed");
    await timer;
    assert.deepEqual(events, ["indexed", "timer"]);
  });
  await t.step("a rule added while indexing is noticed", async () => {
    const pending = indexEnforcer(casbin);
    await casbin.addPolicy("latecomer", "post", "read");
    const indexed = await pending;
    assert.equal(
      await indexed.enforce({ role: "latecomer" }, "post", "read"),
      true,
    );
    assert.equal(indexed.indexed, false);
  });
  await t.step("bad options are refused before indexing", async () => {
    await assert.rejects(
      () => indexEnforcer(casbin, { cache: { maxEntries: -1 } }),
      RangeError,
    );
  });
});

Deno.test("IndexedEnforcer rejects bad arguments", async () => {
  assert.throws(() => IndexedEnforcer.from({} as CasbinEnforcer), {
    name: "TypeError",
    message: /Cannot index the enforcer/,
  });
  const casbin = await casbinOf(SEED, SEED_POLICY);
  assert.throws(
    () => IndexedEnforcer.from(casbin, { fallback: "other" as "enforce" }),
    { name: "TypeError", message: /unknown fallback "other"/ },
  );
  assert.throws(
    () => IndexedEnforcer.from(casbin, { cache: { maxEntries: 0 } }),
    { name: "RangeError", message: /maxEntries/ },
  );
});

Deno.test("indexEnforcer() as the prepare hook of CachedFileEnforcerProvider never serves a decision of the old policy", async () => {
  const dir = await Deno.makeTempDir();
  try {
    const modelPath = `${dir}/model.conf`;
    const policyPath = `${dir}/policy.csv`;
    await Deno.writeTextFile(
      modelPath,
      model("r.sub.role == p.sub && keyMatch(r.obj, p.obj) && r.act == p.act"),
    );
    await Deno.writeTextFile(policyPath, "p, viewer, /posts/*, read\n");
    await using provider = await CachedFileEnforcerProvider.open({
      modelPath,
      policyPath,
      prepare: (casbin) => indexEnforcer(casbin, { cache: true }),
      onError: () => {},
    });
    const first = await provider.getEnforcer();
    assert.ok(first instanceof IndexedEnforcer);
    const viewer = { role: "viewer" };
    assert.equal(await first.enforce(viewer, "/posts/1", "write"), false);
    assert.equal(first.enforce(viewer, "/posts/1", "write"), false); // cached
    await Deno.writeTextFile(
      policyPath,
      "p, viewer, /posts/*, read\np, viewer, /posts/*, write\n",
    );
    // Wait for the reload (bounded), then decide with the new enforcer.
    let next = await provider.getEnforcer();
    for (let i = 0; i < 100 && next === first; i++) {
      await new Promise((resolve) => setTimeout(resolve, 50));
      next = await provider.getEnforcer();
    }
    assert.notEqual(next, first);
    assert.equal(next.cacheSize, 0);
    assert.equal(await next.enforce(viewer, "/posts/1", "write"), true);
    // The old enforcer keeps its own policy and cache for requests in flight.
    assert.equal(first.enforce(viewer, "/posts/1", "write"), false);
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});
