// gRPC in C++ (grpc++): a class deriving from `Greeter::Service` (or
// `CallbackService`) serves the RPCs it overrides, defined in the class or
// out of it (`Status GreeterImpl::SayHello(...)`); calls through a stub
// from `Greeter::NewStub(channel)` are clients of the RPC they name.
import { findAll, namedChildren, type Node } from "../_syntax/compact_tree.ts";
import type { GrpcContext, GrpcSite } from "../_port/grpc.ts";
import {
  emitImplementation,
  emitStubCall,
  namedMethodRpcs,
} from "../_port/grpc.ts";
import { cppDeclaratorName } from "../_syntax/owner.ts";

const CLASSES: ReadonlySet<string> = new Set([
  "class_specifier",
  "struct_specifier",
]);
const SERVICE_BASE = /(\w+)\s*::\s*(?:Callback)?Service\b/;
const NEW_STUB = /(\w+)\s*::\s*NewStub\s*\(/;

/** The gRPC ports of one C++ file. */
export function cppGrpc(root: Node, path: string, ctx: GrpcContext): void {
  const functions = findAll(root, new Set(["function_definition"]));
  for (const cls of findAll(root, CLASSES)) {
    const name = cls.childForFieldName("name")?.text;
    const bases = namedChildren(cls).find((n) =>
      n.type === "base_class_clause"
    )?.text ?? "";
    const match = SERVICE_BASE.exec(bases);
    if (!name || !match?.[1]) continue;
    const services = ctx.resolve(match[1], path);
    const site: GrpcSite = { node: cls, filePath: path, grammar: "cpp" };
    // methods in the class body, and `Impl::Method` definitions of the file
    const methods: Array<[string, Node]> = [];
    for (const fn of functions) {
      const written = cppDeclaratorName(fn) ?? "";
      const inside = fn.startIndex > cls.startIndex &&
        fn.endIndex <= cls.endIndex;
      const qualified = written.startsWith(name + "::");
      if (!inside && !qualified) continue;
      methods.push([written.split("::").pop() ?? "", fn]);
    }
    const implemented = namedMethodRpcs(site, methods);
    emitImplementation(ctx, services, site, "grpc-cpp", implemented);
  }
  // clients: `auto stub = Greeter::NewStub(channel); stub->SayHello(...)`
  const stubs = new Map<string, string>();
  for (
    const node of findAll(
      root,
      new Set([
        "init_declarator",
        "assignment_expression",
        "field_initializer",
      ]),
    )
  ) {
    const match = NEW_STUB.exec(node.text);
    if (!match?.[1]) continue;
    const target = namedChildren(node)[0]?.text.replace(/^this->/, "");
    if (target) stubs.set(target, match[1]);
  }
  if (stubs.size === 0) return;
  for (const call of findAll(root, new Set(["call_expression"]))) {
    const callee = call.childForFieldName("function");
    if (callee?.type !== "field_expression") continue;
    const receiver = callee.childForFieldName("argument")?.text.replace(
      /^this->/,
      "",
    );
    const serviceName = receiver ? stubs.get(receiver) : undefined;
    const method = callee.childForFieldName("field")?.text;
    if (!serviceName || !method) continue;
    emitStubCall(
      ctx,
      ctx.resolve(serviceName, path),
      { node: call, filePath: path, grammar: "cpp" },
      method,
      "grpc-cpp",
      true,
    );
  }
}
