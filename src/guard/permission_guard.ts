import { AccessSubject } from "./access_subject.ts";
import type { DecisionEvent } from "./decision_event.ts";
import type { Enforcer, EnforcerProvider } from "./enforcer.ts";
import { HttpError } from "./http_error.ts";
import { DecisionLog } from "./_decision_log.ts";
import { DecisionRecord } from "./_decision_record.ts";
import { isThenable } from "./_thenable.ts";
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

const forbidden: ErrorFactory<unknown> = () => new HttpError(403, "Forbidden");

function logError(error: unknown, request: Request): void {
  // The path only: a query string may carry credentials.
  let path = "";
  try {
    path = new URL(request.url).pathname;
  } catch {
    // keep the log line without a path
  }
  // deno-lint-ignore no-console
  console.error(
    `portcullis: answered 500 to ${request.method} ${path}:`,
    error,
  );
}

/**
 * Protects web-standard request handlers with a user provider and a casbin
 * (or any) enforcer. `authRequired()` only requires a user;
 * `requirePermission(...args)` also asks the enforcer
 * `enforce(user, ...args)` and lets the request through only when the answer
 * is exactly `true`.
 *
 * It fails closed: an `HttpError` thrown by the user provider, an access
 * subject or the error factory becomes its JSON answer, and any other error
 * on the way to a decision answers 500 `{"detail":"Internal Server Error"}`
 * (passed to `onError`, never to the client). The handler never runs in
 * either case. An `HttpError` thrown by the handler itself also becomes its
 * JSON answer; other handler errors propagate to the server.
 *
 * The user is resolved once per request, however many wrappers are stacked,
 * and the handler reads it with `guard.getUser(request)`.
 *
 * @typeParam U The user type the user provider returns.
 *
 * @example With casbin and Deno.serve
 * ```ts
 * import { bearerUserProvider, PermissionGuard } from "@portcullis/portcullis/guard";
 * import { newEnforcer, newModelFromString, StringAdapter } from "casbin";
 * import assert from "node:assert/strict";
 *
 * const model = newModelFromString(`
 * [request_definition]
 * r = sub, obj, act
 * [policy_definition]
 * p = sub, obj, act
 * [policy_effect]
 * e = some(where (p.eft == allow))
 * [matchers]
 * m = r.obj == p.obj && r.sub.role == p.sub && r.act == p.act
 * `);
 * const enforcer = await newEnforcer(
 *   model,
 *   new StringAdapter("p, editor, post, write"),
 * );
 * const guard = new PermissionGuard({
 *   userProvider: bearerUserProvider,
 *   enforcerProvider: () => enforcer,
 * });
 * const createPost = guard.requirePermission("post", "write")(
 *   (request) => Response.json({ author: guard.getUser(request).role }, { status: 201 }),
 * );
 * // Deno.serve(createPost);
 *
 * const asEditor = await createPost(new Request("http://localhost/posts", {
 *   method: "POST",
 *   headers: { authorization: "Bearer editor" },
 * }));
 * assert.equal(asEditor.status, 201);
 * assert.deepEqual(await asEditor.json(), { author: "editor" });
 *
 * const asViewer = await createPost(new Request("http://localhost/posts", {
 *   method: "POST",
 *   headers: { authorization: "Bearer viewer" },
 * }));
 * assert.equal(asViewer.status, 403);
 * assert.deepEqual(await asViewer.json(), { detail: "Forbidden" });
 * ```
 */
export class PermissionGuard<U = User> {
  readonly #userProvider: UserProvider<U>;
  readonly #enforcerProvider: EnforcerProvider;
  readonly #errorFactory: ErrorFactory<U>;
  readonly #onError: (error: unknown, request: Request) => void;
  readonly #log: DecisionLog<U> | undefined;
  // The user resolved for a request: stored on the request under a symbol
  // only this guard holds (a property store costs a fraction of a WeakMap
  // entry, which also burdens every garbage collection), or in a WeakMap
  // for a request that cannot take a property (frozen, sealed).
  readonly #userKey: symbol = Symbol("portcullis.user");
  readonly #users = new WeakMap<Request, U>();
  // Whether #users ever held a user: until a frozen request comes by, a
  // request without the symbol property needs no WeakMap lookup.
  #usersUsed = false;

