import assert from "node:assert/strict";
import fc from "fast-check";
import {
  exportJWK,
  exportSPKI,
  generateKeyPair,
  generateSecret,
  importPKCS8,
} from "jose";
import { z } from "zod";
import { newEnforcer, newModelFromString, StringAdapter } from "casbin";
import { PermissionGuard } from "../../src/guard/permission_guard.ts";
import { HttpError } from "../../src/guard/http_error.ts";
import {
  type JwtUserContext,
  JwtUserProvider,
  type JwtUserProviderOptions,
} from "../../src/guard/jwt_user_provider.ts";
import {
  type JwtErrorCode,
  JwtVerificationError,
} from "../../src/guard/jwt_verification_error.ts";
import type { User } from "../../src/guard/user.ts";
import {
  assertInvalidToken,
  assertMissingToken,
  bearer,
  hmacToken,
  now,
  outcome,
  request,
  SECRET,
  segment,
  sign,
  startJwksServer,
  testKey,
} from "../fixtures/jwt/helpers.ts";
import { CERTIFICATE_PEM, PRIVATE_KEY_PEM } from "../fixtures/jwt/x509.ts";

const encoder = new TextEncoder();

function create<U extends User = User, C = Record<string, unknown>>(
  options: JwtUserProviderOptions<U, C>,
): Promise<JwtUserProvider<U>> {
  return JwtUserProvider.create(options);
}

// ---------------------------------------------------------------------------
// Key kinds
// ---------------------------------------------------------------------------

Deno.test("JwtUserProvider verifies HS256, HS384 and HS512 with a shared secret", async (t) => {
  const secret = "s".repeat(64);
  const provider = await create({ secret });
  for (const alg of ["HS256", "HS384", "HS512"]) {
    await t.step(alg, async () => {
      const token = await sign({ role: "editor" }, secret, { alg });
      const user = await provider.resolve(bearer(token));
      assert.equal(user.role, "editor");
    });
  }
  await t.step("bytes and an HMAC CryptoKey work too", async () => {
    const bytes = crypto.getRandomValues(new Uint8Array(32));
    const fromBytes = await create({ secret: bytes });
    const token = await sign({ role: "viewer" }, bytes, { alg: "HS256" });
    assert.equal((await fromBytes.resolve(bearer(token))).role, "viewer");
    const key = await generateSecret("HS384") as CryptoKey;
    const fromKey = await create({ secret: key });
    const token384 = await sign({ role: "admin" }, key, { alg: "HS384" });
    assert.equal((await fromKey.resolve(bearer(token384))).role, "admin");
  });
});

Deno.test("JwtUserProvider accepts only the HS algorithms the secret is long enough for", async () => {
  const secret = "k".repeat(32);
  const provider = await create({ secret });
  const hs256 = await sign({ role: "a" }, secret, { alg: "HS256" });
  assert.equal((await provider.resolve(bearer(hs256))).role, "a");
  const hs512 = await sign({ role: "a" }, secret, { alg: "HS512" });
  await assertInvalidToken(provider.userProvider, bearer(hs512));
});

Deno.test("JwtUserProvider verifies RS and PS tokens with an RSA PEM and explicit algorithms", async () => {
  const rs = await testKey("RS256", "rs");
  const pem = await exportSPKI(rs.publicKey);
  const provider = await create({
    publicKey: pem,
    algorithms: ["RS256", "PS256"],
  });
  const token = await sign({ role: "editor" }, rs.privateKey, { alg: "RS256" });
  assert.equal((await provider.resolve(bearer(token))).role, "editor");
  const ps = await generateKeyPair("PS256", { extractable: true });
  const psProvider = await create({
    publicKey: await exportSPKI(ps.publicKey),
    algorithms: ["PS256"],
  });
  const psToken = await sign({ role: "viewer" }, ps.privateKey, {
    alg: "PS256",
  });
  assert.equal((await psProvider.resolve(bearer(psToken))).role, "viewer");
  // A PS256 token against the RS256-only allow-list is refused.
  const rsOnly = await create({ publicKey: pem, algorithms: ["RS256"] });
  const rsKeyPs = await generateKeyPair("PS256", { extractable: true });
  const mismatched = await sign({ role: "x" }, rsKeyPs.privateKey, {
    alg: "PS256",
  });
  await assertInvalidToken(rsOnly.userProvider, bearer(mismatched));
});

Deno.test("JwtUserProvider infers ES256/384/512 and EdDSA from a PEM", async (t) => {
  for (const alg of ["ES256", "ES384", "ES512", "EdDSA"]) {
    await t.step(alg, async () => {
      const key = await testKey(alg, alg);
      const provider = await create({
        publicKey: await exportSPKI(key.publicKey),
      });
      const token = await sign({ role: alg }, key.privateKey, { alg });
      assert.equal((await provider.resolve(bearer(token))).role, alg);
      // Another key of the same kind does not verify.
      const other = await testKey(alg, "other");
      const forged = await sign({ role: alg }, other.privateKey, { alg });
      await assertInvalidToken(provider.userProvider, bearer(forged));
    });
  }
  await t.step("Ed25519 is accepted as the EdDSA alg name too", async () => {
    const key = await testKey("Ed25519", "ed");
    const provider = await create({
      publicKey: await exportSPKI(key.publicKey),
    });
    const token = await sign({ role: "ed" }, key.privateKey, {
      alg: "Ed25519",
    });
    assert.equal((await provider.resolve(bearer(token))).role, "ed");
  });
});

Deno.test("JwtUserProvider verifies with an X.509 certificate", async () => {
  const provider = await create({ publicKey: CERTIFICATE_PEM });
  const privateKey = await importPKCS8(PRIVATE_KEY_PEM, "ES256");
  const token = await sign({ role: "cert" }, privateKey, { alg: "ES256" });
  assert.equal((await provider.resolve(bearer(token))).role, "cert");
});

