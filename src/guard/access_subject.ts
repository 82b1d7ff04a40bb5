import { HttpError } from "./http_error.ts";
import { requestJson, requestUrl } from "./_request_data.ts";

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
   * The named path groups matched by the subject's `pattern`; empty when the
   * subject has no pattern or the URL does not match it.
   */
  readonly params: Readonly<Record<string, string | undefined>>;
  /**
   * Parses the request body as JSON from a clone, so the handler can still
   * read the body. Rejects with `HttpError(400, "Invalid JSON body")` when
   * the body is not JSON.
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
export interface AccessSubjectOptions<T> {
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

class RequestContext implements AccessSubjectContext {
  readonly #request: Request;
  readonly #pattern: URLPatternLike | undefined;

  constructor(request: Request, pattern: URLPatternLike | undefined) {
    this.#request = request;
    this.#pattern = pattern;
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
    if (this.#pattern === undefined) return EMPTY_PARAMS;
    const match = this.#pattern.exec(requestUrl(this.#request).href);
    return match?.pathname.groups ?? EMPTY_PARAMS;
  }

  json(): Promise<unknown> {
    return requestJson(this.#request);
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

  /**
   * Creates an access subject.
   *
   * @param options The `value` function, an optional `selector` and an
   * optional route `pattern` for `ctx.params`.
   * @throws {TypeError} When `value` is not a function, or `pattern` is a
   * string and the runtime has no global `URLPattern`.
   */
  constructor(options: AccessSubjectOptions<T>) {
    if (typeof options?.value !== "function") {
      throw new TypeError(
        "Cannot create AccessSubject: options.value must be a function",
      );
    }
    if (
      options.selector !== undefined && typeof options.selector !== "function"
    ) {
      throw new TypeError(
        "Cannot create AccessSubject: options.selector must be a function",
      );
    }
    this.#value = options.value;
    this.#selector = options.selector;
    this.#pattern = toPattern(options.pattern);
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
      new RequestContext(request, this.#pattern),
    );
    return this.#selector === undefined ? value : this.#selector(value);
  }

  /**
   * An access subject for a named path parameter of a route pattern. When
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
   *
   * @param selector Maps the parsed body to the enforcer's argument.
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
  static body(selector?: (body: unknown) => unknown): AccessSubject<unknown> {
    return new AccessSubject<unknown>(
      selector === undefined
        ? { value: (_request, ctx) => ctx.json() }
        : { value: (_request, ctx) => ctx.json(), selector },
    );
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