  /**
   * Creates a guard.
   *
   * @param options The user provider, the enforcer provider, and optionally
   * the error factory and the error hook.
   * @throws {TypeError} When a provider or hook has the wrong shape.
   */
  constructor(options: PermissionGuardOptions<U>) {
    if (typeof options?.userProvider !== "function") {
      throw new TypeError(
        "Cannot create PermissionGuard: options.userProvider must be a function",
      );
    }
    const enforcerProvider = options.enforcerProvider;
    if (
      typeof enforcerProvider !== "function" &&
      typeof (enforcerProvider as { getEnforcer?: unknown } | undefined)
          ?.getEnforcer !== "function"
    ) {
      throw new TypeError(
        "Cannot create PermissionGuard: options.enforcerProvider must be a function or an object with getEnforcer()",
      );
    }
    if (
      options.errorFactory !== undefined &&
      typeof options.errorFactory !== "function"
    ) {
      throw new TypeError(
        "Cannot create PermissionGuard: options.errorFactory must be a function",
      );
    }
    if (
      options.onError !== undefined && typeof options.onError !== "function"
    ) {
      throw new TypeError(
        "Cannot create PermissionGuard: options.onError must be a function",
      );
    }
    if (
      options.onDecision !== undefined &&
      typeof options.onDecision !== "function"
    ) {
      throw new TypeError(
        "Cannot create PermissionGuard: options.onDecision must be a function",
      );
    }
    this.#userProvider = options.userProvider;
    this.#enforcerProvider = enforcerProvider;
    this.#errorFactory = options.errorFactory ?? forbidden;
    this.#onError = options.onError ?? logError;
    this.#log = options.onDecision === undefined
      ? undefined
      : new DecisionLog(options.onDecision, this.#onError);
  }

  /**
   * Returns a wrapper that lets a request through when the user provider
   * resolves a user; no permission is checked.
   *
   * @returns The wrapper.
   *
   * @example Usage
   * ```ts
   * import { bearerUserProvider, PermissionGuard } from "@portcullis/portcullis/guard";
   * import assert from "node:assert/strict";
   *
   * const guard = new PermissionGuard({
   *   userProvider: bearerUserProvider,
   *   enforcerProvider: () => ({ enforce: () => false }),
   * });
   * const me = guard.authRequired()((request) => Response.json(guard.getUser(request)));
   *
   * const response = await me(new Request("http://localhost/me", {
   *   headers: { authorization: "Bearer viewer" },
   * }));
   * assert.deepEqual(await response.json(), { role: "viewer" });
   * assert.equal((await me(new Request("http://localhost/me"))).status, 401);
   * ```
   */
  authRequired(): GuardWrapper {
    const route: Route<U> = {
      args: undefined,
      hasSubjects: false,
      errorFactory: undefined,
      pattern: undefined,
    };
    return (handler) => this.#wrap(handler, route);
  }

  /**
   * Returns a wrapper that lets a request through when
   * `enforcer.enforce(user, ...args)` is exactly `true`. Each
   * {@linkcode AccessSubject} among `args` is replaced by its value for the
   * request; other arguments are passed as they are. A denial answers with
   * the error factory (default 403 `{"detail":"Forbidden"}`); call
   * `.withErrorFactory()` on the wrapper for a route-specific answer.
   *
   * @param args The enforcer's arguments after the user, such as the object
   * and the action.
   * @returns The wrapper.
   *
   * @example With a path parameter
   * ```ts
   * import { AccessSubject, bearerUserProvider, PermissionGuard } from "@portcullis/portcullis/guard";
   * import assert from "node:assert/strict";
   *
   * const guard = new PermissionGuard({
   *   userProvider: bearerUserProvider,
   *   enforcerProvider: () => ({
   *     enforce: (user: unknown, board: unknown, action: unknown) =>
   *       (user as { role?: string }).role === `${board}-admin` && action === "close",
   *   }),
   * });
   * const close = guard.requirePermission(
   *   AccessSubject.param("board", "/boards/:board/close"),
   *   "close",
   * )(() => new Response("closed"));
   *
   * const allowed = await close(new Request("http://localhost/boards/ops/close", {
   *   method: "POST",
   *   headers: { authorization: "Bearer ops-admin" },
   * }));
   * assert.equal(await allowed.text(), "closed");
   * const denied = await close(new Request("http://localhost/boards/hr/close", {
   *   method: "POST",
   *   headers: { authorization: "Bearer ops-admin" },
   * }));
   * assert.equal(denied.status, 403);
   * ```
   */
  requirePermission(...args: unknown[]): PermissionWrapper<U> {
    return this.#permissionWrapper(args.slice(), this.#errorFactory);
  }

  /**
   * Returns the user resolved for a request by one of this guard's
   * wrappers, without resolving it again. Call it from a guarded handler.
   *
   * @param request The request the guarded handler received.
   * @returns The resolved user.
   * @throws {TypeError} When the request did not pass through a wrapper of
   * this guard.
   *
   * @example Usage
   * ```ts
   * import { bearerUserProvider, PermissionGuard } from "@portcullis/portcullis/guard";
   * import assert from "node:assert/strict";
   *
   * const guard = new PermissionGuard({
   *   userProvider: bearerUserProvider,
   *   enforcerProvider: () => ({ enforce: () => true }),
   * });
   * const whoAmI = guard.authRequired()((request) =>
   *   new Response(guard.getUser(request).role)
   * );
   * const response = await whoAmI(new Request("http://localhost/", {
   *   headers: { authorization: "Bearer admin" },
   * }));
   * assert.equal(await response.text(), "admin");
   * ```
   */
  getUser(request: Request): U {
    const user = this.#known(request);
    if (user === undefined) {
      throw new TypeError(
        "Cannot get user: the request did not pass through a wrapper of this guard",
      );
    }
    return user;
  }

  #permissionWrapper(
    args: unknown[],
    errorFactory: ErrorFactory<U>,
  ): PermissionWrapper<U> {
    if (typeof errorFactory !== "function") {
      throw new TypeError(
        "Cannot create permission wrapper: errorFactory must be a function",
      );
    }
    const route: Route<U> = {
      args,
      hasSubjects: args.some((arg) => arg instanceof AccessSubject),
      errorFactory,
      pattern: args.find((arg): arg is AccessSubject =>
        arg instanceof AccessSubject && arg.routePattern !== undefined
      )?.routePattern,
    };
    const wrapper: GuardWrapper = (handler) => this.#wrap(handler, route);
    return Object.assign(wrapper, {
      withErrorFactory: (factory: ErrorFactory<U>): PermissionWrapper<U> =>
        this.#permissionWrapper(args, factory),
    });
  }

