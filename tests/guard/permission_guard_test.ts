import assert from "node:assert/strict";
import { AccessSubject } from "../../src/guard/access_subject.ts";
import { bearerUserProvider } from "../../src/guard/bearer_user_provider.ts";
import type { Enforcer } from "../../src/guard/enforcer.ts";
import { HttpError } from "../../src/guard/http_error.ts";
import {
  PermissionGuard,
  type PermissionGuardOptions,
} from "../../src/guard/permission_guard.ts";
import type { User } from "../../src/guard/user.ts";
import { makeEnforcer, MODEL } from "../fixtures/guard/casbin.ts";

const INTERNAL = '{"detail":"Internal Server Error"}';

function request(
  role?: string,
  init: RequestInit & { path?: string } = {},
): Request {
  const headers = new Headers(init.headers);
  if (role !== undefined) headers.set("authorization", `Bearer ${role}`);
  return new Request(`http://localhost${init.path ?? "/posts"}`, {
    ...init,
    headers,
  });
}

/** A guard over real casbin that records every error it answered 500 for. */
async function casbinGuard(
  options: Partial<PermissionGuardOptions> = {},
): Promise<{ guard: PermissionGuard; errors: unknown[] }> {
  const enforcer = await makeEnforcer();
  const errors: unknown[] = [];
  const guard = new PermissionGuard({
    userProvider: bearerUserProvider,
    enforcerProvider: () => enforcer,
    onError: (error) => errors.push(error),
    ...options,
  });
  return { guard, errors };
}

function fixed(result: unknown): Enforcer {
  return { enforce: () => result as boolean };
}

const ok = (): Response => new Response("handler ran");

Deno.test("PermissionGuard.authRequired() answers the user provider's 401 without running the handler", async () => {
  const { guard } = await casbinGuard();
  let ran = false;
  const handler = guard.authRequired()(() => {
    ran = true;
    return new Response("ok");
  });
  const response = await handler(request());
  assert.equal(response.status, 401);
  assert.equal(response.headers.get("www-authenticate"), "Bearer");
  assert.equal(response.headers.get("content-type"), "application/json");
  assert.equal(await response.text(), '{"detail":"Unauthorized"}');
  assert.equal(ran, false);
});

Deno.test("PermissionGuard.authRequired() runs the handler with its own arguments for any user", async () => {
  const { guard } = await casbinGuard({
    enforcerProvider: () => {
      throw new Error("authRequired must not ask for an enforcer");
    },
  });
  const info = { remoteAddr: "127.0.0.1" };
  const handler = guard.authRequired()(
    (req: Request, extra: { remoteAddr: string }) =>
      Response.json({ user: guard.getUser(req), extra }),
  );
  const response = await handler(request("nobody-in-the-policy"), info);
  assert.equal(response.status, 200);
  assert.deepEqual(await response.json(), {
    user: { role: "nobody-in-the-policy" },
    extra: info,
  });
});

Deno.test("PermissionGuard.requirePermission() follows a real casbin policy", async (t) => {
  const { guard, errors } = await casbinGuard();
  const read = guard.requirePermission("post", "read")(ok);
  const write = guard.requirePermission("post", "write")(ok);
  const cases: [string, typeof read, string, number][] = [
    ["admin", write, "write", 200],
    ["editor", write, "write", 200],
    ["viewer", write, "write", 403],
    ["admin", read, "read", 200],
    ["editor", read, "read", 200],
    ["viewer", read, "read", 200],
    ["guest", read, "read", 403],
    ["Viewer", read, "read", 403],
  ];
  for (const [role, handler, action, status] of cases) {
    await t.step(`${role} ${action} -> ${status}`, async () => {
      const response = await handler(request(role));
      assert.equal(response.status, status);
      assert.equal(
        await response.text(),
        status === 200 ? "handler ran" : '{"detail":"Forbidden"}',
      );
    });
  }
  await t.step("no user -> 401", async () => {
    assert.equal((await read(request())).status, 401);
  });
  assert.deepEqual(errors, []);
});

