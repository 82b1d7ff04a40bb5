// The types a permission guard is built from and hands out: the user
// provider, the error factory, handlers and the wrappers around them, and
// the guard's options.
import type { DecisionEvent } from "./decision_event.ts";
import type { EnforcerProvider } from "./enforcer.ts";
import type { HttpError } from "./http_error.ts";
import type { User } from "./user.ts";

/**
 * Resolves the user of a request. It refuses a request by throwing an
 * `HttpError` (401 for a missing or bad credential). Any other error, or a
 * `null` / `undefined` result, answers 500. A user provider is a plain
 * request function, usable without a guard.
 *
 * @typeParam U The user type.
 *
 * @example
 * ```ts
 * import { HttpError, type User, type UserProvider } from "@portcullis/portcullis/guard";
 *
 * const fromApiKey: UserProvider<User> = (request) => {
 *   if (request.headers.get("x-api-key") !== "secret") {
 *     throw new HttpError(401, "Unauthorized");
 *   }
 *   return { role: "admin" };
 * };
 * ```
 */
export type UserProvider<U = User> = (request: Request) => U | Promise<U>;

/**
 * Builds the answer to a denied request. It is called as
 * `errorFactory(user, ...args)` with the same arguments the enforcer
 * received, and returns an `HttpError` (sent as JSON) or a `Response`
 * (sent as is). Returning anything else answers 500.
 *
 * @typeParam U The user type.
 *
 * @example A 404 that hides what exists
 * ```ts
 * import { type ErrorFactory, HttpError } from "@portcullis/portcullis/guard";
 *
 * const hide: ErrorFactory = () => new HttpError(404, "Not Found");
 * ```
 */
export type ErrorFactory<U = User> = (
  user: U,
  ...args: unknown[]
) => HttpError | Response | Promise<HttpError | Response>;

/**
 * A web-standard request handler: `(request, ...rest) => Response`, the
 * shape `Deno.serve`, `Bun.serve({ fetch })`, Hono's `c.req.raw` and Node
 * adapters use. `rest` carries whatever the server passes after the request
 * (Deno's `info`, Bun's `server`).
 *
 * @typeParam A The arguments after the request.
 *
 * @example
 * ```ts
 * import type { RequestHandler } from "@portcullis/portcullis/guard";
 *
 * const hello: RequestHandler = () => new Response("hello");
 * ```
 */
export type RequestHandler<A extends unknown[] = unknown[]> = (
  request: Request,
  ...rest: A
) => Response | Promise<Response>;

/**
 * Wraps a handler so that it runs only when the guard lets the request
 * through. The guarded handler keeps the handler's arguments and answers
 * denials itself. Wrappers stack: `outer(inner(handler))` checks `outer`
 * first, and the first denial answers.
 *
 * @example
 * ```ts
 * import { bearerUserProvider, type GuardWrapper, PermissionGuard } from "@portcullis/portcullis/guard";
 *
 * const guard = new PermissionGuard({
 *   userProvider: bearerUserProvider,
 *   enforcerProvider: () => ({ enforce: () => false }),
 * });
 * const signedIn: GuardWrapper = guard.authRequired();
 * const handler = signedIn(() => new Response("hello"));
 * ```
 */
export interface GuardWrapper {
  /**
   * Guards a handler.
   *
   * @typeParam A The handler's arguments after the request.
   * @param handler The handler to protect.
   * @returns The guarded handler.
   */
  <A extends unknown[]>(
    handler: (request: Request, ...rest: A) => Response | Promise<Response>,
  ): (request: Request, ...rest: A) => Response | Promise<Response>;
}

/**
 * The wrapper `requirePermission()` returns: a {@linkcode GuardWrapper}
 * that can also take a route-specific error factory.
 *
 * @typeParam U The user type.
 *
 * @example A per-route denial answer
 * ```ts
 * import { bearerUserProvider, HttpError, PermissionGuard, type PermissionWrapper } from "@portcullis/portcullis/guard";
 * import assert from "node:assert/strict";
 *
 * const guard = new PermissionGuard({
 *   userProvider: bearerUserProvider,
 *   enforcerProvider: () => ({ enforce: () => false }),
 * });
 * const canDelete: PermissionWrapper = guard
 *   .requirePermission("post", "delete")
 *   .withErrorFactory(() => new HttpError(404, "Not Found"));
 * const remove = canDelete(() => new Response(null, { status: 204 }));
 * const response = await remove(new Request("http://localhost/posts/1", {
 *   method: "DELETE",
 *   headers: { authorization: "Bearer viewer" },
 * }));
 * assert.equal(response.status, 404);
 * ```
 */
export interface PermissionWrapper<U = User> extends GuardWrapper {
  /**
   * Returns a wrapper for the same permission that answers denials with
   * this error factory instead of the guard's.
   *
   * @param errorFactory Builds the denial answer for this route.
   * @returns A new wrapper; this one is unchanged.
   */
  withErrorFactory(errorFactory: ErrorFactory<U>): PermissionWrapper<U>;
}

/**
 * Options for {@linkcode PermissionGuard}.
 *
 * @typeParam U The user type.
 *
 * @example
 * ```ts
 * import { bearerUserProvider, type PermissionGuardOptions } from "@portcullis/portcullis/guard";
 *
 * const options: PermissionGuardOptions = {
 *   userProvider: bearerUserProvider,
 *   enforcerProvider: () => ({ enforce: () => false }),
 * };
 * ```
 */
export interface PermissionGuardOptions<U = User> {
  /** Resolves the user of a request, or throws an `HttpError` to refuse it. */
  userProvider: UserProvider<U>;
  /**
   * Supplies the enforcer, asked once per checked request: a function or
   * an object with `getEnforcer()`.
   */
  enforcerProvider: EnforcerProvider;
  /**
   * Builds the answer to a denied request.
   * @default {() => new HttpError(403, "Forbidden")}
   */
  errorFactory?: ErrorFactory<U>;
  /**
   * Receives every unexpected error that made the guard answer 500 (a
   * failing user provider, enforcer provider, access subject, enforcer or
   * error factory). The client only ever sees
   * `{"detail":"Internal Server Error"}`.
   * @default {logs the error with console.error}
   */
  onError?: (error: unknown, request: Request) => void;
  /**
   * Receives a {@linkcode DecisionEvent} for every permission decision
   * (allowed, denied, or failed with a 500): a decision log, an audit
   * trail, a trace span (`@portcullis/portcullis/guard/otel`). It is called
   * once the enforcer has answered and is never awaited; an error it
   * throws, or a promise it returns that rejects, goes to `onError` and
   * never changes the answer. Without it, the guard builds no event (its
   * check gains one comparison).
   * @default {undefined}
   */
  onDecision?: (event: DecisionEvent<U>) => void;
}
