/**
 * Route-level authorization over casbin for web-standard
 * `(Request) => Response` handlers.
 *
 * @example
 * ```ts
 * import { HttpError } from "@portcullis/portcullis/guard";
 * import assert from "node:assert/strict";
 *
 * assert.equal(new HttpError(401, "Unauthorized").toResponse().status, 401);
 * ```
 *
 * @module
 */
export { HttpError, type HttpErrorInit } from "./http_error.ts";
export type { User } from "./user.ts";
export {
  AccessSubject,
  type AccessSubjectContext,
  type AccessSubjectOptions,
  type URLPatternLike,
  type URLPatternMatchLike,
} from "./access_subject.ts";
export { type BodyLimits, readJsonBody } from "./read_json_body.ts";
export {
  type AuthorizationHeader,
  bearerCredentials,
  parseAuthorizationHeader,
} from "./authorization_header.ts";
export { bearerUserProvider } from "./bearer_user_provider.ts";
export type { Enforcer, EnforcerProvider, EnforcerSource } from "./enforcer.ts";
export type { EnforcerProviderOptions } from "./enforcer_provider_options.ts";
export type { DecisionEvent, DecisionRoute } from "./decision_event.ts";
export {
  CachedFileEnforcerProvider,
  type CachedFileEnforcerProviderOptions,
  EnforcerLoadError,
  type EnforcerLoadErrorCode,
  type EnforcerLoadErrorOptions,
  type EnforcerReloadEvent,
} from "./cached_file_enforcer_provider.ts";
export {
  type ErrorFactory,
  type GuardWrapper,
  PermissionGuard,
  type PermissionGuardOptions,
  type PermissionWrapper,
  type RequestHandler,
  type UserProvider,
} from "./permission_guard.ts";
export {
  canonicalRequestKey,
  DecisionCache,
  type DecisionCacheOptions,
} from "./decision_cache.ts";
export {
  type IndexableEnforcer,
  IndexedEnforcer,
  type IndexedEnforcerOptions,
  indexEnforcer,
} from "./indexed_enforcer.ts";
export {
  type JwksOptions,
  type JwtAlgorithm,
  type JwtClaims,
  type JwtClaimsSchema,
  type JwtSchemaResult,
  type JwtUserContext,
  JwtUserProvider,
  type JwtUserProviderOptions,
} from "./jwt_user_provider.ts";
export {
  type JwtErrorCode,
  JwtVerificationError,
} from "./jwt_verification_error.ts";