Deno.test("JwtUserProvider verifies with a public JWK and a public CryptoKey", async (t) => {
  await t.step("EC JWK without alg: inferred from the curve", async () => {
    const key = await testKey("ES384", "k");
    const { kty, crv, x, y } = await exportJWK(key.publicKey);
    const provider = await create({
      publicKey: { kty, crv, x, y } as JsonWebKey,
    });
    const token = await sign({ role: "jwk" }, key.privateKey, { alg: "ES384" });
    assert.equal((await provider.resolve(bearer(token))).role, "jwk");
  });
  await t.step("RSA JWK with alg", async () => {
    const key = await testKey("PS384", "k");
    const provider = await create({ publicKey: key.jwk as JsonWebKey });
    const token = await sign({ role: "ps" }, key.privateKey, { alg: "PS384" });
    assert.equal((await provider.resolve(bearer(token))).role, "ps");
    const ps256 = await generateKeyPair("PS256");
    const other = await sign({ role: "ps" }, ps256.privateKey, {
      alg: "PS256",
    });
    await assertInvalidToken(provider.userProvider, bearer(other));
  });
  await t.step("CryptoKey", async () => {
    const key = await testKey("ES256", "k");
    const provider = await create({ publicKey: key.publicKey });
    const token = await sign({ role: "ck" }, key.privateKey, { alg: "ES256" });
    assert.equal((await provider.resolve(bearer(token))).role, "ck");
  });
});

Deno.test("JwtUserProvider selects the key of a local JWKS by kid", async () => {
  const a = await testKey("ES256", "a");
  const b = await testKey("RS256", "b");
  const provider = await create({
    jwks: { keys: [a.jwk, b.jwk] as JsonWebKey[] },
  });
  const fromA = await sign({ role: "a" }, a.privateKey, {
    alg: "ES256",
    kid: "a",
  });
  const fromB = await sign({ role: "b" }, b.privateKey, {
    alg: "RS256",
    kid: "b",
  });
  assert.equal((await provider.resolve(bearer(fromA))).role, "a");
  assert.equal((await provider.resolve(bearer(fromB))).role, "b");
  const wrongKid = await sign({ role: "a" }, a.privateKey, {
    alg: "ES256",
    kid: "b",
  });
  await assertInvalidToken(provider.userProvider, bearer(wrongKid));
});

// ---------------------------------------------------------------------------
// Misconfiguration fails at startup
// ---------------------------------------------------------------------------

Deno.test("JwtUserProvider.create() rejects a misconfiguration with a clear error", async (t) => {
  const rsa = await generateKeyPair("RS256", { extractable: true });
  const rsaPem = await exportSPKI(rsa.publicKey);
  const ec = await testKey("ES256", "ec");
  const cases: Array<[string, Record<string, unknown>, RegExp]> = [
    ["no key", {}, /exactly one of/],
    ["two keys", { secret: SECRET, publicKey: rsaPem }, /exactly one of/],
    [
      "a PEM public key as secret",
      { secret: rsaPem },
      /never as an HMAC secret/,
    ],
    [
      "a JWK text as secret",
      { secret: JSON.stringify(ec.jwk) },
      /never as an HMAC secret/,
    ],
    [
      "a PEM as secret bytes",
      { secret: encoder.encode(rsaPem) },
      /never as an HMAC secret/,
    ],
    [
      "HS256 with a public key",
      { publicKey: rsaPem, algorithms: ["HS256"] },
      /never used as an HMAC secret/,
    ],
    [
      "HS256 with a JWKS",
      { jwks: { keys: [ec.jwk] }, algorithms: ["HS256"] },
      /never used as an HMAC secret/,
    ],
    [
      "RS256 with a secret",
      { secret: SECRET, algorithms: ["RS256"] },
      /needs a public key/,
    ],
    [
      "none",
      { secret: SECRET, algorithms: ["none"] },
      /"none" is never accepted/,
    ],
    [
      "NONE",
      { secret: SECRET, algorithms: ["NONE"] },
      /"none" is never accepted/,
    ],
    [
      "unknown algorithm",
      { secret: SECRET, algorithms: ["HS1"] },
      /unknown algorithm/,
    ],
    ["empty algorithms", { secret: SECRET, algorithms: [] }, /non-empty array/],
    [
      "RSA PEM without algorithms",
      { publicKey: rsaPem },
      /explicit "algorithms"/,
    ],
    ["RSA JWK without alg or algorithms", {
      publicKey: { ...ec.jwk, kty: "RSA", alg: undefined },
    }, /explicit "algorithms"/],
    ["EC PEM with an RSA algorithm", {
      publicKey: await exportSPKI(ec.publicKey),
      algorithms: ["RS256"],
    }, /cannot verify RS256/],
    ["a private key PEM", {
      publicKey: "-----BEGIN PRIVATE KEY-----\nAAAA\n-----END PRIVATE KEY-----",
    }, /private key/],
    [
      "a private JWK",
      { publicKey: await exportJWK(ec.privateKey) },
      /private key/,
    ],
    ["a private CryptoKey", { publicKey: ec.privateKey }, /public CryptoKey/],
    [
      "a symmetric JWK as public key",
      { publicKey: { kty: "oct", k: "AAAA" } },
      /secret/,
    ],
    [
      "a secret in a JWKS",
      { jwks: { keys: [{ kty: "oct", k: "AAAA" }] } },
      /public keys only/,
    ],
    ["a JWKS that is not one", { jwks: [ec.jwk] }, /JSON Web Key Set/],
    ["not a PEM", { publicKey: "hello" }, /PEM public key/],
    ["http JWKS off loopback", {
      jwksUrl: "http://issuer.example.com/jwks.json",
    }, /https:/],
    ["a relative JWKS URL", { jwksUrl: "/jwks.json" }, /absolute URL/],
    ["credentials in the JWKS URL", {
      jwksUrl: "https://u:p@issuer.example.com/jwks",
    }, /credentials/],
    [
      "jwksOptions without jwksUrl",
      { secret: SECRET, jwksOptions: {} },
      /only applies/,
    ],
    ["a bad cookie name", { secret: SECRET, cookie: "a b" }, /cookie name/],
    ["no token source", { secret: SECRET, header: false }, /no token source/],
    ["a bad issuer", { secret: SECRET, issuer: [] }, /"issuer"/],
    ["a bad schema", { secret: SECRET, schema: {} }, /Standard Schema/],
    ["a bad toUser", { secret: SECRET, toUser: "role" }, /"toUser"/],
    ["an empty role path", { secret: SECRET, roleClaim: "a..b" }, /claim path/],
  ];
  for (const [name, options, message] of cases) {
    await t.step(name, async () => {
      await assert.rejects(
        create(options as JwtUserProviderOptions),
        (error: unknown) => {
          assert.ok(error instanceof TypeError, `${error}`);
          assert.match(error.message, message);
          assert.match(error.message, /^Cannot /);
          return true;
        },
      );
    });
  }
  await t.step(
    "short secrets and negative durations are RangeErrors",
    async () => {
      await assert.rejects(create({ secret: "short" }), RangeError);
      await assert.rejects(
        create({ secret: "k".repeat(32), algorithms: ["HS512"] }),
        {
          name: "RangeError",
          message: /HS512 needs a "secret" of at least 64 bytes/,
        },
      );
      await assert.rejects(
        create({ secret: SECRET, clockTolerance: -1 }),
        RangeError,
      );
      await assert.rejects(
        create({ secret: SECRET, maxTokenLength: 0 }),
        RangeError,
      );
    },
  );
  await t.step(
    "RSA keys under 2048 bits are refused in every form",
    async () => {
      const weak = await crypto.subtle.generateKey(
        {
          name: "RSASSA-PKCS1-v1_5",
          modulusLength: 1024,
          publicExponent: new Uint8Array([1, 0, 1]),
          hash: "SHA-256",
        },
        true,
        ["sign", "verify"],
      );
      for (
        const publicKey of [await exportSPKI(weak.publicKey), {
          ...await exportJWK(weak.publicKey),
          alg: "RS256",
        }, weak.publicKey]
      ) {
        await assert.rejects(
          create({ publicKey: publicKey as JsonWebKey, algorithms: ["RS256"] }),
          {
            name: "TypeError",
            message: /at least 2048 bits, got 1024/,
          },
        );
      }
    },
  );
  await t.step("no error message contains key material", async () => {
    const error = await create({ secret: rsaPem }).catch((e: Error) => e);
    assert.ok(error instanceof Error);
    assert.ok(!error.message.includes("MII"));
  });
});

