// gRPC port records: the context the per-language gRPC readers get (service
// resolution through the `.proto` index, the port emitter) and the two
// shapes every language shares, a registered implementation and a stub call.
import type { ExtractDiagnostic } from "../extractor.ts";
import type { GrammarName } from "../_syntax/parser.ts";
import type { Node } from "../_syntax/compact_tree.ts";
import { CONFIDENCE } from "../_value/confidence.ts";
import { type ProtoService, rpcNamed } from "./proto.ts";
import type { ExtractedPort } from "../types.ts";

/** Adds one gRPC port. */
export type GrpcEmit = (
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

/** What a language's gRPC reader gets from the extractor. */
export interface GrpcContext {
  /** The services a name in code refers to (a warning when there is none). */
  resolve(name: string, filePath: string, qualifier?: string): ProtoService[];
  /** Adds a port. */
  emit: GrpcEmit;
  /** Adds an HTTP port (a gateway serving RPCs over HTTP). */
  emitHttp?: (port: ExtractedPort) => void;
  /** Where parse problems go. */
  diagnostics: ExtractDiagnostic[];
}

/** Confidence for a service name that matched several `.proto` services. */
export function serviceConfidence(
  services: readonly ProtoService[],
  base: number,
): number {
  return services.length > 1 ? Math.min(base, CONFIDENCE.weak) : base;
}

/** Where a language's code element sits: node, file and grammar. */
export interface GrpcSite {
  node: Node;
  filePath: string;
  grammar: GrammarName;
}

/**
 * The server ports of one registered implementation: for each service, a
 * port per RPC the implementation defines (at its method), or, when none
 * can be seen, every RPC of the service at the registration (partial
 * confidence).
 */
export function emitImplementation(
  ctx: GrpcContext,
  services: readonly ProtoService[],
  registration: GrpcSite,
  framework: string,
  implemented: (service: ProtoService) => Array<[string, GrpcSite]>,
  confidence: number = CONFIDENCE.literal,
): void {
  for (const service of services) {
    const found = implemented(service);
    for (const [rpc, at] of found) {
      ctx.emit(
        at.node,
        at.filePath,
        at.grammar,
        "server",
        service,
        rpc,
        serviceConfidence(services, confidence),
        framework,
      );
    }
    if (found.length > 0) continue;
    for (const rpc of service.methods) {
      ctx.emit(
        registration.node,
        registration.filePath,
        registration.grammar,
        "server",
        service,
        rpc,
        serviceConfidence(services, CONFIDENCE.partial),
        framework,
      );
    }
  }
}

/**
 * The client port of a stub call: the RPC `method` names in each service
 * (`exact`: spelled as in the `.proto` file; otherwise also `getOrder` for
 * `GetOrder`).
 */
export function emitStubCall(
  ctx: GrpcContext,
  services: readonly ProtoService[],
  call: GrpcSite,
  method: string,
  framework: string,
  exact = false,
): void {
  for (const service of services) {
    const rpc = exact
      ? (service.methods.includes(method) ? method : undefined)
      : rpcNamed(service, method);
    if (!rpc) continue;
    ctx.emit(
      call.node,
      call.filePath,
      call.grammar,
      "client",
      service,
      rpc,
      serviceConfidence(services, CONFIDENCE.literal),
      framework,
    );
  }
}

/**
 * The implementation reader of methods known by name: the RPCs of a service
 * they implement (a name read as {@linkcode rpcNamed} reads it), each at its
 * method's node in the registration's file.
 */
export function namedMethodRpcs(
  registration: GrpcSite,
  methods: ReadonlyArray<readonly [string, Node]>,
): (service: ProtoService) => Array<[string, GrpcSite]> {
  return (service) => {
    const out: Array<[string, GrpcSite]> = [];
    for (const [name, node] of methods) {
      const rpc = rpcNamed(service, name);
      if (rpc) out.push([rpc, { ...registration, node }]);
    }
    return out;
  };
}
