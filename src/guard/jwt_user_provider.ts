import {
  errors,
  jwtVerify,
  type JWTVerifyOptions,
  type JWTVerifyResult,
} from "jose";
import { HttpError } from "./http_error.ts";
import type { User } from "./user.ts";
import {
  type JwtErrorCode,
  JwtVerificationError,
} from "./jwt_verification_error.ts";
import { claimPath, readClaim } from "./_jwt/claims.ts";
import {
  type KeyResolver,
  KeySetUnavailableError,
  prepareKeys,
} from "./_jwt/keys.ts";
import { isCookieName, readToken, type TokenSources } from "./_jwt/token.ts";
import type {
  JwtClaims,
  JwtClaimsSchema,
  JwtSchemaResult,
  JwtUserContext,
  JwtUserProviderOptions,
} from "./jwt_user_provider_options.ts";

export type * from "./jwt_user_provider_options.ts";

const INVALID_TOKEN_HEADERS: HeadersInit = {
  "WWW-Authenticate": 'Bearer error="invalid_token"',
};

function defaultMissingToken(): HttpError {
  return new HttpError(401, "Unauthorized", {
    headers: { "WWW-Authenticate": "Bearer" },
  });
}

function defaultInvalidToken(error: JwtVerificationError): HttpError {
  if (error.code === "key_set_unavailable") {
    return new HttpError(503, "Service Unavailable", { cause: error });
  }
  return new HttpError(
    401,
    error.code === "expired" ? "Token expired" : "Invalid token",
    { headers: INVALID_TOKEN_HEADERS, cause: error },
  );
}

const JOSE_CODES: Readonly<Record<string, JwtErrorCode>> = {
  ERR_JWT_EXPIRED: "expired",
  ERR_JWT_CLAIM_VALIDATION_FAILED: "invalid_claims",
  ERR_JWS_SIGNATURE_VERIFICATION_FAILED: "invalid_signature",
  ERR_JOSE_ALG_NOT_ALLOWED: "algorithm_not_allowed",
  ERR_JOSE_NOT_SUPPORTED: "algorithm_not_allowed",
  ERR_JWKS_NO_MATCHING_KEY: "unknown_key",
  ERR_JWKS_MULTIPLE_MATCHING_KEYS: "unknown_key",
};

/**
 * Verifies a token. When several keys of a key set fit its header (a `kid`
 * shared by two keys, or no `kid` while rotating), each is tried in turn, as
 * jose documents: a signature that fails with one key may hold with another.
 */
async function verifyToken(
  token: string,
  key: CryptoKey | KeyResolver,
  options: JWTVerifyOptions,
): Promise<JWTVerifyResult> {
  try {
    return await jwtVerify(token, key, options);
  } catch (error) {
    const candidates = error as Partial<AsyncIterable<CryptoKey>> & {
      code?: unknown;
    };
    if (
      candidates?.code !== "ERR_JWKS_MULTIPLE_MATCHING_KEYS" ||
      typeof candidates[Symbol.asyncIterator] !== "function"
    ) {
      throw error;
    }
    for await (const candidate of candidates as AsyncIterable<CryptoKey>) {
      try {
        return await jwtVerify(token, candidate, options);
      } catch (inner) {
        const code = (inner as { code?: unknown } | null)?.code;
        if (code !== "ERR_JWS_SIGNATURE_VERIFICATION_FAILED") throw inner;
      }
    }
    throw new errors.JWSSignatureVerificationFailed();
  }
}

/** Classifies an error from `jwtVerify`; anything unrecognised is malformed. */
function codeOf(error: unknown): JwtErrorCode {
  if (error instanceof KeySetUnavailableError) return "key_set_unavailable";
  const code = (error as { code?: unknown } | null)?.code;
  return (typeof code === "string" && Object.hasOwn(JOSE_CODES, code))
    ? JOSE_CODES[code]!
    : "malformed";
}

function fail(detail: string): never {
  throw new TypeError(`Cannot create JwtUserProvider: ${detail}`);
}

function checkSeconds(name: string, value: unknown): void {
  if (
    value !== undefined &&
    (typeof value !== "number" || !Number.isFinite(value) || value < 0)
  ) {
    throw new RangeError(
      `Cannot create JwtUserProvider: "${name}" must be a non-negative number of seconds`,
    );
  }
}

function checkStrings(name: string, value: unknown, single: boolean): void {
  if (value === undefined || (single && typeof value === "string")) return;
  if (
    !Array.isArray(value) || (single && value.length === 0) ||
    value.some((v) => typeof v !== "string" || v === "")
  ) {
    fail(
      `"${name}" must be ${
        single
          ? "a string or a non-empty array of strings"
          : "an array of strings"
      }`,
    );
  }
}