// ---------------------------------------------------------------------------
// Token sources and their precedence
// ---------------------------------------------------------------------------

Deno.test("JwtUserProvider reads the header and the cookie with a fixed precedence", async (t) => {
  const provider = await create({ secret: SECRET, cookie: "session" });
  const editor = await sign({ role: "editor" }, SECRET, { alg: "HS256" });
  const viewer = await sign({ role: "viewer" }, SECRET, { alg: "HS256" });

  await t.step(
    "no token: 401 Unauthorized with WWW-Authenticate: Bearer",
    async () => {
      await assertMissingToken(provider.userProvider, request());
      await assertMissingToken(
        provider.userProvider,
        request({ authorization: "Bearer" }),
      );
      await assertMissingToken(
        provider.userProvider,
        request({ cookie: "session=" }),
      );
      await assertMissingToken(
        provider.userProvider,
        request({ cookie: "other=x" }),
      );
    },
  );
  await t.step("the header alone", async () => {
    const user = await provider.resolve(
      request({ authorization: `bearer ${editor}` }),
    );
    assert.equal(user.role, "editor");
  });
  await t.step("the cookie alone", async () => {
    const user = await provider.resolve(
      request({ cookie: `a=1; session=${viewer}; b=2` }),
    );
    assert.equal(user.role, "viewer");
  });
  await t.step("another scheme does not hide the cookie", async () => {
    const user = await provider.resolve(
      request({ authorization: "Basic dTpw", cookie: `session=${viewer}` }),
    );
    assert.equal(user.role, "viewer");
  });
  await t.step("the same token in both places", async () => {
    const user = await provider.resolve(
      request({
        authorization: `Bearer ${editor}`,
        cookie: `session=${editor}`,
      }),
    );
    assert.equal(user.role, "editor");
  });
  await t.step(
    "different tokens in header and cookie: 401 whatever the order",
    async () => {
      await assertInvalidToken(
        provider.userProvider,
        request({
          authorization: `Bearer ${editor}`,
          cookie: `session=${viewer}`,
        }),
      );
      await assertInvalidToken(
        provider.userProvider,
        request({
          authorization: `Bearer ${viewer}`,
          cookie: `session=${editor}`,
        }),
      );
    },
  );
  await t.step("header disabled: only the cookie counts", async () => {
    const cookieOnly = await create({
      secret: SECRET,
      header: false,
      cookie: "session",
    });
    await assertMissingToken(cookieOnly.userProvider, bearer(editor));
    const user = await cookieOnly.resolve(
      request({ cookie: `session=${viewer}` }),
    );
    assert.equal(user.role, "viewer");
  });
  await t.step("without a cookie option, cookies are ignored", async () => {
    const headerOnly = await create({ secret: SECRET });
    await assertMissingToken(
      headerOnly.userProvider,
      request({ cookie: `session=${editor}` }),
    );
  });
});

// ---------------------------------------------------------------------------
// Claims
// ---------------------------------------------------------------------------

Deno.test("JwtUserProvider checks exp and nbf with the clock tolerance", async (t) => {
  const strict = await create({ secret: SECRET });
  const tolerant = await create({ secret: SECRET, clockTolerance: 30 });
  await t.step("expired 10 s ago", async () => {
    const token = await sign({ role: "a", exp: now() - 10 }, SECRET, {
      alg: "HS256",
    });
    await assertInvalidToken(
      strict.userProvider,
      bearer(token),
      "Token expired",
    );
    assert.equal((await tolerant.resolve(bearer(token))).role, "a");
  });
  await t.step("nbf 10 s ahead", async () => {
    const token = await sign({ role: "a", nbf: now() + 10 }, SECRET, {
      alg: "HS256",
    });
    await assertInvalidToken(strict.userProvider, bearer(token));
    assert.equal((await tolerant.resolve(bearer(token))).role, "a");
  });
  await t.step("exp is required by default", async () => {
    const token = await sign({ role: "a" }, SECRET, {
      alg: "HS256",
      expiresIn: null,
    });
    await assertInvalidToken(strict.userProvider, bearer(token));
    const lax = await create({ secret: SECRET, requireExpiration: false });
    assert.equal((await lax.resolve(bearer(token))).role, "a");
  });
});

