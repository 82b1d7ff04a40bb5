// gRPC in JavaScript/TypeScript (@grpc/grpc-js, grpc): `server.addService(
// proto.X.service, impl)` registrations (the implementation object's keys)
// and calls on stubs made by `new proto.X(...)` / `new XClient(...)`.
import type { GrammarName } from "../_syntax/parser.ts";
import type { ProtoService } from "../_port/proto.ts";
import { rpcNamed } from "../_port/proto.ts";
import {
  findAll,
  namedChildren,
  type Node,
  stringValue,
} from "../_syntax/compact_tree.ts";
import {
  emitImplementation,
  emitStubCall,
  type GrpcContext,
  type GrpcSite,
} from "../_port/grpc.ts";

const CALLS: ReadonlySet<string> = new Set(["call_expression"]);

// ---------------------------------------------------------------- JS / TS

function memberSegments(node: Node | null): string[] | undefined {
  if (!node) return undefined;
  if (node.type === "identifier" || node.type === "property_identifier") {
    return [node.text];
  }
  if (node.type === "member_expression") {
    const object = memberSegments(node.childForFieldName("object"));
    const property = node.childForFieldName("property")?.text;
    return object && property ? [...object, property] : undefined;
  }
  return undefined;
}

/** `proto.shop.v1.Orders` → Orders in shop.v1; `OrdersService` / `OrdersClient` → Orders. */
function jsService(
  segments: string[],
  path: string,
  ctx: GrpcContext,
  suffix: "Service" | "Client",
): ProtoService[] {
  const name = segments[segments.length - 1] ?? "";
  const qualifier = segments.slice(1, -1).join(".");
  const stripped = name.endsWith(suffix)
    ? name.slice(0, -suffix.length)
    : undefined;
  const candidates = stripped !== undefined ? [stripped, name] : [name];
  for (const candidate of candidates) {
    const found = ctx.resolve(candidate, path, qualifier);
    if (found.length) return found;
  }
  return [];
}

/** The gRPC ports of one JavaScript/TypeScript file. */
export function jsGrpc(
  root: Node,
  path: string,
  grammar: GrammarName,
  ctx: GrpcContext,
): void {
  const stubs = new Map<string, ProtoService[]>();
  for (
    const declarator of findAll(
      root,
      new Set(["variable_declarator", "assignment_expression"]),
    )
  ) {
    const nameNode = declarator.childForFieldName(
      declarator.type === "variable_declarator" ? "name" : "left",
    );
    const value = declarator.childForFieldName(
      declarator.type === "variable_declarator" ? "value" : "right",
    );
    if (!nameNode || value?.type !== "new_expression") continue;
    const segments = memberSegments(value.childForFieldName("constructor"));
    if (!segments) continue;
    const last = segments[segments.length - 1] ?? "";
    if (!/^[A-Z]/.test(last)) continue;
    const services = jsService(segments, path, {
      ...ctx,
      resolve: (n, p, q) => silent(ctx, n, p, q),
    }, "Client");
    if (services.length) {
      stubs.set(nameNode.text.replace(/^this\./, ""), services);
    }
  }
  for (const call of findAll(root, CALLS)) {
    const callee = call.childForFieldName("function");
    if (callee?.type !== "member_expression") continue;
    const method = callee.childForFieldName("property")?.text ?? "";
    const object = callee.childForFieldName("object");
    const args = namedChildren(call.childForFieldName("arguments") ?? call);
    const site: GrpcSite = { node: call, filePath: path, grammar };
    if (method === "addService") {
      const segments = memberSegments(args[0] ?? null);
      if (!segments) continue;
      if (segments[segments.length - 1] === "service") segments.pop();
      const services = jsService(segments, path, ctx, "Service");
      const impl = args[1] ? jsObject(args[1], root) : undefined;
      emitImplementation(ctx, services, site, "grpc-js", (service) => {
        const implemented = new Map<string, GrpcSite>();
        for (const [key, node] of impl ?? []) {
          const rpc = rpcNamed(service, key);
          if (rpc) implemented.set(rpc, { node, filePath: path, grammar });
        }
        return [...implemented];
      });
      continue;
    }
    const receiver = object?.text.replace(/^this\./, "");
    const services = receiver ? stubs.get(receiver) : undefined;
    if (services) emitStubCall(ctx, services, site, method, "grpc-js");
  }
}

function silent(
  ctx: GrpcContext,
  name: string,
  path: string,
  qualifier?: string,
): ProtoService[] {
  const before = ctx.diagnostics.length;
  const found = ctx.resolve(name, path, qualifier);
  ctx.diagnostics.length = before;
  return found;
}
/** Keys of an object literal (inline, or a `const` in the same file). */
function jsObject(node: Node, root: Node): Map<string, Node> | undefined {
  let object: Node | undefined = node;
  if (node.type === "identifier") {
    object = undefined;
    for (const declarator of findAll(root, new Set(["variable_declarator"]))) {
      if (declarator.childForFieldName("name")?.text === node.text) {
        const value = declarator.childForFieldName("value");
        if (value?.type === "object") object = value;
      }
    }
  }
  if (object?.type !== "object") return undefined;
  const out = new Map<string, Node>();
  for (const member of namedChildren(object)) {
    if (member.type === "shorthand_property_identifier") {
      out.set(member.text, member);
    } else if (member.type === "pair" || member.type === "method_definition") {
      const key = member.childForFieldName(
        member.type === "pair" ? "key" : "name",
      );
      const text = key ? stringValue(key) ?? key.text : undefined;
      if (text) out.set(text, member);
    }
  }
  return out;
}
