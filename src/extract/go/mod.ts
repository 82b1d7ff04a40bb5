// Go HTTP servers (net/http incl. Go 1.22 method patterns, gorilla/mux,
// gin, echo, chi) and clients (net/http). Routes count only on receivers
// that are router values of those packages: the type of every receiver is
// traced to a constructor, a parameter or field type, or a group/subrouter
// of another router, so `url.Values.Get` or a map lookup never matches.
import { httpBoundaryKey } from "../../boundary/http_path.ts";
import type {
  ExtractDiagnostic,
  ExtractResult,
  LanguageExtractor,
  SourceFile,
} from "../extractor.ts";
import { GoProject, type GoType, normalizeImport } from "./project.ts";
import {
  clientPath,
  CONFIDENCE,
  exactText,
  fromText,
  isEmpty,
  joinPaths,
  literal,
  mapText,
  routePath,
  textOf,
  type Value,
} from "../_value/mod.ts";
import {
  findAll,
  namedChildren,
  type Node,
  ownerOf,
  positionOf,
} from "../_syntax/compact_tree.ts";
import type { ExtractedPort } from "../types.ts";

/**
 * Finds HTTP routes (net/http, gorilla/mux, gin, echo, chi) and HTTP calls
 * (net/http) in Go files.
 *
 * @example Usage
 * ```ts
 * import { goExtractor } from "@portcullis/portcullis/extract";
 * import assert from "node:assert/strict";
 *
 * const { ports } = await goExtractor.extract([{
 *   path: "main.go",
 *   text: 'package main\n\nimport "net/http"\n\nfunc main() {\n\thttp.HandleFunc("GET /health", nil)\n}\n',
 * }]);
 * assert.equal(ports[0]?.ref.key, "GET /health");
 * ```
 */
export const goExtractor: LanguageExtractor = {
  name: "go",
  accepts(path: string): boolean {
    return path.endsWith(".go") && !path.endsWith(".pb.go");
  },
  extract: extractGo,
};

type Framework = "net/http" | "gorilla" | "gin" | "echo" | "chi";

const FRAMEWORK_TYPES: ReadonlyMap<string, Framework> = new Map([
  ["net/http.ServeMux", "net/http"],
  ["github.com/gorilla/mux.Router", "gorilla"],
  ["github.com/gin-gonic/gin.Engine", "gin"],
  ["github.com/gin-gonic/gin.RouterGroup", "gin"],
  ["github.com/gin-gonic/gin.IRouter", "gin"],
  ["github.com/gin-gonic/gin.IRoutes", "gin"],
  ["github.com/labstack/echo.Echo", "echo"],
  ["github.com/labstack/echo.Group", "echo"],
  ["github.com/go-chi/chi.Mux", "chi"],
  ["github.com/go-chi/chi.Router", "chi"],
]);

const UPPER_VERBS: ReadonlySet<string> = new Set([
  "GET",
  "POST",
  "PUT",
  "DELETE",
  "PATCH",
  "HEAD",
  "OPTIONS",
  "CONNECT",
  "TRACE",
]);
const CHI_VERBS: ReadonlySet<string> = new Set(
  [
    "Get",
    "Post",
    "Put",
    "Delete",
    "Patch",
    "Head",
    "Options",
    "Connect",
    "Trace",
  ],
);

interface Root {
  framework: Framework;
  mounts: Array<{ parent: RouterRef; prefix: Value }>;
}

interface RouterRef {
  root: Root;
  rel: Value;
  weak: boolean;
}

interface PendingRoute {
  call: Node;
  refs: RouterRef[];
  methods: string[];
  path: Value;
  raw: string;
  confidence: number;
  framework: Framework;
}

/** Router analysis over one Go project. */
class Routers {
  #project: GoProject;
  #roots = new Map<string, Root>();
  #callsByDir = new Map<string, Map<string, Node[]>>();
  #active = new Set<number>();
  #cache = new Map<object, Map<number, RouterRef[]>>();