  // The request path. Every step runs synchronously as long as the values
  // it gets are not thenables (a bearer user, a cached enforcer, an indexed
  // decision), so an allowed request costs no promise: a synchronous
  // handler's Response (or a denial) is returned as it is, which servers
  // such as Deno.serve answer faster than a promise. The first thenable
  // moves the rest of the check to an async continuation. Both paths take the same steps in the same order, and any
  // throw or rejection on the way to the decision becomes the same answer.

  #wrap<A extends unknown[]>(
    handler: (request: Request, ...rest: A) => Response | Promise<Response>,
    route: Route<U>,
  ): (request: Request, ...rest: A) => Response | Promise<Response> {
    if (typeof handler !== "function") {
      throw new TypeError("Cannot guard handler: handler must be a function");
    }
    if (this.#log !== undefined && route.args !== undefined) {
      return this.#wrapLogged(handler, route);
    }
    return (request, ...rest) => {
      let outcome: Outcome;
      try {
        outcome = this.#check(request, route, undefined);
      } catch (error) {
        return this.#failure(error, request);
      }
      if (outcome === undefined) return runHandler(handler, request, rest);
      if (outcome instanceof Response) return outcome;
      return this.#settle(outcome, handler, request, rest);
    };
  }

  /** The request path of a guard with a decision hook. */
  #wrapLogged<A extends unknown[]>(
    handler: (request: Request, ...rest: A) => Response | Promise<Response>,
    route: Route<U>,
  ): (request: Request, ...rest: A) => Response | Promise<Response> {
    return (request, ...rest) => {
      const record = new DecisionRecord<U>(request, route.pattern);
      let outcome: Outcome;
      try {
        outcome = this.#check(request, route, record);
      } catch (error) {
        return this.#failure(error, request);
      }
      if (outcome === undefined) return runHandler(handler, request, rest);
      return outcome instanceof Response
        ? outcome
        : this.#settle(outcome, handler, request, rest);
    };
  }

  /** Finishes a check that went asynchronous, then runs the handler. */
  async #settle<A extends unknown[]>(
    pending: Promise<Response | undefined>,
    handler: (request: Request, ...rest: A) => Response | Promise<Response>,
    request: Request,
    rest: A,
  ): Promise<Response> {
    let denial: Response | undefined;
    try {
      denial = await pending;
    } catch (error) {
      denial = this.#failure(error, request);
    }
    if (denial !== undefined) return denial;
    return await runHandler(handler, request, rest);
  }

  /**
   * Returns the denial answer, or `undefined` to let the request through,
   * or a promise of either once a step answered with a thenable.
   */
  #check(
    request: Request,
    route: Route<U>,
    record: DecisionRecord<U> | undefined,
  ): Outcome {
    let user = this.#known(request);
    if (user === undefined) {
      const provided = this.#userProvider(request);
      if (isThenable(provided)) {
        return this.#checkLater(request, route, provided, record);
      }
      user = this.#remember(request, provided);
    }
    const args = route.args;
    if (args === undefined) return undefined;
    if (route.hasSubjects) {
      return this.#checkSubjects(request, route, user, record);
    }
    return this.#decide(route, user, args, record);
  }

  async #checkLater(
    request: Request,
    route: Route<U>,
    pending: PromiseLike<U>,
    record: DecisionRecord<U> | undefined,
  ): Promise<Response | undefined> {
    const user = this.#remember(request, await pending);
    const args = route.args;
    if (args === undefined) return undefined;
    const values = route.hasSubjects ? await resolveArgs(args, request) : args;
    return await this.#decide(route, user, values, record);
  }

  async #checkSubjects(
    request: Request,
    route: Route<U>,
    user: U,
    record: DecisionRecord<U> | undefined,
  ): Promise<Response | undefined> {
    const values = await resolveArgs(route.args!, request);
    return await this.#decide(route, user, values, record);
  }

  #remember(request: Request, user: U): U {
    // Any falsy user (null, undefined, false, 0, "", NaN) is refused: a slip
    // such as `return token && decode(token)` must not sign anyone in.
    if (!user) {
      throw new TypeError(
        `Cannot resolve user: the user provider returned ${
          typeof user === "string" ? '""' : String(user)
        }`,
      );
    }
    if (Object.isExtensible(request)) {
      (request as unknown as Record<symbol, U>)[this.#userKey] = user;
    } else {
      this.#usersUsed = true;
      this.#users.set(request, user);
    }
    return user;
  }

  #known(request: Request): U | undefined {
    return (request as unknown as Record<symbol, U | undefined>)[
      this.#userKey
    ] ?? (this.#usersUsed ? this.#users.get(request) : undefined);
  }

  #decide(
    route: Route<U>,
    user: U,
    values: readonly unknown[],
    record: DecisionRecord<U> | undefined,
  ): Outcome {
    if (record !== undefined) {
      const allowed = this.#log!.decide(
        this.#enforcerProvider,
        user,
        values,
        record,
      );
      if (allowed === true) return undefined;
      if (isThenable(allowed)) {
        return this.#enforceLater(route, user, values, allowed);
      }
      return deny(route.errorFactory!, user, values);
    }
    const provider = this.#enforcerProvider;
    const enforcer = typeof provider === "function"
      ? provider()
      : provider.getEnforcer();
    if (isThenable(enforcer)) {
      return this.#decideLater(route, user, values, enforcer);
    }
    return this.#enforce(route, user, values, enforcer);
  }

  async #decideLater(
    route: Route<U>,
    user: U,
    values: readonly unknown[],
    pending: PromiseLike<Enforcer>,
  ): Promise<Response | undefined> {
    return await this.#enforce(route, user, values, await pending);
  }

  #enforce(
    route: Route<U>,
    user: U,
    values: readonly unknown[],
    enforcer: Enforcer,
  ): Outcome {
    if (typeof enforcer?.enforce !== "function") {
      throw new TypeError(
        "Cannot check permission: the enforcer provider returned no enforcer",
      );
    }
    const allowed: unknown = enforcer.enforce(user, ...values);
    if (allowed === true) return undefined;
    if (isThenable(allowed)) {
      return this.#enforceLater(route, user, values, allowed);
    }
    return deny(route.errorFactory!, user, values);
  }

  async #enforceLater(
    route: Route<U>,
    user: U,
    values: readonly unknown[],
    pending: PromiseLike<unknown>,
  ): Promise<Response | undefined> {
    if ((await pending) === true) return undefined;
    return await deny(route.errorFactory!, user, values);
  }

  #failure(error: unknown, request: Request): Response {
    try {
      // `instanceof` itself can throw (a Proxy's getPrototypeOf trap).
      if (error instanceof HttpError) return errorResponse(error);
    } catch (cause) {
      error = cause;
    }
    try {
      this.#onError(error, request);
    } catch {
      // A failing hook must not change the answer.
    }
    return new HttpError(500, "Internal Server Error").toResponse();
  }
}