Deno.test("JwtUserProvider checks iss, aud, max age and required claims", async () => {
  const provider = await create({
    secret: SECRET,
    issuer: ["https://a.example", "https://b.example"],
    audience: "api",
    maxTokenAge: 60,
    requiredClaims: ["sub"],
  });
  const good = {
    iss: "https://b.example",
    aud: ["web", "api"],
    iat: now(),
    sub: "u1",
    role: "r",
  };
  const ok = await sign(good, SECRET, { alg: "HS256" });
  assert.equal((await provider.resolve(bearer(ok))).sub, "u1");
  const bad: Record<string, Record<string, unknown>> = {
    "wrong iss": { ...good, iss: "https://evil.example" },
    "no iss": { ...good, iss: undefined },
    "wrong aud": { ...good, aud: "other" },
    "no aud": { ...good, aud: undefined },
    "too old": { ...good, iat: now() - 3600 },
    "no iat": { ...good, iat: undefined },
    "no sub": { ...good, sub: undefined },
  };
  for (const [name, claims] of Object.entries(bad)) {
    const token = await sign(claims, SECRET, { alg: "HS256" });
    // jose reports a token past its max age as expired.
    const detail = name === "too old" ? "Token expired" : "Invalid token";
    await assertInvalidToken(provider.userProvider, bearer(token), detail);
  }
});

Deno.test("JwtUserProvider checks the typ header when asked to", async () => {
  const provider = await create({ secret: SECRET, typ: "at+jwt" });
  for (const typ of ["at+jwt", "AT+JWT", "application/at+jwt"]) {
    const token = await sign({ role: "a" }, SECRET, {
      alg: "HS256",
      header: { typ },
    });
    assert.equal((await provider.resolve(bearer(token))).role, "a");
  }
  for (const header of [{ typ: "JWT" }, {}]) {
    const token = await sign({ role: "a" }, SECRET, { alg: "HS256", header });
    await assertInvalidToken(provider.userProvider, bearer(token));
  }
});

// ---------------------------------------------------------------------------
// Mapping and validation
// ---------------------------------------------------------------------------

Deno.test("JwtUserProvider maps the claims to the user", async (t) => {
  await t.step("default: role, sub and the claims", async () => {
    const provider = await create({ secret: SECRET });
    const token = await sign({ sub: "u1", role: "editor", team: "x" }, SECRET, {
      alg: "HS256",
    });
    const user = await provider.resolve(bearer(token));
    assert.equal(user.role, "editor");
    assert.equal(user.sub, "u1");
    assert.equal((user.claims as Record<string, unknown>).team, "x");
  });
  await t.step("a role that is not a string is left out", async () => {
    const provider = await create({ secret: SECRET });
    const token = await sign({ role: ["admin"] }, SECRET, { alg: "HS256" });
    const user = await provider.resolve(bearer(token));
    assert.equal(user.role, undefined);
    assert.ok(!("role" in user));
  });
  await t.step("a nested role path", async () => {
    const provider = await create({
      secret: SECRET,
      roleClaim: "realm_access.role",
    });
    const token = await sign({ realm_access: { role: "admin" } }, SECRET, {
      alg: "HS256",
    });
    assert.equal((await provider.resolve(bearer(token))).role, "admin");
  });
  await t.step("path segments for claim names with dots", async () => {
    const provider = await create({
      secret: SECRET,
      roleClaim: ["https://example.com/claims", "role"],
    });
    const token = await sign(
      { "https://example.com/claims": { role: "viewer" } },
      SECRET,
      { alg: "HS256" },
    );
    assert.equal((await provider.resolve(bearer(token))).role, "viewer");
  });
  await t.step("the path never reaches the prototype", async () => {
    const provider = await create({
      secret: SECRET,
      roleClaim: "constructor.name",
    });
    const token = await sign({}, SECRET, { alg: "HS256" });
    assert.equal((await provider.resolve(bearer(token))).role, undefined);
  });
  await t.step(
    "a custom mapping receives the header and the request",
    async () => {
      let seen: JwtUserContext | undefined;
      const provider = await create({
        secret: SECRET,
        toUser: (claims, context) => {
          seen = context;
          return { role: String(claims.group), id: claims.sub };
        },
      });
      const token = await sign({ group: "ops", sub: "u2" }, SECRET, {
        alg: "HS256",
        kid: "k1",
      });
      const req = bearer(token);
      assert.deepEqual(await provider.resolve(req), { role: "ops", id: "u2" });
      assert.equal(seen?.header.kid, "k1");
      assert.equal(seen?.request, req);
    },
  );
  await t.step("a mapping that throws HttpError answers with it", async () => {
    const provider = await create({
      secret: SECRET,
      toUser: () => {
        throw new HttpError(403, "Account disabled");
      },
    });
    const token = await sign({}, SECRET, { alg: "HS256" });
    const error = await outcome(provider.userProvider, bearer(token));
    assert.ok(error instanceof HttpError);
    assert.equal(error.status, 403);
  });
  await t.step(
    "a mapping that throws anything else or returns no object: 401",
    async () => {
      const throwing = await create({
        secret: SECRET,
        toUser: (claims) => ({ role: (claims.missing as { x: string }).x }),
      });
      const token = await sign({}, SECRET, { alg: "HS256" });
      await assertInvalidToken(throwing.userProvider, bearer(token));
      const empty = await create({
        secret: SECRET,
        toUser: () => null as unknown as User,
      });
      await assertInvalidToken(empty.userProvider, bearer(token));
    },
  );
});

