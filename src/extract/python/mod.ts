// Python HTTP servers (FastAPI, Flask, Django, Django REST framework
// routers, Flask-RESTful resources) and clients (requests, httpx, aiohttp).
// Routers are followed across modules: FastAPI `include_router` and Flask
// `register_blueprint` prefixes compose with the router's own prefix, Django
// `include()` prefixes compose along the URLconf tree (also over DRF
// `router.urls`).
import { httpBoundaryKey } from "../../boundary/http_path.ts";
import type {
  ExtractDiagnostic,
  ExtractResult,
  LanguageExtractor,
  SourceFile,
} from "../extractor.ts";
import {
  argument,
  keywordArg,
  localAssignment,
  positionalArgs,
  PyProject,
  selfAttribute,
  unwrap,
} from "./project.ts";
import {
  clientPath,
  CONFIDENCE,
  exactText,
  hole,
  isEmpty,
  joinPaths,
  literal,
  routePath,
  textOf,
  type Value,
} from "../_value/mod.ts";
import {
  namedChildren,
  type Node,
  ownerOf,
  positionOf,
} from "../_syntax/compact_tree.ts";
import {
  djangoRoute,
  type DjangoUrls,
  drfPorts,
  enclosingRoutePrefix,
  flaskRestfulPorts,
  flaskRule,
} from "./rest.ts";
import type { ExtractedPort } from "../types.ts";

/**
 * Finds HTTP routes (FastAPI, Flask, Django, Django REST framework
 * routers, Flask-RESTful resources) and HTTP calls (requests, httpx,
 * aiohttp) in Python files.
 *
 * @example Usage
 * ```ts
 * import { pythonExtractor } from "@portcullis/portcullis/extract";
 * import assert from "node:assert/strict";
 *
 * const { ports } = await pythonExtractor.extract([{
 *   path: "main.py",
 *   text: 'from fastapi import FastAPI\napp = FastAPI()\n\n@app.get("/health")\ndef health():\n    return {}\n',
 * }]);
 * assert.equal(ports[0]?.ref.key, "GET /health");
 * ```
 */
export const pythonExtractor: LanguageExtractor = {
  name: "python",
  accepts(path: string): boolean {
    return path.endsWith(".py") && !/_pb2(_grpc)?\.py$/.test(path);
  },
  extract: extractPython,
};

const VERBS: ReadonlySet<string> = new Set([
  "get",
  "post",
  "put",
  "delete",
  "patch",
  "options",
  "head",
  "trace",
]);
const ROUTER_CONSTRUCTORS: ReadonlyMap<string, "fastapi" | "flask"> = new Map([
  ["fastapi.FastAPI", "fastapi"],
  ["fastapi.APIRouter", "fastapi"],
  ["fastapi.routing.APIRouter", "fastapi"],
  ["fastapi.applications.FastAPI", "fastapi"],
  ["flask.Flask", "flask"],
  ["flask.Blueprint", "flask"],
  ["flask.blueprints.Blueprint", "flask"],
]);
const CLIENT_CONSTRUCTORS: ReadonlyMap<string, string> = new Map([
  ["requests.Session", "requests"],
  ["requests.session", "requests"],
  ["requests.sessions.Session", "requests"],
  ["httpx.Client", "httpx"],
  ["httpx.AsyncClient", "httpx"],
  ["aiohttp.ClientSession", "aiohttp"],
]);
const CLIENT_MODULES: ReadonlySet<string> = new Set([
  "requests",
  "httpx",
  "aiohttp",
]);

interface Router {
  id: string;
  framework: "fastapi" | "flask";
  prefix: Value | undefined;
  mounts: Mount[];
}

interface Mount {
  parent: Router;
  prefix: Value | undefined;
}

