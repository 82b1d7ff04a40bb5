// ASP.NET Core controllers: attribute routes (`[Route("api/[controller]")]`
// + `[HttpGet("{id}")]`, inherited from base controllers of the scan) and
// conventional routes (`MapControllerRoute`...) for the other actions.
import { httpPort, routePorts } from "../_port/http.ts";
import { ownerOf } from "../_syntax/owner.ts";
import { namedChildren, walk } from "../_syntax/tree.ts";
import {
  addsPrefix,
  CONFIDENCE,
  exactText,
  joinPaths,
  literal,
  mapText,
} from "../_value/mod.ts";
import type { Value } from "../_value/mod.ts";
import {
  conventionalPaths,
  type ConventionalRoute,
  conventionalRoute,
  projectFolder,
} from "./conventional.ts";
import {
  attributeArgs,
  attributesOf,
  basesOf,
  type CSharpFile,
  HTTP_ATTRIBUTE,
  modifiersOf,
  namedAttributeArg,
  routeMethod,
  simpleName,
} from "./project.ts";
import type { Node } from "web-tree-sitter";

/**
 * The `[Route]` templates and `[ApiController]` a controller inherits from
 * its base classes in the scan (both attributes are inherited).
 */
export function inheritedRouting(
  c: CSharpFile,
  cls: Node,
): { templates: Node[]; api: boolean } {
  const out = { templates: [] as Node[], api: false };
  const seen = new Set<number>([cls.id]);
  let current: Node | undefined = cls;
  for (let depth = 0; current && depth < 8; depth++) {
    const first: Node | undefined = basesOf(current)[0];
    const name: string = first ? simpleName(first.text) : "";
    const base: Node | undefined = name
      ? c.classes?.(name).find((c) => !seen.has(c.id))
      : undefined;
    if (!base) break;
    seen.add(base.id);
    for (const a of attributesOf(base)) {
      const attr = simpleName(a.childForFieldName("name")?.text ?? "");
      if (attr === "ApiController") out.api = true;
      else if (attr === "Route" && out.templates.length === 0) {
        const template = attributeArgs(a)[0];
        if (template) out.templates.push(template);
      }
    }
    current = base;
  }
  return out;
}

/** The conventional routes a file's invocations register. */
export function conventionalRoutes(
  c: CSharpFile,
  root: Node,
): ConventionalRoute[] {
  const out: ConventionalRoute[] = [];
  walk(root, (n) => {
    if (n.type !== "invocation_expression") return;
    const route = conventionalRoute(
      n,
      (x) => c.evaluate(x),
      (x) => c.typeOf(x),
    );
    if (route) {
      route.folder = projectFolder(c.file.path);
      out.push(route);
      unscannedTarget(c, route);
    }
  });
  return out;
}

/**
 * The ports of a route registered for one fixed action
 * (`MapRoute("Open", "Open/Callback/{appId}", new { controller = "Open",
 * action = "Callback" })`) whose controller class is not in the scan: the
 * registration declares the URL, so each of its forms is a port (`ANY`) at
 * the call. A route whose target is in the scan gives its ports there.
 */
export function unscannedTarget(
  c: CSharpFile,
  route: ConventionalRoute,
): void {
  const controller = route.defaults.get("controller");
  const action = route.defaults.get("action");
  if (!controller || !action || !route.at) return;
  const params = new Set<string>();
  for (const segment of route.segments) {
    for (const p of segment) {
      if (p.kind === "param") params.add(p.name);
    }
  }
  if (params.has("controller") || params.has("action")) return;
  if (c.classes?.(controller + "Controller").length !== 0) return;
  const at = route.at;
  const owner = ownerOf(at, c.file.path, "c-sharp");
  const paths = conventionalPaths(route, {
    controller,
    action,
    parameters: params,
    ...(route.area === undefined ? {} : { area: route.area }),
  });
  for (const path of paths) {
    const port = httpPort({
      role: "server",
      method: "ANY",
      path,
      node: at,
      owner,
      filePath: c.file.path,
      confidence: CONFIDENCE.composed,
      framework: "aspnet",
      extra: {
        routing: "conventional",
        route: route.name,
        pattern: route.pattern,
      },
    });
    if (port) c.ports.push(port);
  }
}