Deno.test("JwtUserProvider validates the claims with a zod schema", async () => {
  const provider = await create({
    secret: SECRET,
    schema: z.object({
      sub: z.string(),
      roles: z.array(z.enum(["admin", "editor", "viewer"])).min(1),
    }),
    toUser: (claims) => ({ id: claims.sub, role: claims.roles[0]! }),
  });
  const ok = await sign({ sub: "u1", roles: ["editor"] }, SECRET, {
    alg: "HS256",
  });
  assert.deepEqual(await provider.resolve(bearer(ok)), {
    id: "u1",
    role: "editor",
  });
  for (
    const claims of [{ sub: "u1", roles: ["root"] }, {
      sub: 1,
      roles: ["admin"],
    }, { sub: "u1" }]
  ) {
    const token = await sign(claims, SECRET, { alg: "HS256" });
    await assertInvalidToken(provider.userProvider, bearer(token));
  }
});

// ---------------------------------------------------------------------------
// Error hooks
// ---------------------------------------------------------------------------

Deno.test("JwtUserProvider error hooks replace the answers and see the reason", async () => {
  const codes: JwtErrorCode[] = [];
  const provider = await create({
    secret: SECRET,
    onMissingToken: () =>
      new HttpError(401, "Sign in", {
        headers: { "WWW-Authenticate": 'Bearer realm="app"' },
      }),
    onInvalidToken: (error) => {
      assert.ok(error instanceof JwtVerificationError);
      codes.push(error.code);
      return new HttpError(401, "Please sign in again");
    },
  });
  const missing = await outcome(provider.userProvider, request());
  assert.ok(missing instanceof HttpError);
  assert.equal(missing.detail, "Sign in");
  assert.equal(missing.headers.get("www-authenticate"), 'Bearer realm="app"');
  const expired = await sign({ exp: now() - 5 }, SECRET, { alg: "HS256" });
  const forged = await sign({}, "f".repeat(32), { alg: "HS256" });
  for (const token of [expired, forged, "a.b", "x".repeat(9000)]) {
    const error = await outcome(provider.userProvider, bearer(token));
    assert.ok(error instanceof HttpError);
    assert.equal(error.detail, "Please sign in again");
  }
  assert.deepEqual(codes, [
    "expired",
    "invalid_signature",
    "malformed",
    "too_long",
  ]);
});

Deno.test("JwtUserProvider fails closed when a hook returns something else", async () => {
  const provider = await create({
    secret: SECRET,
    onInvalidToken: () => new Response("nope") as unknown as HttpError,
  });
  const error = await outcome(provider.userProvider, bearer("a.b.c"));
  assert.ok(error instanceof TypeError);
  assert.match(error.message, /onInvalidToken/);
});

// ---------------------------------------------------------------------------
// Attack suite: every case is a 401
// ---------------------------------------------------------------------------

