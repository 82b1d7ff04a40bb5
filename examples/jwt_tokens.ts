// Prints a signed JWT for each role of the reference policy, for trying
// `examples/jwt_server.ts` by hand:
//
//   deno task jwt:tokens
//   TOKEN=$(deno task -q jwt:tokens editor)
//   curl -H "Authorization: Bearer $TOKEN" http://localhost:8000/posts
//
// Tokens are HS256, signed with env JWT_SECRET (at least 32 bytes) or, when
// it is unset, with a development secret that must never be used elsewhere.
// They carry the example issuer and audience and expire after one hour.
import process from "node:process";
import { SignJWT } from "jose";

/** The development secret, used when JWT_SECRET is unset. Never deploy it. */
export const DEVELOPMENT_SECRET = "portcullis-development-secret-do-not-deploy";

/** The `iss` the example server expects. */
export const ISSUER = "https://auth.portcullis.example";

/** The `aud` the example server expects. */
export const AUDIENCE = "portcullis-example-api";

/** The roles of `examples/policy.csv`. */
export const ROLES: readonly string[] = ["admin", "editor", "viewer"];

/** The secret tokens are signed and verified with. */
export function exampleSecret(): string {
  return process.env.JWT_SECRET || DEVELOPMENT_SECRET;
}

/**
 * Signs a token for `role` that the example server accepts.
 *
 * @param role The role claim.
 * @param secret The HS256 secret.
 * @param expiresIn The lifetime, as jose reads it ("1h", "15m").
 * @returns The compact JWT.
 */
export async function mintToken(
  role: string,
  secret: string = exampleSecret(),
  expiresIn = "1h",
): Promise<string> {
  return await new SignJWT({ role })
    .setProtectedHeader({ alg: "HS256", typ: "JWT" })
    .setSubject(`${role}-user`)
    .setIssuer(ISSUER)
    .setAudience(AUDIENCE)
    .setIssuedAt()
    .setExpirationTime(expiresIn)
    .sign(new TextEncoder().encode(secret));
}

if (import.meta.main) {
  const wanted = process.argv.slice(2);
  const unknown = wanted.filter((role) => !ROLES.includes(role));
  if (unknown.length > 0) {
    // deno-lint-ignore no-console
    console.error(
      `Unknown role ${JSON.stringify(unknown[0])}; roles: ${ROLES.join(", ")}`,
    );
    process.exit(1);
  }
  if (wanted.length === 1) {
    // A single role prints the bare token, for TOKEN=$(...).
    // deno-lint-ignore no-console
    console.log(await mintToken(wanted[0]!));
  } else {
    for (const role of wanted.length === 0 ? ROLES : wanted) {
      // deno-lint-ignore no-console
      console.log(`${role.padEnd(6)} ${await mintToken(role)}`);
    }
  }
}
