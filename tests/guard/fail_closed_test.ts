// Adversarial cases across the guard: every component failing in every way a
// JavaScript value can fail, odd decisions and users, odd requests. The rule
// they all check: no error on the way to a decision lets a request through,
// and no internal detail reaches the client.
import assert from "node:assert/strict";
import fc from "fast-check";
import { AccessSubject } from "../../src/guard/access_subject.ts";
import { bearerUserProvider } from "../../src/guard/bearer_user_provider.ts";
import type { Enforcer } from "../../src/guard/enforcer.ts";
import { HttpError } from "../../src/guard/http_error.ts";
import {
  type ErrorFactory,
  PermissionGuard,
  type PermissionGuardOptions,
} from "../../src/guard/permission_guard.ts";
import type { User } from "../../src/guard/user.ts";
import { makeEnforcer } from "../fixtures/guard/casbin.ts";

/** The documented body of every 500 the guard answers. */
const INTERNAL = '{"detail":"Internal Server Error"}';
const SECRET_MESSAGE = "db password is hunter2 at /srv/app/config.ts:12";

class TeapotError extends HttpError {
  readonly extra = "internal";
  constructor() {
    super(418, "Short and stout", { headers: { "x-kind": "teapot" } });
  }
}

/** The values a component may throw or reject with. */
function thrownValues(): Array<[string, unknown]> {
  return [
    ["an Error", new Error(SECRET_MESSAGE)],
    ["a TypeError", new TypeError(SECRET_MESSAGE)],
    ["a string", SECRET_MESSAGE],
    ["undefined", undefined],
    ["null", null],
    ["zero", 0],
    ["false", false],
    ["a symbol", Symbol(SECRET_MESSAGE)],
    ["a frozen object", Object.freeze({ message: SECRET_MESSAGE })],
    [
      "an object that looks like an HttpError",
      {
        name: "HttpError",
        status: 200,
        detail: "ok",
        toResponse: () => new Response("forged", { status: 200 }),
      },
    ],
    [
      "a Proxy that throws on every property access",
      new Proxy({}, {
        get(): never {
          throw new Error(SECRET_MESSAGE);
        },
        has(): never {
          throw new Error(SECRET_MESSAGE);
        },
        ownKeys(): never {
          throw new Error(SECRET_MESSAGE);
        },
        getOwnPropertyDescriptor(): never {
          throw new Error(SECRET_MESSAGE);
        },
      }),
    ],
  ];
}

type FailureMode = "throws" | "rejects" | "returns a rejecting thenable";
const MODES: readonly FailureMode[] = [
  "throws",
  "rejects",
  "returns a rejecting thenable",
];

/** Fails with `value` the way `mode` says: a throw, or a rejection. */
function fail(mode: FailureMode, value: unknown): never {
  if (mode === "throws") throw value;
  if (mode === "rejects") return Promise.reject(value) as never;
  return {
    then(_resolve: unknown, reject: (reason: unknown) => void): void {
      reject(value);
    },
  } as never;
}

/** A request with a bearer credential (or none). */
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

/** A handler that records whether it ran. */
function recordingHandler(): {
  handler: (request: Request) => Response;
  runs: () => number;
} {
  let runs = 0;
  return {
    handler: () => {
      runs++;
      return new Response("handler ran");
    },
    runs: () => runs,
  };
}

async function assertInternal(response: Response): Promise<void> {
  assert.equal(response.status, 500);
  assert.equal(response.headers.get("content-type"), "application/json");
  assert.equal(await response.text(), INTERNAL);
}

/** Builds a guard that records the errors it answered 500 for. */
function guardWith(
  options: Partial<PermissionGuardOptions>,
): { guard: PermissionGuard; errors: unknown[] } {
  const errors: unknown[] = [];
  const guard = new PermissionGuard({
    userProvider: () => ({ role: "admin" }),
    enforcerProvider: () => ({ enforce: () => true }),
    onError: (error) => errors.push(error),
    ...options,
  });
  return { guard, errors };
}

