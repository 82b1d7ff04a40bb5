import { optionalFunction, requireFunction } from "./_check_function.ts";
import { AccessSubject } from "./access_subject.ts";
import type { Enforcer, EnforcerProvider } from "./enforcer.ts";
import { HttpError } from "./http_error.ts";
import { DecisionLog } from "./_decision_log.ts";
import { DecisionRecord } from "./_decision_record.ts";
import { isThenable } from "./_thenable.ts";
import type { User } from "./user.ts";
import type {
  ErrorFactory,
  GuardWrapper,
  PermissionGuardOptions,
  PermissionWrapper,
  UserProvider,
} from "./guard_types.ts";
import {
  deny,
  errorResponse,
  forbidden,
  logError,
  type Outcome,
  resolveArgs,
  type Route,
  runHandler,
} from "./_guard_answers.ts";

export type {
  ErrorFactory,
  GuardWrapper,
  PermissionGuardOptions,
  PermissionWrapper,
  RequestHandler,
  UserProvider,
} from "./guard_types.ts";

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
    const action = "create PermissionGuard";
    requireFunction(action, "options.userProvider", options?.userProvider);
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
    for (const name of ["errorFactory", "onError", "onDecision"] as const) {
      optionalFunction(action, `options.${name}`, options[name]);
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
    requireFunction("create permission wrapper", "errorFactory", errorFactory);
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
    requireFunction("guard handler", "handler", handler);
    // Without a decision hook, no record: a request costs nothing for it.
    const logged = this.#log !== undefined && route.args !== undefined;
    return (request, ...rest) => {
      const record = logged
        ? new DecisionRecord<U>(request, route.pattern)
        : undefined;
      let outcome: Outcome;
      try {
        outcome = this.#check(request, route, record);
      } catch (error) {
        return this.#failure(error, request);
      }
      if (outcome === undefined) return runHandler(handler, request, rest);
      if (outcome instanceof Response) return outcome;
      return this.#settle(outcome, handler, request, rest);
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