  constructor(project: GoProject) {
    this.#project = project;
  }

  /** The framework of a router type, if it is one. */
  static framework(type: GoType | undefined): Framework | undefined {
    return type
      ? FRAMEWORK_TYPES.get(`${normalizeImport(type.pkg)}.${type.name}`)
      : undefined;
  }

  root(key: string, framework: Framework): Root {
    let root = this.#roots.get(key);
    if (!root) this.#roots.set(key, root = { framework, mounts: [] });
    return root;
  }

  /** The router values an expression may be. */
  refs(expr: Node | null | undefined, depth = 0): RouterRef[] {
    if (!expr || depth > 12) return [];
    let perTree = this.#cache.get(expr.tree);
    if (!perTree) this.#cache.set(expr.tree, perTree = new Map());
    const cached = perTree.get(expr.id);
    if (cached) return cached;
    if (this.#active.has(expr.id)) return [];
    this.#active.add(expr.id);
    try {
      const found = this.#refs(expr, depth);
      perTree.set(expr.id, found);
      return found;
    } finally {
      this.#active.delete(expr.id);
    }
  }

  #refs(expr: Node, depth: number): RouterRef[] {
    const project = this.#project;
    const fileKey = project.fileOf(expr)?.file.path ?? "";
    switch (expr.type) {
      case "parenthesized_expression":
      case "unary_expression":
        return this.refs(
          expr.childForFieldName("operand") ?? namedChildren(expr)[0],
          depth + 1,
        );
      case "identifier": {
        const declaration = project.declarationOf(expr);
        if (!declaration) return [];
        if (declaration.kind === "value") {
          return declaration.single || declaration.index === 0
            ? this.refs(declaration.node, depth + 1)
            : [];
        }
        const type = project.typeFromNode(declaration.type);
        const framework = Routers.framework(type);
        if (!framework) return [];
        if (declaration.kind === "typed") {
          return [{
            root: this.root(`${fileKey}:${expr.text}`, framework),
            rel: literal(""),
            weak: false,
          }];
        }
        return this.#parameterRefs(
          declaration.fn,
          declaration.index,
          framework,
          depth,
        );
      }
      case "call_expression": {
        const callee = expr.childForFieldName("function");
        const type = project.typeOf(expr);
        const args = argumentsOf(expr);
        if (project.qualified(callee)) {
          const framework = Routers.framework(type);
          return framework
            ? [{
              root: this.root(`${fileKey}:${expr.startIndex}`, framework),
              rel: literal(""),
              weak: false,
            }]
            : [];
        }
        if (callee?.type === "identifier") {
          const fn = project.functionNamed(expr, callee.text);
          if (!fn) return [];
          const out: RouterRef[] = [];
          for (const ret of findAll(fn, new Set(["return_statement"]))) {
            const value = namedChildren(namedChildren(ret)[0] ?? ret)[0] ??
              namedChildren(ret)[0];
            if (value && value !== ret) {
              out.push(...this.refs(
                value.type === "expression_list"
                  ? namedChildren(value)[0]
                  : value,
                depth + 1,
              ));
            }
          }
          return out;
        }
        if (callee?.type !== "selector_expression") return [];
        const method = callee.childForFieldName("field")?.text ?? "";
        const operand = callee.childForFieldName("operand");
        if (method === "Subrouter") {
          // r.PathPrefix("/api").Subrouter()
          if (operand?.type !== "call_expression") return [];
          const inner = operand.childForFieldName("function");
          if (inner?.type !== "selector_expression") return [];
          if (inner.childForFieldName("field")?.text !== "PathPrefix") {
            return [];
          }
          const base = this.refs(inner.childForFieldName("operand"), depth + 1)
            .filter((r) => r.root.framework === "gorilla");
          const prefix = project.evalString(argumentsOf(operand)[0]);
          return prefix
            ? base.map((r) => ({ ...r, rel: joinPaths(r.rel, prefix) }))
            : [];
        }
        const base = this.refs(operand, depth + 1);
        if (base.length === 0) return [];
        const framework = base[0]?.root.framework;
        if (
          method === "Group" && (framework === "gin" || framework === "echo")
        ) {
          const prefix = project.evalString(args[0]);
          return prefix
            ? base.map((r) => ({ ...r, rel: joinPaths(r.rel, prefix) }))
            : [];
        }
        if (framework === "chi" && method === "With") return base;
        if (
          framework === "gorilla" &&
          (method === "StrictSlash" || method === "SkipClean" ||
            method === "UseEncodedPath")
        ) return base;
        if (framework === "chi" && method === "Route") {
          const prefix = project.evalString(args[0]);
          return prefix
            ? base.map((r) => ({ ...r, rel: joinPaths(r.rel, prefix) }))
            : [];
        }
        return [];
      }
      case "selector_expression": {
        const framework = Routers.framework(project.typeOf(expr));
        if (!framework) return [];
        const owner = project.typeOf(expr.childForFieldName("operand"));
        const field = expr.childForFieldName("field")?.text ?? "";
        return [{
          root: this.root(
            `${owner?.dir ?? ""}:${owner?.name ?? fileKey}.${field}`,
            framework,
          ),
          rel: literal(""),
          weak: false,
        }];
      }
      default:
        return [];
    }
  }

  #parameterRefs(
    fn: Node,
    index: number,
    framework: Framework,
    depth: number,
  ): RouterRef[] {
    const project = this.#project;
    if (fn.type === "func_literal") {
      // chi: r.Route("/x", func(r chi.Router) {...}) and r.Group(func(r chi.Router) {...})
      const call = fn.parent?.parent;
      const callee = call?.type === "call_expression"
        ? call.childForFieldName("function")
        : null;
      if (callee?.type === "selector_expression") {
        const method = callee.childForFieldName("field")?.text;
        const base = this.refs(callee.childForFieldName("operand"), depth + 1)
          .filter((r) => r.root.framework === "chi");
        if (method === "Group") return base;
        if (method === "Route" && call) {
          const prefix = project.evalString(argumentsOf(call)[0]);
          if (prefix) {
            return base.map((r) => ({ ...r, rel: joinPaths(r.rel, prefix) }));
          }
        }
      }
      return [];
    }
    if (index < 0) return [];
    const name = fn.childForFieldName("name")?.text;
    const dir = project.fileOf(fn)?.dir ?? "";
    const out: RouterRef[] = [];
    if (name) {
      for (const call of this.#calls(dir).get(name) ?? []) {
        const callee = call.childForFieldName("function");
        if (
          fn.type === "function_declaration" && callee?.type !== "identifier"
        ) continue;
        out.push(...this.refs(argumentsOf(call)[index], depth + 1));
      }
      if (fn.type === "function_declaration" && index === 0) {
        // chi: r.Route("/x", routes) and r.Group(routes) with a named function
        for (const method of ["Route", "Group"]) {
          for (const call of this.#calls(dir).get(method) ?? []) {
            const args = argumentsOf(call);
            const handler = method === "Route" ? args[1] : args[0];
            if (handler?.type !== "identifier" || handler.text !== name) {
              continue;
            }
            const callee = call.childForFieldName("function");
            const base = this.refs(
              callee?.childForFieldName("operand"),
              depth + 1,
            )
              .filter((r) => r.root.framework === "chi");
            const prefix = method === "Route"
              ? project.evalString(args[0])
              : literal("");
            if (!prefix) continue;
            out.push(
              ...base.map((r) => ({ ...r, rel: joinPaths(r.rel, prefix) })),
            );
          }
        }
      }
    }
    if (out.length) return out;
    const key = `${project.fileOf(fn)?.file.path}:${fn.startIndex}:${index}`;
    return [{ root: this.root(key, framework), rel: literal(""), weak: true }];
  }

  /** Calls of the package in `dir`, by called function or method name. */
  #calls(dir: string): Map<string, Node[]> {
    let calls = this.#callsByDir.get(dir);
    if (!calls) {
      calls = new Map();
      for (const file of this.#project.files) {
        if (file.dir !== dir) continue;
        for (const call of this.#project.callsIn(file)) {
          const callee = call.childForFieldName("function");
          const called = callee?.type === "identifier"
            ? callee.text
            : callee?.type === "selector_expression"
            ? callee.childForFieldName("field")?.text
            : undefined;
          if (!called) continue;
          let list = calls.get(called);
          if (!list) calls.set(called, list = []);
          list.push(call);
        }
      }
      this.#callsByDir.set(dir, calls);
    }
    return calls;
  }

  /** The full prefixes of a root, through its mounts. */
  prefixes(root: Root, seen = new Set<Root>()): Value[] {
    if (root.mounts.length === 0 || seen.has(root)) return [literal("")];
    seen.add(root);
    const out: Value[] = [];
    for (const { parent, prefix } of root.mounts) {
      for (const p of this.prefixes(parent.root, seen)) {
        out.push(joinPaths(joinPaths(p, parent.rel), prefix));
      }
    }
    seen.delete(root);
    return out;
  }
}

