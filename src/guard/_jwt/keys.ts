/**
 * Turns the key options of a JWT user provider into what `jwtVerify` needs:
 * a key or key resolver and the algorithm allow-list. All checks that can run
 * at startup run here, so a misconfiguration fails before the first request.
 *
 * @module
 */

import {
  createLocalJWKSet,
  createRemoteJWKSet,
  errors,
  importJWK,
  importSPKI,
  importX509,
  type JSONWebKeySet,
  jwksCache,
  type JWKSCacheInput,
  type JWSHeaderParameters,
} from "jose";
import type {
  JwksOptions,
  JwtAlgorithm,
  JwtUserProviderOptions,
} from "../jwt_user_provider.ts";

/** Resolves the verification key from the token's protected header. */
export type KeyResolver = (
  header: JWSHeaderParameters,
) => CryptoKey | Promise<CryptoKey>;

/** The verification key (or resolver) and the algorithms it may verify. */
export interface PreparedKeys {
  readonly key: CryptoKey | KeyResolver;
  readonly algorithms: readonly JwtAlgorithm[];
}

/** HMAC algorithms with the shortest secret each accepts (RFC 7518 3.2). */
const HMAC_MIN_BYTES: Readonly<Record<string, number>> = {
  HS256: 32,
  HS384: 48,
  HS512: 64,
};

/** Every asymmetric algorithm a provider can verify. */
export const ASYMMETRIC_ALGORITHMS: readonly JwtAlgorithm[] = Object.freeze([
  "RS256",
  "RS384",
  "RS512",
  "PS256",
  "PS384",
  "PS512",
  "ES256",
  "ES384",
  "ES512",
  "EdDSA",
  "Ed25519",
]);

const EC_CURVES: Readonly<Record<string, JwtAlgorithm>> = {
  "P-256": "ES256",
  "P-384": "ES384",
  "P-521": "ES512",
};

const EDDSA: readonly JwtAlgorithm[] = ["EdDSA", "Ed25519"];

/** The hosts where a JWKS URL may use plain `http:`. */
const LOOPBACK_HOSTS = new Set(["localhost", "127.0.0.1", "[::1]"]);

/** Raised by the JWKS resolver when keys can be neither fetched nor served from cache. */
export class KeySetUnavailableError extends Error {
  constructor(options?: ErrorOptions) {
    super("Cannot fetch the JSON Web Key Set: endpoint unavailable", options);
    this.name = "KeySetUnavailableError";
  }
}

function fail(detail: string, options?: ErrorOptions): never {
  throw new TypeError(`Cannot create JwtUserProvider: ${detail}`, options);
}

function isHmac(algorithm: string): boolean {
  return Object.hasOwn(HMAC_MIN_BYTES, algorithm);
}

function isAsymmetric(algorithm: string): boolean {
  return (ASYMMETRIC_ALGORITHMS as readonly string[]).includes(algorithm);
}

function isCryptoKey(value: unknown): value is CryptoKey {
  return typeof CryptoKey !== "undefined" && value instanceof CryptoKey;
}

function isPlainObject(value: unknown): value is Record<string, unknown> {
  return value !== null && typeof value === "object" && !Array.isArray(value);
}

/**
 * Checks an explicit `algorithms` option: a non-empty list of known names,
 * never `none`. Returns it without duplicates.
 */
function explicitAlgorithms(
  algorithms: readonly string[] | undefined,
): JwtAlgorithm[] | undefined {
  if (algorithms === undefined) return undefined;
  if (!Array.isArray(algorithms) || algorithms.length === 0) {
    fail('"algorithms" must be a non-empty array');
  }
  for (const algorithm of algorithms) {
    if (typeof algorithm === "string" && algorithm.toLowerCase() === "none") {
      fail('"none" is never accepted: unsecured tokens have no signature');
    }
    if (!isHmac(algorithm) && !isAsymmetric(algorithm)) {
      fail(`unknown algorithm ${JSON.stringify(algorithm)}`);
    }
  }
  return [...new Set(algorithms as JwtAlgorithm[])];
}

