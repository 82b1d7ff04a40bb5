// Per-request cost of JwtUserProvider.resolve(): reading the token and
// verifying it with jose, per key kind, and the cost of refusing bad tokens.
// The provider keeps no per-request state, so each bench reuses one Request
// (building a Request with a 100 KB header alone costs about 2 ms in Deno).
//
//   deno bench benches/jwt_user_provider_bench.ts
import { exportSPKI, generateKeyPair, SignJWT } from "jose";
import { JwtUserProvider } from "../src/guard/jwt_user_provider.ts";
import { bearerUserProvider } from "../src/guard/bearer_user_provider.ts";

const SECRET = new TextEncoder().encode("bench-secret-0123456789-abcdefghij");

async function setup(
  alg: string,
): Promise<{ provider: JwtUserProvider; token: string }> {
  if (alg === "HS256") {
    const token = await new SignJWT({ role: "editor" })
      .setProtectedHeader({ alg })
      .setExpirationTime("1h")
      .sign(SECRET);
    return {
      provider: await JwtUserProvider.create({ secret: SECRET }),
      token,
    };
  }
  const pair = await generateKeyPair(alg, { extractable: true });
  const token = await new SignJWT({ role: "editor" })
    .setProtectedHeader({ alg })
    .setExpirationTime("1h")
    .sign(pair.privateKey);
  const provider = await JwtUserProvider.create({
    publicKey: await exportSPKI(pair.publicKey),
    ...(alg === "RS256" ? { algorithms: ["RS256" as const] } : {}),
  });
  return { provider, token };
}

const url = "http://localhost/posts";
const bearer = (token: string): Request =>
  new Request(url, { headers: { authorization: `Bearer ${token}` } });
const plain = bearer("editor");

Deno.bench("bearerUserProvider (no verification)", {
  group: "verify",
  baseline: true,
}, () => {
  bearerUserProvider(plain);
});

for (const alg of ["HS256", "ES256", "EdDSA", "RS256"]) {
  const { provider, token } = await setup(alg);
  const request = bearer(token);
  Deno.bench(`JwtUserProvider ${alg}`, { group: "verify" }, async () => {
    await provider.resolve(request);
  });
}

const { provider: hs, token } = await setup("HS256");
const forged = `${token.slice(0, -4)}AAAA`;
const malformed = "not-a-jwt";
const huge = `${token}${"A".repeat(100 * 1024)}`;

for (
  const [name, bad] of [
    ["forged signature", forged],
    ["malformed", malformed],
    ["100 KB", huge],
  ]
) {
  const request = bearer(bad!);
  Deno.bench(`refuse ${name} (HS256)`, { group: "refuse" }, async () => {
    try {
      await hs.resolve(request);
    } catch {
      // 401 expected
    }
  });
}
