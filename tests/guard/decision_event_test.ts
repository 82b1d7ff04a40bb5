// The decision log: PermissionGuard's onDecision hook and the events it
// receives, on every path of the guard (synchronous, asynchronous, failing).
import assert from "node:assert/strict";
import { newEnforcer } from "casbin";
import { AccessSubject } from "../../src/guard/access_subject.ts";
import { bearerUserProvider } from "../../src/guard/bearer_user_provider.ts";
import type { DecisionEvent } from "../../src/guard/decision_event.ts";
import type { Enforcer, EnforcerProvider } from "../../src/guard/enforcer.ts";
import { IndexedEnforcer } from "../../src/guard/indexed_enforcer.ts";
import {
  PermissionGuard,
  type PermissionGuardOptions,
} from "../../src/guard/permission_guard.ts";
import { summarizeSubject } from "../../src/guard/_decision_record.ts";
import { examplePath } from "../fixtures/casbin_examples.ts";
import { makeEnforcer } from "../fixtures/guard/casbin.ts";

const ok = (): Response => new Response("handler ran");

function request(
  role: string | undefined,
  path = "/posts?token=secret",
): Request {
  return new Request(`http://localhost${path}`, {
    method: "POST",
    headers: role === undefined ? {} : { authorization: `Bearer ${role}` },
  });
}

function logged(
  enforcerProvider: EnforcerProvider,
  options: Partial<PermissionGuardOptions> = {},
): { guard: PermissionGuard; events: DecisionEvent[]; errors: unknown[] } {
  const events: DecisionEvent[] = [];
  const errors: unknown[] = [];
  const guard = new PermissionGuard({
    userProvider: bearerUserProvider,
    enforcerProvider,
    onDecision: (event) => void events.push(event),
    onError: (error) => void errors.push(error),
    ...options,
  });
  return { guard, events, errors };
}

Deno.test("onDecision receives every decision with its request, subject, arguments and result", async () => {
  const casbin = await makeEnforcer();
  const provider = {
    getEnforcer: () => IndexedEnforcer.from(casbin),
    revision: "rev-1",
  };
  const { guard, events } = logged(provider);
  const write = guard.requirePermission("post", "write")(ok);
  const before = Date.now();
  assert.equal((await write(request("editor"))).status, 200);
  assert.equal((await write(request("viewer"))).status, 403);
  assert.equal((await write(request(undefined))).status, 401);
  assert.equal(events.length, 2, "no decision without a user");
  const [allowed, denied] = events;
  assert.match(
    allowed!.id,
    /^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/,
  );
  assert.notEqual(allowed!.id, denied!.id);
  assert.equal(allowed!.id, allowed!.id, "the id is stable once read");
  assert.ok(allowed!.time >= before && allowed!.time <= Date.now());
  assert.deepEqual(allowed!.route, {
    method: "POST",
    path: "/posts",
    pattern: undefined,
  });
  assert.equal(allowed!.subject, "role=editor");
  assert.deepEqual(allowed!.user, { role: "editor" });
  assert.deepEqual(allowed!.args, ["post", "write"]);
  assert.equal(allowed!.result, "allow");
  assert.equal(denied!.result, "deny");
  assert.equal(allowed!.revision, "rev-1");
  assert.ok(allowed!.latencyMs >= 0 && allowed!.latencyMs < 10_000);
  assert.equal(await allowed!.decidingRule(), "p, editor, post, write");
  assert.equal(await denied!.decidingRule(), undefined);
});

Deno.test("onDecision reports the route pattern and the resolved arguments of access subjects", async () => {
  const { guard, events } = logged(() => ({ enforce: () => true }));
  const close = guard.requirePermission(
    AccessSubject.param("board", "/boards/:board/close"),
    "close",
  )(ok);
  await close(request("admin", "/boards/ops/close"));
  assert.deepEqual(events[0]?.route, {
    method: "POST",
    path: "/boards/ops/close",
    pattern: "/boards/:board/close",
  });
  assert.deepEqual(events[0]?.args, ["ops", "close"]);
  assert.equal(events[0]?.revision, undefined);
  assert.equal(
    await events[0]?.decidingRule(),
    undefined,
    "no casbin enforcer",
  );
});

Deno.test("onDecision sees the same decisions on the asynchronous paths", async () => {
  const casbin = await makeEnforcer();
  const { guard, events } = logged(async () => await Promise.resolve(casbin), {
    userProvider: async (r) => await Promise.resolve(bearerUserProvider(r)),
  });
  const read = guard.requirePermission("post", "read")(ok);
  assert.equal((await read(request("viewer"))).status, 200);
  assert.equal((await read(request("guest"))).status, 403);
  assert.deepEqual(events.map((e) => e.result), ["allow", "deny"]);
  assert.equal(await events[0]?.decidingRule(), "p, viewer, post, read");
});