/** A guard, the errors it reported, and the wrapper under test. */
interface Built {
  guard: PermissionGuard;
  errors: unknown[];
  wrap: (handler: (request: Request) => Response) => (
    request: Request,
  ) => Response | Promise<Response>;
}

/** Where a failure can come from, and the wrapper that reaches it. */
interface FailurePoint {
  name: string;
  build(failure: () => never): Built;
}

const FAILURE_POINTS: readonly FailurePoint[] = [
  {
    name: "the user provider",
    build(failure): Built {
      const made = guardWith({ userProvider: () => failure() });
      return { ...made, wrap: made.guard.authRequired() };
    },
  },
  {
    name: "the enforcer provider function",
    build(failure): Built {
      const made = guardWith({ enforcerProvider: () => failure() });
      return { ...made, wrap: made.guard.requirePermission("post", "read") };
    },
  },
  {
    name: "the enforcer provider's getEnforcer()",
    build(failure): Built {
      const made = guardWith({ enforcerProvider: { getEnforcer: failure } });
      return { ...made, wrap: made.guard.requirePermission("post", "read") };
    },
  },
  {
    name: "enforce()",
    build(failure): Built {
      const made = guardWith({
        enforcerProvider: () => ({ enforce: failure }),
      });
      return { ...made, wrap: made.guard.requirePermission("post", "read") };
    },
  },
  {
    name: "an AccessSubject value function",
    build(failure): Built {
      const made = guardWith({});
      const subject = new AccessSubject({ value: failure });
      return { ...made, wrap: made.guard.requirePermission(subject, "read") };
    },
  },
  {
    name: "an AccessSubject selector",
    build(failure): Built {
      const made = guardWith({});
      const subject = new AccessSubject({
        value: () => "post",
        selector: failure,
      });
      return { ...made, wrap: made.guard.requirePermission(subject, "read") };
    },
  },
  {
    name: "the error factory",
    build(failure): Built {
      const made = guardWith({
        enforcerProvider: () => ({ enforce: () => false }),
        errorFactory: failure,
      });
      return { ...made, wrap: made.guard.requirePermission("post", "read") };
    },
  },
  {
    name: "a route error factory",
    build(failure): Built {
      const made = guardWith({
        enforcerProvider: () => ({ enforce: () => false }),
      });
      return {
        ...made,
        wrap: made.guard.requirePermission("post", "read").withErrorFactory(
          failure,
        ),
      };
    },
  },
];

Deno.test("PermissionGuard answers a bare 500 and never runs the handler when any component fails with any non-HttpError value", async (t) => {
  for (const point of FAILURE_POINTS) {
    await t.step(point.name, async () => {
      for (const mode of MODES) {
        for (const [label, value] of thrownValues()) {
          const { errors, wrap } = point.build(() => fail(mode, value));
          const { handler, runs } = recordingHandler();
          const response = await wrap(handler)(request("admin"));
          const context = `${point.name} ${mode} ${label}`;
          assert.equal(runs(), 0, context);
          assert.equal(response.status, 500, context);
          assert.equal(await response.text(), INTERNAL, context);
          assert.equal(errors.length, 1, context);
          // The hook sees the very value that was thrown.
          assert.equal(errors[0], value, context);
        }
      }
    });
  }
});

Deno.test("PermissionGuard answers an HttpError subclass thrown by a component with its own JSON, never the handler's answer", async (t) => {
  const points = FAILURE_POINTS.filter((point) =>
    point.name !== "the enforcer provider function" &&
    point.name !== "the enforcer provider's getEnforcer()" &&
    point.name !== "enforce()"
  );
  for (const point of points) {
    await t.step(point.name, async () => {
      for (const mode of MODES) {
        for (
          const error of [new TeapotError(), Object.freeze(new TeapotError())]
        ) {
          const { errors, wrap } = point.build(() => fail(mode, error));
          const { handler, runs } = recordingHandler();
          const response = await wrap(handler)(request("admin"));
          assert.equal(runs(), 0);
          assert.equal(response.status, 418);
          assert.equal(response.headers.get("x-kind"), "teapot");
          assert.equal(
            response.headers.get("content-type"),
            "application/json",
          );
          // Only the detail: no stack, no message of a cause, no extra field.
          assert.equal(await response.text(), '{"detail":"Short and stout"}');
          assert.deepEqual(errors, []);
        }
      }
    });
  }
});