/** What one wrapper checks; fixed when the wrapper is built. */
interface Route<U> {
  /** The enforcer's arguments after the user; `undefined`: no check. */
  readonly args: readonly unknown[] | undefined;
  /** Whether `args` holds an `AccessSubject` to resolve per request. */
  readonly hasSubjects: boolean;
  /** Builds the denial answer; set whenever `args` is. */
  readonly errorFactory: ErrorFactory<U> | undefined;
  /** The route pattern of the first `AccessSubject` that has one. */
  readonly pattern: string | undefined;
}

/** A check's answer: a denial, `undefined` to let through, or a promise. */
type Outcome = Response | undefined | Promise<Response | undefined>;

function runHandler<A extends unknown[]>(
  handler: (request: Request, ...rest: A) => Response | Promise<Response>,
  request: Request,
  rest: A,
): Response | Promise<Response> {
  let result: Response | Promise<Response>;
  try {
    result = handler(request, ...rest);
  } catch (error) {
    if (error instanceof HttpError) {
      try {
        return errorResponse(error);
      } catch (cause) {
        return Promise.reject(cause);
      }
    }
    return Promise.reject(error);
  }
  if (result instanceof Response || !isThenable(result)) return result;
  return Promise.resolve(result).then(undefined, answerHandlerError);
}

