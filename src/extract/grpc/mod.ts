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
import { GoProject } from "../go/project.ts";
import type { GrammarName } from "../_syntax/parser.ts";
import {
  grpcKey,
  ProtoIndex,
  type ProtoService,
  rpcNamed,
} from "../_port/proto.ts";
import {
  localAssignment,
  PyProject,
  selfAttribute,
  unwrap,
} from "../python/project.ts";
import {
  CONFIDENCE_COMPOSED,
  CONFIDENCE_PARTIAL,
  CONFIDENCE_WEAK,
} from "../_value/python_go.ts";
import {
  type CompactTree,
  findAll,
  namedChildren,
  type Node,
  ownerOf,
  parseCompact,
  positionOf,
  stringValue,
} from "../_syntax/compact_tree.ts";
import type { ExtractedPort } from "../types.ts";

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
    if (path.endsWith(".pb.go") || /_pb2(_grpc)?\.pyi?$/.test(path)) {
      return false;
    }
    return /\.(proto|go|py|[cm]?[jt]sx?|java|cs)$/.test(path) &&
      !path.endsWith(".d.ts");
  },
  extract: extractGrpc,
};

type Emit = (
  node: Node,
  filePath: string,
  grammar: GrammarName,
  role: "server" | "client",
  service: ProtoService,
  method: string,
  confidence: number,
  framework: string,
  owner?: Node,
) => void;

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
  const emit: Emit = (
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
  const ctx: Context = { resolve, emit, diagnostics };
  const go = files.filter((f) => f.path.endsWith(".go"));
  if (go.some((f) => /Register\w+Server|New\w+Client/.test(f.text))) {
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

interface Context {
  resolve(name: string, filePath: string, qualifier?: string): ProtoService[];
  emit: Emit;
  diagnostics: ExtractDiagnostic[];
}

async function withTree(
  file: SourceFile,
  grammar: GrammarName,
  ctx: Context,
  run: (root: Node) => void,
): Promise<void> {
  let tree: CompactTree;
  try {
    tree = await parseCompact(grammar, file);
  } catch (error) {
    ctx.diagnostics.push({
      filePath: file.path,
      severity: "error",
      message: `Cannot parse: ${(error as Error).message}`,
    });
    return;
  }
  try {
    run(tree.rootNode);
  } finally {
    tree.delete();
  }
}

/** Confidence for a service name that matched several `.proto` services. */
function serviceConfidence(services: ProtoService[], base: number): number {
  return services.length > 1 ? Math.min(base, CONFIDENCE_WEAK) : base;
}

/**
 * A registration whose implementation cannot be seen: every RPC of the
 * service is a server port at the registration, with partial confidence.
 */
function emitWholeService(
  ctx: Context,
  node: Node,
  filePath: string,
  grammar: GrammarName,
  services: ProtoService[],
  service: ProtoService,
  framework: string,
): void {
  const confidence = serviceConfidence(services, CONFIDENCE_PARTIAL);
  for (const rpc of service.methods) {
    ctx.emit(
      node,
      filePath,
      grammar,
      "server",
      service,
      rpc,
      confidence,
      framework,
    );
  }
}

// ---------------------------------------------------------------- Go

async function goGrpc(files: SourceFile[], ctx: Context): Promise<void> {
  const project = await GoProject.load(files, ctx.diagnostics);
  try {
    for (const file of project.files) {
      const path = file.file.path;
      for (const call of project.callsIn(file)) {
        const callee = call.childForFieldName("function");
        const qualified = project.qualified(callee);
        const args = namedChildren(call.childForFieldName("arguments") ?? call)
          .filter((n) => n.type !== "comment");
        const register = qualified
          ? /^Register(\w+)Server$/.exec(qualified[1])
          : null;
        if (register?.[1]) {
          const services = ctx.resolve(register[1], path);
          const implType = project.typeOf(args[1]);
          const methods = implType ? project.methodsOf(implType) : undefined;
          for (const service of services) {
            const implemented = service.methods.filter((m) => methods?.has(m));
            if (implemented.length) {
              for (const rpc of implemented) {
                const decl = methods?.get(rpc);
                const declFile = decl ? project.fileOf(decl) : undefined;
                if (decl && declFile) {
                  ctx.emit(
                    decl,
                    declFile.file.path,
                    "go",
                    "server",
                    service,
                    rpc,
                    serviceConfidence(services, 1),
                    "grpc-go",
                  );
                }
              }
            } else {
              emitWholeService(
                ctx,
                call,
                path,
                "go",
                services,
                service,
                "grpc-go",
              );
            }
          }
          continue;
        }
        if (callee?.type !== "selector_expression" || qualified) continue;
        const type = project.typeOf(callee.childForFieldName("operand"));
        const stub = type && type.pkg !== ""
          ? /^(\w+)Client$/.exec(type.name)
          : null;
        const method = callee.childForFieldName("field")?.text;
        if (!stub?.[1] || !method || !/Client$/.test(type?.name ?? "")) {
          continue;
        }
        for (const service of ctx.resolve(stub[1], path)) {
          const rpc = service.methods.includes(method) ? method : undefined;
          if (rpc) {
            const services = ctx.resolve(stub[1], path);
            ctx.emit(
              call,
              path,
              "go",
              "client",
              service,
              rpc,
              serviceConfidence(services, 1),
              "grpc-go",
            );
          }
        }
      }
    }
  } finally {
    project.delete();
  }
}

const CALLS = {
  go: new Set(["call_expression"]) as ReadonlySet<string>,
  py: new Set(["call"]) as ReadonlySet<string>,
  js: new Set(["call_expression"]) as ReadonlySet<string>,
  java: new Set(["method_invocation"]) as ReadonlySet<string>,
  cs: new Set(["invocation_expression"]) as ReadonlySet<string>,
};

// ---------------------------------------------------------------- Python

async function pythonGrpc(files: SourceFile[], ctx: Context): Promise<void> {
  const project = await PyProject.load(files, ctx.diagnostics);
  try {
    for (const module of project.list) {
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
        if (register?.[1]) {
          const services = ctx.resolve(register[1], path);
          const [impl] = namedChildren(
            call.childForFieldName("arguments") ?? call,
          );
          const implCall = impl ? unwrap(impl) : undefined;
          let cls: Node | undefined;
          const target = implCall?.type === "call"
            ? project.resolveExpr(
              implCall.childForFieldName("function") ?? implCall,
            )
            : implCall
            ? project.resolveExpr(implCall)
            : undefined;
          if (target?.kind === "class") cls = target.node;
          else if (target?.kind === "value") {
            const value = unwrap(target.node);
            const created = value.type === "call"
              ? project.resolveExpr(
                value.childForFieldName("function") ?? value,
              )
              : undefined;
            if (created?.kind === "class") cls = created.node;
          }
          const defs = cls ? classMethods(cls) : new Map<string, Node>();
          for (const service of services) {
            const implemented = service.methods.filter((m) => defs.has(m));
            if (implemented.length && cls) {
              const clsModule = project.moduleOf(cls);
              for (const rpc of implemented) {
                const def = defs.get(rpc);
                if (def && clsModule) {
                  ctx.emit(
                    def,
                    clsModule.file.path,
                    "python",
                    "server",
                    service,
                    rpc,
                    serviceConfidence(services, 1),
                    "grpcio",
                  );
                }
              }
            } else {
              emitWholeService(
                ctx,
                call,
                path,
                "python",
                services,
                service,
                "grpcio",
              );
            }
          }
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
        for (const s of services) {
          const rpc = s.methods.includes(method) ? method : undefined;
          if (rpc) {
            ctx.emit(
              call,
              path,
              "python",
              "client",
              s,
              rpc,
              serviceConfidence(services, 1),
              "grpcio",
            );
          }
        }
      }
    }
  } finally {
    project.delete();
  }
}

/** The service name of a `<Svc>Stub(channel)` value, if `object` is one. */
function pythonStub(object: Node, project: PyProject): string | undefined {
  let value: Node | undefined;
  if (object.type === "identifier") {
    const module = project.moduleOf(object);
    value = module ? localAssignment(module, object, object.text) : undefined;
    if (!value) {
      const target = project.resolveExpr(object);
      if (target?.kind === "value") value = target.node;
    }
  } else if (
    object.type === "attribute" &&
    object.childForFieldName("object")?.text === "self"
  ) {
    value = selfAttribute(
      object,
      object.childForFieldName("attribute")?.text ?? "",
    );
  }
  if (!value) return undefined;
  value = unwrap(value);
  if (value.type !== "call") return undefined;
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
  ctx: Context,
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

function jsGrpc(
  root: Node,
  path: string,
  grammar: GrammarName,
  ctx: Context,
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
  for (const call of findAll(root, CALLS.js)) {
    const callee = call.childForFieldName("function");
    if (callee?.type !== "member_expression") continue;
    const method = callee.childForFieldName("property")?.text ?? "";
    const object = callee.childForFieldName("object");
    const args = namedChildren(call.childForFieldName("arguments") ?? call);
    if (method === "addService") {
      const segments = memberSegments(args[0] ?? null);
      if (!segments) continue;
      if (segments[segments.length - 1] === "service") segments.pop();
      const services = jsService(segments, path, ctx, "Service");
      const impl = args[1] ? jsObject(args[1], root) : undefined;
      for (const service of services) {
        const implemented = new Map<string, Node>();
        for (const [key, node] of impl ?? []) {
          const rpc = rpcNamed(service, key);
          if (rpc) implemented.set(rpc, node);
        }
        if (implemented.size) {
          for (const [rpc, node] of implemented) {
            ctx.emit(
              node,
              path,
              grammar,
              "server",
              service,
              rpc,
              serviceConfidence(services, 1),
              "grpc-js",
            );
          }
        } else {
          emitWholeService(
            ctx,
            call,
            path,
            grammar,
            services,
            service,
            "grpc-js",
          );
        }
      }
      continue;
    }
    const receiver = object?.text.replace(/^this\./, "");
    const services = receiver ? stubs.get(receiver) : undefined;
    if (!services) continue;
    for (const service of services) {
      const rpc = rpcNamed(service, method);
      if (rpc) {
        ctx.emit(
          call,
          path,
          grammar,
          "client",
          service,
          rpc,
          serviceConfidence(services, 1),
          "grpc-js",
        );
      }
    }
  }
}

function silent(
  ctx: Context,
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

// ---------------------------------------------------------------- Java

function javaGrpc(root: Node, path: string, ctx: Context): void {
  for (const cls of findAll(root, new Set(["class_declaration"]))) {
    const superclass = cls.childForFieldName("superclass")?.text ?? "";
    const match = /(\w+)Grpc\s*\.\s*(\w+)ImplBase\b/.exec(superclass);
    if (!match?.[1]) continue;
    const services = ctx.resolve(match[1], path);
    const body = cls.childForFieldName("body");
    const methods = body
      ? namedChildren(body).filter((n) => n.type === "method_declaration")
      : [];
    for (const service of services) {
      let found = 0;
      for (const method of methods) {
        const rpc = rpcNamed(
          service,
          method.childForFieldName("name")?.text ?? "",
        );
        if (!rpc) continue;
        found++;
        ctx.emit(
          method,
          path,
          "java",
          "server",
          service,
          rpc,
          serviceConfidence(services, 1),
          "grpc-java",
        );
      }
      if (found === 0) {
        emitWholeService(
          ctx,
          cls,
          path,
          "java",
          services,
          service,
          "grpc-java",
        );
      }
    }
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
  for (const call of findAll(root, CALLS.java)) {
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
    const services = ctx.resolve(serviceName, path);
    for (const service of services) {
      const rpc = rpcNamed(service, method);
      if (rpc) {
        ctx.emit(
          call,
          path,
          "java",
          "client",
          service,
          rpc,
          serviceConfidence(services, 1),
          "grpc-java",
        );
      }
    }
  }
}

// ---------------------------------------------------------------- C#

function csharpGrpc(
  root: Node,
  file: SourceFile,
  files: readonly SourceFile[],
  ctx: Context,
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
    const confidence = registered.has(name) ? 1 : CONFIDENCE_COMPOSED;
    const body = cls.childForFieldName("body");
    const methods = body
      ? namedChildren(body).filter((n) => n.type === "method_declaration")
      : [];
    for (const service of services) {
      let found = 0;
      for (const method of methods) {
        if (
          !/\boverride\b/.test(method.text.slice(0, method.text.indexOf("(")))
        ) continue;
        const rpc = rpcNamed(
          service,
          method.childForFieldName("name")?.text ?? "",
        );
        if (!rpc) continue;
        found++;
        ctx.emit(
          method,
          path,
          "c-sharp",
          "server",
          service,
          rpc,
          serviceConfidence(services, confidence),
          "grpc-dotnet",
        );
      }
      if (found === 0) {
        emitWholeService(
          ctx,
          cls,
          path,
          "c-sharp",
          services,
          service,
          "grpc-dotnet",
        );
      }
    }
  }
  // clients: new X.XClient(channel)
  const stubs = new Map<string, string>();
  for (const declarator of findAll(root, new Set(["variable_declarator"]))) {
    const name = declarator.childForFieldName("name")?.text;
    const match = /new\s+(?:[\w.]*\.)?(\w+)\.(\w+)Client\s*\(/.exec(
      declarator.text,
    );
    if (name && match?.[1] && match[1] === match[2]) stubs.set(name, match[1]);
  }
  for (const assignment of findAll(root, new Set(["assignment_expression"]))) {
    const left = assignment.childForFieldName("left")?.text.replace(
      /^this\./,
      "",
    );
    const match = /new\s+(?:[\w.]*\.)?(\w+)\.(\w+)Client\s*\(/.exec(
      assignment.childForFieldName("right")?.text ?? "",
    );
    if (left && match?.[1] && match[1] === match[2]) stubs.set(left, match[1]);
  }
  if (stubs.size === 0) return;
  for (const call of findAll(root, CALLS.cs)) {
    const callee = call.childForFieldName("function");
    if (callee?.type !== "member_access_expression") continue;
    const receiver = callee.childForFieldName("expression")?.text.replace(
      /^this\./,
      "",
    );
    const serviceName = receiver ? stubs.get(receiver) : undefined;
    const method = callee.childForFieldName("name")?.text.replace(/Async$/, "");
    if (!serviceName || !method) continue;
    const services = ctx.resolve(serviceName, path);
    for (const service of services) {
      const rpc = rpcNamed(service, method);
      if (rpc) {
        ctx.emit(
          call,
          path,
          "c-sharp",
          "client",
          service,
          rpc,
          serviceConfidence(services, 1),
          "grpc-dotnet",
        );
      }
    }
  }
}
