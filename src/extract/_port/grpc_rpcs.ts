// The RPCs of a service that an implementation defines, for
// `emitImplementation`: each RPC with the site of its definition.
import type { GrpcSite } from "./grpc.ts";
import type { ProtoService } from "./proto.ts";

/**
 * The RPCs of `service` that `siteOf` finds a definition for, each with the
 * site of that definition, in the service's order.
 */
export function implementedRpcs(
  service: ProtoService,
  siteOf: (rpc: string) => GrpcSite | undefined,
): Array<[string, GrpcSite]> {
  const out: Array<[string, GrpcSite]> = [];
  for (const rpc of service.methods) {
    const site = siteOf(rpc);
    if (site) out.push([rpc, site]);
  }
  return out;
}