function answerHandlerError(error: unknown): Response {
  if (error instanceof HttpError) return errorResponse(error);
  throw error;
}

/**
 * The answer of an `HttpError`, checked: a subclass whose `toResponse()`
 * returns no `Response`, or an object made without the constructor (status
 * `undefined`, answered as 200), must never pass for an answer.
 */
function errorResponse(error: HttpError): Response {
  const response = error.toResponse();
  if (!(response instanceof Response) || response.status < 400) {
    throw new TypeError(
      "Cannot answer: HttpError.toResponse() must return a Response with an error status",
    );
  }
  return response;
}

// The default denial, built without an Error object and its stack trace;
// the same answer as `new HttpError(403, "Forbidden").toResponse()`.
const FORBIDDEN_BODY = '{"detail":"Forbidden"}';

function deny<U>(
  errorFactory: ErrorFactory<U>,
  user: U,
  values: readonly unknown[],
): Response | Promise<Response> {
  if (errorFactory === forbidden) {
    return new Response(FORBIDDEN_BODY, {
      status: 403,
      headers: { "content-type": "application/json" },
    });
  }
  const denial = errorFactory(user, ...values);
  return isThenable(denial) ? denyLater(denial) : toDenial(denial);
}

async function denyLater(pending: PromiseLike<unknown>): Promise<Response> {
  return toDenial(await pending);
}

function toDenial(denial: unknown): Response {
  if (denial instanceof HttpError) return errorResponse(denial);
  if (denial instanceof Response) return denial;
  throw new TypeError(
    "Cannot answer denied request: the error factory must return an HttpError or a Response",
  );
}

async function resolveArgs(
  args: readonly unknown[],
  request: Request,
): Promise<unknown[]> {
  const values = new Array<unknown>(args.length);
  for (let i = 0; i < args.length; i++) {
    const arg = args[i];
    values[i] = arg instanceof AccessSubject ? await arg.resolve(request) : arg;
  }
  return values;
}
