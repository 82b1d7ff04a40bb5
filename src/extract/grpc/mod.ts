// gRPC servers and clients in Go, Python, TypeScript/JavaScript, Java and
// C#, keyed `package.Service/Method` through the `.proto` files of the scan
// root. A service name that no `.proto` file defines gives a warning and no
// port (its key could not carry the proto package).
//
// Servers: an implementation registered for a service exposes the RPCs it
// implements (one port per implemented method, at the method); when the
// implementation cannot be seen (built elsewhere, opaque), the registration
// exposes every RPC of the service (ports at the registration, lower
// confidence).
import type {
  ExtractDiagnostic,
  ExtractResult,
  LanguageExtractor,
  SourceFile,
} from "../extractor.ts";
import type { GrammarName } from "../_syntax/parser.ts";
import { grpcKey, ProtoIndex, type ProtoService } from "../_port/proto.ts";
import type { GrpcContext, GrpcEmit } from "../_port/grpc.ts";
import {
  type Node,
  ownerOf,
  parseOrReport,
  positionOf,
} from "../_syntax/compact_tree.ts";
import type { ExtractedPort } from "../types.ts";
import { goGrpc } from "../go/mod.ts";
import { pythonGrpc } from "../python/mod.ts";
import { jsGrpc } from "../javascript/mod.ts";
import { javaGrpc } from "../java/mod.ts";
import { cppGrpc } from "../cpp/mod.ts";
import { csharpGrpc } from "../csharp/mod.ts";

/**
 * Finds gRPC servers and clients in Go, Python, TypeScript/JavaScript, Java
 * and C# files, keyed by the services of the `.proto` files given with them.
 *
 * @example Usage
 * ```ts
 * import { grpcExtractor } from "@portcullis/portcullis/extract";
 * import assert from "node:assert/strict";
 *
 * const { ports } = await grpcExtractor.extract([
 *   {
 *     path: "shop.proto",
 *     text: 'syntax = "proto3";\npackage shop.v1;\nservice Orders { rpc GetOrder (Req) returns (Res); }\nmessage Req {}\nmessage Res {}\n',
 *   },
 *   {
 *     path: "client.py",
 *     text: "import shop_pb2_grpc\nstub = shop_pb2_grpc.OrdersStub(channel)\nstub.GetOrder(request)\n",
 *   },
 * ]);
 * assert.equal(ports[0]?.ref.key, "shop.v1.Orders/GetOrder");
 * ```
 */
export const grpcExtractor: LanguageExtractor = {
  name: "grpc",
  accepts(path: string): boolean {
    // generated stubs, but not Kratos' generated HTTP bindings (`_http.pb.go`)
    if (
      path.endsWith(".pb.go") && !path.endsWith("_http.pb.go") ||
      /_pb2(_grpc)?\.pyi?$/.test(path)
    ) {
      return false;
    }
    return /\.(proto|go|py|[cm]?[jt]sx?|java|cs|cc|cpp|cxx|h|hh|hpp)$/.test(
      path,
    ) &&
      !path.endsWith(".d.ts");
  },
  extract: extractGrpc,
};

async function extractGrpc(
  files: readonly SourceFile[],
): Promise<ExtractResult> {
  const diagnostics: ExtractDiagnostic[] = [];
  const protos = ProtoIndex.parse(
    files.filter((f) => f.path.endsWith(".proto")),
    diagnostics,
  );
  const ports: ExtractedPort[] = [];
  const warned = new Set<string>();
  const resolve = (
    name: string,
    filePath: string,
    qualifier = "",
  ): ProtoService[] => {
    const services = protos.resolve(name, qualifier);
    if (services.length === 0 && !warned.has(`${filePath}:${name}`)) {
      warned.add(`${filePath}:${name}`);
      diagnostics.push({
        filePath,
        severity: "warning",
        message:
          `Cannot resolve gRPC service "${name}": no .proto file in the scan root defines it`,
      });
    }
    return services;
  };
  const emit: GrpcEmit = (
    node,
    filePath,
    grammar,
    role,
    service,
    method,
    confidence,
    framework,
    owner,
  ) => {
    const { line, col } = positionOf(node);
    ports.push({
      ref: {
        mechanism: "grpc",
        role,
        key: grpcKey(service, method),
        line,
        col,
        confidence,
        detail: { service: service.fullName, method, framework },
      },
      owner: ownerOf(owner ?? node, filePath, grammar),
      filePath,
    });
  };
  const ctx: GrpcContext = {
    resolve,
    emit,
    emitHttp: (port) => ports.push(port),
    diagnostics,
  };
  const go = files.filter((f) => f.path.endsWith(".go"));
  if (
    go.some((f) =>
      /Register\w+(Server|Handler)|New\w*Client|New\w+Handler/.test(f.text)
    )
  ) {
    await goGrpc(go, ctx);
  }
  const py = files.filter((f) => f.path.endsWith(".py"));
  if (py.some((f) => /_to_server|Stub\(/.test(f.text))) {
    await pythonGrpc(py, ctx);
  }
  for (const file of files) {
    if (/\.[cm]?[jt]sx?$/.test(file.path)) {
      if (
        !/["'](@grpc\/[\w-]+|grpc|[^"']*_grpc_pb(\.js)?)["']/.test(file.text)
      ) {
        continue;
      }
      const grammar: GrammarName = file.path.endsWith(".tsx")
        ? "tsx"
        : /\.[cm]?ts$/.test(file.path)
        ? "typescript"
        : "javascript";
      await withTree(
        file,
        grammar,
        ctx,
        (root) => jsGrpc(root, file.path, grammar, ctx),
      );
    } else if (file.path.endsWith(".java")) {
      if (!/ImplBase|Grpc\.new\w*Stub|Grpc\.\w+Stub/.test(file.text)) continue;
      await withTree(
        file,
        "java",
        ctx,
        (root) => javaGrpc(root, file.path, ctx),
      );
    } else if (/\.(cc|cpp|cxx|h|hh|hpp)$/.test(file.path)) {
      if (!/::(?:Callback)?Service\b|::NewStub\s*\(/.test(file.text)) continue;
      await withTree(file, "cpp", ctx, (root) => cppGrpc(root, file.path, ctx));
    } else if (file.path.endsWith(".cs")) {
      if (!/MapGrpcService|Base\b|Client\b/.test(file.text)) continue;
      await withTree(
        file,
        "c-sharp",
        ctx,
        (root) => csharpGrpc(root, file, files, ctx),
      );
    }
  }
  return { ports, diagnostics };
}

async function withTree(
  file: SourceFile,
  grammar: GrammarName,
  ctx: GrpcContext,
  run: (root: Node) => void,
): Promise<void> {
  const tree = await parseOrReport(grammar, file, ctx.diagnostics);
  if (!tree) return;
  try {
    run(tree.rootNode);
  } finally {
    tree.delete();
  }
}
