// The guard's answers: running the handler, turning HttpErrors and denials
// into responses, the default denial and error log, and resolving access
// subjects. Shared by PermissionGuard's synchronous and asynchronous paths.
import { AccessSubject } from "./access_subject.ts";
import type { ErrorFactory } from "./guard_types.ts";
import { HttpError } from "./http_error.ts";
import { isThenable } from "./_thenable.ts";

/** The default error factory: 403 `{"detail":"Forbidden"}`. */
export const forbidden: ErrorFactory<unknown> = (): HttpError =>
  new HttpError(403, "Forbidden");

export function logError(error: unknown, request: Request): void {
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

/** What one wrapper checks; fixed when the wrapper is built. */
export interface Route<U> {
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
export type Outcome = Response | undefined | Promise<Response | undefined>;

export function runHandler<A extends unknown[]>(
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

export function answerHandlerError(error: unknown): Response {
  if (error instanceof HttpError) return errorResponse(error);
  throw error;
}

/**
 * The answer of an `HttpError`, checked: a subclass whose `toResponse()`
 * returns no `Response`, or an object made without the constructor (status
 * `undefined`, answered as 200), must never pass for an answer.
 */
export function errorResponse(error: HttpError): Response {
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

export function deny<U>(
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

export async function denyLater(
  pending: PromiseLike<unknown>,
): Promise<Response> {
  return toDenial(await pending);
}

export function toDenial(denial: unknown): Response {
  if (denial instanceof HttpError) return errorResponse(denial);
  if (denial instanceof Response) return denial;
  throw new TypeError(
    "Cannot answer denied request: the error factory must return an HttpError or a Response",
  );
}

export async function resolveArgs(
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
