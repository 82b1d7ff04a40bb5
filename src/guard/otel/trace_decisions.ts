import { SpanStatusCode, trace } from "@opentelemetry/api";
import type { DecisionEvent } from "../decision_event.ts";

/**
 * The part of an OpenTelemetry span that {@linkcode traceDecisions} uses
 * (an `@opentelemetry/api` `Span` is one).
 *
 * @example
 * ```ts
 * import type { DecisionSpan } from "@portcullis/portcullis/guard/otel";
 *
 * const ignored: DecisionSpan = {
 *   setAttribute: () => undefined,
 *   setStatus: () => undefined,
 *   end: () => {},
 * };
 * ```
 */
export interface DecisionSpan {
  /** Sets one attribute. */
  setAttribute(key: string, value: string): unknown;
  /** Sets the span's status (2 is an error). */
  setStatus(status: { code: number; message?: string }): unknown;
  /** Ends the span at `endTime` (milliseconds since the epoch). */
  end(endTime?: number): void;
}

/**
 * The part of an OpenTelemetry tracer that {@linkcode traceDecisions} uses
 * (an `@opentelemetry/api` `Tracer` is one).
 *
 * @example
 * ```ts
 * import { trace } from "@opentelemetry/api";
 * import type { DecisionTracer } from "@portcullis/portcullis/guard/otel";
 *
 * const tracer: DecisionTracer = trace.getTracer("my-app");
 * ```
 */
export interface DecisionTracer {
  /** Starts a span as a child of the active one. */
  startSpan(
    name: string,
    options: {
      startTime: number;
      attributes: Record<string, string | string[]>;
    },
  ): DecisionSpan;
}

/**
 * Options for {@linkcode traceDecisions}.
 *
 * @example
 * ```ts
 * import type { TraceDecisionsOptions } from "@portcullis/portcullis/guard/otel";
 *
 * const options: TraceDecisionsOptions = { spanName: "authz", rule: true };
 * ```
 */
export interface TraceDecisionsOptions {
  /**
   * The tracer that starts the spans.
   * @default {trace.getTracer("portcullis")}
   */
  tracer?: DecisionTracer;
  /**
   * The name of each span.
   * @default {"portcullis.decision"}
   */
  spanName?: string;
  /**
   * Add the deciding rule (`portcullis.decision.rule`). The rule is found
   * after the answer, by casbin (see `DecisionEvent.decidingRule()`), and
   * the span ends once it is known, with the decision's own end time.
   * @default {false}
   */
  rule?: boolean;
}

/** An argument as a span attribute value: strings as they are, else JSON. */
function attributeValue(value: unknown): string {
  if (typeof value === "string") return value;
  try {
    return JSON.stringify(value) ?? String(value);
  } catch {
    return String(value);
  }
}

/**
 * Returns an `onDecision` hook for `PermissionGuard` that records every
 * decision as an OpenTelemetry span through `@opentelemetry/api`: a child
 * of the span active when the guard decided (the request's server span,
 * with a context manager installed), timed from the start of the guard's
 * check to the decision, with the attributes
 * `portcullis.decision.id`, `portcullis.decision.result`,
 * `portcullis.subject`, `portcullis.args`, `portcullis.policy.revision`,
 * `http.request.method`, `url.path` and, when the route pattern is known,
 * `http.route`. A failed decision sets the span's status to error; a
 * denial is not an error.
 *
 * Without an OpenTelemetry SDK installed by the application, the API is a
 * no-op and so is this hook. The guard's own entry point never loads
 * `@opentelemetry/api`; only this one does.
 *
 * @param options The tracer, the span name, and whether to add the rule.
 * @returns The hook, for `onDecision`.
 *
 * @example Tracing decisions
 * ```ts
 * import { bearerUserProvider, PermissionGuard } from "@portcullis/portcullis/guard";
 * import { traceDecisions } from "@portcullis/portcullis/guard/otel";
 *
 * const guard = new PermissionGuard({
 *   userProvider: bearerUserProvider,
 *   enforcerProvider: () => ({ enforce: () => true }),
 *   onDecision: traceDecisions(),
 * });
 * const handler = guard.requirePermission("post", "read")(() => new Response("ok"));
 * await handler(new Request("http://localhost/posts", {
 *   headers: { authorization: "Bearer viewer" },
 * }));
 * ```
 */
export function traceDecisions<U>(
  options: TraceDecisionsOptions = {},
): (event: DecisionEvent<U>) => void {
  const tracer = options.tracer ?? trace.getTracer("portcullis");
  const spanName = options.spanName ?? "portcullis.decision";
  const withRule = options.rule === true;
  return (event) => {
    const route = event.route;
    const attributes: Record<string, string | string[]> = {
      "portcullis.decision.id": event.id,
      "portcullis.decision.result": event.result,
      "portcullis.subject": event.subject,
      "portcullis.args": event.args.map(attributeValue),
      "http.request.method": route.method,
      "url.path": route.path,
    };
    if (event.revision !== undefined) {
      attributes["portcullis.policy.revision"] = event.revision;
    }
    if (route.pattern !== undefined) attributes["http.route"] = route.pattern;
    const span = tracer.startSpan(spanName, {
      startTime: event.time - event.latencyMs,
      attributes,
    });
    if (event.result === "error") {
      span.setStatus({
        code: SpanStatusCode.ERROR,
        message: "decision failed",
      });
    }
    if (!withRule) {
      span.end(event.time);
      return;
    }
    event.decidingRule().then((rule) => {
      if (rule !== undefined) {
        span.setAttribute("portcullis.decision.rule", rule);
      }
    }).finally(() => span.end(event.time));
  };
}