Deno.test("PermissionGuard answers 500 when an HttpError's toResponse() throws while refusing", async () => {
  class Broken extends HttpError {
    override toResponse(): Response {
      throw new Error(SECRET_MESSAGE);
    }
  }
  const { guard, errors } = guardWith({
    userProvider: () => {
      throw new Broken(401, "Unauthorized");
    },
  });
  const { handler, runs } = recordingHandler();
  await assertInternal(await guard.authRequired()(handler)(request("admin")));
  assert.equal(runs(), 0);
  assert.equal(errors.length, 1);
});

Deno.test("PermissionGuard lets a request through only when enforce() answers exactly true", async (t) => {
  const truthy: Array<[string, () => unknown]> = [
    ["1", () => 1],
    ['"true"', () => "true"],
    ['"yes"', () => "yes"],
    ["{}", () => ({})],
    ["[]", () => []],
    ["[true]", () => [true]],
    ["new Boolean(true)", () => new Boolean(true)],
    ["a function", () => () => true],
    ["Infinity", () => Infinity],
    ["a symbol", () => Symbol("true")],
    ['a Promise of "yes"', () => Promise.resolve("yes")],
    ["a Promise of 1", () => Promise.resolve(1)],
    ["a Promise of {}", () => Promise.resolve({})],
    ["a Promise of [true]", () => Promise.resolve([true])],
    ["a thenable of new Boolean(true)", () => ({
      then: (resolve: (value: unknown) => void) => resolve(new Boolean(true)),
    })],
    ["an object with a non-callable then", () => ({ then: true })],
  ];
  for (const [label, decide] of truthy) {
    await t.step(`${label} is a denial`, async () => {
      const { guard, errors } = guardWith({
        enforcerProvider: () => ({ enforce: decide } as Enforcer),
      });
      const { handler, runs } = recordingHandler();
      const response = await guard.requirePermission("post", "read")(handler)(
        request("admin"),
      );
      assert.equal(runs(), 0);
      assert.equal(response.status, 403);
      assert.equal(await response.text(), '{"detail":"Forbidden"}');
      assert.deepEqual(errors, []);
    });
  }
  await t.step("true and a Promise of true allow", async () => {
    for (const decide of [() => true, () => Promise.resolve(true)]) {
      const { guard } = guardWith({
        enforcerProvider: () => ({ enforce: decide }),
      });
      const { handler, runs } = recordingHandler();
      const response = await guard.requirePermission("post", "read")(handler)(
        request("admin"),
      );
      assert.equal(await response.text(), "handler ran");
      assert.equal(runs(), 1);
    }
  });
});

Deno.test("PermissionGuard answers 500 when the enforcer provider gives something that is not an enforcer", async () => {
  const notEnforcers: unknown[] = [
    undefined,
    null,
    true,
    "casbin",
    {},
    { enforce: true },
    Promise.resolve(undefined),
    Promise.resolve({ enforce: "yes" }),
  ];
  for (const value of notEnforcers) {
    const { guard, errors } = guardWith({
      enforcerProvider: () => value as Enforcer,
    });
    const { handler, runs } = recordingHandler();
    await assertInternal(
      await guard.requirePermission("post", "read")(handler)(request("admin")),
    );
    assert.equal(runs(), 0);
    assert.equal(errors.length, 1);
  }
});