Deno.test("PermissionGuard.requirePermission() allows only an enforce() result that is exactly true", async (t) => {
  for (
    const result of [
      1,
      "true",
      {},
      [],
      false,
      undefined,
      null,
      Promise.resolve(1),
      Promise.resolve("yes"),
    ]
  ) {
    await t.step(`enforce() -> ${String(result)}`, async () => {
      const guard = new PermissionGuard({
        userProvider: bearerUserProvider,
        enforcerProvider: () => fixed(result),
      });
      const response = await guard.requirePermission("post", "read")(ok)(
        request("admin"),
      );
      assert.equal(response.status, 403);
    });
  }
  await t.step("enforce() -> Promise<true>", async () => {
    const guard = new PermissionGuard({
      userProvider: bearerUserProvider,
      enforcerProvider: () => ({ enforce: () => Promise.resolve(true) }),
    });
    const response = await guard.requirePermission("post", "read")(ok)(
      request("admin"),
    );
    assert.equal(await response.text(), "handler ran");
  });
});

Deno.test("PermissionGuard.requirePermission() passes the user then the resolved arguments in order", async () => {
  const calls: unknown[][] = [];
  const guard = new PermissionGuard({
    userProvider: bearerUserProvider,
    enforcerProvider: () => ({
      enforce: (...rvals: unknown[]) => {
        calls.push(rvals);
        return true;
      },
    }),
  });
  const tag = { kind: "fixed object" };
  const handler = guard.requirePermission(
    AccessSubject.param("id", "/posts/:id"),
    "edit",
    AccessSubject.query("draft"),
    tag,
    AccessSubject.header("x-tenant"),
  )(ok);
  await handler(
    request("editor", {
      path: "/posts/17?draft=yes",
      headers: { "x-tenant": "acme" },
    }),
  );
  assert.deepEqual(calls, [[
    { role: "editor" },
    "17",
    "edit",
    "yes",
    tag,
    "acme",
  ]]);
  assert.equal(calls[0]?.[4], tag);
});

Deno.test("PermissionGuard.requirePermission() decides on the JSON body and leaves it readable for the handler", async () => {
  const enforcer = await makeEnforcer(
    "p, editor, news, write\n",
  );
  const guard = new PermissionGuard({
    userProvider: bearerUserProvider,
    enforcerProvider: () => enforcer,
  });
  const handler = guard.requirePermission(
    AccessSubject.body((body) => (body as { category?: string }).category),
    "write",
  )(async (req) => Response.json(await req.json(), { status: 201 }));
  const allowed = await handler(
    request("editor", { method: "POST", body: '{"category":"news","n":1}' }),
  );
  assert.equal(allowed.status, 201);
  assert.deepEqual(await allowed.json(), { category: "news", n: 1 });
  const denied = await handler(
    request("editor", { method: "POST", body: '{"category":"ads"}' }),
  );
  assert.equal(denied.status, 403);
  const invalid = await handler(
    request("editor", { method: "POST", body: "{not json" }),
  );
  assert.equal(invalid.status, 400);
  assert.equal(await invalid.text(), '{"detail":"Invalid JSON body"}');
});

Deno.test("PermissionGuard errorFactory receives the user and resolved arguments and shapes the denial", async (t) => {
  const seen: unknown[][] = [];
  const { guard } = await casbinGuard({
    errorFactory: (user, ...args) => {
      seen.push([user, ...args]);
      return new HttpError(404, "Not Found", { headers: { "x-why": "hid" } });
    },
  });
  await t.step("guard-level factory", async () => {
    const response = await guard.requirePermission(
      AccessSubject.param("kind", "/:kind"),
      "write",
    )(ok)(request("viewer", { path: "/post" }));
    assert.equal(response.status, 404);
    assert.equal(response.headers.get("x-why"), "hid");
    assert.equal(await response.text(), '{"detail":"Not Found"}');
    assert.deepEqual(seen, [[{ role: "viewer" }, "post", "write"]]);
  });
  await t.step("per-route factory returning a Response", async () => {
    const base = guard.requirePermission("post", "write");
    const custom = base.withErrorFactory((user) =>
      new Response(`no ${(user as User).role}`, { status: 418 })
    );
    const response = await custom(ok)(request("viewer"));
    assert.equal(response.status, 418);
    assert.equal(await response.text(), "no viewer");
    // The original wrapper keeps the guard's factory.
    assert.equal((await base(ok)(request("viewer"))).status, 404);
  });
  await t.step("factory not called when allowed", async () => {
    seen.length = 0;
    const response = await guard.requirePermission("post", "read")(ok)(
      request("viewer"),
    );
    assert.equal(response.status, 200);
    assert.deepEqual(seen, []);
  });
  await t.step("factory throwing an HttpError", async () => {
    const response = await guard.requirePermission("post", "write")
      .withErrorFactory(() => {
        throw new HttpError(409, "Conflict");
      })(ok)(request("viewer"));
    assert.equal(response.status, 409);
  });
});

