import assert from "node:assert/strict";
import { URLPattern as PolyfillURLPattern } from "urlpattern-polyfill/urlpattern";
import { AccessSubject } from "../../src/guard/access_subject.ts";
import { HttpError } from "../../src/guard/http_error.ts";
import { bearerUserProvider } from "../../src/guard/bearer_user_provider.ts";
import { PermissionGuard } from "../../src/guard/permission_guard.ts";
import { makeEnforcer } from "../fixtures/guard/casbin.ts";

function post(body: string, path = "/posts"): Request {
  return new Request(`http://localhost${path}`, { method: "POST", body });
}

Deno.test("AccessSubject.param() reads a path group with a string or URLPattern pattern", async (t) => {
  await t.step("string pattern", async () => {
    const id = AccessSubject.param("id", "/posts/:id");
    assert.equal(
      await id.resolve(new Request("http://localhost/posts/42?x=1")),
      "42",
    );
  });
  await t.step("native URLPattern", async () => {
    const team = AccessSubject.param(
      "team",
      new URLPattern({ pathname: "/teams/:team/*" }),
    );
    assert.equal(
      await team.resolve(new Request("http://localhost/teams/blue/a/b")),
      "blue",
    );
  });
  await t.step("urlpattern-polyfill URLPattern", async () => {
    const id = AccessSubject.param(
      "id",
      new PolyfillURLPattern({ pathname: "/posts/:id" }),
    );
    assert.equal(await id.resolve(new Request("http://x.test/posts/9")), "9");
  });
  await t.step("URL that does not match", async () => {
    const id = AccessSubject.param("id", "/posts/:id");
    for (const url of ["/users/1", "/posts/1/", "/Posts/1"]) {
      await assert.rejects(
        () => id.resolve(new Request(`http://localhost${url}`)),
        (error: unknown) =>
          error instanceof HttpError && error.status === 404 &&
          error.detail === "Not Found",
        url,
      );
    }
  });
  await t.step("percent-encoded group is decoded", async () => {
    const id = AccessSubject.param("id", "/posts/:id");
    for (
      const [path, expected] of [
        ["/posts/a%20b", "a b"],
        ["/posts/%73ecret", "secret"],
        ["/posts/1%2F2", "1/2"],
        ["/posts/1%2f2", "1/2"],
        ["/posts/%C3%A9t%C3%A9", "été"],
        ["/posts/été", "été"],
        ["/posts/100%25", "100%"],
        ["/posts/a+b", "a+b"],
      ]
    ) {
      assert.equal(
        await id.resolve(new Request(`http://localhost${path}`)),
        expected,
        path,
      );
    }
  });
  await t.step("malformed percent-encoding answers 400", async () => {
    const id = AccessSubject.param("id", "/posts/:id");
    for (
      const path of ["/posts/%E0%A4%A", "/posts/%zz", "/posts/%", "/posts/%C3"]
    ) {
      await assert.rejects(
        () => id.resolve(new Request(`http://localhost${path}`)),
        (error: unknown) =>
          error instanceof HttpError && error.status === 400 &&
          error.detail === "Invalid percent-encoding in path",
        path,
      );
    }
  });
});

Deno.test("AccessSubjectContext.params holds decoded groups; a malformed one refuses with 400 when read", async () => {
  const seen: unknown[] = [];
  const subject = new AccessSubject({
    pattern: "/teams/:team/posts/:id",
    value: (_request, ctx) => {
      seen.push(ctx.params.team, ctx.params.id);
      return ctx.params.team;
    },
  });
  assert.equal(
    await subject.resolve(new Request("http://localhost/teams/r%26d/posts/7")),
    "r&d",
  );
  assert.deepEqual(seen, ["r&d", "7"]);
  await assert.rejects(
    () => subject.resolve(new Request("http://localhost/teams/%FF/posts/7")),
    (error: unknown) => error instanceof HttpError && error.status === 400,
  );
});

Deno.test("AccessSubject.query() and .header() read values, null when absent", async () => {
  const request = new Request("http://localhost/?project=docs&project=two", {
    headers: { "X-Tenant": "acme" },
  });
  assert.equal(await AccessSubject.query("project").resolve(request), "docs");
  assert.equal(await AccessSubject.query("missing").resolve(request), null);
  assert.equal(await AccessSubject.header("x-tenant").resolve(request), "acme");
  assert.equal(await AccessSubject.header("x-other").resolve(request), null);
});

Deno.test("AccessSubject.query() gives the decoded value, as URLSearchParams decodes it", async () => {
  const request = new Request(
    "http://localhost/?p=%73ecret&q=a+b&r=1%2F2&s=%C3%A9t%C3%A9&t=%E0%A4%A",
  );
  const values = await Promise.all(
    ["p", "q", "r", "s", "t"].map((name) =>
      AccessSubject.query(name).resolve(request)
    ),
  );
  // A malformed sequence in a query value is kept as replacement
  // characters by URLSearchParams, the value handlers read too.
  assert.deepEqual(values, ["secret", "a b", "1/2", "été", "\uFFFD%A"]);
});

