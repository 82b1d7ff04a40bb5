import assert from "node:assert/strict";
import fc from "fast-check";
import { bearerUserProvider } from "../../src/guard/bearer_user_provider.ts";
import { HttpError } from "../../src/guard/http_error.ts";

function withAuthorization(value?: string): Request {
  return new Request(
    "http://localhost/",
    value === undefined ? {} : { headers: { authorization: value } },
  );
}

function assertUnauthorized(request: Request): void {
  assert.throws(() => bearerUserProvider(request), (error: unknown) => {
    assert.ok(error instanceof HttpError);
    assert.equal(error.status, 401);
    assert.equal(error.detail, "Unauthorized");
    assert.equal(error.headers.get("www-authenticate"), "Bearer");
    return true;
  });
}

Deno.test("bearerUserProvider() returns the credential as the role", () => {
  assert.deepEqual(bearerUserProvider(withAuthorization("Bearer editor")), {
    role: "editor",
  });
  assert.deepEqual(bearerUserProvider(withAuthorization("bEaReR a b")), {
    role: "a b",
  });
});

Deno.test("bearerUserProvider() throws 401 with WWW-Authenticate: Bearer without usable credentials", async (t) => {
  const cases: [string, string | undefined][] = [
    ["no header", undefined],
    ["scheme only", "Bearer"],
    ["scheme and blank", "Bearer   "],
    ["another scheme", "Basic YWRtaW46YWRtaW4="],
    ["scheme prefix without space", "Bearereditor"],
    ["credential first", "editor Bearer"],
  ];
  for (const [name, value] of cases) {
    await t.step(name, () => assertUnauthorized(withAuthorization(value)));
  }
  await t.step("the 401 answers JSON", async () => {
    try {
      bearerUserProvider(withAuthorization());
      assert.fail("expected a 401");
    } catch (error) {
      const response = (error as HttpError).toResponse();
      assert.equal(response.status, 401);
      assert.equal(response.headers.get("www-authenticate"), "Bearer");
      assert.equal(await response.text(), '{"detail":"Unauthorized"}');
    }
  });
});

Deno.test("bearerUserProvider() either returns a non-empty role or throws 401, for any header", () => {
  const headerChar = fc.mapToConstant({
    num: 95,
    build: (v) => String.fromCharCode(0x20 + v),
  });
  const value = fc.oneof(
    fc.string({ unit: headerChar, maxLength: 40 }),
    fc.string({ unit: headerChar, maxLength: 40 }).map((s) => `Bearer ${s}`),
  );
  fc.assert(
    fc.property(value, (header) => {
      const request = withAuthorization(header);
      let user;
      try {
        user = bearerUserProvider(request);
      } catch (error) {
        assert.ok(error instanceof HttpError);
        assert.equal(error.status, 401);
        return;
      }
      assert.equal(typeof user.role, "string");
      assert.ok((user.role as string).length > 0);
      assert.equal(
        `Bearer ${user.role}`.toLowerCase(),
        request.headers.get("authorization")?.toLowerCase(),
      );
    }),
  );
});