Deno.test("JwtUserProvider refuses every attack with 401 invalid_token", async (t) => {
  const rsa = await testKey("RS256", "rsa-1");
  const rsaPem = await exportSPKI(rsa.publicKey);
  const hmac = await create({
    secret: SECRET,
    issuer: "iss",
    audience: "aud",
    cookie: "token",
  });
  const pem = await create({ publicKey: rsaPem, algorithms: ["RS256"] });
  const jwks = await create({ jwks: { keys: [rsa.jwk] as JsonWebKey[] } });
  const claims = { iss: "iss", aud: "aud", role: "viewer" };
  const good = await sign(claims, SECRET, { alg: "HS256" });
  const goodRsa = await sign(claims, rsa.privateKey, {
    alg: "RS256",
    kid: "rsa-1",
  });
  // Sanity: the untampered tokens pass, so each refusal below is the attack's.
  assert.equal((await hmac.resolve(bearer(good))).role, "viewer");
  assert.equal((await pem.resolve(bearer(goodRsa))).role, "viewer");
  assert.equal((await jwks.resolve(bearer(goodRsa))).role, "viewer");
  const [h, p, s] = good.split(".") as [string, string, string];
  const all = [hmac, pem, jwks];

  await t.step(
    "alg: none (empty and non-empty signature, any case)",
    async () => {
      for (const alg of ["none", "None", "NONE", "nOnE"]) {
        const header = segment({ alg, typ: "JWT" });
        const payload = segment({ ...claims, role: "admin", exp: now() + 300 });
        for (
          const token of [
            `${header}.${payload}.`,
            `${header}.${payload}.${s}`,
            `${header}.${payload}`,
          ]
        ) {
          for (const provider of all) {
            await assertInvalidToken(
              provider.userProvider,
              bearer(token),
            );
          }
        }
      }
    },
  );
  await t.step(
    "HS256 signed with the RSA public key (PEM, DER and JWK forms)",
    async () => {
      const der = Uint8Array.from(
        atob(rsaPem.replace(/-----[^-]+-----|\s/g, "")),
        (c) => c.charCodeAt(0),
      );
      for (
        const secret of [rsaPem, `${rsaPem}\n`, der, JSON.stringify(rsa.jwk)]
      ) {
        for (const kid of [undefined, "rsa-1"]) {
          const token = await sign({ ...claims, role: "admin" }, secret, {
            alg: "HS256",
            ...(kid === undefined ? {} : { kid }),
          });
          await assertInvalidToken(pem.userProvider, bearer(token));
          await assertInvalidToken(jwks.userProvider, bearer(token));
        }
      }
    },
  );
  await t.step("expired", async () => {
    const token = await sign({ ...claims, exp: now() - 1 }, SECRET, {
      alg: "HS256",
    });
    await assertInvalidToken(hmac.userProvider, bearer(token), "Token expired");
  });
  await t.step("nbf in the future", async () => {
    const token = await sign({ ...claims, nbf: now() + 60 }, SECRET, {
      alg: "HS256",
    });
    await assertInvalidToken(hmac.userProvider, bearer(token));
  });
  await t.step("wrong iss", async () => {
    const token = await sign({ ...claims, iss: "evil" }, SECRET, {
      alg: "HS256",
    });
    await assertInvalidToken(hmac.userProvider, bearer(token));
  });
  await t.step("wrong aud", async () => {
    const token = await sign({ ...claims, aud: "other" }, SECRET, {
      alg: "HS256",
    });
    await assertInvalidToken(hmac.userProvider, bearer(token));
  });
  await t.step("tampered payload", async () => {
    const payload = segment({ ...claims, role: "admin", exp: now() + 300 });
    await assertInvalidToken(hmac.userProvider, bearer(`${h}.${payload}.${s}`));
    const [rh, , rs] = goodRsa.split(".");
    for (const provider of [pem, jwks]) {
      await assertInvalidToken(
        provider.userProvider,
        bearer(`${rh}.${payload}.${rs}`),
      );
    }
  });
  await t.step("tampered signature", async () => {
    const flipped = s.slice(0, 5) + (s[5] === "A" ? "B" : "A") + s.slice(6);
    await assertInvalidToken(hmac.userProvider, bearer(`${h}.${p}.${flipped}`));
    const [rh, rp, rs] = goodRsa.split(".") as [string, string, string];
    await assertInvalidToken(
      pem.userProvider,
      bearer(`${rh}.${rp}.${rs.slice(0, -4)}AAAA`),
    );
    // Another header with the same signature (alg switched to HS384).
    const swapped = segment({ alg: "HS384" });
    await assertInvalidToken(hmac.userProvider, bearer(`${swapped}.${p}.${s}`));
  });
  await t.step("truncated token", async () => {
    for (
      const token of [
        good.slice(0, good.lastIndexOf(".")),
        `${h}.${p}`,
        h,
        good.slice(0, good.length / 2),
        good.slice(0, -1),
      ]
    ) {
      await assertInvalidToken(hmac.userProvider, bearer(token));
    }
  });
  await t.step("malformed base64 and JSON", async () => {
    const cases = [
      `${h}.${p}.${s}=`,
      `${h}=.${p}.${s}`,
      `${h}.${p.slice(0, 10)}*${p.slice(11)}.${s}`,
      `${h}.${p}.${s}.${s}`,
      `${h}..${s}`,
      `.${p}.${s}`,
      `${h.slice(0, 5)}+${h.slice(6)}.${p}.${s}`,
      `${h}.${p.slice(0, 8)}/${p.slice(9)}.${s}`,
      `${segment("not an object")}.${p}.${s}`,
      `${btoa("{alg:HS256}").replace(/=+$/, "")}.${p}.${s}`,
      `${h}.${btoa("not json").replace(/=+$/, "")}.${s}`,
      `${h}.${segment([1, 2])}.${s}`,
      `${h}.${p} .${s}`,
    ];
    for (const token of cases) {
      await assertInvalidToken(hmac.userProvider, bearer(token));
    }
  });
  await t.step("100 KB token, in the header and in the cookie", async () => {
    const padding = "A".repeat(100 * 1024);
    const huge = `${h}.${p}${padding}.${s}`;
    await assertInvalidToken(hmac.userProvider, bearer(huge));
    await assertInvalidToken(
      hmac.userProvider,
      request({ cookie: `token=${huge}` }),
    );
  });
  await t.step("kid with path characters", async () => {
    for (
      const kid of [
        "../../../../dev/null",
        "/etc/passwd",
        "..\\..\\keys\\a",
        "rsa-1/../rsa-1",
        "https://evil.example/jwks.json",
        "rsa-1\u0000",
      ]
    ) {
      const attacker = await sign(
        { ...claims, role: "admin" },
        "a".repeat(32),
        { alg: "HS256", kid },
      );
      await assertInvalidToken(hmac.userProvider, bearer(attacker));
      const asymmetric = await sign(
        { ...claims, role: "admin" },
        (await testKey("RS256", kid)).privateKey,
        { alg: "RS256", kid },
      );
      for (const provider of [pem, jwks]) {
        await assertInvalidToken(provider.userProvider, bearer(asymmetric));
      }
    }
  });
  await t.step(
    "duplicate cookie and conflicting cookie and header",
    async () => {
      const forged = await sign({ ...claims, role: "admin" }, "f".repeat(32), {
        alg: "HS256",
      });
      const requests = [
        request({ cookie: `token=${good}; token=${forged}` }),
        request({ cookie: `token=${forged}; token=${good}` }),
        request({ cookie: `token=${good}; token=${good}` }),
        request({ cookie: `token=${good}, token=${forged}` }),
        request({ authorization: `Bearer ${good}`, cookie: `token=${forged}` }),
        request({ authorization: `Bearer ${forged}`, cookie: `token=${good}` }),
        request({ authorization: `Bearer ${good}, Bearer ${forged}` }),
        request({ authorization: `Bearer ${good} ${forged}` }),
      ];
      for (const req of requests) {
        await assertInvalidToken(
          hmac.userProvider,
          req,
        );
      }
    },
  );
  await t.step(
    "embedded jwk, jku, x5u and crit headers are not trusted",
    async () => {
      const attacker = await testKey("RS256", "rsa-1");
      for (
        const header of [{ jwk: attacker.jwk }, {
          jku: "https://evil.example/jwks.json",
        }, { x5u: "https://evil.example/cert.pem" }]
      ) {
        const token = await sign(
          { ...claims, role: "admin" },
          attacker.privateKey,
          { alg: "RS256", kid: "rsa-1", header },
        );
        for (const provider of [pem, jwks]) {
          await assertInvalidToken(
            provider.userProvider,
            bearer(token),
          );
        }
      }
      const crit = await hmacToken(
        { alg: "HS256", crit: ["exp2"], exp2: 1 },
        { ...claims, exp: now() + 300 },
        SECRET,
      );
      await assertInvalidToken(hmac.userProvider, bearer(crit));
      const b64 = await hmacToken(
        { alg: "HS256", b64: false, crit: ["b64"] },
        { ...claims, exp: now() + 300 },
        SECRET,
      );
      await assertInvalidToken(hmac.userProvider, bearer(b64));
    },
  );
  await t.step("an RS256 token against a secret", async () => {
    await assertInvalidToken(hmac.userProvider, bearer(goodRsa));
  });
  await t.step(
    "no refusal body carries a stack, a key or the token",
    async () => {
      const forged = await sign({ ...claims, role: "admin" }, rsaPem, {
        alg: "HS256",
      });
      const error = await outcome(pem.userProvider, bearer(forged));
      assert.ok(error instanceof HttpError);
      const body = await error.toResponse().text();
      assert.equal(body, '{"detail":"Invalid token"}');
    },
  );
});