Deno.test("PermissionGuard fails closed with a bare 500 on any unexpected error", async (t) => {
  const secret = "secret-detail-db-password";
  const boom = (): never => {
    throw new Error(secret);
  };
  const casbin = await makeEnforcer();
  const cases: [string, Partial<PermissionGuardOptions>, unknown[]][] = [
    ["user provider throws", { userProvider: boom }, ["post", "read"]],
    [
      "user provider rejects",
      { userProvider: () => Promise.reject(new RangeError(secret)) },
      ["post", "read"],
    ],
    [
      "user provider returns undefined",
      { userProvider: () => undefined as unknown as User },
      ["post", "read"],
    ],
    ["enforcer provider throws", { enforcerProvider: boom }, ["post", "read"]],
    [
      "enforcer provider object rejects",
      { enforcerProvider: { getEnforcer: () => Promise.reject(secret) } },
      ["post", "read"],
    ],
    [
      "enforcer provider returns a non-enforcer",
      { enforcerProvider: () => ({}) as Enforcer },
      ["post", "read"],
    ],
    ["enforce() throws", { enforcerProvider: () => ({ enforce: boom }) }, [
      "post",
      "read",
    ]],
    [
      "enforce() rejects",
      {
        enforcerProvider: () => ({ enforce: () => Promise.reject(secret) }),
      },
      ["post", "read"],
    ],
    ["access subject throws", { enforcerProvider: () => casbin }, [
      new AccessSubject({ value: boom }),
      "read",
    ]],
    ["selector throws", { enforcerProvider: () => casbin }, [
      new AccessSubject({ value: () => 1, selector: boom }),
      "read",
    ]],
    ["error factory throws", { errorFactory: boom }, ["post", "write"]],
    [
      "error factory returns neither HttpError nor Response",
      { errorFactory: () => ({ status: 200 }) as unknown as Response },
      ["post", "write"],
    ],
  ];
  for (const [name, options, args] of cases) {
    await t.step(name, async () => {
      const { guard, errors } = await casbinGuard(options);
      let ran = false;
      const handler = guard.requirePermission(...args)(() => {
        ran = true;
        return new Response("handler ran");
      });
      const response = await handler(request("viewer"));
      assert.equal(response.status, 500);
      assert.equal(response.headers.get("content-type"), "application/json");
      const body = await response.text();
      assert.equal(body, INTERNAL);
      assert.equal(ran, false);
      assert.equal(errors.length, 1);
    });
  }
});

Deno.test("PermissionGuard answers 500 when a casbin matcher throws on every enforce()", async () => {
  const broken = MODEL.replace(
    "r.act == p.act",
    "r.act == p.act && r.sub.role.missing.deeper == 1",
  );
  const enforcer = await makeEnforcer(undefined, broken);
  const errors: unknown[] = [];
  const guard = new PermissionGuard({
    userProvider: bearerUserProvider,
    enforcerProvider: () => enforcer,
    onError: (error) => errors.push(error),
  });
  const response = await guard.requirePermission("post", "read")(ok)(
    request("viewer"),
  );
  assert.equal(response.status, 500);
  assert.equal(await response.text(), INTERNAL);
  assert.equal(errors.length, 1);
});

Deno.test("PermissionGuard logs unexpected errors with console.error by default", async () => {
  const logged: unknown[][] = [];
  // deno-lint-ignore no-console
  const original = console.error;
  // deno-lint-ignore no-console
  console.error = (...data: unknown[]) => logged.push(data);
  try {
    const guard = new PermissionGuard({
      userProvider: () => {
        throw new Error("provider exploded");
      },
      enforcerProvider: () => fixed(true),
    });
    const response = await guard.authRequired()(ok)(
      request("admin", { path: "/posts?access_token=s3cret" }),
    );
    assert.equal(await response.text(), INTERNAL);
  } finally {
    // deno-lint-ignore no-console
    console.error = original;
  }
  assert.equal(logged.length, 1);
  assert.equal(logged[0]?.[0], "portcullis: answered 500 to GET /posts:");
  assert.equal((logged[0]?.[1] as Error).message, "provider exploded");
});

