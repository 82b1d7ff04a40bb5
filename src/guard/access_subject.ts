import { optionalFunction, requireFunction } from "./_check_function.ts";
import { HttpError } from "./http_error.ts";
import type { BodyLimits } from "./read_json_body.ts";
import {
  requestJson,
  requestUrl,
  resolveBodyLimits,
  type ResolvedBodyLimits,
} from "./_request_data.ts";

/**
 * The part of a `URLPattern` that {@linkcode AccessSubject} uses: `exec()`
 * with a full URL string, returning the matched path groups or `null`. A
 * native `URLPattern` and the one from `urlpattern-polyfill` both fit.
 *
 * @example
 * ```ts
 * import type { URLPatternLike } from "@portcullis/portcullis/guard";
 *
 * const pattern: URLPatternLike = new URLPattern({ pathname: "/posts/:id" });
 * ```
 */
export interface URLPatternLike {
  /**
   * Matches a URL against the pattern.
   *
   * @param input The full request URL.
   * @returns The match, or `null` when the URL does not match.
   */
  exec(input: string): URLPatternMatchLike | null;
}

/**
 * The part of a `URLPattern` match result that {@linkcode AccessSubject}
 * reads: the named groups of the path.
 *
 * @example
 * ```ts
 * import type { URLPatternMatchLike } from "@portcullis/portcullis/guard";
 *
 * const match: URLPatternMatchLike | null = new URLPattern({ pathname: "/posts/:id" })
 *   .exec("http://localhost/posts/7");
 * ```
 */
export interface URLPatternMatchLike {
  /** The path part of the match. */
  pathname: { groups: Record<string, string | undefined> };
}

/**
 * What the `value` function of an {@linkcode AccessSubject} can read about
 * the request besides the `Request` itself. Every field is computed on
 * first use and the JSON body is parsed at most once per request.
 *
 * @example Reading several parts of a request
 * ```ts
 * import { AccessSubject, type AccessSubjectContext } from "@portcullis/portcullis/guard";
 * import assert from "node:assert/strict";
 *
 * const owner = new AccessSubject({
 *   pattern: "/teams/:team/posts",
 *   value: async (_request: Request, ctx: AccessSubjectContext) => ({
 *     team: ctx.params.team,
 *     draft: ctx.query.get("draft") === "1",
 *     tenant: ctx.headers.get("x-tenant"),
 *     body: await ctx.json(),
 *   }),
 * });
 * const request = new Request("http://localhost/teams/blue/posts?draft=1", {
 *   method: "POST",
 *   headers: { "x-tenant": "acme" },
 *   body: '{"title":"Hi"}',
 * });
 * assert.deepEqual(await owner.resolve(request), {
 *   team: "blue",
 *   draft: true,
 *   tenant: "acme",
 *   body: { title: "Hi" },
 * });
 * assert.equal(await request.text(), '{"title":"Hi"}');
 * ```
 */
export interface AccessSubjectContext {
  /** The parsed request URL. */
  readonly url: URL;
  /** The query string of the URL. */
  readonly query: URLSearchParams;
  /** The request headers. */
  readonly headers: Headers;
  /**
   * The named path groups matched by the subject's `pattern`, percent-decoded
   * (`decodeURIComponent` semantics: `%73ecret` is `secret`, `1%2F2` is
   * `1/2`); empty when the subject has no pattern or the URL does not match
   * it. Reading it throws `HttpError(400, "Invalid percent-encoding in
   * path")` when a group holds a malformed sequence such as `%E0%A4%A`.
   */
  readonly params: Readonly<Record<string, string | undefined>>;
  /**
   * Parses the request body as JSON from a clone, so the handler can still
   * read the body, within the subject's body limits. Rejects with
   * `HttpError(413, "Content Too Large")` for a body over `maxBodyBytes`,
   * `HttpError(408, "Request Timeout")` for one not complete after
   * `bodyTimeoutMs`, and `HttpError(400, "Invalid JSON body")` for one that
   * is not JSON.
   *
   * @returns The parsed body.
   */
  json(): Promise<unknown>;
}