function checkFunction(name: string, value: unknown): void {
  if (value !== undefined && typeof value !== "function") {
    fail(`"${name}" must be a function`);
  }
}

function claimsVerifyOptions(
  options: JwtUserProviderOptions<User, unknown>,
  algorithms: readonly string[],
): JWTVerifyOptions {
  checkStrings("issuer", options.issuer, true);
  checkStrings("audience", options.audience, true);
  checkStrings("requiredClaims", options.requiredClaims, false);
  checkSeconds("clockTolerance", options.clockTolerance);
  checkSeconds("maxTokenAge", options.maxTokenAge);
  const required = new Set(options.requiredClaims ?? []);
  if (options.requireExpiration !== false) required.add("exp");
  const verify: JWTVerifyOptions = {
    algorithms: [...algorithms],
    clockTolerance: options.clockTolerance ?? 0,
    requiredClaims: [...required],
  };
  if (options.issuer !== undefined) {
    verify.issuer = typeof options.issuer === "string"
      ? options.issuer
      : [...options.issuer];
  }
  if (options.audience !== undefined) {
    verify.audience = typeof options.audience === "string"
      ? options.audience
      : [...options.audience];
  }
  if (options.maxTokenAge !== undefined) {
    verify.maxTokenAge = options.maxTokenAge;
  }
  if (options.typ !== undefined) {
    if (typeof options.typ !== "string" || options.typ === "") {
      fail('"typ" must be a non-empty string');
    }
    verify.typ = options.typ;
  }
  return verify;
}

function tokenSources(
  options: JwtUserProviderOptions<User, unknown>,
): TokenSources {
  const header = options.header ?? true;
  if (typeof header !== "boolean") fail('"header" must be a boolean');
  const cookie = options.cookie;
  if (
    cookie !== undefined &&
    (typeof cookie !== "string" || !isCookieName(cookie))
  ) {
    fail('"cookie" must be a valid cookie name');
  }
  if (!header && cookie === undefined) {
    fail('no token source: keep "header" or set "cookie"');
  }
  const maxLength = options.maxTokenLength ?? 8192;
  if (!Number.isInteger(maxLength) || maxLength < 16) {
    throw new RangeError(
      'Cannot create JwtUserProvider: "maxTokenLength" must be an integer of at least 16',
    );
  }
  return Object.freeze({ header, cookie, maxLength });
}

/** Fails closed (a 500 from the guard) when an error hook misbehaves. */
function checkHookResult(result: unknown, hook: string): HttpError {
  if (result instanceof HttpError) return result;
  throw new TypeError(
    `Cannot refuse request: "${hook}" must return an HttpError`,
  );
}

/** The default mapping: `{ role, sub, claims }`. */
function defaultUser(claims: unknown, rolePath: readonly string[]): User {
  const user: User = { claims };
  const role = readClaim(claims, rolePath);
  if (typeof role === "string") user.role = role;
  const sub = readClaim(claims, ["sub"]);
  if (typeof sub === "string") user.sub = sub;
  return user;
}

