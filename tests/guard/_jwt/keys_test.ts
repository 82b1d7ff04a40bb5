import assert from "node:assert/strict";
import { exportJWK, exportSPKI, generateKeyPair } from "jose";
import {
  ASYMMETRIC_ALGORITHMS,
  prepareKeys,
} from "../../../src/guard/_jwt/keys.ts";

Deno.test("prepareKeys() infers the HS algorithms a secret is long enough for", async () => {
  const cases: Array<[number, string[]]> = [
    [32, ["HS256"]],
    [48, ["HS256", "HS384"]],
    [64, ["HS256", "HS384", "HS512"]],
  ];
  for (const [length, expected] of cases) {
    const { algorithms } = await prepareKeys({ secret: "x".repeat(length) });
    assert.deepEqual([...algorithms], expected);
  }
});

Deno.test("prepareKeys() infers the algorithm of EC and Ed25519 keys in every form", async () => {
  const cases: Array<[string, string[]]> = [
    ["ES256", ["ES256"]],
    ["ES384", ["ES384"]],
    ["ES512", ["ES512"]],
    ["EdDSA", ["EdDSA", "Ed25519"]],
  ];
  for (const [alg, expected] of cases) {
    const { publicKey } = await generateKeyPair(alg, { extractable: true });
    const { alg: _, ...jwk } = await exportJWK(publicKey);
    for (const form of [await exportSPKI(publicKey), jwk, publicKey]) {
      const { algorithms } = await prepareKeys({
        publicKey: form as JsonWebKey,
      });
      assert.deepEqual([...algorithms], expected, `${alg} ${typeof form}`);
    }
  }
});

Deno.test("prepareKeys() takes an RSA CryptoKey's algorithm from its hash and scheme", async () => {
  for (const alg of ["RS384", "PS512"]) {
    const { publicKey } = await generateKeyPair(alg);
    const { algorithms } = await prepareKeys({ publicKey });
    assert.deepEqual([...algorithms], [alg]);
  }
});

Deno.test("prepareKeys() allows only asymmetric algorithms for key sets", async () => {
  const { publicKey } = await generateKeyPair("ES256", { extractable: true });
  const jwk = await exportJWK(publicKey);
  const local = await prepareKeys({ jwks: { keys: [jwk as JsonWebKey] } });
  assert.deepEqual(local.algorithms, ASYMMETRIC_ALGORITHMS);
  assert.equal(typeof local.key, "function");
  const remote = await prepareKeys({
    jwksUrl: "https://issuer.example.com/jwks.json",
    algorithms: ["ES256"],
  });
  assert.deepEqual([...remote.algorithms], ["ES256"]);
  assert.ok(!ASYMMETRIC_ALGORITHMS.some((a) => a.startsWith("HS")));
});

Deno.test("prepareKeys() allows plain http JWKS URLs on loopback only", async () => {
  for (
    const url of [
      "http://localhost:8080/jwks",
      "http://127.0.0.1/jwks",
      "http://[::1]/jwks",
    ]
  ) {
    await prepareKeys({ jwksUrl: url });
  }
  for (
    const url of [
      "http://10.0.0.1/jwks",
      "http://localhost.evil.example/jwks",
      "ftp://issuer/jwks",
    ]
  ) {
    await assert.rejects(prepareKeys({ jwksUrl: url }), TypeError, url);
  }
});