function argumentsOf(call: Node): Node[] {
  const args = call.childForFieldName("arguments");
  return args ? namedChildren(args).filter((n) => n.type !== "comment") : [];
}

async function extractGo(files: readonly SourceFile[]): Promise<ExtractResult> {
  const diagnostics: ExtractDiagnostic[] = [];
  const project = await GoProject.load(files, diagnostics, true);
  try {
    const routers = new Routers(project);
    const pending: PendingRoute[] = [];
    const ports: ExtractedPort[] = [];
    for (const file of project.files) {
      for (const call of project.callsIn(file)) {
        const route = routeOf(call, project, routers);
        if (route) {
          pending.push(route);
          continue;
        }
        const client = clientOf(call, project);
        if (!client) continue;
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
              framework: "net/http",
            },
          },
          owner: ownerOf(call, file.file.path, "go"),
          filePath: file.file.path,
        });
      }
    }
    for (const route of pending) {
      const file = project.fileOf(route.call);
      if (!file) continue;
      const { line, col } = positionOf(route.call);
      const seen = new Set<string>();
      for (const ref of route.refs) {
        for (const prefix of routers.prefixes(ref.root)) {
          const base = joinPaths(prefix, ref.rel);
          const full = joinPaths(base, route.path);
          const result = routePath(full, !isEmpty(base));
          const confidence = Math.min(
            result.confidence,
            route.confidence,
            ref.weak ? CONFIDENCE.partial : CONFIDENCE.literal,
          );
          for (const method of route.methods) {
            const key = httpBoundaryKey(method, result.path);
            if (seen.has(key)) continue;
            seen.add(key);
            ports.push({
              ref: {
                mechanism: "http",
                role: "server",
                key,
                line,
                col,
                confidence,
                detail: {
                  method,
                  path: result.path,
                  raw: route.raw,
                  framework: route.framework,
                },
              },
              owner: ownerOf(route.call, file.file.path, "go"),
              filePath: file.file.path,
            });
          }
        }
      }
    }
    return { ports, diagnostics };
  } finally {
    project.delete();
  }
}