/**
 * A user provider that verifies a JWT (a compact JWS) from
 * `Authorization: Bearer <token>` and/or a cookie, with
 * [jose](https://github.com/panva/jose), and maps its claims to the user.
 *
 * Create it with {@linkcode JwtUserProvider.create} (which imports and checks
 * the keys, so a misconfiguration fails at startup) and pass
 * `provider.userProvider` (a bound function) to a `PermissionGuard`, or call
 * `provider.resolve(request)` yourself.
 *
 * What it refuses, always with an `HttpError` (never a 500):
 * - no token: 401 `{"detail":"Unauthorized"}`, `WWW-Authenticate: Bearer`;
 * - any bad token (malformed, over `maxTokenLength`, `alg: none` or another
 *   algorithm outside the allow-list, unknown key, bad signature, expired,
 *   `nbf` in the future, wrong `iss` or `aud`, too old, missing claims,
 *   rejected by the schema or the mapping, different tokens in header and
 *   cookie, a repeated cookie): 401 `{"detail":"Invalid token"}` (or
 *   `"Token expired"`), `WWW-Authenticate: Bearer error="invalid_token"`;
 * - a JWKS endpoint that cannot be reached before any key was cached: 503.
 *
 * Both answers can be replaced with `onMissingToken` and `onInvalidToken`.
 *
 * @typeParam U The user type.
 *
 * @example With a shared secret and a guard
 * ```ts
 * import { JwtUserProvider, PermissionGuard } from "@portcullis/portcullis/guard";
 * import { SignJWT } from "jose";
 * import assert from "node:assert/strict";
 *
 * const secret = "a-shared-secret-of-at-least-32-bytes!";
 * const jwt = await JwtUserProvider.create({ secret, issuer: "auth.example.com" });
 * const guard = new PermissionGuard({
 *   userProvider: jwt.userProvider,
 *   enforcerProvider: () => ({
 *     enforce: (user: unknown) => (user as { role?: string }).role === "editor",
 *   }),
 * });
 * const write = guard.requirePermission("post", "write")(() => new Response("saved"));
 *
 * const token = await new SignJWT({ role: "editor" })
 *   .setProtectedHeader({ alg: "HS256" })
 *   .setIssuer("auth.example.com")
 *   .setExpirationTime("10m")
 *   .sign(new TextEncoder().encode(secret));
 * const ok = await write(new Request("http://localhost/posts", {
 *   method: "POST",
 *   headers: { authorization: `Bearer ${token}` },
 * }));
 * assert.equal(await ok.text(), "saved");
 *
 * const forged = await write(new Request("http://localhost/posts", {
 *   method: "POST",
 *   headers: { authorization: `Bearer ${token.slice(0, -2)}xx` },
 * }));
 * assert.equal(forged.status, 401);
 * assert.equal(forged.headers.get("www-authenticate"), 'Bearer error="invalid_token"');
 * ```
 *
 * @example A JWKS URL, a cookie and a zod schema
 * ```ts ignore
 * import { JwtUserProvider } from "@portcullis/portcullis/guard";
 * import { z } from "zod";
 *
 * const jwt = await JwtUserProvider.create({
 *   jwksUrl: "https://issuer.example.com/.well-known/jwks.json",
 *   issuer: "https://issuer.example.com/",
 *   audience: "api",
 *   cookie: "session",
 *   schema: z.object({ sub: z.string(), realm_access: z.object({ roles: z.array(z.string()) }) }),
 *   toUser: (claims) => ({ id: claims.sub, role: claims.realm_access.roles[0] }),
 * });
 * ```
 */
export class JwtUserProvider<U extends User = User> {
  /**
   * `resolve` bound to this provider: pass it as a guard's `userProvider`
   * or call it as a plain request function.
   */
  readonly userProvider: (request: Request) => Promise<U>;