/**
 * Options for {@linkcode AccessSubject}.
 *
 * @typeParam T The type the `value` function returns.
 *
 * @example
 * ```ts
 * import { AccessSubject, type AccessSubjectOptions } from "@portcullis/portcullis/guard";
 *
 * const options: AccessSubjectOptions<string | null> = {
 *   value: (request) => request.headers.get("x-tenant"),
 * };
 * const tenant = new AccessSubject(options);
 * ```
 */
export interface AccessSubjectOptions<T> extends BodyLimits {
  /**
   * Reads the value from the request. Throw an `HttpError` to refuse the
   * request with that answer; any other error gives a 500.
   */
  value: (request: Request, ctx: AccessSubjectContext) => T | Promise<T>;
  /**
   * Maps the value to what the enforcer receives.
   * @default {undefined} (the value is passed as is)
   */
  selector?: (value: T) => unknown;
  /**
   * The route pattern that fills `ctx.params`: a `URLPattern`, or a
   * pathname pattern string such as `"/posts/:id"` (which needs a global
   * `URLPattern`; load `urlpattern-polyfill` on runtimes without one).
   * @default {undefined} (`ctx.params` is empty)
   */
  pattern?: URLPatternLike | string;
}

interface URLPatternConstructorLike {
  new (init: { pathname: string }): URLPatternLike;
}

const EMPTY_PARAMS: Readonly<Record<string, string | undefined>> = Object
  .freeze({});

/**
 * The path groups as the application serves them: percent-decoded with
 * `decodeURIComponent` semantics (`%73ecret` is `secret`, `1%2F2` is `1/2`),
 * so a deny rule on a value matches however a client spells it. A malformed
 * sequence refuses the request with 400 before any decision.
 */
function decodeGroups(
  groups: Record<string, string | undefined>,
): Readonly<Record<string, string | undefined>> {
  const decoded: Record<string, string | undefined> = {};
  for (const name of Object.keys(groups)) {
    const value = groups[name];
    if (value === undefined || value.indexOf("%") === -1) {
      decoded[name] = value;
      continue;
    }
    try {
      decoded[name] = decodeURIComponent(value);
    } catch (error) {
      throw new HttpError(400, "Invalid percent-encoding in path", {
        cause: error,
      });
    }
  }
  return decoded;
}

class RequestContext implements AccessSubjectContext {
  readonly #request: Request;
  readonly #pattern: URLPatternLike | undefined;
  readonly #limits: ResolvedBodyLimits;
  #params: Readonly<Record<string, string | undefined>> | undefined;

  constructor(
    request: Request,
    pattern: URLPatternLike | undefined,
    limits: ResolvedBodyLimits,
  ) {
    this.#request = request;
    this.#pattern = pattern;
    this.#limits = limits;
  }

