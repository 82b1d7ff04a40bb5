import type { IncomingMessage, ServerResponse } from "node:http";
import type { GuardWrapper, PermissionGuard } from "../../guard/mod.ts";
import { toRequest, writeResponse } from "../node/mod.ts";

/**
 * The parts of an Express (or Connect) request the middleware reads:
 * a `node:http` request, with Express's `originalUrl` and a parsed `body`
 * when they exist.
 *
 * @example
 * ```ts
 * import type { ExpressRequestLike } from "@portcullis/portcullis/express";
 *
 * const fields: (keyof ExpressRequestLike)[] = ["originalUrl", "body"];
 * ```
 */
export interface ExpressRequestLike extends IncomingMessage {
  /** The request target before mounted routers shortened `url`. */
  originalUrl?: string;
  /** The body a body parser (e.g. `express.json()`) read, if one ran. */
  body?: unknown;
}

/**
 * The parts of an Express (or Connect) response the middleware uses: a
 * `node:http` response, with Express's `locals` when it exists.
 *
 * @example
 * ```ts
 * import type { ExpressResponseLike } from "@portcullis/portcullis/express";
 *
 * const fields: (keyof ExpressResponseLike)[] = ["locals"];
 * ```
 */
export interface ExpressResponseLike extends ServerResponse {
  /** Per-request values for later middleware; the user is stored here. */
  locals?: Record<string, unknown>;
}

/**
 * Express and Connect middleware: `(req, res, next) => void`.
 *
 * @example
 * ```ts
 * import type { ExpressMiddleware } from "@portcullis/portcullis/express";
 *
 * const noop: ExpressMiddleware = (_req, _res, next) => next();
 * ```
 */
export type ExpressMiddleware = (
  req: ExpressRequestLike,
  res: ExpressResponseLike,
  next: (error?: unknown) => void,
) => void;

/**
 * Options for {@linkcode expressGuard}.
 *
 * @example
 * ```ts
 * import type { ExpressGuardOptions } from "@portcullis/portcullis/express";
 *
 * const options: ExpressGuardOptions = { local: "account" };
 * ```
 */
export interface ExpressGuardOptions {
  /**
   * The key of `res.locals` the resolved user is stored under.
   * @default {"user"}
   */
  local?: string;
  /**
   * The scheme and host of the request URL the guard sees, instead of the
   * `Host` header.
   * @default {undefined}
   */
  origin?: string;
}

/**
 * Turns guard wrappers into Express 5 (or Connect) middleware, for the
 * many existing `node:http` applications. The middleware builds a
 * `Request` from `req` (with `req.originalUrl`, so mounted routers see the
 * whole path) and runs the wrapper on it: a refused request is answered by
 * the guard and the chain stops; an allowed one stores the user in
 * `res.locals.user` and calls `next()`.
 *
 * The body is not read unless the guard reads it (an `AccessSubject` on the
 * JSON body). When a body parser ran before the middleware, the guard sees
 * `req.body` (objects as JSON); otherwise it reads the stream, and body
 * parsers after the middleware then find it consumed: put `express.json()`
 * before the guard on routes whose permission depends on the body.
 *
 * @param guard The guard whose wrappers are turned into middleware; its
 * `getUser()` gives the user to store.
 * @param options Where to store the user, and the request origin.
 * @returns A function from a guard wrapper to Express middleware.
 *
 * @example Usage
 * ```ts ignore
 * import express from "express";
 * import { bearerUserProvider, PermissionGuard } from "@portcullis/portcullis/guard";
 * import { expressGuard } from "@portcullis/portcullis/express";
 *
 * const guard = new PermissionGuard({
 *   userProvider: bearerUserProvider,
 *   enforcerProvider: () => ({ enforce: (user: { role?: string }) => user.role === "editor" }),
 * });
 * const allow = expressGuard(guard);
 * const app = express();
 * app.post("/posts", allow(guard.requirePermission("post", "write")), (_req, res) => {
 *   res.status(201).json({ author: res.locals.user.role });
 * });
 * app.listen(3000, "127.0.0.1");
 * ```
 */
export function expressGuard<U>(
  guard: Pick<PermissionGuard<U>, "getUser">,
  options: ExpressGuardOptions = {},
): (wrapper: GuardWrapper) => ExpressMiddleware {
  if (typeof guard?.getUser !== "function") {
    throw new TypeError(
      "Cannot create Express guard: guard must have getUser()",
    );
  }
  const local = options.local ?? "user";
  const origin = options.origin;
  return (wrapper) => {
    if (typeof wrapper !== "function") {
      throw new TypeError(
        "Cannot create Express middleware: wrapper must be a guard wrapper",
      );
    }
    return (req, res, next) => {
      let request: Request;
      try {
        request = toRequest(req, {
          ...(origin === undefined ? {} : { origin }),
          ...(req.originalUrl === undefined ? {} : { target: req.originalUrl }),
          ...parsedBody(req),
        });
      } catch {
        badRequest(res);
        return;
      }
      let user: { value: U } | undefined;
      const guarded = wrapper((request) => {
        user = { value: guard.getUser(request) };
        return new Response(null, { status: 204 });
      });
      Promise.resolve(guarded(request)).then(async (response) => {
        if (user === undefined) return await writeResponse(response, res);
        (res.locals ??= {})[local] = user.value;
        next();
      }).catch(next);
    };
  };
}

/** The body option for a request whose body a parser already read. */
function parsedBody(req: ExpressRequestLike): { body?: BodyInit } {
  const body = req.body;
  if (body === undefined || body === null) return {};
  if (typeof body === "string" || body instanceof Uint8Array) {
    return { body: body as BodyInit };
  }
  return { body: JSON.stringify(body) };
}

function badRequest(res: ServerResponse): void {
  const body = '{"detail":"Bad Request"}';
  res.writeHead(400, {
    "content-type": "application/json",
    "content-length": String(body.length),
  });
  res.end(body);
}
