// gRPC in Python (grpcio): `add_XServicer_to_server(impl, server)`
// registrations (the RPCs the servicer class defines) and calls on
// `XStub(channel)` stubs.
import { unwrap } from "./project.ts";
import { eachModule } from "./each_module.ts";
import { namedChildren } from "../_syntax/compact_tree.ts";
import { emitImplementation, emitStubCall } from "../_port/grpc.ts";
import { implementedRpcs } from "../_port/grpc_rpcs.ts";
import type { PyProject } from "./project.ts";
import type { Node } from "../_syntax/compact_tree.ts";
import type { GrpcContext, GrpcSite } from "../_port/grpc.ts";
import type { SourceFile } from "../extractor.ts";

/** The gRPC ports of the Python files of a scan root. */
export function pythonGrpc(
  files: SourceFile[],
  ctx: GrpcContext,
): Promise<void> {
  return eachModule(files, ctx.diagnostics, (module, project) => {
    const path = module.file.path;
    for (const call of module.calls) {
      const callee = call.childForFieldName("function");
      if (!callee) continue;
      const calleeName = callee.type === "attribute"
        ? callee.childForFieldName("attribute")?.text
        : callee.text;
      const register = calleeName
        ? /^add_(\w+)Servicer_to_server$/.exec(calleeName)
        : null;
      const site: GrpcSite = {
        node: call,
        filePath: path,
        grammar: "python",
      };
      if (register?.[1]) {
        const services = ctx.resolve(register[1], path);
        const [impl] = namedChildren(
          call.childForFieldName("arguments") ?? call,
        );
        const cls = impl ? servicerClass(unwrap(impl), project) : undefined;
        const defs = cls ? classMethods(cls) : new Map<string, Node>();
        const clsModule = cls ? project.moduleOf(cls) : undefined;
        emitImplementation(
          ctx,
          services,
          site,
          "grpcio",
          (service) =>
            implementedRpcs(service, (rpc) => {
              const def = defs.get(rpc);
              return def && clsModule
                ? {
                  node: def,
                  filePath: clsModule.file.path,
                  grammar: "python",
                }
                : undefined;
            }),
        );
        continue;
      }
      // stub.GetOrder(req), stub.GetOrder.future(req), self.stub.GetOrder(req)
      if (callee.type !== "attribute") continue;
      let methodNode: Node = callee;
      const last = callee.childForFieldName("attribute")?.text;
      if (last === "future" || last === "with_call") {
        const inner = callee.childForFieldName("object");
        if (inner?.type !== "attribute") continue;
        methodNode = inner;
      }
      const method = methodNode.childForFieldName("attribute")?.text;
      const object = methodNode.childForFieldName("object");
      if (!method || !object) continue;
      const service = pythonStub(object, project);
      if (!service) continue;
      const services = ctx.resolve(service, path);
      emitStubCall(ctx, services, site, method, "grpcio", true);
    }
  });
}

/** The class of a registered servicer: `Impl()`, `Impl`, or a variable. */
function servicerClass(impl: Node, project: PyProject): Node | undefined {
  const target = impl.type === "call"
    ? project.resolveExpr(impl.childForFieldName("function") ?? impl)
    : project.resolveExpr(impl);
  if (target?.kind === "class") return target.node;
  if (target?.kind !== "value") return undefined;
  const value = unwrap(target.node);
  const created = value.type === "call"
    ? project.resolveExpr(value.childForFieldName("function") ?? value)
    : undefined;
  return created?.kind === "class" ? created.node : undefined;
}
/** The service name of a `<Svc>Stub(channel)` value, if `object` is one. */
function pythonStub(object: Node, project: PyProject): string | undefined {
  const value = project.madeBy(object);
  if (!value) return undefined;
  const callee = value.childForFieldName("function");
  // a class of the project is not a generated stub
  if (callee && project.resolveExpr(callee)?.kind === "class") return undefined;
  const name = callee?.type === "attribute"
    ? callee.childForFieldName("attribute")?.text
    : callee?.text;
  return name ? /^(\w+)Stub$/.exec(name)?.[1] : undefined;
}

function classMethods(cls: Node): Map<string, Node> {
  const out = new Map<string, Node>();
  const body = cls.childForFieldName("body");
  for (const statement of body ? namedChildren(body) : []) {
    const def = statement.type === "decorated_definition"
      ? statement.childForFieldName("definition")
      : statement;
    const name = def?.type === "function_definition"
      ? def.childForFieldName("name")?.text
      : undefined;
    if (name) out.set(name, statement);
  }
  return out;
}