Deno.test("PermissionGuard answers 500 when the user provider gives no user", async () => {
  const noUsers: Array<() => unknown> = [
    () => undefined,
    () => null,
    () => Promise.resolve(undefined),
    () => Promise.resolve(null),
    () => ({ then: (resolve: (value: unknown) => void) => resolve(null) }),
    // Falsy values from a slip such as `return token && decode(token)`.
    () => false,
    () => 0,
    () => "",
    () => Number.NaN,
    () => Promise.resolve(false),
  ];
  for (const provide of noUsers) {
    for (
      const wrapperOf of [
        (guard: PermissionGuard) => guard.authRequired(),
        (guard: PermissionGuard) => guard.requirePermission("post", "read"),
      ]
    ) {
      let enforced = 0;
      const { guard, errors } = guardWith({
        userProvider: provide as () => User,
        enforcerProvider: () => ({
          enforce: () => {
            enforced++;
            return true;
          },
        }),
      });
      const { handler, runs } = recordingHandler();
      await assertInternal(await wrapperOf(guard)(handler)(request("admin")));
      assert.equal(runs(), 0);
      assert.equal(enforced, 0);
      assert.equal(errors.length, 1);
    }
  }
});

Deno.test("PermissionGuard answers 500 when a user that throws on property access reaches casbin", async () => {
  const enforcer = await makeEnforcer();
  const trap = new Proxy({}, {
    get(): never {
      throw new Error(SECRET_MESSAGE);
    },
  });
  const { guard, errors } = guardWith({
    userProvider: () => trap as User,
    enforcerProvider: () => enforcer,
  });
  const { handler, runs } = recordingHandler();
  await assertInternal(
    await guard.requirePermission("post", "read")(handler)(request("admin")),
  );
  assert.equal(runs(), 0);
  assert.equal(errors.length, 1);
});

Deno.test("PermissionGuard answers 500 when an error factory returns something other than an HttpError or a Response", async () => {
  const junk: unknown[] = [
    undefined,
    null,
    "Forbidden",
    403,
    true,
    { status: 403, detail: "Forbidden" },
    { toResponse: () => new Response("forged", { status: 200 }) },
    new Error(SECRET_MESSAGE),
    Promise.resolve(undefined),
    Promise.resolve("Forbidden"),
    Promise.resolve({ status: 403 }),
    // HttpError look-alikes that would answer nothing, or a 200.
    new (class extends HttpError {
      override toResponse(): Response {
        return undefined as unknown as Response;
      }
    })(403, "no"),
    new (class extends HttpError {
      override toResponse(): Response {
        return new Response("forged", { status: 200 });
      }
    })(403, "no"),
    Object.create(HttpError.prototype),
  ];
  for (const value of junk) {
    const factory = (() => value) as unknown as ErrorFactory;
    const { guard, errors } = guardWith({
      enforcerProvider: () => ({ enforce: () => false }),
      errorFactory: factory,
    });
    const { handler, runs } = recordingHandler();
    const guardWide = guard.requirePermission("post", "read")(handler);
    await assertInternal(await guardWide(request("admin")));
    const perRoute = guard.requirePermission("post", "read")
      .withErrorFactory(factory)(handler);
    await assertInternal(await perRoute(request("admin")));
    assert.equal(runs(), 0);
    assert.equal(errors.length, 2);
  }
});

Deno.test("PermissionGuard never calls the error factory when the request is allowed, nor the handler when denied", async () => {
  let factoryCalls = 0;
  const enforcer = await makeEnforcer();
  const guard = new PermissionGuard({
    userProvider: bearerUserProvider,
    enforcerProvider: () => enforcer,
    errorFactory: () => {
      factoryCalls++;
      return new HttpError(404, "Not Found");
    },
  });
  const { handler, runs } = recordingHandler();
  const write = guard.requirePermission("post", "write")(handler);
  assert.equal((await write(request("editor"))).status, 200);
  assert.equal(factoryCalls, 0);
  assert.equal((await write(request("viewer"))).status, 404);
  assert.equal(factoryCalls, 1);
  assert.equal(runs(), 1);
});

