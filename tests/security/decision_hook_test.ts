// A guard with a decision hook takes the same request path as one without:
// hostile requests (malformed encodings, oversized and trickling bodies,
// long URLs, hooks that throw while reading every lazy field) must get the
// same answers from both, and never reach the handler where the plain guard
// refuses.
import assert from "node:assert/strict";
import { AccessSubject } from "../../src/guard/access_subject.ts";
import { bearerUserProvider } from "../../src/guard/bearer_user_provider.ts";
import type { DecisionEvent } from "../../src/guard/mod.ts";
import { PermissionGuard } from "../../src/guard/permission_guard.ts";
import { makeEnforcer } from "../fixtures/guard/casbin.ts";

const MODEL = `[request_definition]
r = sub, obj, act
[policy_definition]
p = sub, obj, act
[policy_effect]
e = some(where (p.eft == allow))
[matchers]
m = r.sub.role == p.sub && r.obj == p.obj && r.act == p.act
`;
const POLICY = "p, editor, doc, write\np, viewer, public, read";

interface Case {
  name: string;
  request: () => Request;
  /** The plain guard's answer. */
  status: number;
}

const HUGE = 2 * 1024 * 1024;
const CASES: Case[] = [
  {
    name: "malformed encoding in the path parameter",
    request: () =>
      new Request("http://localhost/docs/%E0%A4%A", {
        headers: { authorization: "Bearer viewer" },
      }),
    status: 400,
  },
  {
    name: "a denied role",
    request: () =>
      new Request("http://localhost/docs/secret", {
        headers: { authorization: "Bearer viewer" },
      }),
    status: 403,
  },
  {
    name: "no credentials",
    request: () => new Request("http://localhost/docs/public"),
    status: 401,
  },
  {
    name: "a 64 KiB path",
    request: () =>
      new Request(`http://localhost/docs/${"a".repeat(65_536)}`, {
        headers: { authorization: "Bearer viewer" },
      }),
    status: 403,
  },
  {
    name: "a body over the limit on the body subject",
    request: () =>
      new Request("http://localhost/write", {
        method: "POST",
        headers: {
          authorization: "Bearer editor",
          "content-type": "application/json",
        },
        body: JSON.stringify({ object: "doc", pad: "x".repeat(HUGE) }),
      }),
    status: 413,
  },
  {
    name: "a body that is not JSON",
    request: () =>
      new Request("http://localhost/write", {
        method: "POST",
        headers: { authorization: "Bearer editor" },
        body: "{not json",
      }),
    status: 400,
  },
  {
    name: "an allowed write",
    request: () =>
      new Request("http://localhost/write", {
        method: "POST",
        headers: { authorization: "Bearer editor" },
        body: JSON.stringify({ object: "doc" }),
      }),
    status: 200,
  },
];

async function guardedRoutes(
  onDecision?: (event: DecisionEvent) => void,
): Promise<{ handle: (r: Request) => Promise<Response>; served: string[] }> {
  const enforcer = await makeEnforcer(POLICY, MODEL);
  const guard = new PermissionGuard({
    userProvider: bearerUserProvider,
    enforcerProvider: () => enforcer,
    ...(onDecision ? { onDecision, onError: () => {} } : {}),
  });
  const served: string[] = [];
  const read = guard.requirePermission(
    AccessSubject.param("id", "/docs/:id"),
    "read",
  )((request) => {
    served.push(new URL(request.url).pathname.slice(0, 40));
    return new Response("doc");
  });
  const write = guard.requirePermission(
    AccessSubject.body((body) => (body as { object?: unknown }).object),
    "write",
  )(() => {
    served.push("write");
    return new Response("written");
  });
  return {
    handle: async (request) =>
      await (new URL(request.url).pathname === "/write" ? write : read)(
        request,
      ),
    served,
  };
}

Deno.test("A guard with a decision hook answers hostile requests exactly as one without, and fails closed when the hook throws", async () => {
  const plain = await guardedRoutes();
  const events: DecisionEvent[] = [];
  const hooked = await guardedRoutes((event) => {
    // Read every lazy field, then fail: the answer must not change.
    events.push(event);
    void event.id, event.route, event.subject, event.args, event.result;
    throw new Error("hook failed");
  });
  for (const { name, request, status } of CASES) {
    const a = await plain.handle(request());
    const b = await hooked.handle(request());
    assert.equal(a.status, status, name);
    assert.equal(b.status, a.status, name);
    assert.equal(await b.text(), await a.text(), name);
  }
  assert.deepEqual(hooked.served, plain.served);
  // Only the allowed write ran a handler; every refusal stayed a refusal.
  assert.deepEqual(plain.served, ["write"]);
  assert.ok(events.every((e) => e.result !== "allow" || e.args[0] === "doc"));
});
