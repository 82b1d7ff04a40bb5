// The options of a JwtUserProvider and the types they name: algorithms,
// claims, the claims schema, the JWKS settings and the toUser context.
import type { HttpError } from "./http_error.ts";
import type { JwtVerificationError } from "./jwt_verification_error.ts";
import type { User } from "./user.ts";

/**
 * A JWS algorithm a {@linkcode JwtUserProvider} can verify. `none` is not
 * one of them and is never accepted.
 *
 * @example
 * ```ts
 * import type { JwtAlgorithm } from "@portcullis/portcullis/guard";
 *
 * const algorithms: JwtAlgorithm[] = ["RS256", "PS256"];
 * ```
 */
export type JwtAlgorithm =
  | "HS256"
  | "HS384"
  | "HS512"
  | "RS256"
  | "RS384"
  | "RS512"
  | "PS256"
  | "PS384"
  | "PS512"
  | "ES256"
  | "ES384"
  | "ES512"
  | "EdDSA"
  | "Ed25519";

/**
 * The claims of a verified token (its payload).
 *
 * @example
 * ```ts
 * import type { JwtClaims } from "@portcullis/portcullis/guard";
 *
 * const claims: JwtClaims = { sub: "u1", role: "editor", exp: 1_900_000_000 };
 * ```
 */
export interface JwtClaims {
  /** Issuer. */
  iss?: string;
  /** Subject. */
  sub?: string;
  /** Audience. */
  aud?: string | string[];
  /** Expiration time, in seconds since the Unix epoch. */
  exp?: number;
  /** Not before, in seconds since the Unix epoch. */
  nbf?: number;
  /** Issued at, in seconds since the Unix epoch. */
  iat?: number;
  /** Token id. */
  jti?: string;
  /** Any other claim. */
  [claim: string]: unknown;
}

/**
 * The result of a {@linkcode JwtClaimsSchema}'s `validate`: the parsed value
 * or the issues. This is the Standard Schema result shape.
 *
 * @typeParam C The validated claims type.
 *
 * @example
 * ```ts
 * import type { JwtSchemaResult } from "@portcullis/portcullis/guard";
 *
 * const ok: JwtSchemaResult<{ role: string }> = { value: { role: "viewer" } };
 * const refused: JwtSchemaResult<{ role: string }> = { issues: [{ message: "role" }] };
 * ```
 */
export type JwtSchemaResult<C> =
  | { readonly value: C; readonly issues?: undefined }
  | { readonly issues: ReadonlyArray<unknown> };

/**
 * A schema that validates the claims of a verified token: any
 * [Standard Schema](https://standardschema.dev), such as a zod 4 schema.
 *
 * @typeParam C The validated claims type.
 *
 * @example A zod schema
 * ```ts
 * import type { JwtClaimsSchema } from "@portcullis/portcullis/guard";
 * import { z } from "zod";
 *
 * const schema: JwtClaimsSchema<{ sub: string; role: "admin" | "viewer" }> = z
 *   .object({ sub: z.string(), role: z.enum(["admin", "viewer"]) });
 * ```
 */
export interface JwtClaimsSchema<C> {
  /** The Standard Schema interface. */
  readonly "~standard": {
    /** Validates a value. */
    readonly validate: (
      value: unknown,
    ) => JwtSchemaResult<C> | Promise<JwtSchemaResult<C>>;
  };
}

/**
 * What a {@linkcode JwtUserProviderOptions.toUser} mapping function receives
 * besides the claims.
 *
 * @example
 * ```ts
 * import type { JwtUserContext } from "@portcullis/portcullis/guard";
 *
 * const context: JwtUserContext = {
 *   header: { alg: "HS256" },
 *   request: new Request("http://localhost/"),
 * };
 * ```
 */
export interface JwtUserContext {
  /** The token's protected header (`alg`, `kid`, `typ`...). */
  readonly header: Readonly<Record<string, unknown>>;
  /** The request the token came with. */
  readonly request: Request;
}

/**
 * Options for the remote key set of {@linkcode JwtUserProviderOptions.jwksUrl},
 * passed to jose's `createRemoteJWKSet`.
 *
 * @example
 * ```ts
 * import type { JwksOptions } from "@portcullis/portcullis/guard";
 *
 * const options: JwksOptions = { timeoutDuration: 2_000, cooldownDuration: 60_000 };
 * ```
 */
export interface JwksOptions {
  /**
   * Milliseconds before a key set request is aborted.
   * @default {5000}
   */
  timeoutDuration?: number;
  /**
   * Milliseconds after a successful fetch during which a token with an
   * unknown `kid` does not trigger another fetch (the rate limit). Also how
   * long the endpoint is left alone after a failed fetch while cached keys
   * keep answering.
   * @default {30000}
   */
  cooldownDuration?: number;
  /**
   * Milliseconds after which the cached key set is fetched again. When that
   * fetch fails, the cached keys keep working.
   * @default {600000}
   */
  cacheMaxAge?: number;
  /**
   * Extra headers for the key set request.
   * @default {undefined}
   */
  headers?: Record<string, string>;
}

/**
 * Options for {@linkcode JwtUserProvider.create}. Set exactly one key
 * option: `secret`, `publicKey`, `jwks` or `jwksUrl`.
 *
 * @typeParam U The user type.
 * @typeParam C The claims type after schema validation.
 *
 * @example
 * ```ts
 * import type { JwtUserProviderOptions } from "@portcullis/portcullis/guard";
 *
 * const options: JwtUserProviderOptions = {
 *   jwksUrl: "https://issuer.example.com/.well-known/jwks.json",
 *   issuer: "https://issuer.example.com/",
 *   audience: "api",
 *   clockTolerance: 5,
 * };
 * ```
 */