Deno.test("PermissionGuard leaves the JSON body readable for the handler after access subjects read it", async (t) => {
  const payload = { board: "ops", title: "x".repeat(70_000) };
  const seen: unknown[] = [];
  const guard = new PermissionGuard({
    userProvider: bearerUserProvider,
    enforcerProvider: () => ({
      enforce: (_user: unknown, board: unknown, title: unknown) => {
        seen.push(board, typeof title === "string" ? title.length : title);
        return board === "ops";
      },
    }),
  });
  const echo = guard.requirePermission(
    AccessSubject.body((body) => (body as { board: string }).board),
    AccessSubject.body((body) => (body as { title: string }).title),
  )(async (request) => new Response(await request.text()));

  await t.step("a string body", async () => {
    const response = await echo(
      request("admin", { method: "POST", body: JSON.stringify(payload) }),
    );
    assert.equal(response.status, 200);
    assert.deepEqual(await response.json(), payload);
  });
  await t.step("a streamed body", async () => {
    const bytes = new TextEncoder().encode(JSON.stringify(payload));
    const body = new ReadableStream<Uint8Array>({
      start(controller): void {
        for (let i = 0; i < bytes.length; i += 4096) {
          controller.enqueue(bytes.slice(i, i + 4096));
        }
        controller.close();
      },
    });
    const response = await echo(
      request("admin", { method: "POST", body }),
    );
    assert.equal(response.status, 200);
    assert.deepEqual(await response.json(), payload);
  });
  await t.step("the body is parsed once for both subjects", () => {
    assert.deepEqual(seen, ["ops", 70_000, "ops", 70_000]);
  });
  await t.step("a denied body never reaches the handler", async () => {
    let ran = false;
    const guarded = guard.requirePermission(
      AccessSubject.body((body) => (body as { board: string }).board),
      "title",
    )(() => {
      ran = true;
      return new Response("ran");
    });
    const response = await guarded(
      request("admin", {
        method: "POST",
        body: JSON.stringify({ board: "hr" }),
      }),
    );
    assert.equal(response.status, 403);
    assert.equal(ran, false);
  });
  await t.step("a body that is not JSON answers 400", async () => {
    for (const body of ["", "{", "null,", "\u0000", "{'a':1}"]) {
      const response = await echo(request("admin", { method: "POST", body }));
      assert.equal(response.status, 400, JSON.stringify(body));
      assert.equal(await response.text(), '{"detail":"Invalid JSON body"}');
    }
  });
  await t.step("a JSON body of the wrong shape answers 500", async () => {
    for (const body of ["null", "1", '"ops"']) {
      const errors: unknown[] = [];
      const strict = new PermissionGuard({
        userProvider: bearerUserProvider,
        enforcerProvider: () => ({ enforce: () => true }),
        onError: (error) => errors.push(error),
      });
      let ran = false;
      const guarded = strict.requirePermission(
        AccessSubject.body((value) => (value as { a: { b: string } }).a.b),
      )(() => {
        ran = true;
        return new Response("ran");
      });
      const response = await guarded(
        request("admin", { method: "POST", body }),
      );
      await assertInternal(response);
      assert.equal(ran, false);
      assert.equal(errors.length, 1);
    }
  });
});