async function extractPython(
  files: readonly SourceFile[],
): Promise<ExtractResult> {
  const diagnostics: ExtractDiagnostic[] = [];
  const project = await PyProject.load(files, diagnostics, true);
  try {
    const ports: ExtractedPort[] = [];
    const calls = project.list.map((m) => ({
      module: m,
      calls: m.calls,
    }));
    const routers = new Map<string, Router>();
    const routerOf = (expr: Node | undefined | null): Router | undefined => {
      if (!expr) return undefined;
      const target = project.resolveExpr(unwrap(expr));
      if (target?.kind !== "value") return undefined;
      const value = unwrap(target.node);
      if (value.type !== "call") return undefined;
      const callee = value.childForFieldName("function");
      const framework = callee
        ? ROUTER_CONSTRUCTORS.get(project.externalName(callee) ?? "")
        : undefined;
      if (!framework) return undefined;
      const id = `${target.module.name}:${value.startIndex}`;
      let router = routers.get(id);
      if (!router) {
        const args = value.childForFieldName("arguments");
        const prefixNode = keywordArg(
          args,
          framework === "fastapi" ? "prefix" : "url_prefix",
        );
        router = {
          id,
          framework,
          prefix: prefixNode ? project.evalString(prefixNode) : undefined,
          mounts: [],
        };
        routers.set(id, router);
      }
      return router;
    };
    // mounts first, so every route sees all of its prefixes
    for (const { calls: list } of calls) {
      for (const call of list) {
        const callee = call.childForFieldName("function");
        if (callee?.type !== "attribute") continue;
        const method = callee.childForFieldName("attribute")?.text;
        const args = call.childForFieldName("arguments");
        let child: Router | undefined;
        let prefixNode: Node | undefined;
        if (method === "include_router" || method === "register_blueprint") {
          child = routerOf(
            argument(
              args,
              0,
              method === "include_router" ? "router" : "blueprint",
            ),
          );
          prefixNode = keywordArg(
            args,
            method === "include_router" ? "prefix" : "url_prefix",
          );
        } else if (method === "mount") {
          child = routerOf(argument(args, 1, "app"));
          prefixNode = argument(args, 0, "path");
        } else continue;
        const parent = routerOf(callee.childForFieldName("object"));
        if (!parent || !child || parent === child) continue;
        child.mounts.push({
          parent,
          prefix: prefixNode
            ? project.evalString(prefixNode) ?? hole(prefixNode.text)
            : undefined,
        });
      }
    }
    for (const { module, calls: list } of calls) {
      for (const call of list) {
        const route = routeOf(call, routerOf, project);
        if (route) {
          const anchor = call.parent?.type === "decorator" ? call.parent : call;
          const definition = anchor.type === "decorator"
            ? anchor.parent?.childForFieldName("definition") ?? call
            : call;
          const { line, col } = positionOf(anchor);
          for (const prefix of prefixesOf(route.router, new Set())) {
            const full = joinPaths(prefix, route.path);
            const result = routePath(full, !isEmpty(prefix));
            for (const method of route.methods) {
              ports.push({
                ref: {
                  mechanism: "http",
                  role: "server",
                  key: httpBoundaryKey(method, result.path),
                  line,
                  col,
                  confidence: Math.min(result.confidence, route.confidence),
                  detail: {
                    method,
                    path: result.path,
                    raw: route.raw,
                    framework: route.router.framework,
                  },
                },
                owner: ownerOf(definition, module.file.path, "python"),
                filePath: module.file.path,
              });
            }
          }
          continue;
        }
        const client = clientCall(call, project);
        if (client) {
          const { line, col } = positionOf(call);
          ports.push({
            ref: {
              mechanism: "http",
              role: "client",
              key: httpBoundaryKey(client.method, client.path),
              line,
              col,
              confidence: client.confidence,
              detail: {
                method: client.method,
                path: client.path,
                raw: client.raw,
                framework: client.library,
              },
            },
            owner: ownerOf(call, module.file.path, "python"),
            filePath: module.file.path,
          });
        }
      }
    }
    const django = djangoPorts(project, calls);
    ports.push(...django.ports);
    ports.push(...drfPorts(project, django.urls));
    ports.push(
      ...flaskRestfulPorts(project, (expr) => {
        const router = routerOf(expr);
        return router?.framework === "flask"
          ? prefixesOf(router, new Set())
          : undefined;
      }),
    );
    return { ports, diagnostics };
  } finally {
    project.delete();
  }
}