Deno.test("PermissionGuard keeps answering 500 when the onError hook throws", async () => {
  const guard = new PermissionGuard({
    userProvider: bearerUserProvider,
    enforcerProvider: () => {
      throw new Error("down");
    },
    onError: () => {
      throw new Error("hook down too");
    },
  });
  const response = await guard.requirePermission("post", "read")(ok)(
    request("admin"),
  );
  assert.equal(response.status, 500);
  assert.equal(await response.text(), INTERNAL);
});

Deno.test("PermissionGuard wrappers stack: user resolved once, outer first, first denial answers", async (t) => {
  let resolutions = 0;
  const order: string[] = [];
  const guard = new PermissionGuard({
    userProvider: (req) => {
      resolutions++;
      return bearerUserProvider(req);
    },
    enforcerProvider: () => ({
      enforce: (user: unknown, object: unknown) => {
        order.push(String(object));
        return (user as User).role === "admin" || object === "outer";
      },
    }),
  });
  const handler = guard.authRequired()(
    guard.requirePermission("outer")(
      guard.requirePermission("inner")(
        (req) => new Response(guard.getUser(req).role),
      ),
    ),
  );
  await t.step("allowed through every layer", async () => {
    const response = await handler(request("admin"));
    assert.equal(await response.text(), "admin");
    assert.equal(resolutions, 1);
    assert.deepEqual(order, ["outer", "inner"]);
  });
  await t.step("inner denial", async () => {
    resolutions = 0;
    order.length = 0;
    const response = await handler(request("viewer"));
    assert.equal(response.status, 403);
    assert.equal(resolutions, 1);
    assert.deepEqual(order, ["outer", "inner"]);
  });
  await t.step("outer denial short-circuits the inner check", async () => {
    order.length = 0;
    const denyAll = guard.requirePermission("never")(
      guard.requirePermission("inner")(ok),
    );
    const response = await denyAll(request("viewer"));
    assert.equal(response.status, 403);
    assert.deepEqual(order, ["never"]);
  });
  await t.step("401 before any check", async () => {
    order.length = 0;
    resolutions = 0;
    assert.equal((await handler(request())).status, 401);
    assert.deepEqual(order, []);
    assert.equal(resolutions, 1);
  });
});

Deno.test("PermissionGuard asks the enforcer provider on every request", async () => {
  let current = fixed(true);
  class Source {
    #calls = 0;
    get calls(): number {
      return this.#calls;
    }
    getEnforcer(): Enforcer {
      this.#calls++;
      return current;
    }
  }
  const source = new Source();
  const guard = new PermissionGuard({
    userProvider: bearerUserProvider,
    enforcerProvider: source,
  });
  const handler = guard.requirePermission("post", "read")(ok);
  assert.equal((await handler(request("viewer"))).status, 200);
  current = fixed(false);
  assert.equal((await handler(request("viewer"))).status, 403);
  assert.equal(source.calls, 2);
});

Deno.test("PermissionGuard.getUser() throws TypeError for a request no wrapper of this guard saw", async () => {
  const { guard } = await casbinGuard();
  const other = (await casbinGuard()).guard;
  const req = request("admin");
  assert.throws(() => guard.getUser(req), {
    name: "TypeError",
    message: /Cannot get user/,
  });
  await other.authRequired()(ok)(req);
  assert.throws(() => guard.getUser(req), TypeError);
  assert.deepEqual(other.getUser(req), { role: "admin" });
});

Deno.test("PermissionGuard turns an HttpError from the handler into its JSON answer and rethrows other errors", async () => {
  const { guard } = await casbinGuard();
  const notFound = guard.authRequired()(() => {
    throw new HttpError(404, "Not Found");
  });
  const response = await notFound(request("viewer"));
  assert.equal(response.status, 404);
  assert.equal(await response.text(), '{"detail":"Not Found"}');
  const crash = guard.authRequired()(() => {
    throw new Error("handler bug");
  });
  await assert.rejects(async () => await crash(request("viewer")), {
    message: "handler bug",
  });
});

