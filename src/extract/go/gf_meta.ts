// GoFrame standard routing: `group.Bind(controller)` serves one route per
// method of the controller whose request type (the second parameter of
// `func (c *C) M(ctx context.Context, req *v1.XReq) (*v1.XRes, error)`)
// embeds `g.Meta` with a tag `path:"/user/get" method:"get"`: the path under
// the group's prefix, the methods a comma list (none or `all`: every
// method). Each route is reported at its controller method.
import { findAll, namedChildren, type Node } from "../_syntax/compact_tree.ts";
import { literal } from "../_value/mod.ts";
import type { GoProject } from "./project.ts";
import { normalizeImport } from "./declarations.ts";
import { receiverOf } from "./callees.ts";
import { argumentsOf, type PendingRoute, type Routers } from "./routers.ts";

// `g.Meta`, an alias of `gmeta.Meta`
const META: ReadonlySet<string> = new Set([
  "github.com/gogf/gf/frame/g.Meta",
  "github.com/gogf/gf/util/gmeta.Meta",
]);
const MAX_METHODS = 500;
const RETURNS: ReadonlySet<string> = new Set(["return_statement"]);

/** The routes a GoFrame `Bind(controller, ...)` call serves. */
export function gfBindRoutes(
  call: Node,
  project: GoProject,
  routers: Routers,
): PendingRoute[] {
  const receiver = receiverOf(call, "Bind");
  if (!receiver) return [];
  const refs = routers.refs(receiver)
    .filter((r) => r.root.framework === "gf");
  if (refs.length === 0) return [];
  const out: PendingRoute[] = [];
  for (const controller of argumentsOf(call)) {
    const methods = controllerMethods(controller, project);
    for (const method of [...methods?.values() ?? []].slice(0, MAX_METHODS)) {
      const meta = metaOf(method, project);
      if (!meta) continue;
      out.push({
        call: method,
        refs,
        methods: meta.methods,
        path: literal(meta.path),
        raw: meta.raw,
        confidence: 1,
        framework: "gf",
      });
    }
  }
  return out;
}

/**
 * The methods of a controller: of its type, or, for a constructor that
 * returns an interface (`hello.NewV1()` as `gf gen ctrl` writes it), of
 * the values it returns (`&ControllerV1{}`).
 */
function controllerMethods(
  controller: Node,
  project: GoProject,
): Map<string, Node> | undefined {
  const type = project.typeOf(controller);
  const methods = type ? project.methodsOf(type) : undefined;
  if (methods?.size || controller.type !== "call_expression") return methods;
  const callee = controller.childForFieldName("function");
  const qualified = project.qualified(callee);
  const fn = qualified
    ? project.packageFunction(qualified[0], qualified[1])
    : callee?.type === "identifier"
    ? project.functionNamed(controller, callee.text)
    : undefined;
  for (const ret of fn ? findAll(fn, RETURNS) : []) {
    const value = namedChildren(namedChildren(ret)[0] ?? ret)[0];
    const returned = value ? project.typeOf(value) : undefined;
    const found = returned ? project.methodsOf(returned) : undefined;
    if (found?.size) return found;
  }
  return methods;
}

/** The route tag of the request type of a controller method, if any. */
function metaOf(
  method: Node,
  project: GoProject,
): { path: string; methods: string[]; raw: string } | undefined {
  const params = namedChildren(
    method.childForFieldName("parameters") ?? method,
  ).filter((p) => p.type === "parameter_declaration");
  // (ctx context.Context, req *v1.XReq): the request is the second
  const names = params.flatMap((p) => {
    const count = p.childrenForFieldName("name").length;
    return Array.from({ length: Math.max(count, 1) }, () => p);
  });
  if (names.length !== 2) return undefined;
  const request = project.typeFromNode(names[1]?.childForFieldName("type"));
  const struct = request ? project.structOf(request) : undefined;
  const fields = struct
    ? namedChildren(namedChildren(struct)[0] ?? struct)
    : [];
  for (const field of fields) {
    if (field.type !== "field_declaration") continue;
    if (field.childrenForFieldName("name").length) continue;
    const type = project.typeFromNode(field.childForFieldName("type"));
    if (!type || !META.has(`${normalizeImport(type.pkg)}.${type.name}`)) {
      continue;
    }
    const tag = field.childForFieldName("tag")?.text ?? "";
    const path = /(?:^|[\s`])path:"([^"]*)"/.exec(tag)?.[1];
    if (!path?.startsWith("/")) return undefined;
    const verbs = (/(?:^|[\s`])method:"([^"]*)"/.exec(tag)?.[1] ?? "")
      .split(",").map((v) => v.trim().toUpperCase()).filter((v) => v);
    if (!verbs.every((v) => /^[A-Z]+$/.test(v))) return undefined;
    return {
      path,
      methods: verbs.length === 0 || verbs.includes("ALL") ? ["ANY"] : verbs,
      raw: tag,
    };
  }
  return undefined;
}
