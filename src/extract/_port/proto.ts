// Reads the gRPC services of `.proto` files (with protobufjs's parser) and
// resolves a service name seen in code to its `package.Service` and RPCs.
import protobuf from "protobufjs";
import type { ExtractDiagnostic, SourceFile } from "../extractor.ts";
import { parseFailure } from "../_syntax/passes.ts";

/** One gRPC service of a `.proto` file. */
export interface ProtoService {
  /** The proto package, `""` when the file has none. */
  pkg: string;
  /** The service name. */
  name: string;
  /** `package.Service`. */
  fullName: string;
  /** RPC names as spelled in the `.proto` file. */
  methods: string[];
  /** The `.proto` file. */
  filePath: string;
  /**
   * The HTTP bindings of RPCs (`option (google.api.http)`, as grpc-gateway
   * and Kratos serve them), by RPC name.
   */
  http?: Map<string, HttpBinding[]>;
}

/** One HTTP binding of an RPC: `get: "/v1/items/{id}"`. */
export interface HttpBinding {
  /** The HTTP method, upper case. */
  verb: string;
  /** The path template. */
  path: string;
}

/** The services of every `.proto` file of a scan root. */
export class ProtoIndex {
  #byName = new Map<string, ProtoService[]>();

  /** Parses `.proto` files; unparseable ones become diagnostics. */
  static parse(
    files: readonly SourceFile[],
    diagnostics: ExtractDiagnostic[],
  ): ProtoIndex {
    const index = new ProtoIndex();
    for (const file of files) {
      let root: protobuf.Root;
      let pkg: string;
      try {
        const parsed = protobuf.parse(file.text, { keepCase: true });
        root = parsed.root;
        pkg = parsed.package ?? "";
      } catch (error) {
        diagnostics.push(parseFailure(file.path, error));
        continue;
      }
      const visit = (
        namespace: protobuf.NamespaceBase,
        path: string[],
      ): void => {
        for (const nested of namespace.nestedArray) {
          if (nested instanceof protobuf.Service) {
            const service: ProtoService = {
              pkg,
              name: nested.name,
              fullName: [...path, nested.name].join("."),
              methods: Object.keys(nested.methods),
              filePath: file.path,
            };
            const http = httpBindingsOf(nested);
            if (http.size) service.http = http;
            const list = index.#byName.get(nested.name) ?? [];
            // the same service copied into several trees is one service
            const same = list.find((s) => s.fullName === service.fullName);
            if (same) {
              for (const method of service.methods) {
                if (!same.methods.includes(method)) same.methods.push(method);
              }
              for (const [rpc, bindings] of service.http ?? []) {
                same.http ??= new Map();
                if (!same.http.has(rpc)) same.http.set(rpc, bindings);
              }
            } else list.push(service);
            index.#byName.set(nested.name, list);
          } else if (nested instanceof protobuf.Namespace) {
            visit(nested, [...path, nested.name]);
          }
        }
      };
      visit(root, []);
    }
    return index;
  }

  /** Whether any service is known. */
  get empty(): boolean {
    return this.#byName.size === 0;
  }

  /**
   * The services a name refers to. `qualifier` (dotted segments written
   * before the name in code, e.g. `shop.v1`) narrows the candidates when it
   * matches the end of a package.
   */
  resolve(name: string, qualifier = ""): ProtoService[] {
    const candidates = this.#byName.get(name) ?? [];
    if (candidates.length <= 1 || qualifier === "") return candidates;
    const narrowed = candidates.filter((s) =>
      s.pkg === qualifier || s.pkg.endsWith("." + qualifier) ||
      qualifier.endsWith(s.pkg)
    );
    return narrowed.length ? narrowed : candidates;
  }

  /** Whether a service of this name exists. */
  has(name: string): boolean {
    return this.#byName.has(name);
  }
}

/** The gRPC key of a method: `package.Service/Method`. */
export function grpcKey(service: ProtoService, method: string): string {
  return `${service.fullName}/${method}`;
}

/** The RPC of a service a code-side method name stands for (`getOrder` → `GetOrder`). */
export function rpcNamed(
  service: ProtoService,
  name: string,
): string | undefined {
  for (const method of service.methods) {
    if (method === name) return method;
  }
  const lower = name.toLowerCase().replaceAll("_", "");
  for (const method of service.methods) {
    if (method.toLowerCase().replaceAll("_", "") === lower) return method;
  }
  return undefined;
}

const HTTP_VERBS = ["get", "put", "post", "delete", "patch"];
const MAX_BINDINGS = 16;

/** The `(google.api.http)` bindings of each RPC of a service. */
function httpBindingsOf(service: protobuf.Service): Map<string, HttpBinding[]> {
  const out = new Map<string, HttpBinding[]>();
  for (const [name, method] of Object.entries(service.methods)) {
    const bindings: HttpBinding[] = [];
    for (const option of method.parsedOptions ?? []) {
      const rule = (option as Record<string, unknown>)["(google.api.http)"];
      collectBindings(rule, bindings, 0);
    }
    if (bindings.length) out.set(name, bindings);
  }
  return out;
}

function collectBindings(
  rule: unknown,
  into: HttpBinding[],
  depth: number,
): void {
  if (!rule || typeof rule !== "object" || depth > 2) return;
  if (Array.isArray(rule)) {
    for (const r of rule.slice(0, MAX_BINDINGS)) {
      collectBindings(r, into, depth + 1);
    }
    return;
  }
  const fields = rule as Record<string, unknown>;
  for (const verb of HTTP_VERBS) {
    const path = fields[verb];
    if (typeof path === "string" && into.length < MAX_BINDINGS) {
      into.push({ verb: verb.toUpperCase(), path });
    }
  }
  const custom = fields["custom"] as Record<string, unknown> | undefined;
  if (
    custom && typeof custom.kind === "string" &&
    typeof custom.path === "string" && into.length < MAX_BINDINGS
  ) into.push({ verb: custom.kind.toUpperCase(), path: custom.path });
  collectBindings(fields["additional_bindings"], into, depth + 1);
}