function prefixesOf(router: Router, seen: Set<Router>): Value[] {
  const own = router.prefix ?? literal("");
  if (router.mounts.length === 0 || seen.has(router)) return [own];
  seen.add(router);
  const out: Value[] = [];
  for (const mount of router.mounts) {
    for (const parentPrefix of prefixesOf(mount.parent, seen)) {
      if (router.framework === "flask" && mount.prefix !== undefined) {
        // register_blueprint(url_prefix=...) replaces the blueprint's own
        out.push(joinPaths(parentPrefix, mount.prefix));
      } else {
        out.push(
          joinPaths(joinPaths(parentPrefix, mount.prefix ?? literal("")), own),
        );
      }
    }
  }
  seen.delete(router);
  return out;
}

interface Route {
  router: Router;
  path: Value;
  raw: string;
  methods: string[];
  confidence: number;
}

function routeOf(
  call: Node,
  routerOf: (expr: Node | null) => Router | undefined,
  project: PyProject,
): Route | undefined {
  const callee = call.childForFieldName("function");
  if (callee?.type !== "attribute") return undefined;
  const name = callee.childForFieldName("attribute")?.text ?? "";
  const isVerb = VERBS.has(name);
  const isGeneric = name === "route" || name === "api_route" ||
    name === "add_api_route" || name === "add_url_rule";
  if (!isVerb && !isGeneric) return undefined;
  const router = routerOf(callee.childForFieldName("object"));
  if (!router) return undefined;
  if (
    router.framework === "fastapi" &&
    (name === "route" || name === "add_url_rule")
  ) {
    return undefined;
  }
  if (
    router.framework === "flask" &&
    (name === "api_route" || name === "add_api_route")
  ) {
    return undefined;
  }
  const args = call.childForFieldName("arguments");
  const pathNode = argument(
    args,
    0,
    router.framework === "fastapi" ? "path" : "rule",
  );
  if (!pathNode) return undefined;
  let path = project.evalString(pathNode);
  if (!path) return undefined;
  if (router.framework === "flask") {
    // Flask converters: <int:order_id> -> {order_id}
    path = flaskRule(path);
  }
  let methods: string[] = [];
  let confidence = 1;
  if (isVerb) methods = [name.toUpperCase()];
  else {
    const list = keywordArg(args, "methods");
    if (!list) methods = ["GET"];
    else {
      const items =
        list.type === "list" || list.type === "tuple" || list.type === "set"
          ? namedChildren(list).map((n) => project.evalString(n))
          : [undefined];
      for (const item of items) {
        const text = exactText(item);
        if (text && /^[A-Za-z]+$/.test(text)) {
          methods.push(text.toUpperCase());
        } else {
          methods = ["ANY"];
          confidence = CONFIDENCE.weak;
          break;
        }
      }
    }
  }
  return { router, path, raw: pathNode.text, methods, confidence };
}

interface ClientCall {
  method: string;
  path: string;
  raw: string;
  library: string;
  confidence: number;
}