Deno.test("PermissionGuard keeps concurrent requests of different users apart on one guard", async () => {
  const count = 64;
  // The user provider answers in the reverse order of the requests, so every
  // check interleaves with the others.
  const gates: Array<() => void> = [];
  let providerCalls = 0;
  const guard = new PermissionGuard({
    userProvider: async (request: Request) => {
      providerCalls++;
      const user = bearerUserProvider(request);
      await new Promise<void>((resolve) => gates.push(resolve));
      return user;
    },
    enforcerProvider: () => ({
      // Even-numbered users may read; the decision also goes async.
      enforce: (user: unknown) =>
        Promise.resolve(Number((user as User).role!.slice(5)) % 2 === 0),
    }),
  });
  const handler = guard.authRequired()(
    guard.requirePermission("post", "read")((request) =>
      Response.json({
        role: guard.getUser(request).role,
        header: request.headers.get("authorization"),
      })
    ),
  );
  const pending = Array.from(
    { length: count },
    (_, i) => handler(request(`user-${i}`)),
  );
  while (gates.length < count) await new Promise((r) => setTimeout(r, 1));
  for (const open of gates.reverse()) open();
  const responses = await Promise.all(pending);
  for (let i = 0; i < count; i++) {
    const response = responses[i]!;
    if (i % 2 === 0) {
      assert.equal(response.status, 200, `user-${i}`);
      assert.deepEqual(await response.json(), {
        role: `user-${i}`,
        header: `Bearer user-${i}`,
      });
    } else {
      assert.equal(response.status, 403, `user-${i}`);
      await response.body?.cancel();
    }
  }
  // Resolved once per request across both wrappers.
  assert.equal(providerCalls, count);
});

Deno.test("PermissionGuard does not share users between guards or between requests", async () => {
  const outer = new PermissionGuard({
    userProvider: () => ({ role: "outer" }),
    enforcerProvider: () => ({ enforce: () => true }),
  });
  const inner = new PermissionGuard({
    userProvider: bearerUserProvider,
    enforcerProvider: () => ({ enforce: () => true }),
  });
  const handler = outer.authRequired()(
    inner.authRequired()((request) =>
      new Response(
        `${outer.getUser(request).role}/${inner.getUser(request).role}`,
      )
    ),
  );
  assert.equal(await (await handler(request("alice"))).text(), "outer/alice");
  assert.equal(await (await handler(request("bob"))).text(), "outer/bob");
  // The inner guard still refuses a request without its own credential.
  assert.equal((await handler(request())).status, 401);
  // A request object that never passed through a wrapper has no user.
  assert.throws(() => inner.getUser(request("alice")), TypeError);
});

Deno.test("PermissionGuard stops at the first failing wrapper of a stack", async (t) => {
  const enforcer = await makeEnforcer();
  await t.step("the inner wrapper's enforcer throws: 500", async () => {
    const errors: unknown[] = [];
    let throwing = 0;
    const guard = new PermissionGuard({
      userProvider: bearerUserProvider,
      enforcerProvider: () => enforcer,
      onError: (error) => errors.push(error),
    });
    const broken = new PermissionGuard({
      userProvider: bearerUserProvider,
      enforcerProvider: () => ({
        enforce: () => {
          throwing++;
          throw new Error(SECRET_MESSAGE);
        },
      }),
      onError: (error) => errors.push(error),
    });
    const { handler, runs } = recordingHandler();
    const stacked = guard.authRequired()(
      guard.requirePermission("post", "read")(
        broken.requirePermission("post", "read")(handler),
      ),
    );
    await assertInternal(await stacked(request("admin")));
    assert.equal(throwing, 1);
    assert.equal(runs(), 0);
    assert.equal(errors.length, 1);
    // An outer denial never reaches the throwing inner check.
    assert.equal((await stacked(request("nobody"))).status, 403);
    assert.equal(throwing, 1);
  });
  await t.step("the inner wrapper's access subject refuses: 400", async () => {
    const guard = new PermissionGuard({
      userProvider: bearerUserProvider,
      enforcerProvider: () => enforcer,
    });
    const { handler, runs } = recordingHandler();
    const stacked = guard.requirePermission("post", "read")(
      guard.requirePermission(
        AccessSubject.body(() => "post"),
        "write",
      )(handler),
    );
    const response = await stacked(
      request("admin", { method: "POST", body: "not json" }),
    );
    assert.equal(response.status, 400);
    assert.equal(runs(), 0);
  });
});