Deno.test("onDecision reports a failed decision as an error, and the guard still answers 500", async (t) => {
  const failing: [string, EnforcerProvider][] = [
    ["an enforcer that throws", () => ({
      enforce: () => {
        throw new Error("boom");
      },
    })],
    [
      "an enforcer that rejects",
      () => ({ enforce: () => Promise.reject(new Error("boom")) }),
    ],
    ["a provider that throws", () => {
      throw new Error("boom");
    }],
    ["a provider that rejects", () => Promise.reject(new Error("boom"))],
    ["a provider without an enforcer", () => ({}) as Enforcer],
  ];
  for (const [name, provider] of failing) {
    await t.step(name, async () => {
      const { guard, events, errors } = logged(provider);
      const response = await guard.requirePermission("post", "read")(ok)(
        request("viewer"),
      );
      assert.equal(response.status, 500);
      assert.deepEqual(events.map((e) => e.result), ["error"]);
      assert.equal(await events[0]?.decidingRule(), undefined);
      assert.equal(errors.length, 1);
    });
  }
});

Deno.test("a failing onDecision hook never changes the answer and goes to onError", async () => {
  for (
    const hook of [
      () => {
        throw new Error("hook failed");
      },
      () => Promise.reject(new Error("hook failed")),
    ] as ((event: DecisionEvent) => void)[]
  ) {
    const { guard, errors } = logged(() => ({ enforce: () => true }), {
      onDecision: hook,
    });
    const response = await guard.requirePermission("post", "read")(ok)(
      request("viewer"),
    );
    assert.equal(await response.text(), "handler ran");
    await new Promise((resolve) => setTimeout(resolve, 0));
    assert.equal((errors[0] as Error).message, "hook failed");
  }
});

Deno.test("onDecision is not awaited: a slow hook does not delay the answer", () => {
  let finished = false;
  const { guard } = logged(() => ({ enforce: () => true }), {
    onDecision: () =>
      new Promise<void>(() => {}).then(() => void (finished = true)),
  });
  const response = guard.requirePermission("post", "read")(ok)(
    request("viewer"),
  );
  assert.ok(response instanceof Response, "still answered synchronously");
  assert.equal(finished, false);
});

Deno.test("a hook that edits an event's arguments cannot change the route's", async () => {
  const seen: unknown[][] = [];
  const guard = new PermissionGuard({
    userProvider: bearerUserProvider,
    enforcerProvider: () => ({
      enforce: (_user: unknown, ...args: unknown[]) => {
        seen.push(args);
        return true;
      },
    }),
    onDecision: (event) =>
      (event.args as unknown[]).splice(0, 2, "admin", "all"),
  });
  const read = guard.requirePermission("post", "read")(ok);
  await read(request("viewer"));
  await read(request("viewer"));
  assert.deepEqual(seen, [["post", "read"], ["post", "read"]]);
});

Deno.test("onDecision gets one event per permission wrapper, none for authRequired", async () => {
  const { guard, events } = logged(() => ({ enforce: () => true }));
  const handler = guard.authRequired()(
    guard.requirePermission("post", "read")(
      guard.requirePermission("post", "write")(ok),
    ),
  );
  await handler(request("editor"));
  assert.deepEqual(events.map((e) => e.args[1]), ["read", "write"]);
});

Deno.test("DecisionEvent.decidingRule() names the deny rule that denied", async () => {
  const casbin = await newEnforcer(
    examplePath("rbac_with_deny_model.conf"),
    examplePath("rbac_with_deny_policy.csv"),
  );
  const events: DecisionEvent<string>[] = [];
  const guard = new PermissionGuard<string>({
    userProvider: (r) => r.headers.get("authorization")!.slice(7),
    enforcerProvider: () => casbin,
    onDecision: (event) => void events.push(event),
  });
  await guard.requirePermission("data2", "write")(ok)(request("alice"));
  assert.equal(events[0]?.result, "deny");
  assert.equal(await events[0]?.decidingRule(), "p, alice, data2, write, deny");
});

Deno.test("PermissionGuard refuses an onDecision that is not a function", () => {
  assert.throws(
    () =>
      new PermissionGuard({
        userProvider: bearerUserProvider,
        enforcerProvider: () => ({ enforce: () => true }),
        onDecision: "log" as unknown as () => void,
      }),
    { name: "TypeError", message: /options\.onDecision must be a function/ },
  );
});

Deno.test("summarizeSubject() keeps ids and roles and leaves every other claim out", () => {
  assert.equal(summarizeSubject("alice"), "alice");
  assert.equal(
    summarizeSubject({
      sub: "u1",
      role: "editor",
      roles: ["a", "b"],
      email: "x@y",
      token: "t",
    }),
    "sub=u1 role=editor roles=a,b",
  );
  assert.equal(summarizeSubject({ id: 7, roles: [1, 2] }), "id=7");
  const hostile = {
    get role(): string {
      throw new Error("no");
    },
    sub: "u2",
  };
  assert.equal(summarizeSubject(hostile), "sub=u2");
  assert.equal(summarizeSubject(null), "object");
});

Deno.test("DecisionEvent.decidingRule() asks a casbin enforcer served as it is", async () => {
  const casbin = await makeEnforcer("p, viewer, post, read");
  const { guard, events } = logged(() => casbin);
  await guard.requirePermission("post", "read")(ok)(request("viewer"));
  assert.equal(await events[0]?.decidingRule(), "p, viewer, post, read");
});