function routeOf(
  call: Node,
  project: GoProject,
  routers: Routers,
): PendingRoute | undefined {
  const callee = call.childForFieldName("function");
  if (callee?.type !== "selector_expression") return undefined;
  const method = callee.childForFieldName("field")?.text ?? "";
  const args = argumentsOf(call);
  let refs: RouterRef[];
  const qualified = project.qualified(callee);
  if (qualified) {
    if (qualified[0] !== "net/http") return undefined;
    if (method !== "HandleFunc" && method !== "Handle") return undefined;
    refs = [{
      root: routers.root("net/http.DefaultServeMux", "net/http"),
      rel: literal(""),
      weak: false,
    }];
  } else {
    refs = routers.refs(callee.childForFieldName("operand"));
  }
  const framework = refs[0]?.root.framework;
  if (!framework) return undefined;
  let methods: string[] | undefined;
  let pathNode: Node | undefined;
  let confidence = 1;
  switch (framework) {
    case "net/http": {
      if (method !== "HandleFunc" && method !== "Handle") return undefined;
      const pattern = project.evalString(args[0]);
      if (!pattern || !args[0]) return undefined;
      if (mountStripPrefix(args[1], refs, project, routers)) return undefined;
      // http.Handle("/api/", apiRouter): the router serves that subtree
      const mounted = routers.refs(args[1]);
      if (mounted.length) {
        const prefix = mapText(pattern, (text) => text.replace(/\/$/, ""));
        if (!/^[A-Z]+\s/.test(textOf(prefix))) {
          for (const child of mounted) {
            for (const parent of refs) {
              child.root.mounts.push({ parent, prefix });
            }
          }
          return undefined;
        }
      }
      // Go 1.22: "GET /users/{id}", "POST example.com/x", "/x/{rest...}", "/{$}"
      const match = /^([A-Z]+)\s+(.*)$/.exec(textOf(pattern));
      let path = match ? match[2] ?? "" : textOf(pattern);
      if (!path.startsWith("/")) {
        const slash = path.indexOf("/");
        path = slash === -1 ? "/" : path.slice(slash);
      }
      path = path.replace(/\{\$\}$/, "").replace(/\{(\w*)\.\.\.\}/g, "{$1}");
      return {
        call,
        refs,
        methods: [match?.[1] ?? "ANY"],
        path: fromText(path, pattern.composed),
        raw: args[0].text,
        confidence,
        framework,
      };
    }
    case "gorilla": {
      if (method !== "HandleFunc" && method !== "Handle") return undefined;
      pathNode = args[0];
      methods = gorillaMethods(call, project);
      break;
    }
    case "gin":
    case "echo": {
      if (UPPER_VERBS.has(method)) {
        methods = [method];
        pathNode = args[0];
      } else if (method === "Any") {
        methods = ["ANY"];
        pathNode = args[0];
      } else if (method === "Handle" || method === "Add") {
        const verb = exactText(project.evalString(args[0]));
        methods = verb && /^[A-Za-z]+$/.test(verb)
          ? [verb.toUpperCase()]
          : ["ANY"];
        if (methods[0] === "ANY") confidence = CONFIDENCE.weak;
        pathNode = args[1];
      } else if (method === "Match" && framework === "echo") {
        const list = args[0];
        const body = list?.childForFieldName("body");
        const verbs = body
          ? namedChildren(body).map((n) =>
            exactText(project.evalString(namedChildren(n)[0] ?? n))
          )
          : [];
        methods = verbs.every((v) => v && /^[A-Za-z]+$/.test(v)) && verbs.length
          ? verbs.map((v) => (v ?? "").toUpperCase())
          : ["ANY"];
        pathNode = args[1];
      } else return undefined;
      break;
    }
    case "chi": {
      if (CHI_VERBS.has(method)) {
        methods = [method.toUpperCase()];
        pathNode = args[0];
      } else if (method === "Handle" || method === "HandleFunc") {
        methods = ["ANY"];
        pathNode = args[0];
      } else if (method === "Method" || method === "MethodFunc") {
        const verb = exactText(project.evalString(args[0]));
        methods = verb && /^[A-Za-z]+$/.test(verb)
          ? [verb.toUpperCase()]
          : ["ANY"];
        if (methods[0] === "ANY") confidence = CONFIDENCE.weak;
        pathNode = args[1];
      } else if (method === "Mount") {
        const prefix = project.evalString(args[0]);
        if (prefix) {
          for (const child of routers.refs(args[1])) {
            for (const parent of refs) {
              child.root.mounts.push({ parent, prefix });
            }
          }
        }
        return undefined;
      } else return undefined;
      break;
    }
  }
  let path = project.evalString(pathNode);
  if (!path || !pathNode || !methods) return undefined;
  if (framework === "gorilla") {
    // {id:[0-9]+} -> {id}
    path = mapText(
      path,
      (text) => text.replace(/\{(\w+):[^{}]*(?:\{[^{}]*\}[^{}]*)*\}/g, "{$1}"),
    );
  }
  return {
    call,
    refs,
    methods,
    path,
    raw: pathNode.text,
    confidence,
    framework,
  };
}

