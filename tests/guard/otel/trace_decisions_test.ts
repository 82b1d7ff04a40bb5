import assert from "node:assert/strict";
import { context, SpanStatusCode, trace } from "@opentelemetry/api";
import { AsyncLocalStorageContextManager } from "@opentelemetry/context-async-hooks";
import {
  BasicTracerProvider,
  InMemorySpanExporter,
  SimpleSpanProcessor,
} from "@opentelemetry/sdk-trace-base";
import { AccessSubject } from "../../../src/guard/access_subject.ts";
import { bearerUserProvider } from "../../../src/guard/bearer_user_provider.ts";
import type { EnforcerProvider } from "../../../src/guard/enforcer.ts";
import { PermissionGuard } from "../../../src/guard/permission_guard.ts";
import {
  traceDecisions,
  type TraceDecisionsOptions,
} from "../../../src/guard/otel/trace_decisions.ts";
import { makeEnforcer } from "../../fixtures/guard/casbin.ts";

function tracing(): {
  exporter: InMemorySpanExporter;
  provider: BasicTracerProvider;
} {
  const exporter = new InMemorySpanExporter();
  const provider = new BasicTracerProvider({
    spanProcessors: [new SimpleSpanProcessor(exporter)],
  });
  return { exporter, provider };
}

function guarded(
  enforcerProvider: EnforcerProvider,
  options: TraceDecisionsOptions,
  ...args: unknown[]
): (request: Request) => Response | Promise<Response> {
  const guard = new PermissionGuard({
    userProvider: bearerUserProvider,
    enforcerProvider,
    onDecision: traceDecisions(options),
    onError: () => {},
  });
  return guard.requirePermission(...args)(() => new Response("ok"));
}

const get = (path: string, role: string): Request =>
  new Request(`http://localhost${path}`, {
    headers: { authorization: `Bearer ${role}` },
  });

Deno.test("traceDecisions() records a span per decision with the decision's attributes", async () => {
  const { exporter, provider } = tracing();
  const enforcer = await makeEnforcer();
  const handler = guarded(
    { getEnforcer: () => enforcer, revision: "rev-9" },
    { tracer: provider.getTracer("test") },
    AccessSubject.param("kind", "/:kind/list"),
    "read",
  );
  const before = Date.now();
  await handler(get("/post/list", "viewer"));
  await handler(get("/post/list", "guest"));
  const spans = exporter.getFinishedSpans();
  assert.equal(spans.length, 2);
  const [allowed, denied] = spans;
  assert.equal(allowed!.name, "portcullis.decision");
  assert.match(
    String(allowed!.attributes["portcullis.decision.id"]),
    /^[0-9a-f-]{36}$/,
  );
  assert.deepEqual(
    { ...allowed!.attributes, "portcullis.decision.id": "id" },
    {
      "portcullis.decision.id": "id",
      "portcullis.decision.result": "allow",
      "portcullis.subject": "role=viewer",
      "portcullis.args": ["post", "read"],
      "portcullis.policy.revision": "rev-9",
      "http.request.method": "GET",
      "http.route": "/:kind/list",
      "url.path": "/post/list",
    },
  );
  assert.equal(denied!.attributes["portcullis.decision.result"], "deny");
  assert.equal(
    denied!.status.code,
    SpanStatusCode.UNSET,
    "a denial is no error",
  );
  const startMs = allowed!.startTime[0] * 1000 + allowed!.startTime[1] / 1e6;
  assert.ok(startMs >= before - 1 && startMs <= Date.now());
});

Deno.test("traceDecisions() marks a failed decision as an error", async () => {
  const { exporter, provider } = tracing();
  const handler = guarded(
    () => ({ enforce: () => Promise.reject(new Error("down")) }),
    { tracer: provider.getTracer("test"), spanName: "authz" },
    "post",
    "read",
  );
  assert.equal((await handler(get("/posts", "viewer"))).status, 500);
  const [span] = exporter.getFinishedSpans();
  assert.equal(span?.name, "authz");
  assert.equal(span?.status.code, SpanStatusCode.ERROR);
});

Deno.test("traceDecisions() with rule adds the deciding rule, then ends the span", async () => {
  const { exporter, provider } = tracing();
  const enforcer = await makeEnforcer();
  const handler = guarded(
    () => enforcer,
    {
      tracer: provider.getTracer("test"),
      rule: true,
    },
    "post",
    "write",
  );
  await handler(get("/posts", "editor"));
  for (let i = 0; i < 10 && exporter.getFinishedSpans().length === 0; i++) {
    await new Promise((resolve) => setTimeout(resolve, 1));
  }
  assert.equal(
    exporter.getFinishedSpans()[0]?.attributes["portcullis.decision.rule"],
    "p, editor, post, write",
  );
});

Deno.test("traceDecisions() makes the span a child of the request's span, through the global API", async () => {
  const { exporter, provider } = tracing();
  const manager = new AsyncLocalStorageContextManager().enable();
  context.setGlobalContextManager(manager);
  trace.setGlobalTracerProvider(provider);
  try {
    const handler = guarded(
      () => ({ enforce: () => true }),
      {},
      "post",
      "read",
    );
    const parent = provider.getTracer("server").startSpan("GET /posts");
    await context.with(
      trace.setSpan(context.active(), parent),
      () => handler(get("/posts", "viewer")),
    );
    parent.end();
    const decision = exporter.getFinishedSpans().find((span) =>
      span.name === "portcullis.decision"
    );
    assert.equal(
      decision?.parentSpanContext?.spanId,
      parent.spanContext().spanId,
    );
  } finally {
    trace.disable();
    context.disable();
  }
});

Deno.test("traceDecisions() is a no-op without an SDK", async () => {
  const handler = guarded(() => ({ enforce: () => true }), {}, "post", "read");
  assert.equal(await (await handler(get("/posts", "viewer"))).text(), "ok");
});