  get url(): URL {
    return requestUrl(this.#request);
  }

  get query(): URLSearchParams {
    return requestUrl(this.#request).searchParams;
  }

  get headers(): Headers {
    return this.#request.headers;
  }

  get params(): Readonly<Record<string, string | undefined>> {
    if (this.#params !== undefined) return this.#params;
    if (this.#pattern === undefined) return this.#params = EMPTY_PARAMS;
    const match = this.#pattern.exec(requestUrl(this.#request).href);
    const groups = match?.pathname.groups;
    return this.#params = groups === undefined
      ? EMPTY_PARAMS
      : decodeGroups(groups);
  }

  json(): Promise<unknown> {
    return requestJson(this.#request, this.#limits);
  }
}

/**
 * A permission argument that is read from each request: a path parameter,
 * a query or header value, a field of the JSON body, or anything a function
 * can compute from the `Request`. Pass it to `guard.requirePermission()` in
 * place of a fixed value; the guard resolves it before calling the enforcer.
 * Reading the body never consumes it: the handler can still read it.
 *
 * @typeParam T The type the `value` function returns.
 *
 * @example A path parameter as the casbin object
 * ```ts
 * import { AccessSubject } from "@portcullis/portcullis/guard";
 * import assert from "node:assert/strict";
 *
 * const postId = AccessSubject.param("id", "/posts/:id");
 * const request = new Request("http://localhost/posts/42");
 * assert.equal(await postId.resolve(request), "42");
 * ```
 *
 * @example A custom value with a selector
 * ```ts
 * import { AccessSubject } from "@portcullis/portcullis/guard";
 * import assert from "node:assert/strict";
 *
 * const ownerOfBody = new AccessSubject({
 *   value: (_request, ctx) => ctx.json(),
 *   selector: (body) => (body as { owner?: string }).owner,
 * });
 * const request = new Request("http://localhost/posts", {
 *   method: "POST",
 *   body: '{"owner":"ana"}',
 * });
 * assert.equal(await ownerOfBody.resolve(request), "ana");
 * assert.deepEqual(await request.json(), { owner: "ana" });
 * ```
 */
export class AccessSubject<T = unknown> {
  readonly #value: (
    request: Request,
    ctx: AccessSubjectContext,
  ) => T | Promise<T>;
  readonly #selector: ((value: T) => unknown) | undefined;
  readonly #pattern: URLPatternLike | undefined;
  readonly #limits: ResolvedBodyLimits;

  /**
   * Creates an access subject.
   *
   * @param options The `value` function, an optional `selector`, an
   * optional route `pattern` for `ctx.params`, and the body limits of
   * `ctx.json()`.
   * @throws {TypeError} When `value` is not a function, or `pattern` is a
   * string and the runtime has no global `URLPattern`.
   * @throws {RangeError} When a body limit is not a valid number.
   */
  constructor(options: AccessSubjectOptions<T>) {
    const action = "create AccessSubject";
    requireFunction(action, "options.value", options?.value);
    optionalFunction(action, "options.selector", options.selector);
    this.#value = options.value;
    this.#selector = options.selector;
    this.#pattern = toPattern(options.pattern);
    this.#limits = resolveBodyLimits(options, "create AccessSubject");
  }

  /**
   * The pathname pattern of the subject's route, such as `"/posts/:id"`,
   * or `undefined` for a subject without one. A decision log
   * (`PermissionGuard`'s `onDecision`) reports it as the route.
   *
   * @returns The pattern's pathname, or `undefined`.
   *
   * @example Usage
   * ```ts
   * import { AccessSubject } from "@portcullis/portcullis/guard";
   * import assert from "node:assert/strict";
   *
   * assert.equal(AccessSubject.param("id", "/posts/:id").routePattern, "/posts/:id");
   * assert.equal(AccessSubject.header("x-tenant").routePattern, undefined);
   * ```
   */
  get routePattern(): string | undefined {
    const pathname = (this.#pattern as { pathname?: unknown } | undefined)
      ?.pathname;
    return typeof pathname === "string" ? pathname : undefined;
  }

  /**
   * Reads the value from a request and applies the selector.
   *
   * @param request The incoming request; its body stays readable.
   * @returns What the enforcer receives for this argument.
   *
   * @example Usage
   * ```ts
   * import { AccessSubject } from "@portcullis/portcullis/guard";
   * import assert from "node:assert/strict";
   *
   * const tenant = AccessSubject.header("x-tenant");
   * const request = new Request("http://localhost/", {
   *   headers: { "x-tenant": "acme" },
   * });
   * assert.equal(await tenant.resolve(request), "acme");
   * ```
   */
  async resolve(request: Request): Promise<unknown> {
    const value = await this.#value(
      request,
      new RequestContext(request, this.#pattern, this.#limits),
    );
    return this.#selector === undefined ? value : this.#selector(value);
  }

  /**
   * An access subject for a named path parameter of a route pattern. The
   * value is percent-decoded, as handlers and routers decode it
   * (`/docs/%73ecret` gives `secret`, `/docs/1%2F2` gives `1/2`), so the
   * enforcer sees the resource the handler serves; a malformed sequence
   * answers 400 and reaches neither the enforcer nor the handler. When
   * the URL does not match the pattern (a trailing slash or another case
   * than the pattern's, say) or the group is absent, resolving fails with a
   * 404 `HttpError`: the enforcer never sees an `undefined` object, which a
   * deny rule for the real value would not match.
   *
   * @param name The group name, such as `"id"` for `"/posts/:id"`.
   * @param pattern A `URLPattern` or a pathname pattern string.
   * @returns The access subject.
   *
   * @example Usage
   * ```ts
   * import { AccessSubject } from "@portcullis/portcullis/guard";
   * import assert from "node:assert/strict";
   *
   * const team = AccessSubject.param("team", "/teams/:team/posts");
   * const request = new Request("http://localhost/teams/blue/posts");
   * assert.equal(await team.resolve(request), "blue");
   * ```
   */
  static param(
    name: string,
    pattern: URLPatternLike | string,
  ): AccessSubject<string> {
    return new AccessSubject({
      pattern,
      value: (_request, ctx) => {
        const value = ctx.params[name];
        if (value === undefined) throw new HttpError(404, "Not Found");
        return value;
      },
    });
  }

  /**
   * An access subject for a query string parameter; `null` when absent.
   * The value is decoded as `URLSearchParams` decodes it (`%73` is `s`,
   * `+` is a space), the same value a handler reads.
   *
   * @param name The parameter name.
   * @returns The access subject.
   *
   * @example Usage
   * ```ts
   * import { AccessSubject } from "@portcullis/portcullis/guard";
   * import assert from "node:assert/strict";
   *
   * const project = AccessSubject.query("project");
   * const request = new Request("http://localhost/builds?project=docs");
   * assert.equal(await project.resolve(request), "docs");
   * ```
   */
  static query(name: string): AccessSubject<string | null> {
    return new AccessSubject({
      value: (_request, ctx) => ctx.query.get(name),
    });
  }

  /**
   * An access subject for a request header; `null` when absent.
   *
   * @param name The header name (case-insensitive).
   * @returns The access subject.
   *
   * @example Usage
   * ```ts
   * import { AccessSubject } from "@portcullis/portcullis/guard";
   * import assert from "node:assert/strict";
   *
   * const tenant = AccessSubject.header("X-Tenant");
   * const request = new Request("http://localhost/", {
   *   headers: { "x-tenant": "acme" },
   * });
   * assert.equal(await tenant.resolve(request), "acme");
   * ```
   */
  static header(name: string): AccessSubject<string | null> {
    return new AccessSubject({
      value: (request) => request.headers.get(name),
    });
  }

  /**
   * An access subject for the JSON request body, optionally narrowed by a
   * selector. The body is read from a clone and stays readable. A body that
   * is not JSON refuses the request with 400 `{"detail":"Invalid JSON body"}`.
   * The read is bounded: a body over `maxBodyBytes` (1 MiB by default)
   * answers 413, at once when its `Content-Length` says so and otherwise as
   * soon as the count passes the limit, without reading the rest; a body
   * not complete after `bodyTimeoutMs` (5 s by default) answers 408.
   *
   * @param selector Maps the parsed body to the enforcer's argument.
   * @param limits The body's size and time limits.
   * @returns The access subject.
   *
   * @example Usage
   * ```ts
   * import { AccessSubject } from "@portcullis/portcullis/guard";
   * import assert from "node:assert/strict";
   *
   * const category = AccessSubject.body((body) =>
   *   (body as { category?: string }).category
   * );
   * const request = new Request("http://localhost/posts", {
   *   method: "POST",
   *   body: '{"category":"news"}',
   * });
   * assert.equal(await category.resolve(request), "news");
   * ```
   */
  static body(
    selector?: (body: unknown) => unknown,
    limits: BodyLimits = {},
  ): AccessSubject<unknown> {
    const options: AccessSubjectOptions<unknown> = {
      value: (_request, ctx) => ctx.json(),
    };
    if (selector !== undefined) options.selector = selector;
    if (limits.maxBodyBytes !== undefined) {
      options.maxBodyBytes = limits.maxBodyBytes;
    }
    if (limits.bodyTimeoutMs !== undefined) {
      options.bodyTimeoutMs = limits.bodyTimeoutMs;
    }
    return new AccessSubject<unknown>(options);
  }
}

function toPattern(
  pattern: URLPatternLike | string | undefined,
): URLPatternLike | undefined {
  if (pattern === undefined) return undefined;
  if (typeof pattern !== "string") {
    if (typeof pattern?.exec !== "function") {
      throw new TypeError(
        "Cannot create AccessSubject: options.pattern must be a string or a URLPattern",
      );
    }
    return pattern;
  }
  const URLPatternClass = (globalThis as {
    URLPattern?: URLPatternConstructorLike;
  }).URLPattern;
  if (URLPatternClass === undefined) {
    throw new TypeError(
      `Cannot create AccessSubject: this runtime has no global URLPattern for "${pattern}"; load urlpattern-polyfill or pass a URLPattern instance`,
    );
  }
  return new URLPatternClass({ pathname: pattern });
}