// ---------------------------------------------------------------------------
// Remote JWKS on a loopback server
// ---------------------------------------------------------------------------

Deno.test("JwtUserProvider with a JWKS URL fetches once, caches and picks up rotated keys", async (t) => {
  const a = await testKey("ES256", "a");
  const b = await testKey("RS256", "b");
  await using server = startJwksServer([a.jwk]);
  const provider = await create({
    jwksUrl: server.url,
    jwksOptions: { cooldownDuration: 0 },
  });
  const tokenA = await sign({ role: "a" }, a.privateKey, {
    alg: "ES256",
    kid: "a",
  });
  const tokenB = await sign({ role: "b" }, b.privateKey, {
    alg: "RS256",
    kid: "b",
  });

  await t.step("keys are fetched lazily, then served from cache", async () => {
    assert.equal(server.requests.length, 0);
    assert.equal((await provider.resolve(bearer(tokenA))).role, "a");
    assert.equal((await provider.resolve(bearer(tokenA))).role, "a");
    assert.deepEqual(server.requests, ["/jwks.json"]);
  });
  await t.step("an unknown kid before rotation is refused", async () => {
    await assertInvalidToken(provider.userProvider, bearer(tokenB));
  });
  await t.step("a new kid is picked up after rotation", async () => {
    server.keys = [a.jwk, b.jwk];
    assert.equal((await provider.resolve(bearer(tokenB))).role, "b");
    assert.equal((await provider.resolve(bearer(tokenA))).role, "a");
  });
  await t.step(
    "a removed key stops verifying once the set is fetched again",
    async () => {
      server.keys = [b.jwk];
      const c = await testKey("ES256", "c");
      const tokenC = await sign({ role: "c" }, c.privateKey, {
        alg: "ES256",
        kid: "c",
      });
      await assertInvalidToken(provider.userProvider, bearer(tokenC)); // triggers a refetch
      await assertInvalidToken(provider.userProvider, bearer(tokenA));
      assert.equal((await provider.resolve(bearer(tokenB))).role, "b");
    },
  );
  await t.step("only the JWKS path was ever requested", () => {
    assert.ok(server.requests.every((path) => path === "/jwks.json"));
  });
});

Deno.test("JwtUserProvider rate-limits JWKS fetches for unknown kids", async () => {
  const a = await testKey("ES256", "a");
  await using server = startJwksServer([a.jwk]);
  const provider = await create({
    jwksUrl: server.url.href,
    jwksOptions: { cooldownDuration: 60_000 },
  });
  const tokenA = await sign({ role: "a" }, a.privateKey, {
    alg: "ES256",
    kid: "a",
  });
  assert.equal((await provider.resolve(bearer(tokenA))).role, "a");
  const attacker = await testKey("ES256", "x");
  for (let i = 0; i < 20; i++) {
    const token = await sign({ role: "admin" }, attacker.privateKey, {
      alg: "ES256",
      kid: `kid-${i}`,
    });
    await assertInvalidToken(provider.userProvider, bearer(token));
  }
  assert.equal(server.requests.length, 1);
});

Deno.test("JwtUserProvider keeps verifying with cached keys while the JWKS endpoint is down", async (t) => {
  const a = await testKey("EdDSA", "a");
  const b = await testKey("EdDSA", "b");
  const server = startJwksServer([a.jwk]);
  // cacheMaxAge 0: every request wants a fresh set, so each one meets the outage.
  const provider = await create({
    jwksUrl: server.url,
    jwksOptions: { cacheMaxAge: 0, cooldownDuration: 0, timeoutDuration: 500 },
  });
  const tokenA = await sign({ role: "a" }, a.privateKey, {
    alg: "EdDSA",
    kid: "a",
  });
  const tokenB = await sign({ role: "b" }, b.privateKey, {
    alg: "EdDSA",
    kid: "b",
  });
  assert.equal((await provider.resolve(bearer(tokenA))).role, "a");

  await t.step(
    "endpoint answers 500: cached keys verify, unknown kid is 401",
    async () => {
      server.failing = true;
      assert.equal((await provider.resolve(bearer(tokenA))).role, "a");
      await assertInvalidToken(provider.userProvider, bearer(tokenB));
      server.failing = false;
    },
  );
  await t.step(
    "endpoint hangs past the timeout: cached keys verify",
    async () => {
      server.hanging = true;
      assert.equal((await provider.resolve(bearer(tokenA))).role, "a");
      await assertInvalidToken(provider.userProvider, bearer(tokenB));
      server.hanging = false;
    },
  );
  await t.step(
    "endpoint gone: cached keys verify, unknown kid is 401",
    async () => {
      await server.close();
      assert.equal((await provider.resolve(bearer(tokenA))).role, "a");
      await assertInvalidToken(provider.userProvider, bearer(tokenB));
    },
  );
});

Deno.test("JwtUserProvider answers 503 when the JWKS endpoint is down before any key was cached", async () => {
  const a = await testKey("ES256", "a");
  const server = startJwksServer([a.jwk]);
  const url = server.url;
  await server.close();
  const provider = await create({
    jwksUrl: url,
    jwksOptions: { timeoutDuration: 500 },
  });
  const token = await sign({ role: "a" }, a.privateKey, {
    alg: "ES256",
    kid: "a",
  });
  const error = await outcome(provider.userProvider, bearer(token));
  assert.ok(error instanceof HttpError);
  assert.equal(error.status, 503);
  assert.equal(
    await error.toResponse().text(),
    '{"detail":"Service Unavailable"}',
  );
  // A malformed token is still a plain 401: no fetch is needed to refuse it.
  await assertInvalidToken(provider.userProvider, bearer("a.b.c"));
});

