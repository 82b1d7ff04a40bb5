/**
 * OpenTelemetry for the guard: an `onDecision` hook that records each
 * permission decision as a span, through `@opentelemetry/api` (a no-op
 * unless the application installs an OpenTelemetry SDK). A separate entry
 * point, so that the guard itself never loads the API.
 *
 * @example
 * ```ts
 * import { bearerUserProvider, PermissionGuard } from "@portcullis/portcullis/guard";
 * import { traceDecisions } from "@portcullis/portcullis/guard/otel";
 *
 * const guard = new PermissionGuard({
 *   userProvider: bearerUserProvider,
 *   enforcerProvider: () => ({ enforce: () => false }),
 *   onDecision: traceDecisions({ rule: true }),
 * });
 * ```
 *
 * @module
 */
export {
  type DecisionSpan,
  type DecisionTracer,
  traceDecisions,
  type TraceDecisionsOptions,
} from "./trace_decisions.ts";