Deno.test("new PermissionGuard() throws TypeError on badly shaped options", () => {
  const good: PermissionGuardOptions = {
    userProvider: bearerUserProvider,
    enforcerProvider: () => fixed(true),
  };
  const bad = [
    { ...good, userProvider: "x" },
    { ...good, enforcerProvider: {} },
    { ...good, enforcerProvider: undefined },
    { ...good, errorFactory: 403 },
    { ...good, onError: "log" },
    undefined,
  ];
  for (const options of bad) {
    assert.throws(
      () => new PermissionGuard(options as unknown as PermissionGuardOptions),
      { name: "TypeError", message: /Cannot create PermissionGuard/ },
    );
  }
  const guard = new PermissionGuard(good);
  assert.throws(
    () => guard.authRequired()("nope" as unknown as () => Response),
    { name: "TypeError", message: /Cannot guard handler/ },
  );
  assert.throws(
    () =>
      guard.requirePermission("post").withErrorFactory(
        null as unknown as () => Response,
      ),
    TypeError,
  );
});

/** A thenable that is not a Promise, settled on the next microtask. */
function thenable<T>(value: T, fail = false): PromiseLike<T> {
  return {
    then<R1 = T, R2 = never>(
      onFulfilled?: ((value: T) => R1 | PromiseLike<R1>) | null,
      onRejected?: ((reason: unknown) => R2 | PromiseLike<R2>) | null,
    ): PromiseLike<R1 | R2> {
      return Promise.resolve().then(() => fail ? Promise.reject(value) : value)
        .then(onFulfilled, onRejected);
    },
  };
}

type Delivery = "sync" | "promise" | "thenable";
const DELIVERIES: Delivery[] = ["sync", "promise", "thenable"];

function deliver<T>(how: Delivery, value: T): T | Promise<T> {
  if (how === "sync") return value;
  if (how === "promise") return Promise.resolve(value);
  return thenable(value) as Promise<T>;
}

Deno.test("PermissionGuard decides the same whether user, enforcer and decision come synchronously, as promises or as thenables", async (t) => {
  for (const userHow of DELIVERIES) {
    for (const enforcerHow of DELIVERIES) {
      for (const decisionHow of DELIVERIES) {
        await t.step(
          `user ${userHow}, enforcer ${enforcerHow}, decision ${decisionHow}`,
          async () => {
            const calls: unknown[][] = [];
            const errors: unknown[] = [];
            const guard = new PermissionGuard({
              userProvider: (req) => deliver(userHow, bearerUserProvider(req)),
              enforcerProvider: () =>
                deliver(enforcerHow, {
                  enforce: (...rvals: unknown[]) => {
                    calls.push(rvals);
                    return deliver(
                      decisionHow,
                      (rvals[0] as User).role === "editor",
                    );
                  },
                }),
              onError: (error) => errors.push(error),
            });
            let ran = 0;
            const handler = guard.requirePermission("post", "write")(
              (req) => {
                ran++;
                return new Response(guard.getUser(req).role);
              },
            );
            const allowed = handler(request("editor"));
            // All synchronous: the handler's own Response comes back as it
            // is; any thenable on the way makes the answer a promise.
            const synchronous = userHow === "sync" && enforcerHow === "sync" &&
              decisionHow === "sync";
            assert.equal(allowed instanceof Response, synchronous);
            assert.equal(allowed instanceof Promise, !synchronous);
            assert.equal(await (await allowed).text(), "editor");
            const denied = await handler(request("viewer"));
            assert.equal(denied.status, 403);
            assert.equal(await denied.text(), '{"detail":"Forbidden"}');
            assert.equal((await handler(request())).status, 401);
            assert.equal(ran, 1);
            assert.deepEqual(calls, [
              [{ role: "editor" }, "post", "write"],
              [{ role: "viewer" }, "post", "write"],
            ]);
            assert.deepEqual(errors, []);
          },
        );
      }
    }
  }
});

