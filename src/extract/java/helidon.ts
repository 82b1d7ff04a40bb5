// Helidon SE routing: `routing.get("/x", handler)` on an
// `HttpRouting.Builder` or the `HttpRules` of an `HttpService`, `.any(...)`,
// and services registered under a prefix (`.register("/greet", new
// GreetService())`), also from other services.
import type { Node } from "web-tree-sitter";
import { HTTP_METHODS } from "../_port/http.ts";
import { walk } from "../_syntax/tree.ts";
import { literal } from "../_value/mod.ts";
import type { JavaFile } from "./project.ts";
import { typeName } from "./project.ts";
import { enclosingClass, invocation, serverRoute } from "./route_at.ts";

/** Whether a file uses Helidon SE's web server. */
export function usesHelidonSe(text: string): boolean {
  return text.includes("io.helidon.webserver");
}

/** Where a service class is registered: the class that does it, the path. */
interface Registration {
  parent: string | undefined;
  path: string;
}

/** The deepest chain of registrations followed. */
const MAX_DEPTH = 8;
/** The most prefixes one service is reported under. */
const MAX_PREFIXES = 32;

/** The services the scan registers under a prefix, by class name. */
export class HelidonIndex {
  readonly #registered = new Map<string, Registration[]>();

  /** Collects the `.register("/p", new S())` calls of one file. */
  collect(root: Node, text: (node: Node) => string | undefined): void {
    walk(root, (node) => {
      const call = invocation(node);
      if (call?.name !== "register") return;
      const { args } = call;
      const [first, service] = args;
      if (args.length !== 2 || service?.type !== "object_creation_expression") {
        return;
      }
      const path = first ? text(first) : undefined;
      if (path === undefined) return;
      const cls = typeName(service.childForFieldName("type"));
      const list = this.#registered.get(cls) ?? [];
      if (list.length < MAX_PREFIXES) {
        list.push({ parent: enclosingClass(node), path });
      }
      this.#registered.set(cls, list);
    });
  }

  /** The prefixes a service class's routes are served under. */
  prefixes(cls: string | undefined, depth = 0): string[] {
    const list = cls ? this.#registered.get(cls) : undefined;
    if (!list || depth >= MAX_DEPTH) return [""];
    const out = new Set<string>();
    for (const r of list) {
      for (const outer of this.prefixes(r.parent, depth + 1)) {
        if (out.size < MAX_PREFIXES) out.add(outer + r.path);
      }
    }
    return [...out];
  }
}

/** The declared types of Helidon's routing receivers. */
const RECEIVERS =
  /^(HttpRouting\.Builder|HttpRules|Routing\.Builder|Routing\.Rules|Rules)$/;

/** The routes of one file's routing builders and services. */
export function helidonRoutes(c: JavaFile, root: Node): void {
  walk(root, (node) => {
    const call = invocation(node);
    if (!call) return;
    const { name, args } = call;
    const verb = name === "any" ? "ANY" : name.toUpperCase();
    if (!HTTP_METHODS.has(verb) && verb !== "ANY") return;
    if (name !== name.toLowerCase()) return;
    if (args.length < 2 || !args[0]) return;
    if (!onRouting(c, node)) return;
    const path = c.evaluate(args[0]);
    const head = path.parts[0];
    if (typeof head !== "string" || !head.startsWith("/")) return;
    for (const prefix of c.helidon.prefixes(enclosingClass(node))) {
      serverRoute(c, node, {
        methods: [verb],
        prefixes: prefix ? [literal(prefix)] : [],
        path,
        framework: "helidon",
      });
    }
  });
}

/** Whether a call chain starts at a routing builder or rules parameter. */
function onRouting(c: JavaFile, call: Node): boolean {
  let n: Node | null = call;
  for (let i = 0; n?.type === "method_invocation" && i < 64; i++) {
    n = n.childForFieldName("object");
  }
  if (n?.type !== "identifier") return false;
  const declared = c.findDeclaration(n.text, n)?.fullType;
  return declared !== undefined && RECEIVERS.test(declared);
}
