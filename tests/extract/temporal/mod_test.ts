import assert from "node:assert/strict";
import { temporalExtractor } from "../../../src/extract/temporal/mod.ts";
import type { SourceFile } from "../../../src/extract/extractor.ts";
import { scan } from "../../../src/extract/scan.ts";
import {
  assertRobust,
  fixturePath,
  loadFixture,
  portSummary as summary,
} from "../_fixtures.ts";

function load(dir: string): Promise<SourceFile[]> {
  return loadFixture(`temporal/${dir}`, temporalExtractor.accepts);
}

Deno.test("temporalExtractor pairs Python activity definitions and workflow calls by registered name", async () => {
  const { ports } = await temporalExtractor.extract(await load("python"));
  assert.deepEqual(summary(ports), [
    "activities.py:4 server charge_card 1",
    "activities.py:9 server send_receipt 1",
    "workflows.py:13 client charge_card 1",
    "workflows.py:14 client send_receipt 1",
    "workflows.py:15 client ship_order 1",
  ]);
  const charge = ports.find((p) => p.ref.role === "server");
  assert.equal(charge?.ref.mechanism, "temporal");
  assert.equal(charge?.owner.qualifiedName, "activities.py::charge");
});

Deno.test("temporalExtractor reads Go worker registrations (functions, structs of any package, options) and ExecuteActivity", async () => {
  const { ports } = await temporalExtractor.extract(await load("go"));
  assert.deepEqual(summary(ports), [
    "worker.go:23 server workflow:OrderWorkflow 1",
    "worker.go:24 server Notify 1",
    "worker.go:25 server ShipOrder 1",
    "worker.go:26 server notify_v2 1",
    "worker.go:27 server Invoice 1",
    "workflow.go:12 client charge_card 1",
    "workflow.go:13 client Notify 1",
    "workflow.go:14 client ShipOrder 1",
  ]);
});

Deno.test("temporalExtractor reads TypeScript worker activities modules and proxyActivities calls", async () => {
  const { ports } = await temporalExtractor.extract(await load("ts"));
  assert.deepEqual(summary(ports), [
    "src/activities.ts:1 server reserveStock 1",
    "src/activities.ts:5 server releaseStock 1",
    "src/workflows.ts:10 client releaseStock 1",
    "src/workflows.ts:9 client reserveStock 1",
  ]);
});

Deno.test("temporalExtractor reads activities returned by a factory passed to Worker.create", async () => {
  const { ports } = await temporalExtractor.extract(await load("ts-factory"));
  assert.deepEqual(summary(ports), [
    "src/activities.ts:3 server saveOrder 1",
    "src/activities.ts:6 server notifyCustomer 1",
  ]);
  assert.equal(
    ports[0]?.owner.qualifiedName,
    "src/activities.ts::createActivities.saveOrder",
  );
});

Deno.test("temporalExtractor ignores decorators and registries that are not Temporal's", async () => {
  const { ports } = await temporalExtractor.extract(await load("negative"));
  assert.deepEqual(summary(ports), []);
});

function loadJvm(dir: string): Promise<SourceFile[]> {
  return loadFixture(dir, temporalExtractor.accepts);
}

Deno.test("temporalExtractor reads Java activity interfaces, registered implementations and stub calls", async () => {
  const files = await loadJvm("temporal_java");
  const { ports, diagnostics } = await temporalExtractor.extract(files);
  assert.deepEqual(diagnostics, []);
  const worker = "billing-worker/src/main/java/com/shop/billing";
  const orders = "orders-workflow/src/main/java/com/shop/orders";
  assert.deepEqual(summary(ports), [
    // the implementation's method; @ActivityMethod(name) wins over the default
    `${worker}/BillingActivitiesImpl.java:11 server Charge 1`,
    `${worker}/BillingActivitiesImpl.java:16 server refund-payment 1`,
    // not implemented by the registered class itself: the interface method
    `${worker}/ShippingActivities.java:10 server trackParcel 1`,
    // namePrefix applies to default names only
    `${worker}/ShippingActivitiesImpl.java:5 server Shipping_Ship 1`,
    `${orders}/OrderWorkflowImpl.java:20 client Charge 1`,
    `${orders}/OrderWorkflowImpl.java:21 client ReserveStock 1`,
    `${orders}/OrderWorkflowImpl.java:22 client send_email 1`,
    `${orders}/OrderWorkflowImpl.java:25 client refund-payment 1`,
    "py-checkout/workflows.py:11 client Charge 1",
    "py-checkout/workflows.py:12 client Shipping_Ship 1",
  ]);
  const charge = ports.find((p) =>
    p.ref.key === "Charge" && p.ref.role === "server"
  )!;
  assert.equal(
    charge.owner.qualifiedName,
    `${worker}/BillingActivitiesImpl.java::BillingActivitiesImpl.charge`,
  );
  assert.equal(charge.ref.detail["framework"], "temporal-java");
});

