// gRPC in C# (Grpc.AspNetCore / Grpc.Net.Client): classes deriving from
// `X.XBase` (the RPCs they override; registered with `MapGrpcService<T>` or
// not) and calls on `new X.XClient(channel)` stubs.
import type { SourceFile } from "../extractor.ts";
import { findAll, namedChildren, type Node } from "../_syntax/compact_tree.ts";
import {
  emitImplementation,
  emitStubCall,
  type GrpcContext,
  type GrpcSite,
} from "../_port/grpc.ts";
import { rpcNamed } from "../_port/proto.ts";
import { CONFIDENCE } from "../_value/confidence.ts";

const CALLS: ReadonlySet<string> = new Set(["invocation_expression"]);
const CLIENT = /new\s+(?:[\w.]*\.)?(\w+)\.(\w+)Client\s*\(/;

/** The gRPC ports of one C# file. */
export function csharpGrpc(
  root: Node,
  file: SourceFile,
  files: readonly SourceFile[],
  ctx: GrpcContext,
): void {
  const path = file.path;
  // servers: classes deriving from X.XBase, when registered with MapGrpcService<T>
  const registered = new Set<string>();
  for (const source of files) {
    if (!source.path.endsWith(".cs")) continue;
    for (
      const m of source.text.matchAll(/MapGrpcService\s*<\s*([\w.]+)\s*>/g)
    ) {
      registered.add((m[1] ?? "").split(".").pop() ?? "");
    }
  }
  for (const cls of findAll(root, new Set(["class_declaration"]))) {
    const name = cls.childForFieldName("name")?.text ?? "";
    const bases = namedChildren(cls).find((n) =>
      n.type === "base_list"
    )?.text ?? "";
    const match = /(\w+)\s*\.\s*(\w+)Base\b/.exec(bases);
    if (!match?.[1] || match[1] !== match[2]) continue;
    const services = ctx.resolve(match[1], path);
    const confidence = registered.has(name)
      ? CONFIDENCE.literal
      : CONFIDENCE.composed;
    const body = cls.childForFieldName("body");
    const methods = body
      ? namedChildren(body).filter((n) =>
        n.type === "method_declaration" &&
        /\boverride\b/.test(n.text.slice(0, n.text.indexOf("(")))
      )
      : [];
    const site: GrpcSite = { node: cls, filePath: path, grammar: "c-sharp" };
    emitImplementation(ctx, services, site, "grpc-dotnet", (service) => {
      const out: Array<[string, GrpcSite]> = [];
      for (const method of methods) {
        const rpc = rpcNamed(
          service,
          method.childForFieldName("name")?.text ?? "",
        );
        if (rpc) out.push([rpc, { ...site, node: method }]);
      }
      return out;
    }, confidence);
  }
  // clients: new X.XClient(channel)
  const stubs = new Map<string, string>();
  for (const declarator of findAll(root, new Set(["variable_declarator"]))) {
    const name = declarator.childForFieldName("name")?.text;
    const match = CLIENT.exec(declarator.text);
    if (name && match?.[1] && match[1] === match[2]) stubs.set(name, match[1]);
  }
  for (const assignment of findAll(root, new Set(["assignment_expression"]))) {
    const left = assignment.childForFieldName("left")?.text.replace(
      /^this\./,
      "",
    );
    const match = CLIENT.exec(
      assignment.childForFieldName("right")?.text ?? "",
    );
    if (left && match?.[1] && match[1] === match[2]) stubs.set(left, match[1]);
  }
  if (stubs.size === 0) return;
  for (const call of findAll(root, CALLS)) {
    const callee = call.childForFieldName("function");
    if (callee?.type !== "member_access_expression") continue;
    const receiver = callee.childForFieldName("expression")?.text.replace(
      /^this\./,
      "",
    );
    const serviceName = receiver ? stubs.get(receiver) : undefined;
    const method = callee.childForFieldName("name")?.text.replace(/Async$/, "");
    if (!serviceName || !method) continue;
    const site: GrpcSite = { node: call, filePath: path, grammar: "c-sharp" };
    const services = ctx.resolve(serviceName, path);
    emitStubCall(ctx, services, site, method, "grpc-dotnet");
  }
}