/** Keeps `inferred`, or checks that every explicit algorithm is among them. */
function narrow(
  explicit: JwtAlgorithm[] | undefined,
  inferred: readonly JwtAlgorithm[],
  what: string,
): JwtAlgorithm[] {
  if (explicit === undefined) return [...inferred];
  for (const algorithm of explicit) {
    if (isHmac(algorithm)) {
      fail(
        `${algorithm} needs a shared "secret"; a public key is never used as an HMAC secret`,
      );
    }
    if (!inferred.includes(algorithm)) {
      fail(`${what} cannot verify ${algorithm}`);
    }
  }
  return explicit;
}

/** Refuses RSA keys under 2048 bits, which jose would refuse per request. */
function checkRsaSize(key: CryptoKey): void {
  const bits = (key.algorithm as Partial<RsaHashedKeyAlgorithm>).modulusLength;
  if (bits !== undefined && bits < 2048) {
    fail(`RSA keys must have at least 2048 bits, got ${bits}`);
  }
}

/** A resolver that picks the key imported for the token's `alg`. */
function byAlgorithm(keys: Map<string, CryptoKey>): CryptoKey | KeyResolver {
  for (const key of keys.values()) checkRsaSize(key);
  if (keys.size === 1) return keys.values().next().value as CryptoKey;
  return (header) => {
    const key = header.alg === undefined ? undefined : keys.get(header.alg);
    if (key === undefined) {
      throw new errors.JOSEAlgNotAllowed(
        '"alg" (Algorithm) Header Parameter value not allowed',
      );
    }
    return key;
  };
}