function clientCall(call: Node, project: PyProject): ClientCall | undefined {
  const callee = call.childForFieldName("function");
  if (!callee) return undefined;
  let library: string | undefined;
  let verb: string | undefined;
  let base: Value | undefined;
  const external = project.externalName(callee);
  if (external) {
    const [root, fn, extra] = external.split(".");
    if (!root || !fn || extra !== undefined || !CLIENT_MODULES.has(root)) {
      return undefined;
    }
    library = root;
    verb = fn;
  } else if (callee.type === "attribute") {
    const object = callee.childForFieldName("object");
    const client = object ? clientObject(object, project) : undefined;
    if (!client) return undefined;
    library = client.library;
    base = client.base;
    verb = callee.childForFieldName("attribute")?.text;
  }
  if (!library || !verb) return undefined;
  const args = call.childForFieldName("arguments");
  let method: string | undefined;
  let urlNode: Node | undefined;
  let confidence = 1;
  if (VERBS.has(verb)) {
    method = verb.toUpperCase();
    urlNode = argument(args, 0, "url");
  } else if (verb === "request" || verb === "stream") {
    const methodNode = argument(args, 0, "method");
    const value = methodNode ? project.evalString(methodNode) : undefined;
    const text = exactText(value);
    if (text && /^[A-Za-z]+$/.test(text)) {
      method = text.toUpperCase();
    } else {
      method = "ANY";
      confidence = CONFIDENCE.weak;
    }
    urlNode = argument(args, 1, "url");
  } else return undefined;
  const url = urlNode ? project.evalString(urlNode) : undefined;
  if (!url || !urlNode) return undefined;
  const result = clientPath(url, base);
  if (!result) return undefined;
  return {
    method,
    path: result.path,
    raw: urlNode.text,
    library,
    confidence: Math.min(result.confidence, confidence),
  };
}

interface ClientObject {
  library: string;
  base: Value | undefined;
}