Deno.test("temporalExtractor gives Java stub calls Temporal's default name when the interface is outside the scan", async () => {
  const files = (await loadJvm("temporal_java")).filter((f) =>
    f.path.startsWith("orders-workflow/")
  );
  const { ports } = await temporalExtractor.extract(files);
  assert.deepEqual(summary(ports).map((l) => l.replace(/^.*\//, "")), [
    "OrderWorkflowImpl.java:20 client Charge 0.95",
    "OrderWorkflowImpl.java:21 client ReserveStock 1",
    "OrderWorkflowImpl.java:22 client send_email 1",
    "OrderWorkflowImpl.java:25 client Refund 0.95",
  ]);
});

Deno.test("temporalExtractor reports an unregistered Java implementation at weak confidence", async () => {
  const files = (await loadJvm("temporal_java")).filter((f) =>
    f.path.startsWith("billing-worker/") && !f.path.endsWith("Worker.java")
  );
  const { ports } = await temporalExtractor.extract(files);
  assert.deepEqual(summary(ports).map((l) => l.replace(/^.*\//, "")), [
    "BillingActivitiesImpl.java:11 server Charge 0.6",
    "BillingActivitiesImpl.java:16 server refund-payment 0.6",
    "ShippingActivities.java:10 server trackParcel 0.6",
    "ShippingActivitiesImpl.java:5 server Shipping_Ship 0.6",
  ]);
  assert.equal(ports[0]?.ref.detail["registered"], "false");
});

Deno.test("temporalExtractor reads .NET [Activity] methods, worker registrations and ExecuteActivityAsync", async () => {
  const { ports, diagnostics } = await temporalExtractor.extract(
    await loadJvm("temporal_dotnet"),
  );
  assert.deepEqual(diagnostics, []);
  assert.deepEqual(summary(ports), [
    // default name: the method name without "Async" (Task-returning method)
    "Billing.Worker/BillingActivities.cs:12 server Charge 1",
    "Billing.Worker/BillingActivities.cs:16 server refund-payment 1",
    "Billing.Worker/BillingActivities.cs:19 server Quote 1",
    // not async: the suffix stays; not registered by the worker: weak
    "Billing.Worker/ShippingActivities.cs:10 server TrackAsync 0.6",
    "Billing.Worker/ShippingActivities.cs:7 server ship 1",
    "Orders.Workflows/OrderWorkflow.cs:16 client Charge 1",
    "Orders.Workflows/OrderWorkflow.cs:18 client ReserveStock 1",
    "Orders.Workflows/OrderWorkflow.cs:19 client Quote 1",
    "Orders.Workflows/OrderWorkflow.cs:20 client TrackAsync 1",
    "go-checkout/workflow.go:11 client Charge 1",
    "go-checkout/workflow.go:12 client refund-payment 1",
  ]);
  const charge = ports.find((p) => p.ref.role === "server")!;
  assert.equal(
    charge.owner.qualifiedName,
    "Billing.Worker/BillingActivities.cs::BillingActivities.ChargeAsync",
  );
  assert.equal(charge.ref.col, 5);
});

Deno.test("temporalExtractor ignores Java and C# look-alikes of other libraries", async () => {
  for (
    const [dir, prefix] of [
      ["temporal_java", "negative/"],
      ["temporal_dotnet", "Negative/"],
    ]
  ) {
    const files = (await loadJvm(dir!)).filter((f) =>
      f.path.startsWith(prefix!)
    );
    assert.equal(files.length, 1);
    const { ports } = await temporalExtractor.extract(files);
    assert.deepEqual(summary(ports), []);
    // also when Temporal code sits in the same scan root
    const all = await temporalExtractor.extract(await loadJvm(dir!));
    assert.ok(all.ports.every((p) => !p.filePath.startsWith(prefix!)));
  }
});

Deno.test("scan() links Go and Python workflows to Java and .NET activities by name", async () => {
  for (const dir of ["temporal_java", "temporal_dotnet"]) {
    const result = await scan([fixturePath(dir)], {
      extractors: [temporalExtractor],
    });
    const links = result.graph.relationsByKind("communicates_with")
      .map((r) =>
        `${r.metadata["boundary_key"]} ${r.sourceId} -> ${r.targetId}`
      )
      .filter((l) => / \S+:(py|go)-checkout\//.test(l))
      .map((l) => l.replace(/ \S+?:/g, " "))
      .sort();
    assert.deepEqual(
      links,
      dir === "temporal_java"
        ? [
          "Charge py-checkout/workflows.py::CheckoutWorkflow.run -> billing-worker/src/main/java/com/shop/billing/BillingActivitiesImpl.java::BillingActivitiesImpl.charge",
          "Shipping_Ship py-checkout/workflows.py::CheckoutWorkflow.run -> billing-worker/src/main/java/com/shop/billing/ShippingActivitiesImpl.java::ShippingActivitiesImpl.ship",
        ]
        : [
          "Charge go-checkout/workflow.go::Checkout -> Billing.Worker/BillingActivities.cs::BillingActivities.ChargeAsync",
          "refund-payment go-checkout/workflow.go::Checkout -> Billing.Worker/BillingActivities.cs::BillingActivities.RefundAsync",
        ],
    );
  }
});

Deno.test("temporalExtractor never rejects on malformed Java or C# Temporal code", async () => {
  await assertRobust(temporalExtractor, "W.java", [
    "import io.temporal.workflow.Workflow;\n",
    "import io.temporal.activity.*;\n",
    "@ActivityInterface ",
    "interface A { void a(); }\n",
    "class B implements A { public void a() {} }\n",
    "worker.registerActivitiesImplementations(new B());\n",
    "A s = Workflow.newActivityStub(A.class, o);\n",
    "s.a();",
    'Workflow.newUntypedActivityStub(o).execute("X");',
    "{",
    "}",
    "(",
    ")",
  ]);
  await assertRobust(temporalExtractor, "W.cs", [
    "using Temporalio.Activities;\n",
    "using Temporalio.Workflows;\n",
    "class A { [Activity] public Task DoAsync() => null; }\n",
    "[Activity(",
    '"x"',
    ")]",
    "o.AddAllActivities(new A());\n",
    "Workflow.ExecuteActivityAsync((A a) => a.DoAsync(), o);\n",
    'Workflow.ExecuteActivityAsync("N", o);\n',
    "{",
    "}",
    "(",
  ]);
});

Deno.test("temporalExtractor reads Spring @ActivityImpl beans, hosted .NET registrations and name constants", async () => {
  const { ports } = await temporalExtractor.extract([
    {
      path: "Notify.java",
      text: `package app;
import io.temporal.activity.ActivityInterface;
import io.temporal.spring.boot.ActivityImpl;
import io.temporal.workflow.Workflow;
@ActivityInterface
interface Notify { void email(String to); }
@ActivityImpl(taskQueues = "q")
class NotifyImpl implements Notify { public void email(String to) {} }
class Flow {
  static final String SMS = "send-sms";
  void run() { Workflow.newUntypedActivityStub(null).execute(SMS, Void.class); }
}
`,
    },
    {
      path: "Hosted.cs",
      text: `using Temporalio.Activities;
using Temporalio.Workflows;
public class Mail { [Activity] public async Task SendAsync() {} }
public static class Setup {
  public static void Add(IServiceCollection s) =>
    s.AddHostedTemporalWorker("q").AddScopedActivities<Mail>();
}
public class Flow {
  const string Sms = "send-sms";
  public Task Run() => Workflow.ExecuteActivityAsync(Sms, new object[0], null);
}
`,
    },
  ]);
  assert.deepEqual(summary(ports), [
    "Hosted.cs:10 client send-sms 0.95",
    "Hosted.cs:3 server Send 1",
    "Notify.java:11 client send-sms 0.95",
    "Notify.java:8 server Email 1",
  ]);
});

Deno.test("temporalExtractor reads Java stub method references and registered classes of an outside interface", async () => {
  const { ports } = await temporalExtractor.extract([
    {
      path: "Flow.java",
      text: `import io.temporal.workflow.Async;
import io.temporal.workflow.Workflow;
import com.shop.billing.BillingActivities;
class Flow {
  private final BillingActivities billing = Workflow.newActivityStub(BillingActivities.class);
  void run() {
    Async.function(billing::charge, "o-1").get();
    Runnable r = billing::toString;
  }
}
`,
    },
    {
      path: "Worker.java",
      text: `import io.temporal.worker.Worker;
import com.shop.billing.BillingActivities;
class Impl implements BillingActivities, AutoCloseable {
  @Override
  public String charge(String id) { return id; }
  public void helper() {}
  @Override
  public String toString() { return ""; }
}
class Main {
  void start(Worker worker) { worker.registerActivitiesImplementations(new Impl()); }
}
`,
    },
  ]);
  assert.deepEqual(summary(ports), [
    "Flow.java:7 client Charge 0.95",
    "Worker.java:5 server Charge 0.6",
  ]);
  const server = ports.find((p) => p.ref.role === "server")!;
  assert.equal(server.ref.detail["interface"], "unresolved");
});
