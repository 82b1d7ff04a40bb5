// beego routes (v1 `github.com/astaxie/beego`, v2 `.../server/web`):
// `web.Get("/x", fn)` and friends, `web.Router("/x", &C{}, "get,post:Save")`
// (without a mapping: the HTTP methods the controller defines, `Get`,
// `Post`...), and the same under namespaces (`web.NewNamespace("/v1",
// web.NSRouter(...), web.NSNamespace("/x", ...))`).
import type { Node } from "../_syntax/compact_tree.ts";
import type { Value } from "../_value/mod.ts";
import { CONFIDENCE, exactText, joinPaths, literal } from "../_value/mod.ts";
import { goRoutePort, prefixedRoutePath } from "./route_port.ts";
import type { ExtractedPort } from "../types.ts";
import type { GoProject } from "./project.ts";
import { normalizeImport } from "./declarations.ts";
import { argumentsOf, CHI_VERBS } from "./routers.ts";

const BEEGO = [
  "github.com/astaxie/beego",
  "github.com/beego/beego/server/web",
  "github.com/beego/beego",
];
const MAX_DEPTH = 8;

/** The routes a beego registration function call makes. */
export function beegoRoutes(call: Node, project: GoProject): ExtractedPort[] {
  const name = beegoFunction(call, project);
  if (!name) return [];
  const registration = name.replace(/^NS/, "");
  if (registration === "Namespace" || name === "NewNamespace") return [];
  const [pathNode, target, mapping] = argumentsOf(call);
  const path = project.evalString(pathNode);
  if (!path) return [];
  let methods: string[];
  let confidence: number = CONFIDENCE.literal;
  if (registration === "Router") {
    const mapped = mappingMethods(project, mapping);
    methods = mapped ?? controllerMethods(target, project);
    if (!methods.length) {
      methods = ["ANY"];
      confidence = CONFIDENCE.weak;
    }
  } else if (registration === "Any") methods = ["ANY"];
  else if (CHI_VERBS.has(registration)) methods = [registration.toUpperCase()];
  else return [];
  const prefix = namespacePrefix(call, project);
  if (!prefix) return [];
  const result = prefixedRoutePath(prefix, path);
  const out: ExtractedPort[] = [];
  for (const method of methods) {
    const port = goRoutePort(project, {
      at: call,
      method,
      path: result,
      confidence,
      framework: "beego",
    });
    if (port) out.push(port);
  }
  return out;
}

/** `web.Router` → `Router`, when the callee is a function of beego. */
function beegoFunction(call: Node, project: GoProject): string | undefined {
  const qualified = project.qualified(call.childForFieldName("function"));
  return qualified && BEEGO.includes(normalizeImport(qualified[0]))
    ? qualified[1]
    : undefined;
}

/** `"get,post:Save;put:Update"` → `GET`, `POST`, `PUT` (`*` → `ANY`). */
function mappingMethods(
  project: GoProject,
  node: Node | undefined,
): string[] | undefined {
  if (!node) return undefined;
  const text = exactText(project.evalString(node));
  if (text === undefined) return undefined;
  const out = new Set<string>();
  for (const rule of text.split(";")) {
    const verbs = rule.split(":")[0] ?? "";
    for (const verb of verbs.split(",")) {
      const v = verb.trim();
      if (v === "*") out.add("ANY");
      else if (/^[A-Za-z]+$/.test(v)) out.add(v.toUpperCase());
    }
  }
  return out.size ? [...out] : undefined;
}

/** The HTTP methods a controller implements (`Get`, `Post`...). */
function controllerMethods(
  target: Node | undefined,
  project: GoProject,
): string[] {
  const type = project.typeOf(target);
  const methods = type ? project.methodsOf(type) : undefined;
  if (!methods) return [];
  return [...CHI_VERBS].filter((verb) => methods.has(verb))
    .map((verb) => verb.toUpperCase());
}

/** The prefixes of the namespaces a registration is an argument of. */
function namespacePrefix(call: Node, project: GoProject): Value | undefined {
  let prefix: Value = literal("");
  let current: Node = call;
  for (let depth = 0; depth < MAX_DEPTH; depth++) {
    const list = current.parent;
    const outer = list?.type === "argument_list" ? list.parent : undefined;
    if (outer?.type !== "call_expression") return prefix;
    const name = beegoFunction(outer, project);
    if (name !== "NewNamespace" && name !== "NSNamespace") return prefix;
    const own = project.evalString(argumentsOf(outer)[0]);
    if (!own) return undefined;
    prefix = joinPaths(own, prefix);
    current = outer;
  }
  return prefix;
}
