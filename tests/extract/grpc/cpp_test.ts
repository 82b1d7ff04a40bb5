import assert from "node:assert/strict";
import { grpcExtractor } from "../../../src/extract/grpc/mod.ts";

const PROTO = `syntax = "proto3";
package helloworld;
service Greeter {
  rpc SayHello (HelloRequest) returns (HelloReply);
  rpc SayGoodbye (HelloRequest) returns (HelloReply);
}
message HelloRequest { string name = 1; }
message HelloReply { string message = 1; }
`;

Deno.test("grpcExtractor reads C++ services (in-class and out-of-class overrides) and NewStub clients", async () => {
  const { ports, diagnostics } = await grpcExtractor.extract([
    { path: "protos/helloworld.proto", text: PROTO },
    {
      path: "server/greeter_server.cc",
      text: `#include "helloworld.grpc.pb.h"
class GreeterServiceImpl final : public helloworld::Greeter::Service {
  Status SayHello(ServerContext* context, const HelloRequest* request,
                  HelloReply* reply) override {
    return Status::OK;
  }
  Status SayGoodbye(ServerContext* context, const HelloRequest* request,
                    HelloReply* reply) override;
};
Status GreeterServiceImpl::SayGoodbye(ServerContext* context,
                                      const HelloRequest* request,
                                      HelloReply* reply) {
  return Status::OK;
}
`,
    },
    {
      path: "client/greeter_client.cc",
      text: `class GreeterClient {
 public:
  GreeterClient(std::shared_ptr<Channel> channel)
      : stub_(Greeter::NewStub(channel)) {}
  std::string SayHello(const std::string& user) {
    HelloRequest request;
    HelloReply reply;
    ClientContext context;
    Status status = stub_->SayHello(&context, request, &reply);
    other_->SayGoodbye(&context, request, &reply);
    return reply.message();
  }
 private:
  std::unique_ptr<Greeter::Stub> stub_;
};
`,
    },
  ]);
  assert.deepEqual(diagnostics, []);
  assert.deepEqual(
    ports.map((p) =>
      `${p.filePath}:${p.ref.line} ${p.ref.role} ${p.ref.key} ${p.owner.name}`
    ).sort(),
    [
      "client/greeter_client.cc:9 client helloworld.Greeter/SayHello SayHello",
      "server/greeter_server.cc:10 server helloworld.Greeter/SayGoodbye GreeterServiceImpl::SayGoodbye",
      "server/greeter_server.cc:3 server helloworld.Greeter/SayHello SayHello",
    ],
  );
});