/** `mux.Handle("/api/", http.StripPrefix("/api", sub))` mounts `sub`. */
function mountStripPrefix(
  handler: Node | undefined,
  refs: RouterRef[],
  project: GoProject,
  routers: Routers,
): boolean {
  if (handler?.type !== "call_expression") return false;
  const qualified = project.qualified(handler.childForFieldName("function"));
  if (qualified?.[0] !== "net/http" || qualified[1] !== "StripPrefix") {
    return false;
  }
  const [prefixNode, inner] = argumentsOf(handler);
  const prefix = project.evalString(prefixNode);
  const children = routers.refs(inner);
  if (!prefix || children.length === 0) return false;
  for (const child of children) {
    for (const parent of refs) child.root.mounts.push({ parent, prefix });
  }
  return true;
}

/** The methods of a gorilla route from a chained `.Methods("GET", ...)`. */
function gorillaMethods(call: Node, project: GoProject): string[] {
  let current: Node = call;
  while (
    current.parent?.type === "selector_expression" &&
    current.parent.parent?.type === "call_expression"
  ) {
    const chained = current.parent.parent;
    if (current.parent.childForFieldName("field")?.text === "Methods") {
      const verbs = argumentsOf(chained).map((a) =>
        exactText(project.evalString(a))
      );
      if (verbs.length && verbs.every((v) => v && /^[A-Za-z]+$/.test(v))) {
        return verbs.map((v) => (v ?? "").toUpperCase());
      }
      return ["ANY"];
    }
    current = chained;
  }
  return ["ANY"];
}

