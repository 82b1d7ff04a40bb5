// The bridge between the guard and the boundary graph: guarded routes
// described as server ports that carry their required permission.
import type { BoundaryRef } from "../boundary/types.ts";
import { httpBoundaryKey } from "../boundary/http_path.ts";

/**
 * One guarded route: the method, the URLPattern pathname it answers, and
 * the object and action the guard requires for it.
 *
 * @example
 * ```ts
 * import type { GuardedRoute } from "@portcullis/portcullis/extract";
 *
 * const route: GuardedRoute = {
 *   method: "DELETE",
 *   pattern: "/posts/:id",
 *   object: "post",
 *   action: "delete",
 * };
 * ```
 */
export interface GuardedRoute {
  /** HTTP method (`GET`, `post`...), `ANY` for every method. */
  method: string;
  /**
   * The route's pathname pattern (URLPattern syntax), or an object with a
   * `pathname`, such as a `URLPattern`.
   */
  pattern: string | { readonly pathname: string };
  /** The object the guard asks the enforcer about (`post`). */
  object: string;
  /** The action the guard asks the enforcer about (`read`). */
  action: string;
  /**
   * Where the route is declared, for reports.
   * @default {1}
   */
  line?: number;
  /**
   * Column of the declaration.
   * @default {1}
   */
  col?: number;
}

/**
 * Options for {@linkcode describeGuardedRoutes}.
 *
 * @example
 * ```ts
 * import type { DescribeGuardedRoutesOptions } from "@portcullis/portcullis/extract";
 *
 * const options: DescribeGuardedRoutesOptions = { framework: "hono" };
 * ```
 */
export interface DescribeGuardedRoutesOptions {
  /**
   * The `framework` written to each port's `detail`.
   * @default {"portcullis"}
   */
  framework?: string;
}

/**
 * Describes guarded routes as server `BoundaryRef`s, with the permission
 * each one requires in `detail` (`object`, `action` and
 * `permission: "<object>:<action>"`), so a linked graph shows which
 * permission every call to the service needs. Add them to a graph with
 * `addBoundary`.
 *
 * @param routes The guarded routes.
 * @param options Framework name written to `detail`.
 * @returns One server port per route, in order, confidence 1.
 * @throws {TypeError} If a route has an empty object or action, or a
 *   pattern that does not start with `/`.
 * @throws {SyntaxError} If a method is not an HTTP method token.
 *
 * @example Usage
 * ```ts
 * import { describeGuardedRoutes } from "@portcullis/portcullis/extract";
 * import assert from "node:assert/strict";
 *
 * const [port] = describeGuardedRoutes([
 *   { method: "GET", pattern: "/posts/:id", object: "post", action: "read" },
 * ]);
 * assert.equal(port?.key, "GET /posts/{}");
 * assert.equal(port?.role, "server");
 * assert.equal(port?.detail.permission, "post:read");
 * ```
 */
export function describeGuardedRoutes(
  routes: readonly GuardedRoute[],
  options: DescribeGuardedRoutesOptions = {},
): BoundaryRef[] {
  const framework = options.framework ?? "portcullis";
  return routes.map((route, index) => {
    const pathname = typeof route.pattern === "string"
      ? route.pattern
      : route.pattern?.pathname;
    if (typeof pathname !== "string" || !pathname.startsWith("/")) {
      throw new TypeError(
        `Cannot describe guarded route ${index}: pattern must start with "/"`,
      );
    }
    if (typeof route.object !== "string" || route.object === "") {
      throw new TypeError(
        `Cannot describe guarded route ${index}: object must be a non-empty string`,
      );
    }
    if (typeof route.action !== "string" || route.action === "") {
      throw new TypeError(
        `Cannot describe guarded route ${index}: action must be a non-empty string`,
      );
    }
    const key = httpBoundaryKey(route.method, pathname);
    const method = key.slice(0, key.indexOf(" "));
    return {
      mechanism: "http",
      role: "server",
      key,
      line: positive(route.line),
      col: positive(route.col),
      confidence: 1,
      detail: {
        method,
        path: pathname,
        framework,
        object: route.object,
        action: route.action,
        permission: `${route.object}:${route.action}`,
      },
    };
  });
}

function positive(value: number | undefined): number {
  return typeof value === "number" && Number.isInteger(value) && value >= 1
    ? value
    : 1;
}