function looksLikeKey(text: string): boolean {
  return /-----BEGIN |^\s*\{/.test(text);
}

async function prepareSecret(
  secret: unknown,
  explicit: JwtAlgorithm[] | undefined,
): Promise<PreparedKeys> {
  for (const algorithm of explicit ?? []) {
    if (!isHmac(algorithm)) {
      fail(
        `${algorithm} needs a public key ("publicKey", "jwks" or "jwksUrl"), not a "secret"`,
      );
    }
  }
  if (isCryptoKey(secret)) {
    const algorithm = secret.algorithm as HmacKeyAlgorithm;
    if (secret.type !== "secret" || algorithm.name !== "HMAC") {
      fail(
        '"secret" must be an HMAC CryptoKey; configure public keys with "publicKey"',
      );
    }
    if (!secret.usages.includes("verify")) {
      fail('the "secret" CryptoKey must allow the "verify" usage');
    }
    const inferred = `HS${algorithm.hash.name.slice(4)}` as JwtAlgorithm;
    if (!isHmac(inferred)) {
      fail(
        `the "secret" CryptoKey uses ${algorithm.hash.name}; HMAC tokens need SHA-256, SHA-384 or SHA-512`,
      );
    }
    // The same minimum as for a string or bytes secret (length is in bits).
    const bytes = Math.floor(algorithm.length / 8);
    if (bytes < HMAC_MIN_BYTES[inferred]!) {
      throw new RangeError(
        `Cannot create JwtUserProvider: ${inferred} needs a "secret" of at least ${
          HMAC_MIN_BYTES[inferred]
        } bytes, got ${bytes}`,
      );
    }
    if (explicit !== undefined && explicit.some((a) => a !== inferred)) {
      fail(`the "secret" CryptoKey can only verify ${inferred}`);
    }
    return { key: secret, algorithms: [inferred] };
  }
  let bytes: Uint8Array;
  if (typeof secret === "string") {
    if (looksLikeKey(secret)) {
      fail(
        'the "secret" looks like a PEM key or a JWK; configure public keys with "publicKey", never as an HMAC secret',
      );
    }
    bytes = new TextEncoder().encode(secret);
  } else if (secret instanceof Uint8Array) {
    if (looksLikeKey(new TextDecoder().decode(secret.subarray(0, 64)))) {
      fail(
        'the "secret" looks like a PEM key or a JWK; configure public keys with "publicKey", never as an HMAC secret',
      );
    }
    bytes = secret.slice();
  } else {
    fail('"secret" must be a string, a Uint8Array or an HMAC CryptoKey');
  }
  const algorithms = explicit ??
    Object.keys(HMAC_MIN_BYTES).filter((a) =>
      bytes.length >= HMAC_MIN_BYTES[a]!
    ) as JwtAlgorithm[];
  if (algorithms.length === 0) {
    throw new RangeError(
      `Cannot create JwtUserProvider: the "secret" must be at least 32 bytes for HS256, got ${bytes.length}`,
    );
  }
  const keys = new Map<string, CryptoKey>();
  for (const algorithm of algorithms) {
    const min = HMAC_MIN_BYTES[algorithm]!;
    if (bytes.length < min) {
      throw new RangeError(
        `Cannot create JwtUserProvider: ${algorithm} needs a "secret" of at least ${min} bytes, got ${bytes.length}`,
      );
    }
    keys.set(
      algorithm,
      await crypto.subtle.importKey(
        "raw",
        bytes as Uint8Array<ArrayBuffer>,
        { name: "HMAC", hash: `SHA-${algorithm.slice(2)}` },
        false,
        ["verify"],
      ),
    );
  }
  bytes.fill(0);
  return { key: byAlgorithm(keys), algorithms };
}

function cryptoKeyAlgorithms(key: CryptoKey): readonly JwtAlgorithm[] {
  const algorithm = key.algorithm as
    & KeyAlgorithm
    & Partial<RsaHashedKeyAlgorithm & EcKeyAlgorithm>;
  const bits = algorithm.hash?.name.slice(4);
  switch (algorithm.name) {
    case "RSASSA-PKCS1-v1_5":
      return [`RS${bits}` as JwtAlgorithm];
    case "RSA-PSS":
      return [`PS${bits}` as JwtAlgorithm];
    case "ECDSA": {
      const alg = EC_CURVES[algorithm.namedCurve ?? ""];
      return alg === undefined ? [] : [alg];
    }
    case "Ed25519":
      return EDDSA;
    default:
      return [];
  }
}

async function preparePem(
  pem: string,
  explicit: JwtAlgorithm[] | undefined,
): Promise<PreparedKeys> {
  pem = pem.trim();
  if (pem.includes("PRIVATE KEY-----")) {
    fail('"publicKey" holds a private key; configure the public key only');
  }
  let importer: (pem: string, alg: string) => Promise<CryptoKey>;
  if (pem.includes("-----BEGIN CERTIFICATE-----")) {
    importer = (text, alg) => importX509(text, alg);
  } else if (pem.includes("-----BEGIN PUBLIC KEY-----")) {
    importer = (text, alg) => importSPKI(text, alg);
  } else {
    fail(
      '"publicKey" must be a PEM public key ("-----BEGIN PUBLIC KEY-----"), an X.509 certificate, a JWK or a CryptoKey',
    );
  }
  const keys = new Map<string, CryptoKey>();
  if (explicit !== undefined) {
    narrow(explicit, ASYMMETRIC_ALGORITHMS, '"publicKey"');
    for (const algorithm of explicit) {
      try {
        keys.set(algorithm, await importer(pem, algorithm));
      } catch (cause) {
        fail(`the "publicKey" cannot verify ${algorithm}`, { cause });
      }
    }
    return { key: byAlgorithm(keys), algorithms: explicit };
  }
  // An EC curve or Ed25519 determines the algorithm; an RSA key does not
  // (RS* and PS* both fit), so RSA needs an explicit list.
  for (const algorithm of ["ES256", "ES384", "ES512", "EdDSA"] as const) {
    let key: CryptoKey;
    try {
      key = await importer(pem, algorithm);
    } catch {
      continue;
    }
    const algorithms = cryptoKeyAlgorithms(key);
    for (const alg of algorithms) keys.set(alg, key);
    return { key: byAlgorithm(keys), algorithms };
  }
  try {
    await importer(pem, "RS256");
  } catch (cause) {
    fail('"publicKey" is not a supported public key', { cause });
  }
  fail(
    'an RSA "publicKey" needs an explicit "algorithms" list, such as ["RS256"] or ["PS256"]',
  );
}

async function prepareJwk(
  jwk: Record<string, unknown>,
  explicit: JwtAlgorithm[] | undefined,
): Promise<PreparedKeys> {
  if (jwk.kty === "oct") {
    fail('a symmetric JWK (kty "oct") is a secret; configure it as "secret"');
  }
  if (jwk.d !== undefined) {
    fail('"publicKey" holds a private key; configure the public key only');
  }
  let inferred: readonly JwtAlgorithm[];
  if (typeof jwk.alg === "string") {
    if (!isAsymmetric(jwk.alg)) {
      fail(`the JWK's "alg" ${JSON.stringify(jwk.alg)} is not supported`);
    }
    inferred = [jwk.alg as JwtAlgorithm];
  } else if (jwk.kty === "EC") {
    const alg = EC_CURVES[String(jwk.crv)];
    if (alg === undefined) {
      fail(`unsupported EC curve ${JSON.stringify(jwk.crv)}`);
    }
    inferred = [alg];
  } else if (jwk.kty === "OKP") {
    if (jwk.crv !== "Ed25519") {
      fail(`unsupported OKP curve ${JSON.stringify(jwk.crv)}`);
    }
    inferred = EDDSA;
  } else if (jwk.kty === "RSA") {
    if (explicit === undefined) {
      fail(
        'an RSA JWK without "alg" needs an explicit "algorithms" list, such as ["RS256"] or ["PS256"]',
      );
    }
    inferred = ASYMMETRIC_ALGORITHMS.filter((a) => /^[RP]S/.test(a));
  } else {
    fail(`unsupported JWK key type ${JSON.stringify(jwk.kty)}`);
  }
  const algorithms = narrow(explicit, inferred, "the JWK");
  const keys = new Map<string, CryptoKey>();
  for (const algorithm of algorithms) {
    try {
      keys.set(algorithm, await importJWK(jwk, algorithm) as CryptoKey);
    } catch (cause) {
      fail(`the JWK cannot verify ${algorithm}`, { cause });
    }
  }
  return { key: byAlgorithm(keys), algorithms };
}

function preparePublicKey(
  publicKey: unknown,
  explicit: JwtAlgorithm[] | undefined,
): Promise<PreparedKeys> | PreparedKeys {
  if (typeof publicKey === "string") return preparePem(publicKey, explicit);
  if (isCryptoKey(publicKey)) {
    if (publicKey.type !== "public") {
      fail(
        `"publicKey" must be a public CryptoKey, got a ${publicKey.type} key`,
      );
    }
    if (!publicKey.usages.includes("verify")) {
      fail('the "publicKey" CryptoKey must allow the "verify" usage');
    }
    checkRsaSize(publicKey);
    const inferred = cryptoKeyAlgorithms(publicKey);
    if (inferred.length === 0) {
      fail(`unsupported CryptoKey algorithm ${publicKey.algorithm.name}`);
    }
    return {
      key: publicKey,
      algorithms: narrow(explicit, inferred, '"publicKey"'),
    };
  }
  if (isPlainObject(publicKey)) return prepareJwk(publicKey, explicit);
  fail('"publicKey" must be a PEM string, a JWK or a CryptoKey');
}

function checkKeySet(jwks: unknown): JSONWebKeySet {
  if (!isPlainObject(jwks) || !Array.isArray(jwks.keys)) {
    fail('"jwks" must be a JSON Web Key Set: { keys: [...] }');
  }
  for (const key of jwks.keys as unknown[]) {
    if (!isPlainObject(key)) fail('"jwks" keys must be JWK objects');
    if (key.kty === "oct") {
      fail('"jwks" must hold public keys only, found a symmetric key');
    }
    if (key.d !== undefined) {
      fail('"jwks" must hold public keys only, found a private key');
    }
  }
  return jwks as unknown as JSONWebKeySet;
}

function isKeySelectionError(error: unknown): boolean {
  const code = (error as { code?: unknown } | null)?.code;
  return code === "ERR_JWKS_NO_MATCHING_KEY" ||
    code === "ERR_JWKS_MULTIPLE_MATCHING_KEYS" ||
    code === "ERR_JOSE_NOT_SUPPORTED" ||
    code === "ERR_JWK_INVALID";
}

/**
 * A remote key set that keeps verifying with the last fetched keys while the
 * endpoint is down. jose fetches, caches (`cacheMaxAge`), refetches on an
 * unknown `kid` at most once per `cooldownDuration`, and aborts after
 * `timeoutDuration`. When a fetch fails and keys were fetched before, the
 * stale keys answer, and the endpoint is left alone for one cooldown so
 * requests do not each wait for the timeout.
 */
function remoteKeySet(url: URL, options: JwksOptions): KeyResolver {
  const cache: { jwks?: JSONWebKeySet; uat?: number } = {};
  const remote = createRemoteJWKSet(url, {
    ...options,
    [jwksCache]: cache as JWKSCacheInput,
  });
  const cooldown = options.cooldownDuration ?? 30_000;
  let staleSource: JSONWebKeySet | undefined;
  let stale: ReturnType<typeof createLocalJWKSet> | undefined;
  let remoteAfter = 0;
  const cached = (): typeof stale => {
    const jwks = cache.jwks;
    if (jwks === undefined) return undefined;
    if (jwks !== staleSource) {
      stale = createLocalJWKSet(jwks);
      staleSource = jwks;
    }
    return stale;
  };
  return async (header) => {
    if (Date.now() < remoteAfter) {
      const local = cached();
      if (local !== undefined) return await local(header);
    }
    try {
      return await remote(header);
    } catch (error) {
      if (isKeySelectionError(error)) throw error;
      const local = cached();
      if (local === undefined) {
        throw new KeySetUnavailableError({ cause: error });
      }
      remoteAfter = Date.now() + cooldown;
      return await local(header);
    }
  };
}

function prepareRemote(
  jwksUrl: unknown,
  options: JwksOptions | undefined,
): KeyResolver {
  let url: URL;
  try {
    url = new URL(jwksUrl as string | URL);
  } catch (cause) {
    fail('"jwksUrl" must be an absolute URL', { cause });
  }
  const loopback = LOOPBACK_HOSTS.has(url.hostname);
  if (url.protocol !== "https:" && !(url.protocol === "http:" && loopback)) {
    fail('"jwksUrl" must use https: (plain http: only on loopback hosts)');
  }
  if (url.username !== "" || url.password !== "") {
    fail('"jwksUrl" must not embed credentials; pass "headers" instead');
  }
  try {
    return remoteKeySet(url, options ?? {});
  } catch (cause) {
    fail(
      `invalid "jwksOptions": ${cause instanceof Error ? cause.message : ""}`,
      { cause },
    );
  }
}

/**
 * Validates the key options and imports the keys.
 *
 * @param options The provider options.
 * @returns The key or resolver, and the algorithm allow-list.
 * @throws {TypeError} On any misconfiguration.
 * @throws {RangeError} When a secret is too short for its algorithm.
 */
export async function prepareKeys(
  options: Pick<
    JwtUserProviderOptions,
    "secret" | "publicKey" | "jwks" | "jwksUrl" | "jwksOptions" | "algorithms"
  >,
): Promise<PreparedKeys> {
  const kinds = (["secret", "publicKey", "jwks", "jwksUrl"] as const).filter(
    (kind) => options[kind] !== undefined,
  );
  if (kinds.length !== 1) {
    fail(
      `set exactly one of "secret", "publicKey", "jwks" or "jwksUrl", got ${
        kinds.length === 0 ? "none" : kinds.map((k) => `"${k}"`).join(", ")
      }`,
    );
  }
  if (options.jwksOptions !== undefined && kinds[0] !== "jwksUrl") {
    fail('"jwksOptions" only applies with "jwksUrl"');
  }
  const explicit = explicitAlgorithms(options.algorithms);
  switch (kinds[0]) {
    case "secret":
      return await prepareSecret(options.secret, explicit);
    case "publicKey":
      return await preparePublicKey(options.publicKey, explicit);
    case "jwks": {
      const jwks = checkKeySet(options.jwks);
      let local: KeyResolver;
      try {
        local = createLocalJWKSet(jwks);
      } catch (cause) {
        fail('"jwks" is not a valid JSON Web Key Set', { cause });
      }
      return {
        key: local,
        algorithms: narrow(explicit, ASYMMETRIC_ALGORITHMS, '"jwks"'),
      };
    }
    default:
      return {
        key: prepareRemote(options.jwksUrl, options.jwksOptions),
        algorithms: narrow(explicit, ASYMMETRIC_ALGORITHMS, '"jwksUrl"'),
      };
  }
}
