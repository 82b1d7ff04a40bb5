// Random and malformed Authorization values against guarded routes: the
// answer is 401 or 403 (200 only for an exact role the policy grants),
// never a 500, a crash or a handler run for a refused request.
import assert from "node:assert/strict";
import fc from "fast-check";
import { bearerUserProvider } from "../../src/guard/bearer_user_provider.ts";
import { JwtUserProvider } from "../../src/guard/jwt_user_provider.ts";
import { PermissionGuard } from "../../src/guard/permission_guard.ts";
import { makeEnforcer } from "../fixtures/guard/casbin.ts";

// 100,000 values in all, split over the arbitraries below.
const RUNS = 25_000;
const SECRET = "a-shared-secret-of-at-least-32-bytes!";
const GRANTED = new Set(["admin", "editor", "viewer"]);

/** Any byte as a character: what an HTTP header value can carry. */
const byte = fc.integer({ min: 0, max: 0xff }).map((code) =>
  String.fromCharCode(code)
);

/** A byte a header value can hold as it is (no NUL, CR or LF). */
const headerByte = byte.filter((c) => c !== "\0" && c !== "\r" && c !== "\n");

/** Values shaped like credentials, and plain noise. */
const authorization: fc.Arbitrary<string>[] = [
  fc.string({ unit: byte, maxLength: 64 }),
  fc.tuple(
    fc.constantFrom(
      "Bearer ",
      "bearer ",
      "BEARER ",
      "Bearer  ",
      "Basic ",
      "Bearer\t",
      "",
      " Bearer ",
    ),
    fc.oneof(
      fc.string({ unit: byte, maxLength: 40 }),
      fc.constantFrom(...GRANTED, "Admin", "admin ", " editor", "viewer,admin"),
      fc.stringMatching(
        /^[A-Za-z0-9_-]{1,40}\.[A-Za-z0-9_-]{0,60}\.[A-Za-z0-9_-]{0,40}$/,
      ),
    ),
  ).map(([scheme, token]) => scheme + token),
  fc.string({ unit: headerByte, minLength: 1000, maxLength: 9000 })
    .map((noise) => `Bearer ${noise}`),
  fc.array(fc.string({ unit: byte, maxLength: 20 }), {
    minLength: 2,
    maxLength: 5,
  })
    .map((parts) => parts.join(", ")),
];

async function fuzz(
  name: string,
  guard: PermissionGuard,
  allowed: (value: string) => boolean,
): Promise<{ sent: number; statuses: Map<number, number> }> {
  let ran = 0;
  const handler = guard.requirePermission("post", "read")(() => {
    ran++;
    return new Response("posts");
  });
  const statuses = new Map<number, number>();
  let sent = 0;
  for (const arbitrary of authorization) {
    await fc.assert(
      fc.asyncProperty(arbitrary, async (value) => {
        let headers: Headers;
        try {
          headers = new Headers({ authorization: value });
        } catch {
          return; // not a valid header value: no server would pass it on
        }
        sent++;
        const before = ran;
        const response = await handler(
          new Request("http://localhost/posts", { headers }),
        );
        const status = response.status;
        await response.body?.cancel();
        statuses.set(status, (statuses.get(status) ?? 0) + 1);
        const expected = allowed(headers.get("authorization")!);
        if (expected) {
          assert.equal(status, 200, `${name}: ${JSON.stringify(value)}`);
        } else {
          assert.ok(
            status === 401 || status === 403,
            `${name}: ${status} for ${JSON.stringify(value).slice(0, 200)}`,
          );
          assert.equal(ran, before, "the handler ran for a refused request");
        }
      }),
      { numRuns: RUNS, seed: 20261124 },
    );
  }
  return { sent, statuses };
}

Deno.test("100,000 random Authorization values against a bearer guard: only 401/403 unless an exact granted role", async () => {
  const enforcer = await makeEnforcer();
  const errors: unknown[] = [];
  const guard = new PermissionGuard({
    userProvider: bearerUserProvider,
    enforcerProvider: () => enforcer,
    onError: (error) => errors.push(error),
  });
  const { sent, statuses } = await fuzz(
    "bearer",
    guard,
    // The scheme is case-insensitive (RFC 9110); the role is exact.
    (value) => /^bearer /i.test(value) && GRANTED.has(value.slice(7)),
  );
  assert.deepEqual(errors, []);
  assert.ok(sent > 85_000, `only ${sent} values were valid headers`);
  assert.ok((statuses.get(401) ?? 0) > 0 && (statuses.get(403) ?? 0) > 0);
});

Deno.test("100,000 random Authorization values against a JWT guard: only 401", async () => {
  const enforcer = await makeEnforcer();
  const jwt = await JwtUserProvider.create({ secret: SECRET });
  const errors: unknown[] = [];
  const guard = new PermissionGuard({
    userProvider: jwt.userProvider,
    enforcerProvider: () => enforcer,
    onError: (error) => errors.push(error),
  });
  const { statuses } = await fuzz("jwt", guard, () => false);
  assert.deepEqual(errors, []);
  assert.deepEqual([...statuses.keys()], [401]);
});