  readonly #key: CryptoKey | KeyResolver;
  readonly #verifyOptions: JWTVerifyOptions;
  readonly #sources: TokenSources;
  readonly #schema: JwtClaimsSchema<unknown> | undefined;
  readonly #toUser: (claims: unknown, context: JwtUserContext) => unknown;
  readonly #onMissingToken: (
    request: Request,
  ) => HttpError | Promise<HttpError>;
  readonly #onInvalidToken: (
    error: JwtVerificationError,
    request: Request,
  ) => HttpError | Promise<HttpError>;

  private constructor(
    key: CryptoKey | KeyResolver,
    verifyOptions: JWTVerifyOptions,
    sources: TokenSources,
    options: JwtUserProviderOptions<U, unknown>,
  ) {
    this.#key = key;
    this.#verifyOptions = verifyOptions;
    this.#sources = sources;
    this.#schema = options.schema;
    if (options.toUser !== undefined) {
      this.#toUser = options.toUser as (
        claims: unknown,
        context: JwtUserContext,
      ) => unknown;
    } else {
      const rolePath = claimPath(options.roleClaim ?? "role");
      this.#toUser = (claims) => defaultUser(claims, rolePath);
    }
    this.#onMissingToken = options.onMissingToken ?? defaultMissingToken;
    this.#onInvalidToken = options.onInvalidToken ?? defaultInvalidToken;
    this.userProvider = (request) => this.resolve(request);
  }

  /**
   * Checks the options, imports the keys and creates the provider.
   *
   * @typeParam U The user type.
   * @typeParam C The claims type after schema validation.
   * @param options The key (exactly one of `secret`, `publicKey`, `jwks`,
   *   `jwksUrl`), the claim checks, the token sources and the mapping.
   * @returns The provider.
   * @throws {TypeError} On a misconfiguration: no key or several, a key of
   *   the wrong kind (a private key, a PEM as secret), an algorithm that does
   *   not fit the key or `none`, an RSA key without `algorithms`, an
   *   `http:` JWKS URL off loopback, a bad cookie name.
   * @throws {RangeError} On a secret shorter than its algorithm needs, or
   *   a negative duration.
   *
   * @example Usage
   * ```ts
   * import { JwtUserProvider } from "@portcullis/portcullis/guard";
   * import { exportSPKI, generateKeyPair } from "jose";
   * import assert from "node:assert/strict";
   *
   * const { publicKey } = await generateKeyPair("ES256", { extractable: true });
   * const jwt = await JwtUserProvider.create({ publicKey: await exportSPKI(publicKey) });
   * assert.ok(jwt instanceof JwtUserProvider);
   *
   * await assert.rejects(
   *   JwtUserProvider.create({ secret: await exportSPKI(publicKey) }),
   *   TypeError,
   * );
   * ```
   */
  static async create<U extends User = User, C = JwtClaims>(
    options: JwtUserProviderOptions<U, C>,
  ): Promise<JwtUserProvider<U>> {
    if (options === null || typeof options !== "object") {
      fail("options must be an object");
    }
    const loose = options as unknown as JwtUserProviderOptions<User, unknown>;
    checkFunction("toUser", options.toUser);
    checkFunction("onMissingToken", options.onMissingToken);
    checkFunction("onInvalidToken", options.onInvalidToken);
    if (
      options.schema !== undefined &&
      typeof options.schema?.["~standard"]?.validate !== "function"
    ) {
      fail('"schema" must be a Standard Schema, such as a zod schema');
    }
    if (options.toUser === undefined) claimPath(options.roleClaim ?? "role");
    const sources = tokenSources(loose);
    const keys = await prepareKeys(options);
    const verifyOptions = claimsVerifyOptions(loose, keys.algorithms);
    return new JwtUserProvider<U>(
      keys.key,
      verifyOptions,
      sources,
      options as unknown as JwtUserProviderOptions<U, unknown>,
    );
  }

  /**
   * Verifies the request's token and returns its user.
   *
   * @param request The incoming request.
   * @returns The user mapped from the token's claims.
   * @throws {HttpError} 401 without a token or with a bad one (or what the
   *   error hooks return).
   *
   * @example Usage
   * ```ts
   * import { HttpError, JwtUserProvider } from "@portcullis/portcullis/guard";
   * import { SignJWT } from "jose";
   * import assert from "node:assert/strict";
   *
   * const secret = new TextEncoder().encode("0123456789abcdef0123456789abcdef");
   * const jwt = await JwtUserProvider.create({ secret, cookie: "token" });
   * const token = await new SignJWT({ sub: "u1", role: "viewer" })
   *   .setProtectedHeader({ alg: "HS256" })
   *   .setExpirationTime("5m")
   *   .sign(secret);
   *
   * const user = await jwt.resolve(new Request("http://localhost/", {
   *   headers: { cookie: `token=${token}` },
   * }));
   * assert.equal(user.role, "viewer");
   * assert.equal(user.sub, "u1");
   *
   * const missing = await jwt.resolve(new Request("http://localhost/")).catch((e) => e);
   * assert.ok(missing instanceof HttpError);
   * assert.equal(missing.status, 401);
   * assert.equal(missing.headers.get("www-authenticate"), "Bearer");
   * ```
   */
  async resolve(request: Request): Promise<U> {
    const read = readToken(request, this.#sources);
    if (read.token === undefined) {
      if (read.problem === "missing") {
        throw checkHookResult(
          await this.#onMissingToken(request),
          "onMissingToken",
        );
      }
      throw await this.#invalid(read.problem, undefined, request);
    }
    let claims: unknown;
    let header: Readonly<Record<string, unknown>>;
    try {
      const verified = await verifyToken(
        read.token,
        this.#key,
        this.#verifyOptions,
      );
      claims = verified.payload;
      header = verified.protectedHeader;
    } catch (error) {
      throw await this.#invalid(codeOf(error), error, request);
    }
    if (this.#schema !== undefined) {
      let result: JwtSchemaResult<unknown>;
      try {
        result = await this.#schema["~standard"].validate(claims);
      } catch (error) {
        throw await this.#invalid("invalid_claims", error, request);
      }
      if (result.issues !== undefined) {
        throw await this.#invalid("invalid_claims", result.issues, request);
      }
      claims = result.value;
    }
    let user: unknown;
    try {
      user = await this.#toUser(claims, { header, request });
    } catch (error) {
      if (error instanceof HttpError) throw error;
      throw await this.#invalid("invalid_claims", error, request);
    }
    if (user === null || typeof user !== "object") {
      throw await this.#invalid("invalid_claims", undefined, request);
    }
    return user as U;
  }

  async #invalid(
    code: JwtErrorCode,
    cause: unknown,
    request: Request,
  ): Promise<HttpError> {
    const error = new JwtVerificationError(
      code,
      cause === undefined ? undefined : { cause },
    );
    return checkHookResult(
      await this.#onInvalidToken(error, request),
      "onInvalidToken",
    );
  }
}