/** `[Route]` prefixes + `[HttpGet("{id}")]` actions of a controller. */
export function controller(
  c: CSharpFile,
  cls: Node,
): void {
  const className = cls.childForFieldName("name")?.text ?? "";
  const controllerName = className.endsWith("Controller")
    ? className.slice(0, -"Controller".length)
    : className;
  const prefixes: Value[] = [];
  let isController = className.endsWith("Controller");
  let area = "{}";
  let areaName: string | undefined;
  let api = false;
  let nonController = false;
  let classRoute = false;
  for (const a of attributesOf(cls)) {
    const name = simpleName(a.childForFieldName("name")?.text ?? "");
    if (name === "ApiController" || name === "Controller") {
      isController = true;
      api ||= name === "ApiController";
    } else if (name === "NonController") {
      nonController = true;
    } else if (name === "Area") {
      const value = attributeArgs(a)[0];
      const text = value ? exactText(c.evaluate(value)) : undefined;
      if (text) area = areaName = text;
    } else if (name === "Route" || name === "RoutePrefix") {
      // `[RoutePrefix]` (ASP.NET MVC 5, Web API 2) prefixes the actions'
      // own `[Route]`s without routing the others.
      const template = attributeArgs(a)[0];
      if (template) prefixes.push(c.evaluate(template));
      isController = true;
      classRoute ||= name === "Route";
    }
  }
  if (!isController || nonController) return;
  if (c.classes && prefixes.length === 0) {
    const inherited = inheritedRouting(c, cls);
    api ||= inherited.api;
    for (const t of inherited.templates) prefixes.push(c.evaluate(t));
    classRoute = prefixes.length > 0;
  }
  // Without a class `[Route]`, only actions with their own template are
  // attribute-routed; the others follow the conventional routes.
  const classRouted = classRoute;
  if (prefixes.length === 0) prefixes.push(literal(""));
  // A Web API 2 controller (`: ApiController`) follows `MapHttpRoute`s only.
  const webApi = simpleName(basesOf(cls)[0]?.text ?? "") === "ApiController";
  const modifiers = modifiersOf(cls);
  const conventional = !classRouted && !api &&
    modifiers.has("public") && !modifiers.has("abstract") &&
    !modifiers.has("static") && c.conventional.length > 0 &&
    !namedChildren(cls).some((c) => c.type === "type_parameter_list");
  const body = cls.childForFieldName("body");
  for (const member of body ? namedChildren(body) : []) {
    if (member.type !== "method_declaration") continue;
    const action = member.childForFieldName("name")?.text ?? "";
    const routes: Array<{ node: Node; verb: string; template?: Node }> = [];
    const localRoutes: Node[] = [];
    for (const a of attributesOf(member)) {
      const name = simpleName(a.childForFieldName("name")?.text ?? "");
      const verb = HTTP_ATTRIBUTE[name];
      if (verb) {
        const template = attributeArgs(a)[0];
        routes.push(
          template ? { node: a, verb, template } : { node: a, verb },
        );
      } else if (name === "Route") {
        const template = attributeArgs(a)[0];
        if (template) localRoutes.push(template);
      } else if (name === "AcceptVerbs") {
        // `[AcceptVerbs("PUT", "POST", Route = "transfer")]`
        const template = namedAttributeArg(a, "Route");
        for (const arg of attributeArgs(a)) {
          const verb = routeMethod(c, arg);
          if (!verb) continue;
          routes.push(
            template ? { node: a, verb, template } : { node: a, verb },
          );
        }
      }
    }
    if (routes.length === 0 && localRoutes.length > 0) {
      for (const template of localRoutes) {
        routes.push({ node: template, verb: "ANY", template });
      }
    } else if (localRoutes.length > 0) {
      // `[HttpGet] [Route("x")]`: the verb applies to each route template.
      const verbs = routes.filter((r) => !r.template);
      for (const r of verbs) {
        routes.splice(routes.indexOf(r), 1);
        for (const template of localRoutes) {
          routes.push({ node: r.node, verb: r.verb, template });
        }
      }
    }
    const owner = ownerOf(member, c.file.path, "c-sharp");
    if (!classRouted && !routes.some((r) => r.template)) {
      if (conventional) {
        conventionalAction(c, member, routes, controllerName, areaName, webApi);
      }
      continue;
    }
    for (const route of routes) {
      const template = route.template
        ? c.evaluate(route.template)
        : literal("");
      const templateText = exactText(template) ?? "";
      const absolute = templateText.startsWith("/") ||
        templateText.startsWith("~/");
      for (const prefix of absolute ? [literal("")] : prefixes) {
        const joined = mapText(
          joinPaths(prefix, template),
          (text) =>
            text.replace(/^\/*~/, "")
              .replaceAll("[controller]", controllerName)
              .replaceAll("[action]", action)
              .replaceAll("[area]", area),
        );
        c.ports.push(...routePorts({
          methods: [route.verb],
          path: joined,
          prefixed: addsPrefix(prefix),
          node: route.node.parent ?? route.node,
          owner,
          filePath: c.file.path,
          framework: "aspnetcore",
        }));
      }
    }
  }
}

/**
 * The ports of a public action of a controller that is not
 * attribute-routed: one per HTTP method (`[HttpPost]` without a template;
 * none: `ANY`) and per URL form of each conventional route that reaches it
 * (see {@linkcode conventionalPaths}).
 */
export function conventionalAction(
  c: CSharpFile,
  method: Node,
  verbs: ReadonlyArray<{ node: Node; verb: string }>,
  controller: string,
  area: string | undefined,
  webApi = false,
): void {
  const modifiers = modifiersOf(method);
  if (
    !modifiers.has("public") || modifiers.has("static") ||
    modifiers.has("abstract") || modifiers.has("override") ||
    method.childForFieldName("type_parameters") ||
    namedChildren(method).some((c) => c.type === "type_parameter_list")
  ) return;
  const nameNode = method.childForFieldName("name");
  if (!nameNode) return;
  let action = nameNode.text;
  if (action.endsWith("Async") && action.length > 5) {
    action = action.slice(0, -5);
  }
  for (const a of attributesOf(method)) {
    const name = simpleName(a.childForFieldName("name")?.text ?? "");
    if (name === "NonAction") return;
    if (name === "ActionName") {
      const value = attributeArgs(a)[0];
      const text = value ? exactText(c.evaluate(value)) : undefined;
      if (text) action = text;
    }
  }
  const params = method.childForFieldName("parameters");
  const parameters = new Set(
    (params ? namedChildren(params) : []).map((p) =>
      p.childForFieldName("name")?.text.toLowerCase() ?? ""
    ),
  );
  const owner = ownerOf(method, c.file.path, "c-sharp");
  // A Web API action without a verb attribute answers the method its name
  // starts with (`GetById`), else POST.
  const named = /^(Get|Post|Put|Delete|Patch|Head|Options)/.exec(nameNode.text);
  const fallback = webApi ? named?.[1]?.toUpperCase() ?? "POST" : "ANY";
  const anchors = verbs.length > 0
    ? verbs.map((v) => ({ node: v.node.parent ?? v.node, verb: v.verb }))
    : [{ node: nameNode, verb: fallback }];
  const seen = new Set<string>();
  for (const route of c.conventional) {
    if ((route.webApi ?? false) !== webApi) continue;
    const paths = conventionalPaths(route, {
      controller,
      action,
      parameters,
      ...(area === undefined ? {} : { area }),
    });
    for (const path of paths) {
      for (const { node, verb } of anchors) {
        const port = httpPort({
          role: "server",
          method: verb,
          path,
          node,
          owner,
          filePath: c.file.path,
          confidence: route.assumed ? CONFIDENCE.weak : CONFIDENCE.composed,
          framework: "aspnetcore",
          extra: {
            routing: "conventional",
            route: route.name,
            pattern: route.pattern,
          },
        });
        if (!port || seen.has(port.ref.key)) continue;
        seen.add(port.ref.key);
        c.ports.push(port);
      }
    }
  }
}