interface ClientCall {
  method: string;
  path: string;
  raw: string;
  confidence: number;
}

const CLIENT_FUNCTIONS: ReadonlyMap<string, string> = new Map([
  ["Get", "GET"],
  ["Head", "HEAD"],
  ["Post", "POST"],
  ["PostForm", "POST"],
]);

function clientOf(call: Node, project: GoProject): ClientCall | undefined {
  const callee = call.childForFieldName("function");
  if (callee?.type !== "selector_expression") return undefined;
  const args = argumentsOf(call);
  const name = callee.childForFieldName("field")?.text ?? "";
  const qualified = project.qualified(callee);
  let method: string | undefined;
  let urlNode: Node | undefined;
  let confidence = 1;
  if (qualified) {
    if (qualified[0] !== "net/http") return undefined;
    if (name === "NewRequest" || name === "NewRequestWithContext") {
      const offset = name === "NewRequest" ? 0 : 1;
      const verb = exactText(project.evalString(args[offset]));
      if (verb && /^[A-Za-z]+$/.test(verb)) method = verb.toUpperCase();
      else {
        method = "ANY";
        confidence = CONFIDENCE.weak;
      }
      urlNode = args[offset + 1];
    } else {
      method = CLIENT_FUNCTIONS.get(name);
      urlNode = args[0];
    }
  } else {
    method = CLIENT_FUNCTIONS.get(name);
    if (!method) return undefined;
    const type = project.typeOf(callee.childForFieldName("operand"));
    if (type?.pkg !== "net/http" || type.name !== "Client") return undefined;
    urlNode = args[0];
  }
  if (!method || !urlNode) return undefined;
  const url = project.evalString(urlNode);
  const result = url ? clientPath(url) : undefined;
  if (!result) return undefined;
  return {
    method,
    path: result.path,
    raw: urlNode.text,
    confidence: Math.min(result.confidence, confidence),
  };
}
export { goGrpc } from "./grpc.ts";
export { goTemporal } from "./temporal.ts";
export { goQueuePorts } from "./queue.ts";