export interface JwtUserProviderOptions<U extends User = User, C = JwtClaims> {
  /**
   * A shared secret for HS256/384/512: a string (UTF-8), bytes or an HMAC
   * `CryptoKey`. It must be at least 32 bytes (48 for HS384, 64 for HS512),
   * and a PEM or JWK text is refused, so a public key can never become an
   * HMAC secret. Without `algorithms`, every HS algorithm the secret is
   * long enough for is accepted.
   * @default {undefined}
   */
  secret?: string | Uint8Array | CryptoKey;
  /**
   * One public key: a PEM SPKI (`-----BEGIN PUBLIC KEY-----`), a PEM X.509
   * certificate, a public JWK or a public `CryptoKey`. The algorithm is
   * inferred from an EC curve (ES256/384/512), Ed25519 (EdDSA, Ed25519), a
   * JWK's `alg` or a `CryptoKey`'s algorithm; an RSA PEM or JWK without
   * `alg` needs `algorithms` (RS* and PS* both fit it). HMAC algorithms are
   * never accepted with a public key.
   * @default {undefined}
   */
  publicKey?: string | JsonWebKey | CryptoKey;
  /**
   * A local JSON Web Key Set `{ keys: [...] }` of public keys, selected by
   * the token's `kid` and `alg`; when several keys fit (a shared `kid`, or
   * no `kid`), each of them is tried.
   * @default {undefined}
   */
  jwks?: { keys: JsonWebKey[] };
  /**
   * The URL of a remote JSON Web Key Set (`https:`; plain `http:` only on
   * loopback). Keys are fetched on first use, cached, fetched again when a
   * token names an unknown `kid` (at most once per `cooldownDuration`) and
   * after `cacheMaxAge`. When the endpoint is down, cached keys keep
   * verifying.
   * @default {undefined}
   */
  jwksUrl?: string | URL;
  /**
   * Fetching and caching of `jwksUrl`.
   * @default {{}}
   */
  jwksOptions?: JwksOptions;
  /**
   * The accepted algorithms. Inferred from the key when that is safe;
   * required for an RSA key without `alg`. It must fit the key kind.
   * @default {inferred from the key}
   */
  algorithms?: JwtAlgorithm[];
  /**
   * The accepted `iss` value(s); when set, `iss` is required.
   * @default {undefined}
   */
  issuer?: string | string[];
  /**
   * The accepted `aud` value(s); when set, `aud` is required.
   * @default {undefined}
   */
  audience?: string | string[];
  /**
   * Seconds of clock skew allowed on `exp`, `nbf` and `iat`.
   * @default {0}
   */
  clockTolerance?: number;
  /**
   * The oldest accepted token, in seconds since its `iat`; when set, `iat`
   * is required.
   * @default {undefined}
   */
  maxTokenAge?: number;
  /**
   * The required `typ` header value, such as `"at+jwt"` for OAuth access
   * tokens (RFC 9068), so that another kind of token from the same issuer
   * (an ID token) is refused. Compared case-insensitively, without an
   * `application/` prefix.
   * @default {undefined}
   */
  typ?: string;
  /**
   * Claims that must be present.
   * @default {[]}
   */
  requiredClaims?: string[];
  /**
   * Whether `exp` is required. A token without `exp` never expires, so
   * turn this off only for tokens that are otherwise bounded.
   * @default {true}
   */
  requireExpiration?: boolean;
  /**
   * Whether to read `Authorization: Bearer <token>`.
   * @default {true}
   */
  header?: boolean;
  /**
   * The name of a cookie that carries the token. The header is read first,
   * then the cookie; a token in both places must be the same, and the
   * cookie may appear only once, otherwise the request is refused.
   * @default {undefined}
   */
  cookie?: string;
  /**
   * The longest accepted token, in characters; longer ones are refused
   * before any parsing.
   * @default {8192}
   */
  maxTokenLength?: number;
  /**
   * Where the default mapping reads the role: a dot-separated path
   * (`"realm_access.role"`) or the segments as an array, for claim names
   * that contain dots (`["https://example.com/claims", "role"]`). Ignored
   * when `toUser` is set.
   * @default {"role"}
   */
  roleClaim?: string | readonly string[];
  /**
   * Validates the claims before the mapping; a failure is an invalid
   * token. Any Standard Schema, such as a zod schema.
   * @default {undefined}
   */
  schema?: JwtClaimsSchema<C>;
  /**
   * Turns the claims into the user. Throwing an `HttpError` answers with
   * it; any other error or a non-object result is an invalid token.
   * @default {claims => ({ role, sub, claims }), role read at roleClaim when it is a string}
   */
  toUser?: (claims: C, context: JwtUserContext) => U | Promise<U>;
  /**
   * Builds the error thrown when the request carries no token.
   * @default {401 {"detail":"Unauthorized"} with WWW-Authenticate: Bearer}
   */
  onMissingToken?: (request: Request) => HttpError | Promise<HttpError>;
  /**
   * Builds the error thrown when the token is refused. `error.code` says
   * why; never send `error.message` or `error.cause` to the client.
   * @default {401 "Invalid token" (or "Token expired") with WWW-Authenticate: Bearer error="invalid_token"; 503 "Service Unavailable" for key_set_unavailable}
   */
  onInvalidToken?: (
    error: JwtVerificationError,
    request: Request,
  ) => HttpError | Promise<HttpError>;
}