/** Whether an expression is a requests/httpx/aiohttp client object. */
function clientObject(
  object: Node,
  project: PyProject,
): ClientObject | undefined {
  let value: Node | undefined;
  if (object.type === "identifier") {
    const module = project.moduleOf(object);
    value = module ? localAssignment(module, object, object.text) : undefined;
    if (!value) {
      const typed = parameterType(object);
      if (typed) {
        const library = CLIENT_CONSTRUCTORS.get(
          project.externalName(typed) ?? "",
        );
        return library ? { library, base: undefined } : undefined;
      }
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
  const library = callee
    ? CLIENT_CONSTRUCTORS.get(project.externalName(callee) ?? "")
    : undefined;
  if (!library) return undefined;
  const baseNode = keywordArg(value.childForFieldName("arguments"), "base_url");
  return { library, base: baseNode ? project.evalString(baseNode) : undefined };
}

/** The annotated type of a parameter of the enclosing function. */
function parameterType(identifier: Node): Node | undefined {
  for (let scope = identifier.parent; scope; scope = scope.parent) {
    if (scope.type !== "function_definition") continue;
    const parameters = scope.childForFieldName("parameters");
    for (const parameter of parameters ? namedChildren(parameters) : []) {
      if (
        parameter.type !== "typed_parameter" &&
        parameter.type !== "typed_default_parameter"
      ) continue;
      const name = parameter.childForFieldName("name") ??
        namedChildren(parameter)[0];
      if (name?.text !== identifier.text) continue;
      const type = parameter.childForFieldName("type");
      return type ? namedChildren(type)[0] ?? undefined : undefined;
    }
    return undefined;
  }
  return undefined;
}

// ---------------------------------------------------------------- Django

const DJANGO_ROUTES: ReadonlySet<string> = new Set([
  "django.urls.path",
  "django.urls.re_path",
  "django.conf.urls.url",
]);

function djangoPorts(
  project: PyProject,
  calls: ReadonlyArray<
    { module: import("./project.ts").PyModule; calls: Node[] }
  >,
): { ports: ExtractedPort[]; urls: DjangoUrls } {
  // module name -> prefixes it is included under
  const included = new Map<string, Array<{ parent: string; prefix: Value }>>();
  const routes: Array<
    { module: string; call: Node; route: Value; regex: boolean }
  > = [];
  const isRoute = (call: Node): string | undefined => {
    const callee = call.childForFieldName("function");
    const name = callee ? project.externalName(callee) : undefined;
    return name && DJANGO_ROUTES.has(name) ? name : undefined;
  };
  for (const { module, calls: list } of calls) {
    for (const call of list) {
      const kind = isRoute(call);
      if (!kind) continue;
      const args = call.childForFieldName("arguments");
      const [routeNode, viewNode] = positionalArgs(args);
      const route = routeNode ? project.evalString(routeNode) : undefined;
      if (!routeNode || !route) continue;
      const regex = kind !== "django.urls.path";
      const target = viewNode ? unwrap(viewNode) : undefined;
      const targetCallee = target?.type === "call"
        ? target.childForFieldName("function")
        : null;
      if (
        target && targetCallee &&
        project.externalName(targetCallee)?.endsWith(".include")
      ) {
        const [inner] = positionalArgs(target.childForFieldName("arguments"));
        const innerValue = inner ? unwrap(inner) : undefined;
        if (!innerValue) continue;
        let child: string | undefined;
        if (innerValue.type === "string") {
          const text = textOrUndefined(project.evalString(innerValue));
          child = text ? project.findModule(text)?.name : undefined;
        } else if (innerValue.type === "tuple") {
          const first = namedChildren(innerValue)[0];
          const text = first
            ? textOrUndefined(project.evalString(first))
            : undefined;
          child = text ? project.findModule(text)?.name : undefined;
        } else if (
          innerValue.type === "identifier" || innerValue.type === "attribute"
        ) {
          const resolved = project.resolveExpr(innerValue);
          if (resolved?.kind === "module") child = resolved.module.name;
        }
        if (child) {
          const list = included.get(child) ?? [];
          list.push({ parent: module.name, prefix: djangoRoute(route, regex) });
          included.set(child, list);
        }
        continue; // inline include([...]) lists are handled by their own path() calls
      }
      routes.push({ module: module.name, call, route, regex });
    }
  }
  const modulePrefixes = (name: string, seen: Set<string>): Value[] => {
    const parents = included.get(name);
    if (!parents || seen.has(name)) return [literal("")];
    seen.add(name);
    const out: Value[] = [];
    for (const { parent, prefix } of parents) {
      for (const p of modulePrefixes(parent, seen)) {
        out.push(joinPaths(p, prefix));
      }
    }
    seen.delete(name);
    return out;
  };
  const urls: DjangoUrls = {
    modulePrefixes: (name) => modulePrefixes(name, new Set()),
    routeKind: isRoute,
  };
  const ports: ExtractedPort[] = [];
  for (const { module: name, call, route, regex } of routes) {
    const module = project.modules.get(name);
    if (!module) continue;
    // path("api/", include([path("users/", ...)])) inside the same file
    const inline = enclosingRoutePrefix(call, project, urls);
    const own = joinPaths(inline, djangoRoute(route, regex));
    const { line, col } = positionOf(call);
    for (const prefix of modulePrefixes(name, new Set())) {
      const full = joinPaths(prefix, own);
      const result = routePath(full, !isEmpty(prefix) || !isEmpty(inline));
      const confidence = regex &&
          /[\\()[\]|*+?]/.test(textOf(route).replace(/\(\?P<\w+>[^)]*\)/g, ""))
        ? Math.min(result.confidence, CONFIDENCE.partial)
        : result.confidence;
      ports.push({
        ref: {
          mechanism: "http",
          role: "server",
          key: httpBoundaryKey("ANY", result.path),
          line,
          col,
          confidence,
          detail: {
            method: "ANY",
            path: result.path,
            raw: textOf(route),
            framework: "django",
          },
        },
        owner: ownerOf(call, module.file.path, "python"),
        filePath: module.file.path,
      });
    }
  }
  return { ports, urls };
}
export { pythonGrpc } from "./grpc.ts";
export { pythonTemporal } from "./temporal.ts";
export { pythonQueueExports, pythonQueuePorts } from "./queue.ts";

function textOrUndefined(value: Value | undefined): string | undefined {
  return value ? textOf(value) : undefined;
}