Deno.test("PermissionGuard fails closed on thenables that reject or whose then() throws", async (t) => {
  const secret = "secret-detail";
  const throwingThen = {
    get then(): never {
      throw new Error(secret);
    },
  };
  const cases: [string, Partial<PermissionGuardOptions>][] = [
    ["user thenable rejects", {
      userProvider: () => thenable(secret, true) as unknown as Promise<User>,
    }],
    ["user then getter throws", {
      userProvider: () => throwingThen as unknown as User,
    }],
    ["enforcer thenable rejects", {
      enforcerProvider: () =>
        thenable(secret, true) as unknown as Promise<Enforcer>,
    }],
    ["decision thenable rejects", {
      enforcerProvider: () => ({
        enforce: () => thenable(secret, true) as unknown as Promise<boolean>,
      }),
    }],
    ["decision then getter throws", {
      enforcerProvider: () => ({
        enforce: () => throwingThen as unknown as boolean,
      }),
    }],
  ];
  for (const [name, options] of cases) {
    await t.step(name, async () => {
      const { guard, errors } = await casbinGuard(options);
      let ran = false;
      const handler = guard.requirePermission("post", "read")(() => {
        ran = true;
        return new Response("handler ran");
      });
      const response = await handler(request("admin"));
      assert.equal(response.status, 500);
      assert.equal(await response.text(), INTERNAL);
      assert.equal(ran, false);
      assert.equal(errors.length, 1);
    });
  }
});

Deno.test("PermissionGuard denies a decision thenable that resolves to anything but true", async (t) => {
  for (const result of [1, "true", {}, null, undefined, false]) {
    await t.step(`thenable of ${String(result)}`, async () => {
      const guard = new PermissionGuard({
        userProvider: bearerUserProvider,
        enforcerProvider: () => ({
          enforce: () => thenable(result) as Promise<boolean>,
        }),
      });
      const response = await guard.requirePermission("post", "read")(ok)(
        request("admin"),
      );
      assert.equal(response.status, 403);
    });
  }
});

Deno.test("PermissionGuard resolves an asynchronous user once across stacked wrappers", async () => {
  let resolutions = 0;
  const guard = new PermissionGuard({
    userProvider: async (req) => {
      resolutions++;
      await new Promise((resolve) => setTimeout(resolve, 1));
      return bearerUserProvider(req);
    },
    enforcerProvider: () => fixed(true),
  });
  const handler = guard.authRequired()(
    guard.requirePermission("post", "read")(
      guard.requirePermission("post", "write")(
        (req) => new Response(guard.getUser(req).role),
      ),
    ),
  );
  assert.equal(await (await handler(request("editor"))).text(), "editor");
  assert.equal(resolutions, 1);
});

Deno.test("PermissionGuard.getUser() works for a frozen request", async () => {
  const { guard } = await casbinGuard();
  const other = (await casbinGuard()).guard;
  const req = Object.freeze(request("editor"));
  const response = await guard.requirePermission("post", "write")(
    (r) => new Response(guard.getUser(r).role),
  )(req);
  assert.equal(await response.text(), "editor");
  assert.deepEqual(guard.getUser(req), { role: "editor" });
  assert.throws(() => other.getUser(req), TypeError);
});

Deno.test("PermissionGuard answers the default denial exactly as HttpError(403) does", async () => {
  const guard = new PermissionGuard({
    userProvider: bearerUserProvider,
    enforcerProvider: () => fixed(false),
  });
  const denied = await guard.requirePermission("post", "read")(ok)(
    request("viewer"),
  );
  const reference = new HttpError(403, "Forbidden").toResponse();
  assert.equal(denied.status, reference.status);
  assert.deepEqual([...denied.headers], [...reference.headers]);
  assert.equal(await denied.text(), await reference.text());
});

Deno.test("PermissionGuard answers an HttpError rejected by an asynchronous handler, and passes other rejections on", async () => {
  const guard = new PermissionGuard({
    userProvider: bearerUserProvider,
    enforcerProvider: () => fixed(true),
  });
  const gone = guard.requirePermission("post", "read")(() =>
    Promise.reject(new HttpError(410, "Gone"))
  );
  const response = await gone(request("viewer"));
  assert.equal(response.status, 410);
  assert.equal(await response.text(), '{"detail":"Gone"}');
  const viaThenable = guard.requirePermission("post", "read")(() =>
    thenable(new HttpError(409, "Conflict"), true) as unknown as Promise<
      Response
    >
  );
  assert.equal((await viaThenable(request("viewer"))).status, 409);
  const crash = guard.requirePermission("post", "read")(() =>
    Promise.reject(new Error("handler bug"))
  );
  await assert.rejects(async () => await crash(request("viewer")), {
    message: "handler bug",
  });
  const syncCrash = guard.requirePermission("post", "read")(() => {
    throw new Error("sync bug");
  });
  const pending = syncCrash(request("viewer"));
  assert.ok(pending instanceof Promise);
  await assert.rejects(pending, { message: "sync bug" });
});
