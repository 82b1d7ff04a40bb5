// gRPC in Go: `pb.RegisterXServer(s, impl)` registrations (the RPCs the
// implementation's type defines), calls on generated `XClient` stubs, and
// Go kit clients (`grpctransport.NewClient(conn, "pkg.Service", "Method")`),
// gateways serving RPCs over HTTP (grpc-gateway, Kratos), and connect-go
// handlers (`xconnect.NewXHandler(impl)`).
import { ownerOf } from "../_syntax/compact_tree.ts";
import {
  emitImplementation,
  emitStubCall,
  type GrpcContext,
  type GrpcSite,
  serviceConfidence,
} from "../_port/grpc.ts";
import { httpPort } from "../_port/http.ts";
import { CONFIDENCE } from "../_value/mod.ts";
import type { SourceFile } from "../extractor.ts";
import { eachBuiltFile } from "./test_files.ts";
import { argumentsOf } from "./routers.ts";
import { implementedBy } from "./implemented.ts";
import { kratosGeneratedRoutes, type KratosRoute } from "./kratos.ts";
import {
  connectGeneratedServices,
  emitConnectHandler,
  isConnectLibrary,
} from "./connect.ts";
import { normalizeImport } from "./declarations.ts";
import { exactText } from "../_value/mod.ts";

const GOKIT_GRPC = "github.com/go-kit/kit/transport/grpc";
// grpc-gateway (`RegisterXHandlerFromEndpoint`, `...HandlerClient`,
// `...Handler`, in-process `...HandlerServer`) and Kratos
// (`RegisterXHTTPServer`) registrations of a service's HTTP bindings.
const GATEWAY =
  /^Register(\w+?)(HandlerFromEndpoint|HandlerClient|HandlerServer|Handler|HTTPServer)$/;

/**
 * The HTTP routes a gateway serves for a service (its RPCs' `google.api.http`
 * bindings, at the registration) and, when it forwards over gRPC, its
 * client port of each bound RPC.
 */
function emitGateway(
  ctx: GrpcContext,
  site: GrpcSite,
  name: string,
  kind: string,
): void {
  const services = ctx.resolve(name, site.filePath);
  const confidence = serviceConfidence(services, CONFIDENCE.literal);
  const kratos = kind === "HTTPServer";
  const forwards = !kratos && kind !== "HandlerServer";
  const owner = ownerOf(site.node, site.filePath, "go");
  for (const service of services) {
    for (const [rpc, bindings] of service.http ?? []) {
      if (forwards) {
        ctx.emit(
          site.node,
          site.filePath,
          "go",
          "client",
          service,
          rpc,
          confidence,
          "grpc-gateway",
        );
      }
      for (const binding of bindings) {
        const port = httpPort({
          role: "server",
          method: binding.verb,
          // `{name=shelves/*}` is one parameter
          path: binding.path.replace(/\{[^{}]*\}/g, "{}"),
          node: site.node,
          owner,
          filePath: site.filePath,
          confidence,
          framework: kratos ? "kratos" : "grpc-gateway",
          extra: { rpc: `${service.fullName}/${rpc}` },
        });
        if (port) ctx.emitHttp?.(port);
      }
    }
  }
}

/** The routes of a generated Kratos registration, at its call. */
function emitKratos(
  ctx: GrpcContext,
  site: GrpcSite,
  routes: KratosRoute[],
): void {
  const owner = ownerOf(site.node, site.filePath, "go");
  for (const route of routes) {
    const port = httpPort({
      role: "server",
      method: route.method,
      path: route.path,
      node: site.node,
      owner,
      filePath: site.filePath,
      confidence: CONFIDENCE.literal,
      framework: "kratos",
      ...(route.rpc ? { extra: { rpc: route.rpc } } : {}),
    });
    if (port) ctx.emitHttp?.(port);
  }
}

/** The gRPC ports of the Go files of a scan root. */
export function goGrpc(
  files: SourceFile[],
  ctx: GrpcContext,
): Promise<void> {
  return eachBuiltFile(files, ctx.diagnostics, (file, project) => {
    const path = file.file.path;
    for (const call of project.callsIn(file)) {
      const callee = call.childForFieldName("function");
      const qualified = project.qualified(callee);
      const args = argumentsOf(call);
      const site: GrpcSite = { node: call, filePath: path, grammar: "go" };
      const gateway = qualified ? GATEWAY.exec(qualified[1]) : null;
      if (gateway?.[1] && gateway[2]) {
        // Kratos: the generated registration, when the scan root holds it
        const generated = gateway[2] === "HTTPServer" && qualified
          ? project.packageFunction(...qualified)
          : undefined;
        if (generated) {
          emitKratos(ctx, site, kratosGeneratedRoutes(generated, project));
        } else emitGateway(ctx, site, gateway[1], gateway[2]);
        continue;
      }
      // connect-go: greetv1connect.NewGreetServiceHandler(impl)
      const connect = qualified && /connect$/.test(qualified[0]) &&
          !isConnectLibrary(qualified[0])
        ? /^New(\w+)Handler$/.exec(qualified[1])
        : null;
      if (connect?.[1] && qualified) {
        const generated = project.packageFunction(...qualified);
        const services = generated
          ? connectGeneratedServices(generated, project)
          : ctx.resolve(connect[1], path);
        const implType = project.typeOf(args[0]);
        const methods = implType ? project.methodsOf(implType) : undefined;
        emitConnectHandler(ctx, services, site, methods, project);
        continue;
      }
      const register = qualified
        ? /^Register(\w+)Server$/.exec(qualified[1])
        : null;
      if (register?.[1]) {
        const services = ctx.resolve(register[1], path);
        const implType = project.typeOf(args[1]);
        const methods = implType ? project.methodsOf(implType) : undefined;
        emitImplementation(
          ctx,
          services,
          site,
          "grpc-go",
          implementedBy(methods, project),
        );
        continue;
      }
      if (
        qualified &&
        normalizeImport(qualified[0]) === GOKIT_GRPC &&
        qualified[1] === "NewClient"
      ) {
        // Go kit: grpctransport.NewClient(conn, "pkg.Service", "Method", ...)
        const service = exactText(project.evalString(args[1]));
        const rpc = exactText(project.evalString(args[2]));
        const dot = service?.lastIndexOf(".") ?? -1;
        if (!service || !rpc) continue;
        const services = ctx.resolve(
          service.slice(dot + 1),
          path,
          dot > 0 ? service.slice(0, dot) : "",
        ).filter((s) => dot <= 0 || s.fullName === service);
        emitStubCall(ctx, services, site, rpc, "go-kit", true);
        continue;
      }
      if (callee?.type !== "selector_expression" || qualified) continue;
      const type = project.typeOf(callee.childForFieldName("operand"));
      const stub = type && type.pkg !== ""
        ? /^(\w+)Client$/.exec(type.name)
        : null;
      const method = callee.childForFieldName("field")?.text;
      if (!stub?.[1] || !method) continue;
      const services = ctx.resolve(stub[1], path);
      emitStubCall(ctx, services, site, method, "grpc-go", true);
    }
  });
}
