// The RPCs a Go implementation type defines: its methods named as RPCs of
// a service, each with where it is declared.
import type { Node } from "../_syntax/compact_tree.ts";
import type { GrpcSite } from "../_port/grpc.ts";
import type { ProtoService } from "../_port/proto.ts";
import type { GoProject } from "./project.ts";

/** The RPCs of a service that `methods` define, at their declarations. */
export function implementedBy(
  methods: Map<string, Node> | undefined,
  project: GoProject,
): (service: ProtoService) => Array<[string, GrpcSite]> {
  return (service) => {
    const out: Array<[string, GrpcSite]> = [];
    for (const rpc of service.methods) {
      const decl = methods?.get(rpc);
      const declFile = decl ? project.fileOf(decl) : undefined;
      if (decl && declFile) {
        out.push([rpc, {
          node: decl,
          filePath: declFile.file.path,
          grammar: "go",
        }]);
      }
    }
    return out;
  };
}
