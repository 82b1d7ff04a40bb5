// Attacks and edge cases on JwtUserProvider beyond the main suite: header
// tricks (alg spelling, crit, b64, embedded keys), claim types and extremes,
// key sets with colliding kids, weak HMAC CryptoKeys.
import assert from "node:assert/strict";
import { base64url, exportJWK, generateKeyPair, SignJWT } from "jose";
import { HttpError } from "../../src/guard/http_error.ts";
import { JwtUserProvider } from "../../src/guard/jwt_user_provider.ts";
import {
  assertInvalidToken,
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

const HS256 = { alg: "HS256" };

/** Asserts that `resolve` accepts the request and returns the user. */
async function accepted(
  resolve: (request: Request) => Promise<unknown>,
  req: Request,
): Promise<Record<string, unknown>> {
  const user = await outcome(resolve, req);
  assert.ok(!(user instanceof Error), `expected a user, got ${user}`);
  return user as Record<string, unknown>;
}

Deno.test("JwtUserProvider refuses header tricks with 401 invalid_token", async (t) => {
  const provider = await JwtUserProvider.create({ secret: SECRET });
  const resolve = provider.userProvider;
  const claims = { exp: now() + 300, role: "admin" };

  await t.step("alg in another case or with spaces", async () => {
    for (const alg of ["hs256", "Hs256", "HS256 ", " HS256", "HS-256"]) {
      await assertInvalidToken(
        resolve,
        bearer(await hmacToken({ alg }, claims, SECRET)),
      );
    }
  });
  await t.step("alg none in any case, signed or not", async () => {
    for (const alg of ["none", "None", "NONE", "nOnE"]) {
      const unsigned = `${segment({ alg })}.${segment(claims)}.`;
      await assertInvalidToken(resolve, bearer(unsigned));
      await assertInvalidToken(
        resolve,
        bearer(await hmacToken({ alg }, claims, SECRET)),
      );
    }
  });
  await t.step("alg missing or not a string", async () => {
    for (
      const header of [{}, { alg: null }, { alg: 256 }, { alg: ["HS256"] }]
    ) {
      await assertInvalidToken(
        resolve,
        bearer(await hmacToken(header, claims, SECRET)),
      );
    }
  });
  await t.step(
    "a crit parameter the provider does not understand",
    async () => {
      for (
        const header of [
          { ...HS256, crit: ["exp"], exp: 1 },
          { ...HS256, crit: ["x-policy"], "x-policy": "ignore-me" },
          { ...HS256, crit: [] },
          { ...HS256, crit: "x" },
        ]
      ) {
        await assertInvalidToken(
          resolve,
          bearer(await hmacToken(header, claims, SECRET)),
        );
      }
    },
  );
  await t.step("an unencoded payload (b64: false)", async () => {
    await assertInvalidToken(
      resolve,
      bearer(
        await hmacToken(
          { ...HS256, crit: ["b64"], b64: false },
          claims,
          SECRET,
        ),
      ),
    );
  });
  await t.step("a header or payload that is not a JSON object", async () => {
    const signed = async (header: string, payload: string) => {
      const input = `${base64url.encode(header)}.${base64url.encode(payload)}`;
      const key = await crypto.subtle.importKey(
        "raw",
        new TextEncoder().encode(SECRET),
        { name: "HMAC", hash: "SHA-256" },
        false,
        ["sign"],
      );
      const mac = await crypto.subtle.sign(
        "HMAC",
        key,
        new TextEncoder().encode(input),
      );
      return `${input}.${base64url.encode(new Uint8Array(mac))}`;
    };
    const payload = JSON.stringify(claims);
    for (
      const [header, body] of <Array<[string, string]>> [
        ['["HS256"]', payload],
        ['"HS256"', payload],
        ['{"alg":"HS256"', payload],
        ['{"alg":"HS256"}', "[1,2]"],
        ['{"alg":"HS256"}', '"admin"'],
        ['{"alg":"HS256"}', "null"],
        ['{"alg":"HS256"}', "{"],
        ['{"alg":"HS256"}', "\u00ff\u00fe"],
      ]
    ) {
      await assertInvalidToken(resolve, bearer(await signed(header, body)));
    }
  });
});

Deno.test("JwtUserProvider never takes a key from the token's own header", async (t) => {
  const trusted = await testKey("ES256", "trusted");
  const attacker = await generateKeyPair("ES256", { extractable: true });
  const attackerJwk = await exportJWK(attacker.publicKey);
  const provider = await JwtUserProvider.create({
    jwks: { keys: [trusted.jwk] },
  });
  const forge = (header: Record<string, unknown>) =>
    new SignJWT({ role: "admin" })
      .setProtectedHeader({ alg: "ES256", ...header })
      .setExpirationTime(now() + 300)
      .sign(attacker.privateKey);
  await t.step("an embedded jwk", async () => {
    await assertInvalidToken(
      provider.userProvider,
      bearer(await forge({ jwk: attackerJwk })),
    );
    await assertInvalidToken(
      provider.userProvider,
      bearer(await forge({ jwk: attackerJwk, kid: "trusted" })),
    );
  });
  await t.step("a jku or x5u pointing elsewhere", async () => {
    await using evil = startJwksServer([{ ...attackerJwk, kid: "evil" }]);
    for (const param of ["jku", "x5u"]) {
      await assertInvalidToken(
        provider.userProvider,
        bearer(await forge({ [param]: evil.url.href, kid: "evil" })),
      );
    }
    // The attacker's key set was never fetched.
    assert.deepEqual(evil.requests, []);
  });
  await t.step("the trusted key still verifies", async () => {
    const token = await sign({ role: "admin" }, trusted.privateKey, {
      alg: "ES256",
      kid: "trusted",
    });
    assert.equal(
      (await accepted(provider.userProvider, bearer(token))).role,
      "admin",
    );
  });
});

Deno.test("JwtUserProvider checks the types and ranges of time claims", async (t) => {
  const provider = await JwtUserProvider.create({ secret: SECRET });
  const resolve = provider.userProvider;
  const token = (claims: Record<string, unknown>) =>
    hmacToken(HS256, { role: "viewer", ...claims }, SECRET);

  await t.step("exp that is not a number is invalid", async () => {
    const exp = now() + 300;
    for (const value of [String(exp), null, true, [exp], { exp }]) {
      await assertInvalidToken(resolve, bearer(await token({ exp: value })));
    }
  });
  await t.step("exp in the past, at zero or negative is expired", async () => {
    for (const exp of [now() - 1, 0, -1, -1e300]) {
      await assertInvalidToken(
        resolve,
        bearer(await token({ exp })),
        "Token expired",
      );
    }
  });
  await t.step("a fractional exp in the future is accepted", async () => {
    const user = await accepted(
      resolve,
      bearer(await token({ exp: now() + 300.5 })),
    );
    assert.equal(user.role, "viewer");
  });
  await t.step("nbf far in the future or not a number is invalid", async () => {
    const exp = now() + 300;
    for (const nbf of [now() + 3600, 1e12, 1e300, String(now() - 10)]) {
      await assertInvalidToken(resolve, bearer(await token({ exp, nbf })));
    }
  });
  await t.step("iat that is not a number is invalid", async () => {
    const exp = now() + 300;
    for (const iat of [String(now()), null, {}]) {
      await assertInvalidToken(resolve, bearer(await token({ exp, iat })));
    }
  });
  await t.step("with maxTokenAge, iat in the future is invalid", async () => {
    const strict = await JwtUserProvider.create({
      secret: SECRET,
      maxTokenAge: 600,
    });
    const exp = now() + 300;
    for (const iat of [now() + 3600, 1e12]) {
      await assertInvalidToken(
        strict.userProvider,
        bearer(await token({ exp, iat })),
      );
    }
    // A token without iat cannot prove its age.
    await assertInvalidToken(strict.userProvider, bearer(await token({ exp })));
    assert.equal(
      (await accepted(
        strict.userProvider,
        bearer(await token({ exp, iat: now() - 10 })),
      )).role,
      "viewer",
    );
  });
});

Deno.test("JwtUserProvider matches iss and aud exactly", async (t) => {
  const provider = await JwtUserProvider.create({
    secret: SECRET,
    issuer: "https://issuer.example",
    audience: "api",
  });
  const resolve = provider.userProvider;
  const token = (claims: Record<string, unknown>) =>
    hmacToken(HS256, { exp: now() + 300, role: "viewer", ...claims }, SECRET);
  const iss = "https://issuer.example";

  await t.step("an aud array holding the audience is accepted", async () => {
    for (const aud of [["api"], ["other", "api"], ["api", "api"]]) {
      const user = await accepted(resolve, bearer(await token({ iss, aud })));
      assert.equal(user.role, "viewer");
    }
  });
  await t.step(
    "an aud that only resembles the audience is invalid",
    async () => {
      for (
        const aud of [
          [],
          ["other"],
          "API",
          "api ",
          " api",
          "api/",
          ["api2"],
          [["api"]],
          "",
          null,
          1,
        ]
      ) {
        await assertInvalidToken(resolve, bearer(await token({ iss, aud })));
      }
      await assertInvalidToken(resolve, bearer(await token({ iss })));
    },
  );
  await t.step("an iss that only resembles the issuer is invalid", async () => {
    for (
      const value of [
        "https://issuer.example/",
        "https://ISSUER.example",
        "http://issuer.example",
        "https://issuer.example.evil",
        "https://issuer.example ",
        [iss],
        null,
      ]
    ) {
      await assertInvalidToken(
        resolve,
        bearer(await token({ iss: value, aud: "api" })),
      );
    }
    await assertInvalidToken(resolve, bearer(await token({ aud: "api" })));
  });
});

Deno.test("JwtUserProvider refuses tokens with whitespace or extra parts", async () => {
  const provider = await JwtUserProvider.create({
    secret: SECRET,
    cookie: "session",
  });
  const resolve = provider.userProvider;
  const token = await hmacToken(
    HS256,
    { exp: now() + 300, role: "viewer" },
    SECRET,
  );
  const [header, payload, signature] = token.split(".") as [
    string,
    string,
    string,
  ];
  // In the header the credential is taken as received: a second space
  // belongs to it. (A cookie value is read without surrounding whitespace.)
  await assertInvalidToken(resolve, bearer(` ${token}`));
  for (
    const bad of [
      `${header}. ${payload}.${signature}`,
      `${header}.${payload} .${signature}`,
      `${header}.${payload}.${signature} x`,
      `${header}\t.${payload}.${signature}`,
      `${header}.${payload}.${signature}.`,
      `${header}.${payload}.${signature}.${signature}`,
      `${header}..${payload}.${signature}`,
      `${header}.${payload}.${signature}=`,
      `${header}=.${payload}.${signature}`,
      `${header}.${payload}.${signature.replaceAll("-", "+")}+/`,
    ]
  ) {
    await assertInvalidToken(resolve, bearer(bad));
    await assertInvalidToken(resolve, request({ cookie: `session=${bad}` }));
  }
  // The untouched token is accepted from both sources.
  assert.equal((await accepted(resolve, bearer(token))).role, "viewer");
  assert.equal(
    (await accepted(resolve, request({ cookie: `session=${token}` }))).role,
    "viewer",
  );
});

Deno.test("JwtUserProvider tries every key of a key set that fits the token header", async (t) => {
  const first = await testKey("ES256", "shared");
  const second = await testKey("ES256", "shared");
  const stranger = await testKey("ES256", "shared");
  const noKid = (key: typeof first) => {
    const { kid: _kid, ...jwk } = key.jwk;
    return jwk;
  };

  await t.step("two keys with the same kid: both verify", async () => {
    const provider = await JwtUserProvider.create({
      jwks: { keys: [first.jwk, second.jwk] },
    });
    for (const key of [first, second]) {
      const token = await sign({ role: "editor" }, key.privateKey, {
        alg: "ES256",
        kid: "shared",
      });
      assert.equal(
        (await accepted(provider.userProvider, bearer(token))).role,
        "editor",
      );
    }
    // A third key with the same kid is still a stranger.
    await assertInvalidToken(
      provider.userProvider,
      bearer(
        await sign({ role: "admin" }, stranger.privateKey, {
          alg: "ES256",
          kid: "shared",
        }),
      ),
    );
  });
  await t.step("keys without kid, token without kid", async () => {
    const provider = await JwtUserProvider.create({
      jwks: { keys: [noKid(first), noKid(second)] },
    });
    const token = await sign({ role: "editor" }, second.privateKey, {
      alg: "ES256",
    });
    assert.equal(
      (await accepted(provider.userProvider, bearer(token))).role,
      "editor",
    );
    await assertInvalidToken(
      provider.userProvider,
      bearer(
        await sign({ role: "admin" }, stranger.privateKey, {
          alg: "ES256",
        }),
      ),
    );
  });
  await t.step(
    "the claims are still checked with the matching key",
    async () => {
      const provider = await JwtUserProvider.create({
        jwks: { keys: [first.jwk, second.jwk] },
        audience: "api",
      });
      const expired = await sign(
        { role: "editor", aud: "api", exp: now() - 60 },
        second.privateKey,
        { alg: "ES256", kid: "shared" },
      );
      await assertInvalidToken(
        provider.userProvider,
        bearer(expired),
        "Token expired",
      );
      const wrongAudience = await sign(
        { role: "editor", aud: "web" },
        second.privateKey,
        { alg: "ES256", kid: "shared" },
      );
      await assertInvalidToken(provider.userProvider, bearer(wrongAudience));
    },
  );
  await t.step("a remote key set with a shared kid", async () => {
    await using server = startJwksServer([first.jwk, second.jwk]);
    const provider = await JwtUserProvider.create({ jwksUrl: server.url });
    for (const key of [first, second]) {
      const token = await sign({ role: "editor" }, key.privateKey, {
        alg: "ES256",
        kid: "shared",
      });
      assert.equal(
        (await accepted(provider.userProvider, bearer(token))).role,
        "editor",
      );
    }
    await assertInvalidToken(
      provider.userProvider,
      bearer(
        await sign({ role: "admin" }, stranger.privateKey, {
          alg: "ES256",
          kid: "shared",
        }),
      ),
    );
  });
});

Deno.test("JwtUserProvider refuses a kid that names a key of another type", async () => {
  const rsa = await testKey("RS256", "rsa");
  const ec = await testKey("ES256", "ec");
  const provider = await JwtUserProvider.create({
    jwks: { keys: [rsa.jwk, ec.jwk] },
  });
  // Signed with the EC key but pointing at the RSA key's kid.
  await assertInvalidToken(
    provider.userProvider,
    bearer(
      await sign({ role: "admin" }, ec.privateKey, {
        alg: "ES256",
        kid: "rsa",
      }),
    ),
  );
  // HS256 made with the RSA key's public JWK as the secret.
  await assertInvalidToken(
    provider.userProvider,
    bearer(
      await hmacToken(
        { alg: "HS256", kid: "rsa" },
        { exp: now() + 300, role: "admin" },
        JSON.stringify(rsa.jwk),
      ),
    ),
  );
});

Deno.test("JwtUserProvider.create() refuses a weak or misfit HMAC CryptoKey", async (t) => {
  const hmacKey = (bytes: number, hash: string): Promise<CryptoKey> =>
    crypto.subtle.importKey(
      "raw",
      new Uint8Array(bytes).fill(7),
      { name: "HMAC", hash },
      false,
      ["verify"],
    );
  await t.step("shorter than the algorithm's minimum", async () => {
    for (
      const [bytes, hash, alg] of [
        [3, "SHA-256", "HS256"],
        [31, "SHA-256", "HS256"],
        [47, "SHA-384", "HS384"],
        [63, "SHA-512", "HS512"],
      ] as const
    ) {
      await assert.rejects(
        JwtUserProvider.create({ secret: await hmacKey(bytes, hash) }),
        (error: unknown) => {
          assert.ok(error instanceof RangeError, `${error}`);
          assert.match(error.message, /^Cannot create JwtUserProvider: /);
          assert.match(error.message, new RegExp(`${alg} needs a "secret"`));
          return true;
        },
      );
    }
  });
  await t.step("a hash no JWS algorithm uses", async () => {
    await assert.rejects(
      JwtUserProvider.create({ secret: await hmacKey(64, "SHA-1") }),
      (error: unknown) => {
        assert.ok(error instanceof TypeError, `${error}`);
        assert.match(error.message, /^Cannot create JwtUserProvider: /);
        assert.match(error.message, /SHA-1/);
        return true;
      },
    );
  });
  await t.step("long enough keys verify", async () => {
    const key = await hmacKey(32, "SHA-256");
    const provider = await JwtUserProvider.create({ secret: key });
    const token = await new SignJWT({ role: "viewer" })
      .setProtectedHeader(HS256)
      .setExpirationTime(now() + 300)
      .sign(new Uint8Array(32).fill(7));
    const user = await outcome(provider.userProvider, bearer(token));
    assert.ok(!(user instanceof HttpError), `${user}`);
    assert.equal((user as { role?: string }).role, "viewer");
  });
});