Deno.test("AccessSubject.body() reads the JSON body and leaves it readable", async () => {
  const request = post('{"owner":"ana","tags":["a"]}');
  const owner = AccessSubject.body((body) => (body as { owner: string }).owner);
  const whole = AccessSubject.body();
  assert.equal(await owner.resolve(request), "ana");
  assert.deepEqual(await whole.resolve(request), {
    owner: "ana",
    tags: ["a"],
  });
  assert.equal(request.bodyUsed, false);
  assert.deepEqual(await request.json(), { owner: "ana", tags: ["a"] });
});

Deno.test("AccessSubject.body() rejects with HttpError 400 on a body that is not JSON", async (t) => {
  for (const body of ["{oops", "", "undefined"]) {
    await t.step(JSON.stringify(body), async () => {
      const request = post(body);
      await assert.rejects(
        () => AccessSubject.body().resolve(request),
        (error: unknown) => {
          assert.ok(error instanceof HttpError);
          assert.equal(error.status, 400);
          assert.equal(error.detail, "Invalid JSON body");
          return true;
        },
      );
      assert.equal(await request.text(), body);
    });
  }
  await t.step("GET without a body", async () => {
    await assert.rejects(
      () => AccessSubject.body().resolve(new Request("http://localhost/")),
      HttpError,
    );
  });
});

Deno.test("AccessSubject.body() rejects with TypeError when the body was already consumed", async () => {
  const request = post("{}");
  await request.text();
  await assert.rejects(() => AccessSubject.body().resolve(request), {
    name: "TypeError",
    message: /Cannot read request body/,
  });
});

Deno.test("new AccessSubject() passes the request and a context, then applies the selector", async () => {
  const seen: unknown[] = [];
  const subject = new AccessSubject({
    pattern: "/orgs/:org/posts",
    value: async (request, ctx) => {
      seen.push(request.method);
      return {
        org: ctx.params.org,
        page: ctx.query.get("page"),
        host: ctx.url.host,
        agent: ctx.headers.get("user-agent"),
        body: await ctx.json(),
      };
    },
    selector: (value) =>
      `${value.org}:${value.page}:${value.host}:${value.agent}:${
        JSON.stringify(value.body)
      }`,
  });
  const request = new Request("http://example.test/orgs/acme/posts?page=2", {
    method: "PUT",
    headers: { "user-agent": "t" },
    body: "[1]",
  });
  assert.equal(await subject.resolve(request), "acme:2:example.test:t:[1]");
  assert.deepEqual(seen, ["PUT"]);
  assert.equal(await request.text(), "[1]");
});

Deno.test("new AccessSubject() gives empty params without a pattern", async () => {
  const subject = new AccessSubject({ value: (_r, ctx) => ctx.params });
  assert.deepEqual(
    await subject.resolve(new Request("http://localhost/posts/1")),
    {},
  );
});

Deno.test("AccessSubject.resolve() propagates the value function's errors", async () => {
  const refused = new AccessSubject({
    value: () => {
      throw new HttpError(422, "Unprocessable Content");
    },
  });
  await assert.rejects(
    () => refused.resolve(new Request("http://localhost/")),
    HttpError,
  );
});

Deno.test("new AccessSubject() throws TypeError on bad options", () => {
  const bad = [
    undefined,
    {},
    { value: "x" },
    { value: () => 1, selector: 3 },
    { value: () => 1, pattern: 42 },
    { value: () => 1, pattern: {} },
  ];
  for (const options of bad) {
    assert.throws(
      () => new AccessSubject(options as never),
      { name: "TypeError", message: /Cannot create AccessSubject/ },
    );
  }
});

Deno.test("new AccessSubject() with a string pattern throws TypeError where URLPattern is missing", () => {
  const descriptor = Object.getOwnPropertyDescriptor(globalThis, "URLPattern");
  assert.ok(descriptor?.configurable);
  delete (globalThis as { URLPattern?: unknown }).URLPattern;
  try {
    assert.throws(() => AccessSubject.param("id", "/posts/:id"), {
      name: "TypeError",
      message: /no global URLPattern for "\/posts\/:id"/,
    });
    // A URLPattern instance still works without the global.
    AccessSubject.param("id", new PolyfillURLPattern({ pathname: "/:id" }));
  } finally {
    Object.defineProperty(globalThis, "URLPattern", descriptor);
  }
});

Deno.test("AccessSubject.param() keeps a deny rule effective on URL variants", async () => {
  const enforcer = await makeEnforcer(
    "p, bob, *, read, allow\np, bob, secret, read, deny\n",
    `[request_definition]
r = sub, obj, act

[policy_definition]
p = sub, obj, act, eft

[policy_effect]
e = some(where (p.eft == allow)) && !some(where (p.eft == deny))

[matchers]
m = r.sub.role == p.sub && (r.obj == p.obj || p.obj == "*") && r.act == p.act
`,
  );
  const guard = new PermissionGuard({
    userProvider: bearerUserProvider,
    enforcerProvider: () => enforcer,
  });
  const handler = guard.requirePermission(
    AccessSubject.param("board", "/boards/:board"),
    "read",
  )(() => new Response("board"));
  const get = async (path: string): Promise<number> => {
    const response = await handler(
      new Request(`http://localhost${path}`, {
        headers: { authorization: "Bearer bob" },
      }),
    );
    await response.body?.cancel();
    return response.status;
  };
  assert.equal(await get("/boards/public"), 200);
  assert.equal(await get("/boards/secret"), 403);
  assert.equal(await get("/boards/secret/"), 404);
  assert.equal(await get("/Boards/secret"), 404);
});
