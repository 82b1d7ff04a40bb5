import assert from "node:assert/strict";
import fc from "fast-check";
import {
  findCookie,
  isCookieName,
  readToken,
  type TokenSources,
} from "../../../src/guard/_jwt/token.ts";

const TOKEN = "aGVhZGVy.cGF5bG9hZA.c2lnbmF0dXJl";
const OTHER = "aGVhZGVy.cGF5bG9hZA.b3RoZXI";
const BOTH: TokenSources = { header: true, cookie: "token", maxLength: 100 };

function req(headers: Record<string, string>): Request {
  return new Request("http://localhost/", { headers });
}

Deno.test("findCookie() returns the value of the named cookie", () => {
  assert.equal(findCookie("token=abc", "token"), "abc");
  assert.equal(findCookie("a=1; token=abc; b=2", "token"), "abc");
  assert.equal(findCookie("a=1;token=abc;b=2", "token"), "abc");
  assert.equal(findCookie("  token = abc  ", "token"), "abc");
  assert.equal(findCookie("a=1, token=abc", "token"), "abc");
  assert.equal(findCookie("token=", "token"), "");
  assert.equal(findCookie("xtoken=abc; tokenx=def", "token"), undefined);
  assert.equal(findCookie("token", "token"), undefined);
  assert.equal(findCookie("", "token"), undefined);
  assert.equal(findCookie("a=b=c; token=x=y", "token"), "x=y");
});

Deno.test("findCookie() reports a repeated cookie, equal values or not", () => {
  for (
    const header of [
      "token=a; token=b",
      "token=a; token=a",
      "token=a, x=1, token=b",
    ]
  ) {
    assert.equal(typeof findCookie(header, "token"), "symbol", header);
  }
});

Deno.test("findCookie() finds any cookie among random others", () => {
  const name = fc.stringMatching(/^[a-z]{1,8}$/);
  const value = fc.stringMatching(/^[A-Za-z0-9._-]{0,20}$/);
  fc.assert(
    fc.property(
      fc.uniqueArray(fc.tuple(name, value), {
        selector: ([n]) => n,
        maxLength: 6,
      }),
      value,
      (others, wanted) => {
        const pairs = others.filter(([n]) => n !== "wanted");
        const at = pairs.length === 0 ? 0 : wanted.length % (pairs.length + 1);
        const all = [
          ...pairs.slice(0, at),
          ["wanted", wanted],
          ...pairs.slice(at),
        ];
        const header = all.map(([n, v]) => `${n}=${v}`).join("; ");
        assert.equal(findCookie(header, "wanted"), wanted);
      },
    ),
  );
});

Deno.test("isCookieName() accepts RFC 7230 tokens only", () => {
  assert.ok(isCookieName("token"));
  assert.ok(isCookieName("__Host-session"));
  for (const bad of ["", "a b", "a;b", "a=b", "a,b", 'a"b', "é"]) {
    assert.ok(!isCookieName(bad), bad);
  }
});

Deno.test("readToken() applies the documented precedence", async (t) => {
  await t.step("header only, cookie only, both equal", () => {
    assert.deepEqual(
      readToken(req({ authorization: `Bearer ${TOKEN}` }), BOTH),
      { token: TOKEN },
    );
    assert.deepEqual(readToken(req({ cookie: `token=${TOKEN}` }), BOTH), {
      token: TOKEN,
    });
    assert.deepEqual(
      readToken(
        req({ authorization: `bearer ${TOKEN}`, cookie: `token=${TOKEN}` }),
        BOTH,
      ),
      { token: TOKEN },
    );
  });
  await t.step("different tokens in header and cookie conflict", () => {
    assert.deepEqual(
      readToken(
        req({ authorization: `Bearer ${TOKEN}`, cookie: `token=${OTHER}` }),
        BOTH,
      ),
      { problem: "conflicting_tokens" },
    );
  });
  await t.step("a repeated cookie is refused even with a header", () => {
    assert.deepEqual(
      readToken(
        req({
          authorization: `Bearer ${TOKEN}`,
          cookie: `token=${TOKEN}; token=${OTHER}`,
        }),
        BOTH,
      ),
      { problem: "duplicate_cookie" },
    );
  });
  await t.step("another scheme or an empty credential is no token", () => {
    assert.deepEqual(
      readToken(req({ authorization: `Basic ${TOKEN}` }), BOTH),
      { problem: "missing" },
    );
    assert.deepEqual(readToken(req({ authorization: "Bearer " }), BOTH), {
      problem: "missing",
    });
    assert.deepEqual(readToken(req({}), BOTH), { problem: "missing" });
  });
  await t.step("disabled sources are not read", () => {
    const cookieOnly: TokenSources = {
      header: false,
      cookie: "token",
      maxLength: 100,
    };
    assert.deepEqual(
      readToken(req({ authorization: `Bearer ${TOKEN}` }), cookieOnly),
      { problem: "missing" },
    );
    const headerOnly: TokenSources = {
      header: true,
      cookie: undefined,
      maxLength: 100,
    };
    assert.deepEqual(readToken(req({ cookie: `token=${TOKEN}` }), headerOnly), {
      problem: "missing",
    });
  });
});

Deno.test("readToken() refuses anything but a compact JWS within the length limit", () => {
  for (
    const bad of [
      "abc",
      "a.b",
      "a.b.",
      ".b.c",
      "a..c",
      "a.b.c.d",
      "a.b.c=",
      "a+b.c.d",
      "a.b/c.d",
      "a.b. c",
      `${TOKEN} ${TOKEN}`,
      `${TOKEN}, Bearer ${TOKEN}`,
    ]
  ) {
    assert.deepEqual(readToken(req({ authorization: `Bearer ${bad}` }), BOTH), {
      problem: "malformed",
    }, bad);
  }
  const long = `${TOKEN}${"A".repeat(101 - TOKEN.length)}`;
  assert.deepEqual(readToken(req({ authorization: `Bearer ${long}` }), BOTH), {
    problem: "too_long",
  });
  const fits = `${TOKEN}${"A".repeat(100 - TOKEN.length)}`;
  assert.deepEqual(readToken(req({ authorization: `Bearer ${fits}` }), BOTH), {
    token: fits,
  });
});
