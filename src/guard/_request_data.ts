// Per-request caches for data that several access subjects of one request
// may read: the parsed URL and the JSON body. Keyed by the Request object,
// so entries go away with the request.
import { HttpError } from "./http_error.ts";

const urls = new WeakMap<Request, URL>();
const bodies = new WeakMap<Request, Promise<unknown>>();

/** Returns the request's parsed URL, parsing it once per request. */
export function requestUrl(request: Request): URL {
  let url = urls.get(request);
  if (url === undefined) {
    url = new URL(request.url);
    urls.set(request, url);
  }
  return url;
}

/**
 * Parses the request's JSON body from a clone, once per request, so the
 * handler can still read the original body. An unreadable or invalid body is
 * a client error: `HttpError(400, "Invalid JSON body")`.
 */
export function requestJson(request: Request): Promise<unknown> {
  let body = bodies.get(request);
  if (body === undefined) {
    body = parseJson(request);
    bodies.set(request, body);
  }
  return body;
}

async function parseJson(request: Request): Promise<unknown> {
  if (request.bodyUsed) {
    throw new TypeError(
      "Cannot read request body: the body was already consumed before the guard ran",
    );
  }
  const text = await request.clone().text();
  try {
    return JSON.parse(text);
  } catch (error) {
    throw new HttpError(400, "Invalid JSON body", { cause: error });
  }
}
