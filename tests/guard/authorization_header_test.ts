import assert from "node:assert/strict";
import fc from "fast-check";
import {
  bearerCredentials,
  parseAuthorizationHeader,
} from "../../src/guard/authorization_header.ts";

/** Characters a header value may hold (visible ASCII, space, tab). */
const headerChar: fc.Arbitrary<string> = fc.oneof(
  fc.mapToConstant({ num: 95, build: (v) => String.fromCharCode(0x20 + v) }),
  fc.constant("\t"),
);
/** A credential as it survives Headers normalisation: non-empty, no trailing whitespace. */
const credential: fc.Arbitrary<string> = fc
  .string({ unit: headerChar, minLength: 1, maxLength: 40 })
  .filter((value) => !/[ \t]$/.test(value));
/** "bearer" in any letter case. */
const bearerScheme: fc.Arbitrary<string> = fc
  .array(fc.boolean(), { minLength: 6, maxLength: 6 })
  .map((upper) =>
    [..."bearer"].map((c, i) => upper[i] ? c.toUpperCase() : c).join("")
  );
/** A scheme token that is not "bearer" in any case. */
const otherScheme: fc.Arbitrary<string> = fc
  .string({
    unit: fc.mapToConstant({
      num: 94,
      build: (v) => String.fromCharCode(0x21 + v),
    }),
    minLength: 1,
    maxLength: 12,
  })
  .filter((scheme) => scheme.toLowerCase() !== "bearer");

function withAuthorization(value: string): Request {
  return new Request("http://localhost/", {
    headers: { authorization: value },
  });
}

Deno.test("parseAuthorizationHeader() splits at the first space and keeps the rest as received", () => {
  assert.deepEqual(parseAuthorizationHeader("Bearer a b  c"), {
    scheme: "Bearer",
    credentials: "a b  c",
  });
  assert.deepEqual(parseAuthorizationHeader("Bearer  lead"), {
    scheme: "Bearer",
    credentials: " lead",
  });
  assert.deepEqual(parseAuthorizationHeader("Token"), {
    scheme: "Token",
    credentials: "",
  });
  assert.equal(parseAuthorizationHeader(""), undefined);
  assert.equal(parseAuthorizationHeader(null), undefined);
  assert.equal(parseAuthorizationHeader(undefined), undefined);
});

Deno.test("parseAuthorizationHeader() never throws and round-trips any string", () => {
  fc.assert(
    fc.property(fc.string({ unit: "binary" }), (value) => {
      const parsed = parseAuthorizationHeader(value);
      if (value === "") return parsed === undefined;
      assert.ok(parsed !== undefined);
      assert.ok(!parsed.scheme.includes(" "));
      const rebuilt = value.includes(" ")
        ? `${parsed.scheme} ${parsed.credentials}`
        : parsed.scheme;
      assert.equal(rebuilt, value);
      return true;
    }),
  );
});

Deno.test("bearerCredentials() reads a Bearer credential in any scheme case, as received", () => {
  fc.assert(
    fc.property(bearerScheme, credential, (scheme, value) => {
      assert.equal(
        bearerCredentials(withAuthorization(`${scheme} ${value}`)),
        value,
      );
    }),
  );
});

Deno.test("bearerCredentials() returns undefined for other schemes", () => {
  fc.assert(
    fc.property(otherScheme, credential, (scheme, value) => {
      assert.equal(
        bearerCredentials(withAuthorization(`${scheme} ${value}`)),
        undefined,
      );
    }),
  );
});

Deno.test("bearerCredentials() returns undefined without a header or with empty credentials", () => {
  assert.equal(bearerCredentials(new Request("http://localhost/")), undefined);
  for (const value of ["Bearer", "bearer ", "BEARER   ", "Bearer\t"]) {
    assert.equal(bearerCredentials(withAuthorization(value)), undefined);
  }
});

Deno.test("bearerCredentials() never throws and never returns an empty string for any header value", () => {
  fc.assert(
    fc.property(fc.string({ unit: headerChar, maxLength: 60 }), (value) => {
      const result = bearerCredentials(withAuthorization(value));
      assert.ok(result === undefined || result.length > 0);
      if (result !== undefined) {
        assert.equal(value.trim().slice(0, 7).toLowerCase(), "bearer ");
      }
    }),
  );
});

Deno.test("bearerCredentials() answers as parseAuthorizationHeader() with a bearer scheme does, for any byte-string header", () => {
  // Latin-1 characters included: none of them lowercases to a letter of
  // "bearer", and the scheme check must not treat them as if they did.
  const latin1: fc.Arbitrary<string> = fc.oneof(
    headerChar,
    fc.mapToConstant({
      num: 96,
      build: (v) => String.fromCharCode(0xa0 + v),
    }),
  );
  const prefix = fc.oneof(
    bearerScheme.map((scheme) => `${scheme} `),
    fc.constantFrom("", "Bearer", "Bearer  ", "Bearer\t", "Bear ", "bearer:"),
  );
  fc.assert(
    fc.property(
      prefix,
      fc.string({ unit: latin1, maxLength: 30 }),
      (start, rest) => {
        const request = withAuthorization(start + rest);
        const header = parseAuthorizationHeader(
          request.headers.get("authorization"),
        );
        const expected = header !== undefined &&
            header.credentials !== "" &&
            header.scheme.toLowerCase() === "bearer"
          ? header.credentials
          : undefined;
        assert.equal(bearerCredentials(request), expected);
      },
    ),
    { numRuns: 2000 },
  );
});
