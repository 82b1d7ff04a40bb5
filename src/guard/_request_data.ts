// Per-request caches for data that several access subjects of one request
// may read: the parsed URL and the JSON body. Keyed by the Request object,
// so entries go away with the request.
import { HttpError } from "./http_error.ts";
import type { BodyLimits } from "./read_json_body.ts";

const urls = new WeakMap<Request, URL>();
const bodies = new WeakMap<
  Request,
  Promise<{ value: unknown; size: number }>
>();

/** The value `cache` holds for `request`, made by `make` the first time. */
function once<T>(
  cache: WeakMap<Request, T>,
  request: Request,
  make: () => T,
): T {
  let value = cache.get(request);
  if (value === undefined) {
    value = make();
    cache.set(request, value);
  }
  return value;
}

/** Returns the request's parsed URL, parsing it once per request. */
export function requestUrl(request: Request): URL {
  return once(urls, request, () => new URL(request.url));
}

/**
 * Parses the request's JSON body from a clone, once per request, so the
 * handler can still read the original body. The read is bounded by
 * `limits` (413 over the size, 408 over the time; only what was read so
 * far stays buffered for the handler). An invalid body is a client error:
 * `HttpError(400, "Invalid JSON body")`. When several access subjects of one
 * request read the body, the first read's limits apply to the read, and a
 * subject with a smaller size limit still refuses the body with 413.
 */
export async function requestJson(
  request: Request,
  limits: ResolvedBodyLimits,
): Promise<unknown> {
  const { value, size } = await once(
    bodies,
    request,
    () => readJsonClone(request, limits),
  );
  if (size > limits.maxBodyBytes) throw tooLarge();
  return value;
}

async function readJsonClone(
  request: Request,
  limits: ResolvedBodyLimits,
): Promise<{ value: unknown; size: number }> {
  if (request.bodyUsed) {
    throw new TypeError(
      "Cannot read request body: the body was already consumed before the guard ran",
    );
  }
  checkDeclaredLength(request.headers, limits);
  const bytes = await readBodyBytes(
    request.headers,
    request.clone().body,
    limits,
  );
  return { value: parseJsonBytes(bytes), size: bytes.byteLength };
}

/** The default {@linkcode BodyLimits.maxBodyBytes}: 1 MiB. */
const DEFAULT_MAX_BODY_BYTES = 1024 * 1024;
/** The default {@linkcode BodyLimits.bodyTimeoutMs}: 5 seconds. */
const DEFAULT_BODY_TIMEOUT_MS = 5_000;

/** Limits with every field set, as the readers take them. */
export interface ResolvedBodyLimits {
  readonly maxBodyBytes: number;
  readonly bodyTimeoutMs: number;
}

/**
 * Checks and completes body limits. Throws `RangeError` for a limit that is
 * not a positive safe integer (bytes) or a positive finite number (time).
 */
export function resolveBodyLimits(
  limits: BodyLimits | undefined,
  where: string,
): ResolvedBodyLimits {
  const maxBodyBytes = limits?.maxBodyBytes ?? DEFAULT_MAX_BODY_BYTES;
  const bodyTimeoutMs = limits?.bodyTimeoutMs ?? DEFAULT_BODY_TIMEOUT_MS;
  if (!Number.isSafeInteger(maxBodyBytes) || maxBodyBytes < 0) {
    throw new RangeError(
      `Cannot ${where}: maxBodyBytes must be an integer >= 0, got ${
        String(maxBodyBytes)
      }`,
    );
  }
  if (
    typeof bodyTimeoutMs !== "number" || !(bodyTimeoutMs > 0) ||
    !Number.isFinite(bodyTimeoutMs)
  ) {
    throw new RangeError(
      `Cannot ${where}: bodyTimeoutMs must be a finite number > 0, got ${
        String(bodyTimeoutMs)
      }`,
    );
  }
  return { maxBodyBytes, bodyTimeoutMs };
}

function tooLarge(): HttpError {
  return new HttpError(413, "Content Too Large");
}

/**
 * Answers 413 for a `Content-Length` over the limit, before anything is
 * read (or cloned: a clone already pulls a chunk).
 */
function checkDeclaredLength(
  headers: Headers,
  limits: ResolvedBodyLimits,
): void {
  const declared = headers.get("content-length");
  if (
    declared !== null && /^\s*\d+\s*$/.test(declared) &&
    Number(declared) > limits.maxBodyBytes
  ) {
    throw tooLarge();
  }
}

/**
 * Reads a body stream into one buffer within the limits: 413 once it passes
 * `maxBodyBytes` (checked against `Content-Length` first), 408 when it is
 * not complete after `bodyTimeoutMs`. Either way the stream is cancelled
 * and nothing more is read from it.
 */
export async function readBodyBytes(
  headers: Headers,
  body: ReadableStream<Uint8Array> | null,
  limits: ResolvedBodyLimits,
): Promise<Uint8Array> {
  checkDeclaredLength(headers, limits);
  if (body === null) return new Uint8Array(0);
  const reader = body.getReader();
  const chunks: Uint8Array[] = [];
  let size = 0;
  let timer: ReturnType<typeof setTimeout> | undefined;
  const timedOut = new Promise<"timeout">((resolve) => {
    timer = setTimeout(() => resolve("timeout"), limits.bodyTimeoutMs);
  });
  try {
    for (;;) {
      const next = await Promise.race([reader.read(), timedOut]);
      if (next === "timeout") {
        reader.cancel().catch(() => {});
        throw new HttpError(408, "Request Timeout");
      }
      if (next.done) break;
      const chunk = next.value;
      size += chunk.byteLength;
      if (size > limits.maxBodyBytes) {
        reader.cancel().catch(() => {});
        throw tooLarge();
      }
      chunks.push(chunk);
    }
  } finally {
    clearTimeout(timer);
  }
  if (chunks.length === 1) return chunks[0]!;
  const bytes = new Uint8Array(size);
  let at = 0;
  for (const chunk of chunks) {
    bytes.set(chunk, at);
    at += chunk.byteLength;
  }
  return bytes;
}

/** Parses body bytes as JSON, as `Request.json()` would: 400 when not JSON. */
export function parseJsonBytes(bytes: Uint8Array): unknown {
  const text = new TextDecoder().decode(bytes);
  try {
    return JSON.parse(text);
  } catch (error) {
    throw new HttpError(400, "Invalid JSON body", { cause: error });
  }
}
