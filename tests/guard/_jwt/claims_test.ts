import assert from "node:assert/strict";
import { claimPath, readClaim } from "../../../src/guard/_jwt/claims.ts";

Deno.test("claimPath() splits a dotted path and keeps array segments literal", () => {
  assert.deepEqual(claimPath("role"), ["role"]);
  assert.deepEqual(claimPath("realm_access.role"), ["realm_access", "role"]);
  assert.deepEqual(claimPath(["https://example.com/claims", "role"]), [
    "https://example.com/claims",
    "role",
  ]);
  assert.ok(Object.isFrozen(claimPath("a.b")));
});

Deno.test("claimPath() throws TypeError on an empty path or segment", () => {
  for (const bad of ["", "a.", ".a", "a..b", [], ["a", ""]]) {
    assert.throws(() => claimPath(bad), {
      name: "TypeError",
      message: /Cannot use claim path/,
    });
  }
});

Deno.test("readClaim() follows own properties through objects and arrays", () => {
  const claims = {
    a: { b: { c: "deep" } },
    roles: ["admin", "viewer"],
    n: null,
  };
  assert.equal(readClaim(claims, ["a", "b", "c"]), "deep");
  assert.equal(readClaim(claims, ["roles", "1"]), "viewer");
  assert.equal(readClaim(claims, ["a", "x", "c"]), undefined);
  assert.equal(readClaim(claims, ["n", "x"]), undefined);
  assert.equal(readClaim(claims, ["roles", "length", "x"]), undefined);
  assert.equal(readClaim("text", ["length"]), undefined);
});

Deno.test("readClaim() never reads inherited properties", () => {
  const claims = JSON.parse('{"__proto__": {"role": "admin"}, "x": {}}');
  assert.equal(readClaim({}, ["constructor"]), undefined);
  assert.equal(readClaim({}, ["toString"]), undefined);
  assert.equal(readClaim(claims.x, ["role"]), undefined);
  assert.deepEqual(readClaim(claims, ["__proto__"]), { role: "admin" });
  assert.equal(
    readClaim(Object.create({ role: "admin" }), ["role"]),
    undefined,
  );
});
