import assert from "node:assert/strict";
import { grpcExtractor } from "../../../src/extract/grpc/mod.ts";
import type { SourceFile } from "../../../src/extract/extractor.ts";
import { loadFixture, portSummary as summary } from "../_fixtures.ts";

const FIXTURES = new URL("../../fixtures/extract/grpc/", import.meta.url);

function load(dir: string): Promise<SourceFile[]> {
  return loadFixture(`grpc/${dir}`, grpcExtractor.accepts);
}

Deno.test("grpcExtractor keys servers and clients of five languages by the proto package", async () => {
  const files = (await load(".")).filter((f) =>
    !f.path.startsWith("negative/")
  );
  const { ports, diagnostics } = await grpcExtractor.extract(files);
  assert.deepEqual(diagnostics, []);
  assert.deepEqual(summary(ports), [
    "csharp/GreeterService.cs:5 server helloworld.Greeter/SayHello 1",
    "csharp/Program.cs:6 client shop.v1.Orders/GetOrder 1",
    "go/client/client.go:19 client shop.v1.Orders/GetOrder 1",
    "go/client/client.go:24 client shop.v1.Orders/CancelOrder 1",
    "go/server/main.go:15 server shop.v1.Orders/GetOrder 1",
    "go/server/main.go:19 server shop.v1.Orders/ListOrders 1",
    "java/GreeterCaller.java:13 client helloworld.Greeter/SayHello 1",
    "java/OrdersService.java:12 server shop.v1.Orders/CancelOrder 1",
    "java/OrdersService.java:7 server shop.v1.Orders/GetOrder 1",
    "node/client.ts:7 client helloworld.Greeter/SayHello 1",
    "node/server.js:11 server shop.v1.Orders/CancelOrder 1",
    "node/server.js:8 server shop.v1.Orders/GetOrder 1",
    "node/static_client.ts:7 client shop.v1.Orders/ListOrders 1",
    "python/client.py:12 client shop.v1.Orders/ListOrders 1",
    "python/client.py:18 client helloworld.Greeter/SayHello 1",
    "python/server.py:10 server helloworld.Greeter/SayHello 1",
  ]);
  const goServer = ports.find((p) => p.filePath === "go/server/main.go");
  assert.equal(goServer?.ref.mechanism, "grpc");
  assert.equal(
    goServer?.owner.qualifiedName,
    "go/server/main.go::ordersServer.GetOrder",
  );
  const java = ports.find((p) =>
    p.ref.line === 7 && p.filePath.endsWith(".java")
  );
  assert.equal(
    java?.owner.qualifiedName,
    "java/OrdersService.java::OrdersService.getOrder",
  );
  assert.equal(java?.ref.detail.service, "shop.v1.Orders");
});

Deno.test("grpcExtractor exposes every RPC at the registration when the implementation is opaque", async () => {
  const proto = await Deno.readTextFile(
    new URL("proto/orders.proto", FIXTURES),
  );
  const { ports } = await grpcExtractor.extract([
    { path: "orders.proto", text: proto },
    {
      path: "main.go",
      text: [
        "package main",
        "",
        'import shopv1 "example.com/shop/gen/shopv1"',
        "",
        "func main() {",
        "\tshopv1.RegisterOrdersServer(s, newImpl())",
        "}",
        "",
      ].join("\n"),
    },
  ]);
  assert.deepEqual(summary(ports), [
    "main.go:6 server shop.v1.Orders/CancelOrder 0.8",
    "main.go:6 server shop.v1.Orders/GetOrder 0.8",
    "main.go:6 server shop.v1.Orders/ListOrders 0.8",
  ]);
});

Deno.test("grpcExtractor warns about services no .proto defines and reports no port", async () => {
  const { ports, diagnostics } = await grpcExtractor.extract([{
    path: "client.py",
    text:
      "import pay_pb2_grpc\nstub = pay_pb2_grpc.PaymentsStub(ch)\nstub.Charge(req)\n",
  }]);
  assert.deepEqual(ports, []);
  assert.equal(diagnostics.length, 1);
  assert.equal(diagnostics[0]?.severity, "warning");
  assert.match(
    diagnostics[0]?.message ?? "",
    /Cannot resolve gRPC service "Payments"/,
  );
});

Deno.test("grpcExtractor reports an unparseable .proto file and goes on", async () => {
  const { ports, diagnostics } = await grpcExtractor.extract([
    { path: "broken.proto", text: "service {{{" },
  ]);
  assert.deepEqual(ports, []);
  assert.equal(diagnostics[0]?.filePath, "broken.proto");
  assert.equal(diagnostics[0]?.severity, "error");
  assert.match(diagnostics[0]?.message ?? "", /^Cannot parse: /);
});

Deno.test("grpcExtractor ignores project classes and functions named like stubs", async () => {
  const files = await load(".");
  const { ports } = await grpcExtractor.extract(
    files.filter((f) =>
      f.path.startsWith("negative/") || f.path.endsWith(".proto")
    ),
  );
  assert.deepEqual(summary(ports), []);
});

Deno.test("grpcExtractor skips generated code", () => {
  assert.equal(grpcExtractor.accepts("gen/orders.pb.go"), false);
  assert.equal(grpcExtractor.accepts("gen/orders_pb2_grpc.py"), false);
  assert.equal(grpcExtractor.accepts("proto/orders.proto"), true);
  assert.equal(grpcExtractor.accepts("src/Service.java"), true);
});

Deno.test("grpcExtractor treats one service copied into several .proto trees as one", async () => {
  const proto = await Deno.readTextFile(
    new URL("proto/orders.proto", FIXTURES),
  );
  const { ports } = await grpcExtractor.extract([
    { path: "server/orders.proto", text: proto },
    { path: "client/orders.proto", text: proto },
    {
      path: "client/client.py",
      text:
        "import orders_pb2_grpc\nstub = orders_pb2_grpc.OrdersStub(ch)\nstub.GetOrder(req)\n",
    },
  ]);
  assert.deepEqual(summary(ports), [
    "client/client.py:3 client shop.v1.Orders/GetOrder 1",
  ]);
});

Deno.test("grpcExtractor lowers confidence when a service name exists in several packages", async () => {
  const { ports } = await grpcExtractor.extract([
    {
      path: "a.proto",
      text:
        'syntax = "proto3"; package a.v1; service Echo { rpc Say (M) returns (M); } message M {}',
    },
    {
      path: "b.proto",
      text:
        'syntax = "proto3"; package b.v1; service Echo { rpc Say (M) returns (M); } message M {}',
    },
    {
      path: "client.py",
      text:
        "import echo_pb2_grpc\nstub = echo_pb2_grpc.EchoStub(ch)\nstub.Say(req)\n",
    },
  ]);
  assert.deepEqual(summary(ports), [
    "client.py:3 client a.v1.Echo/Say 0.6",
    "client.py:3 client b.v1.Echo/Say 0.6",
  ]);
});
