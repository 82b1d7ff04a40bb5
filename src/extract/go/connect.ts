// connect-go handlers: `xconnect.NewYServiceHandler(impl)` returns the
// path prefix and the handler a mux mounts. It serves every RPC of the
// service over gRPC, gRPC-Web and the Connect protocol, which is plain
// HTTP: `POST /<package>.<Service>/<Method>` with a JSON or protobuf body.
// So each RPC is both a gRPC port (keyed `package.Service/Method`, linking
// with gRPC and connect clients) and an HTTP port (linking with any HTTP
// client calling that path). The RPCs come from the generated handler
// constructor (`x.connect.go`, its `connect.NewUnaryHandler(Procedure, ...)`
// calls) when the scan root holds it, else from the `.proto`.
import { findAll, type Node, ownerOf } from "../_syntax/compact_tree.ts";
import { CONFIDENCE, exactText } from "../_value/mod.ts";
import { httpPort } from "../_port/http.ts";
import {
  emitImplementation,
  type GrpcContext,
  type GrpcSite,
  serviceConfidence,
} from "../_port/grpc.ts";
import type { ProtoService } from "../_port/proto.ts";
import type { GoProject } from "./project.ts";
import { normalizeImport } from "./declarations.ts";
import { argumentsOf } from "./routers.ts";
import { implementedBy } from "./implemented.ts";

const CONNECT = ["connectrpc.com/connect", "github.com/bufbuild/connect-go"];
const CALLS: ReadonlySet<string> = new Set(["call_expression"]);
const MAX_RPCS = 1000;

/** Whether an import path is connect-go itself (not generated code). */
export function isConnectLibrary(importPath: string): boolean {
  return CONNECT.includes(normalizeImport(importPath));
}

/**
 * The services a generated `New<name>Handler` function serves, from the
 * procedures it builds handlers for.
 */
export function connectGeneratedServices(
  fn: Node,
  project: GoProject,
): ProtoService[] {
  const services = new Map<string, ProtoService>();
  const filePath = project.fileOf(fn)?.file.path ?? "";
  for (const call of findAll(fn, CALLS).slice(0, MAX_RPCS)) {
    const q = project.qualified(call.childForFieldName("function"));
    if (
      !q || !isConnectLibrary(q[0]) ||
      !/^New\w*Handler$/.test(q[1])
    ) continue;
    const procedure = exactText(project.evalString(argumentsOf(call)[0]));
    const match = /^\/(([\w.]*?)\.?(\w+))\/(\w+)$/.exec(procedure ?? "");
    if (!match?.[1] || !match[3] || !match[4]) continue;
    let service = services.get(match[1]);
    if (!service) {
      services.set(
        match[1],
        service = {
          pkg: match[2] ?? "",
          name: match[3],
          fullName: match[1],
          methods: [],
          filePath,
        },
      );
    }
    if (!service.methods.includes(match[4])) service.methods.push(match[4]);
  }
  return [...services.values()];
}

/**
 * The gRPC and HTTP ports of a connect-go handler registration: the RPCs
 * the implementation defines (at its methods), or every RPC of the
 * service (at the registration, 0.8) when it defines none visibly.
 */
export function emitConnectHandler(
  ctx: GrpcContext,
  services: readonly ProtoService[],
  site: GrpcSite,
  methods: Map<string, Node> | undefined,
  project: GoProject,
): void {
  const implemented = implementedBy(methods, project);
  emitImplementation(ctx, services, site, "connect-go", implemented);
  for (const service of services) {
    const found = implemented(service);
    const served: Array<[string, GrpcSite]> = found.length
      ? found
      : service.methods.map((rpc) => [rpc, site]);
    const confidence = serviceConfidence(
      services,
      found.length ? CONFIDENCE.literal : CONFIDENCE.partial,
    );
    for (const [rpc, at] of served) {
      const port = httpPort({
        role: "server",
        method: "POST",
        path: `/${service.fullName}/${rpc}`,
        node: at.node,
        owner: ownerOf(at.node, at.filePath, "go"),
        filePath: at.filePath,
        confidence,
        framework: "connect-go",
        extra: { rpc: `${service.fullName}/${rpc}` },
      });
      if (port) ctx.emitHttp?.(port);
    }
  }
}