Deno.test("JwtUserProvider with a JWKS URL refuses HMAC tokens made from its public keys", async () => {
  const a = await testKey("RS256", "a");
  await using server = startJwksServer([a.jwk]);
  const provider = await create({ jwksUrl: server.url });
  const pem = await exportSPKI(a.publicKey);
  for (const secret of [pem, JSON.stringify(a.jwk), a.jwk.n as string]) {
    const token = await sign({ role: "admin" }, secret, {
      alg: "HS256",
      kid: "a",
    });
    await assertInvalidToken(provider.userProvider, bearer(token));
  }
});

// ---------------------------------------------------------------------------
// Property: random tokens only ever give 401
// ---------------------------------------------------------------------------

Deno.test("JwtUserProvider answers 401 to any random token", async () => {
  const provider = await create({ secret: SECRET, cookie: "token" });
  const es = await testKey("ES256", "k");
  const asymmetric = await create({ jwks: { keys: [es.jwk] as JsonWebKey[] } });
  const base64urlText = fc.string({
    unit: fc.constantFrom(
      ..."ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_",
    ),
    maxLength: 200,
  });
  const jsonSegment = fc.jsonValue().map((value) => segment(value));
  const headerSegment = fc.record({
    alg: fc.constantFrom("HS256", "HS512", "RS256", "ES256", "none", "EdDSA"),
    kid: fc.option(fc.string(), { nil: undefined }),
    crit: fc.option(fc.array(fc.string()), { nil: undefined }),
  }).map((header) => segment(header));
  const token = fc.oneof(
    fc.string({ unit: "binary-ascii", maxLength: 300 }),
    fc.string({ maxLength: 300 }),
    fc.tuple(base64urlText, base64urlText, base64urlText).map((parts) =>
      parts.join(".")
    ),
    fc.tuple(headerSegment, jsonSegment, base64urlText).map((parts) =>
      parts.join(".")
    ),
  );
  await fc.assert(
    fc.asyncProperty(token, fc.boolean(), async (value, inCookie) => {
      let req: Request;
      try {
        req = inCookie
          ? request({ cookie: `token=${value}` })
          : request({ authorization: `Bearer ${value}` });
      } catch {
        return; // Not a valid header value: no server would deliver it.
      }
      for (const resolve of [provider.userProvider, asymmetric.userProvider]) {
        const error = await outcome(resolve, req);
        assert.ok(error instanceof HttpError, `not an HttpError: ${error}`);
        assert.equal(error.status, 401);
      }
    }),
    { numRuns: 300 },
  );
});

// ---------------------------------------------------------------------------
// Through a real PermissionGuard and casbin
// ---------------------------------------------------------------------------

Deno.test("JwtUserProvider drives a PermissionGuard with a casbin enforcer", async (t) => {
  const enforcer = await newEnforcer(
    newModelFromString(`
[request_definition]
r = sub, obj, act
[policy_definition]
p = sub, obj, act
[policy_effect]
e = some(where (p.eft == allow))
[matchers]
m = r.obj == p.obj && r.sub.role == p.sub && r.act == p.act
`),
    new StringAdapter(
      "p, admin, post, write\np, editor, post, write\np, viewer, post, read\np, editor, post, read",
    ),
  );
  const jwt = await create({ secret: SECRET, issuer: "iss", cookie: "token" });
  let handled = 0;
  const guard = new PermissionGuard({
    userProvider: jwt.userProvider,
    enforcerProvider: () => enforcer,
  });
  const write = guard.requirePermission("post", "write")((request) => {
    handled++;
    return Response.json({ author: guard.getUser(request).sub }, {
      status: 201,
    });
  });
  const me = guard.authRequired()((request) =>
    Response.json({ role: guard.getUser(request).role })
  );
  const post = (headers: Record<string, string>): Request =>
    new Request("http://localhost/posts", { method: "POST", headers });
  const token = (
    role: string,
    claims: Record<string, unknown> = {},
  ): Promise<string> =>
    sign({ iss: "iss", sub: `${role}-1`, role, ...claims }, SECRET, {
      alg: "HS256",
    });

  await t.step("an editor token writes", async () => {
    const response = await write(
      post({ authorization: `Bearer ${await token("editor")}` }),
    );
    assert.equal(response.status, 201);
    assert.deepEqual(await response.json(), { author: "editor-1" });
  });
  await t.step("a viewer token is forbidden", async () => {
    const response = await write(
      post({ cookie: `token=${await token("viewer")}` }),
    );
    assert.equal(response.status, 403);
    assert.deepEqual(await response.json(), { detail: "Forbidden" });
  });
  await t.step(
    "no token: 401 Unauthorized, the handler never runs",
    async () => {
      const before = handled;
      const response = await write(post({}));
      assert.equal(response.status, 401);
      assert.equal(response.headers.get("www-authenticate"), "Bearer");
      assert.deepEqual(await response.json(), { detail: "Unauthorized" });
      assert.equal(handled, before);
    },
  );
  await t.step(
    "forged, expired, wrong-issuer and none tokens: 401 invalid_token",
    async () => {
      const before = handled;
      const forged = await sign({ iss: "iss", role: "admin" }, "f".repeat(32), {
        alg: "HS256",
      });
      const expired = await token("admin", { exp: now() - 60 });
      const foreign = await token("admin", { iss: "other" });
      const none = `${segment({ alg: "none" })}.${
        segment({ iss: "iss", role: "admin", exp: now() + 60 })
      }.`;
      for (const bad of [forged, expired, foreign, none, "garbage"]) {
        const response = await write(post({ authorization: `Bearer ${bad}` }));
        assert.equal(response.status, 401);
        assert.equal(
          response.headers.get("www-authenticate"),
          'Bearer error="invalid_token"',
        );
        const body = await response.json();
        assert.ok(
          body.detail === "Invalid token" || body.detail === "Token expired",
        );
      }
      assert.equal(handled, before);
    },
  );
  await t.step("authRequired accepts any valid token", async () => {
    const response = await me(
      new Request("http://localhost/me", {
        headers: { authorization: `Bearer ${await token("viewer")}` },
      }),
    );
    assert.deepEqual(await response.json(), { role: "viewer" });
  });
});