Deno.test("PermissionGuard guards HEAD and OPTIONS like any other method", async () => {
  const enforcer = await makeEnforcer();
  const guard = new PermissionGuard({
    userProvider: bearerUserProvider,
    enforcerProvider: () => enforcer,
  });
  for (const method of ["HEAD", "OPTIONS"]) {
    const { handler, runs } = recordingHandler();
    const write = guard.requirePermission("post", "write")(handler);
    const anonymous = await write(request(undefined, { method }));
    assert.equal(anonymous.status, 401, method);
    assert.equal(anonymous.headers.get("www-authenticate"), "Bearer");
    await anonymous.body?.cancel();
    const viewer = await write(request("viewer", { method }));
    assert.equal(viewer.status, 403, method);
    await viewer.body?.cancel();
    assert.equal(runs(), 0, method);
    const editor = await write(request("editor", { method }));
    assert.equal(editor.status, 200, method);
    await editor.body?.cancel();
    assert.equal(runs(), 1, method);
  }
});

Deno.test("PermissionGuard with bearerUserProvider refuses malformed and oversized Authorization headers", async (t) => {
  const enforcer = await makeEnforcer();
  const guard = new PermissionGuard({
    userProvider: bearerUserProvider,
    enforcerProvider: () => enforcer,
  });
  const { handler, runs } = recordingHandler();
  const write = guard.requirePermission("post", "write")(handler);
  const answer = async (authorization: string | string[]) => {
    const headers = new Headers();
    for (const value of [authorization].flat()) {
      headers.append("authorization", value);
    }
    const response = await write(
      new Request("http://localhost/posts", {
        method: "POST",
        headers,
      }),
    );
    return {
      status: response.status,
      challenge: response.headers.get("www-authenticate"),
      body: await response.text(),
    };
  };
  const unauthorized = {
    status: 401,
    challenge: "Bearer",
    body: '{"detail":"Unauthorized"}',
  };
  const forbidden = {
    status: 403,
    challenge: null,
    body: '{"detail":"Forbidden"}',
  };

  await t.step("no credential: 401 with the Bearer challenge", async () => {
    for (
      const value of [
        "Bearer",
        "Bearer ",
        "Bearer   ",
        "bearer",
        " Bearer",
        "Bearer\teditor",
        "Bearer\u00a0editor",
        "Bearereditor",
        "Basic ZWRpdG9yOg==",
        "Token editor",
        "Bearer,editor",
        "\u0001",
        "Beärer editor",
      ]
    ) {
      assert.deepEqual(await answer(value), unauthorized, value);
    }
  });
  await t.step(
    "spaces, commas and case around a privileged role never grant it",
    async () => {
      for (
        const value of [
          "Bearer  editor",
          "Bearer editor ,",
          "Bearer Editor",
          "Bearer EDITOR",
          "Bearer editor\u0001",
          "Bearer \u0001editor",
          "Bearer édítor",
          "Bearer editor editor",
          "Bearer viewer, Bearer editor",
          "Bearer Bearer editor",
        ]
      ) {
        assert.deepEqual(await answer(value), forbidden, value);
      }
      // Two headers are joined into one value: neither role is granted.
      assert.deepEqual(
        await answer(["Bearer viewer", "Bearer editor"]),
        forbidden,
      );
      assert.deepEqual(
        await answer(["Bearer editor", "Bearer editor"]),
        forbidden,
      );
    },
  );
  await t.step("a 100 KB credential is denied and never echoed", async () => {
    const result = await answer(`Bearer ${"editor".repeat(17_000)}`);
    assert.deepEqual(result, forbidden);
  });
  await t.step(
    "the exact credential in any scheme case is allowed",
    async () => {
      for (const value of ["Bearer editor", "bearer editor", "BEARER editor"]) {
        assert.equal((await answer(value)).status, 200, value);
      }
      assert.equal(runs(), 3);
    },
  );
});

