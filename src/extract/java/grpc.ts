// gRPC in Java (grpc-java): classes extending `XGrpc.XImplBase` (the RPCs
// they override) and calls on stubs typed `XGrpc.X...Stub` or made by
// `XGrpc.new...Stub(channel)`.
import { findAll, namedChildren, type Node } from "../_syntax/compact_tree.ts";
import {
  emitImplementation,
  emitStubCall,
  type GrpcContext,
  type GrpcSite,
} from "../_port/grpc.ts";
import { rpcNamed } from "../_port/proto.ts";

const CALLS: ReadonlySet<string> = new Set(["method_invocation"]);

/** The gRPC ports of one Java file. */
export function javaGrpc(root: Node, path: string, ctx: GrpcContext): void {
  for (const cls of findAll(root, new Set(["class_declaration"]))) {
    const superclass = cls.childForFieldName("superclass")?.text ?? "";
    const match = /(\w+)Grpc\s*\.\s*(\w+)ImplBase\b/.exec(superclass);
    if (!match?.[1]) continue;
    const services = ctx.resolve(match[1], path);
    const body = cls.childForFieldName("body");
    const methods = body
      ? namedChildren(body).filter((n) => n.type === "method_declaration")
      : [];
    const site: GrpcSite = { node: cls, filePath: path, grammar: "java" };
    emitImplementation(ctx, services, site, "grpc-java", (service) => {
      const out: Array<[string, GrpcSite]> = [];
      for (const method of methods) {
        const name = method.childForFieldName("name")?.text ?? "";
        const rpc = rpcNamed(service, name);
        if (rpc) out.push([rpc, { ...site, node: method }]);
      }
      return out;
    });
  }
  // stubs: fields or locals typed XGrpc.X(Blocking|Future)Stub or made by XGrpc.newStub(...)
  const stubs = new Map<string, string>();
  for (
    const declaration of findAll(
      root,
      new Set(["field_declaration", "local_variable_declaration"]),
    )
  ) {
    const type = declaration.childForFieldName("type")?.text ?? "";
    const byType = /(\w+)Grpc\s*\.\s*\w*Stub\b/.exec(type);
    for (const declarator of declaration.childrenForFieldName("declarator")) {
      const name = declarator?.childForFieldName("name")?.text;
      const value = declarator?.childForFieldName("value")?.text ?? "";
      const byValue = /(\w+)Grpc\s*\.\s*new\w*Stub\s*\(/.exec(value);
      const service = byType?.[1] ?? byValue?.[1];
      if (name && service) stubs.set(name, service);
    }
  }
  for (const assignment of findAll(root, new Set(["assignment_expression"]))) {
    const left = assignment.childForFieldName("left")?.text.replace(
      /^this\./,
      "",
    );
    const value = /(\w+)Grpc\s*\.\s*new\w*Stub\s*\(/.exec(
      assignment.childForFieldName("right")?.text ?? "",
    );
    if (left && value?.[1] && !stubs.has(left)) stubs.set(left, value[1]);
  }
  if (stubs.size === 0) return;
  for (const call of findAll(root, CALLS)) {
    let object = call.childForFieldName("object");
    // stub.withDeadlineAfter(...).getOrder(req)
    while (
      object?.type === "method_invocation" &&
      /^with/.test(object.childForFieldName("name")?.text ?? "")
    ) {
      object = object.childForFieldName("object");
    }
    const receiver = object?.text.replace(/^this\./, "");
    const serviceName = receiver ? stubs.get(receiver) : undefined;
    const method = call.childForFieldName("name")?.text;
    if (!serviceName || !method) continue;
    const site: GrpcSite = { node: call, filePath: path, grammar: "java" };
    const services = ctx.resolve(serviceName, path);
    emitStubCall(ctx, services, site, method, "grpc-java");
  }
}
