// Spring Cloud Gateway routes declared in Java (`RouteLocatorBuilder`):
// `builder.routes().route("id", r -> r.path("/api/**").and().method("GET")
// .filters(f -> f.stripPrefix(1)).uri("lb://customers"))`, read as gateway
// route records.
import type { Node } from "web-tree-sitter";
import type { GatewayRoute } from "../_port/gateway.ts";
import { positionOf, walk } from "../_syntax/tree.ts";
import { keyText } from "../_value/mod.ts";
import { targetOf } from "../_spring/gateway.ts";
import { type JavaFile, javaString } from "./project.ts";
import { invocation } from "./route_at.ts";

/** Whether a file declares gateway routes in code. */
export function declaresGatewayRoutes(text: string): boolean {
  return text.includes("RouteLocatorBuilder");
}

/** The gateway routes a Java file declares. */
export function javaGatewayRoutes(
  c: JavaFile,
  root: Node,
  gateway: string,
): GatewayRoute[] {
  const out: GatewayRoute[] = [];
  walk(root, (node) => {
    const call = invocation(node);
    if (call?.name !== "route") return;
    const { args } = call;
    const lambda = args[args.length - 1];
    if (lambda?.type !== "lambda_expression") return;
    const id = args.length === 2 ? keyText(c.evaluate(args[0])) : "";
    const spec = readSpec(c, lambda.childForFieldName("body"));
    if (!spec.uri) return;
    const line = positionOf(node.childForFieldName("name") ?? node).line;
    for (const path of spec.paths) {
      for (const method of spec.methods.length > 0 ? spec.methods : ["ANY"]) {
        out.push({
          gateway,
          id,
          path,
          method,
          target: targetOf(spec.uri),
          uri: spec.uri,
          stripPrefix: spec.stripPrefix,
          ...(spec.rewrite ? { rewrite: spec.rewrite } : {}),
          ...(spec.setPath !== undefined ? { setPath: spec.setPath } : {}),
          ...(spec.prefixPath !== undefined
            ? { prefixPath: spec.prefixPath }
            : {}),
          filePath: c.file.path,
          line,
          framework: "spring-cloud-gateway",
        });
      }
    }
  });
  return out;
}

interface Spec {
  paths: string[];
  methods: string[];
  uri: string;
  stripPrefix: number;
  rewrite?: GatewayRoute["rewrite"];
  setPath?: string;
  prefixPath?: string;
}

/** Reads a route's predicate and filter chain (`r.path(...)...uri(...)`). */
function readSpec(c: JavaFile, body: Node | null): Spec {
  const spec: Spec = { paths: [], methods: [], uri: "", stripPrefix: 0 };
  // literal text as written: `${segment}` in a rewrite is no placeholder
  const texts = (call: Node): string[] =>
    (call.childForFieldName("arguments")?.namedChildren ?? [])
      .filter((a): a is Node => a !== null)
      .map((a) =>
        a.type === "string_literal"
          ? javaString(a)
          : /_literal$/.test(a.type)
          ? a.text
          : keyText(c.evaluate(a))
      );
  let n: Node | null = body;
  for (let i = 0; n?.type === "method_invocation" && i < 64; i++) {
    const name = n.childForFieldName("name")?.text ?? "";
    const args = n.childForFieldName("arguments")?.namedChildren ?? [];
    if (name === "path") spec.paths.push(...texts(n));
    else if (name === "method") {
      spec.methods.push(
        ...args.map((a) =>
          (a?.text ?? "").replace(/^.*\./, "").replace(/"/g, "").toUpperCase()
        ),
      );
    } else if (name === "uri") spec.uri = texts(n)[0] ?? "";
    else if (name === "filters") {
      const lambda = args[0];
      if (lambda?.type === "lambda_expression") {
        readFilters(lambda.childForFieldName("body"), spec, texts);
      }
    }
    n = n.childForFieldName("object");
  }
  return spec;
}

function readFilters(
  body: Node | null,
  spec: Spec,
  texts: (call: Node) => string[],
): void {
  let n: Node | null = body;
  for (let i = 0; n?.type === "method_invocation" && i < 64; i++) {
    const name = n.childForFieldName("name")?.text ?? "";
    const values = texts(n);
    if (name === "stripPrefix") spec.stripPrefix = Number(values[0]) || 0;
    else if (name === "rewritePath" && values.length >= 2) {
      spec.rewrite = {
        pattern: values[0]!,
        replacement: values[1]!.replace(/\$\\?\{([^}]+)\}/g, "$<$1>"),
      };
    } else if (name === "setPath" && values[0] !== undefined) {
      spec.setPath = values[0];
    } else if (name === "prefixPath" && values[0] !== undefined) {
      spec.prefixPath = values[0];
    }
    n = n.childForFieldName("object");
  }
}