Deno.test("PermissionGuard with bearerUserProvider grants a write only to an exact editor or admin credential, for any header", async () => {
  const enforcer = await makeEnforcer();
  const guard = new PermissionGuard({
    userProvider: bearerUserProvider,
    enforcerProvider: () => enforcer,
  });
  const write = guard.requirePermission("post", "write")(() =>
    new Response("written")
  );
  const piece = fc.constantFrom(
    "Bearer",
    "bearer",
    "BEARER",
    "Basic",
    " ",
    "  ",
    "\t",
    ",",
    "editor",
    "admin",
    "viewer",
    "Editor",
    "\u00e9",
    "\u0001",
    "=",
    '"',
  );
  // Header values keep no leading or trailing HTTP whitespace.
  const header = fc.array(piece, { maxLength: 8 }).map((parts) =>
    parts.join("").replace(/^[ \t]+|[ \t]+$/g, "")
  );
  await fc.assert(
    fc.asyncProperty(header, async (value) => {
      const headers = new Headers();
      if (value !== "") headers.set("authorization", value);
      const response = await write(
        new Request("http://localhost/posts", { method: "POST", headers }),
      );
      const body = await response.text();
      const granted = /^bearer (editor|admin)$/i.test(value) &&
        (value.endsWith(" editor") || value.endsWith(" admin"));
      if (granted) {
        assert.equal(response.status, 200, value);
        assert.equal(body, "written");
      } else {
        assert.ok(
          response.status === 401 || response.status === 403,
          `${JSON.stringify(value)} -> ${response.status}`,
        );
        assert.notEqual(body, "written");
      }
    }),
    { numRuns: 500 },
  );
});

Deno.test("PermissionGuard keeps the query string out of its default log line", async () => {
  // deno-lint-ignore no-console
  const original = console.error;
  const lines: string[] = [];
  // deno-lint-ignore no-console
  console.error = (...args: unknown[]) => {
    lines.push(args.map((arg) => String(arg)).join(" "));
  };
  try {
    const guard = new PermissionGuard({
      userProvider: () => {
        throw new Error("boom");
      },
      enforcerProvider: () => ({ enforce: () => true }),
    });
    const response = await guard.authRequired()(() => new Response("ran"))(
      new Request("http://localhost/posts?access_token=abc123"),
    );
    await assertInternal(response);
  } finally {
    // deno-lint-ignore no-console
    console.error = original;
  }
  assert.equal(lines.length, 1);
  assert.match(lines[0]!, /GET \/posts/);
  assert.doesNotMatch(lines[0]!, /abc123/);
});

Deno.test("PermissionGuard answers 500 when both the component and the onError hook fail", async () => {
  for (const [label, value] of thrownValues()) {
    const guard = new PermissionGuard({
      userProvider: () => {
        throw value;
      },
      enforcerProvider: () => ({ enforce: () => true }),
      onError: () => {
        throw new Error(SECRET_MESSAGE);
      },
    });
    const { handler, runs } = recordingHandler();
    const response = await guard.authRequired()(handler)(request("admin"));
    assert.equal(response.status, 500, label);
    assert.equal(await response.text(), INTERNAL, label);
    assert.equal(runs(), 0, label);
  }
});

Deno.test("PermissionGuard answers 500 when a thrown value's prototype lookup throws", async () => {
  const hostile = new Proxy({}, {
    getPrototypeOf(): never {
      throw new Error(SECRET_MESSAGE);
    },
  });
  for (
    const options of [
      {
        userProvider: (): User => {
          throw hostile;
        },
      },
      {
        enforcerProvider: (): Enforcer => ({
          enforce: () => Promise.reject(hostile),
        }),
      },
    ]
  ) {
    const { guard, errors } = guardWith(options);
    const { handler, runs } = recordingHandler();
    await assertInternal(
      await guard.requirePermission("post", "read")(handler)(request("admin")),
    );
    assert.equal(runs(), 0);
    assert.equal(errors.length, 1);
  }
});
