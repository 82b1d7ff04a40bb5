// Go routers: the router values an expression may be (traced to a
// constructor, a parameter or field type, or a group/subrouter of another
// router), and the prefixes they get through mounts.
import { findAll, namedChildren, type Node } from "../_syntax/compact_tree.ts";
import { exactText, joinPaths, literal, type Value } from "../_value/mod.ts";
import type { GoProject, GoType } from "./project.ts";
import { normalizeImport } from "./declarations.ts";
import { HTTP_METHODS } from "../_port/http.ts";
import { gorillaChain, gorillaPath } from "./gorilla.ts";
import { addCallsByName } from "./callees.ts";

export type Framework =
  | "net/http"
  | "gorilla"
  | "gin"
  | "echo"
  | "chi"
  | "fiber"
  | "hertz"
  | "iris"
  | "httprouter"
  | "goyave"
  | "gf"
  | "fasthttp"
  | "pocketbase";

const RETURNS: ReadonlySet<string> = new Set(["return_statement"]);

export const FRAMEWORK_TYPES: ReadonlyMap<string, Framework> = new Map([
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
  ["github.com/gofiber/fiber.App", "fiber"],
  ["github.com/gofiber/fiber.Router", "fiber"],
  ["github.com/gofiber/fiber.Group", "fiber"],
  ["github.com/cloudwego/hertz/pkg/app/server.Hertz", "hertz"],
  ["github.com/cloudwego/hertz/pkg/route.Engine", "hertz"],
  ["github.com/cloudwego/hertz/pkg/route.RouterGroup", "hertz"],
  ["github.com/cloudwego/hertz/pkg/route.IRouter", "hertz"],
  ["github.com/cloudwego/hertz/pkg/route.IRoutes", "hertz"],
  ["github.com/kataras/iris.Application", "iris"],
  ["github.com/kataras/iris.Party", "iris"],
  ["github.com/kataras/iris/core/router.Party", "iris"],
  ["github.com/kataras/iris/core/router.APIBuilder", "iris"],
  ["github.com/julienschmidt/httprouter.Router", "httprouter"],
  ["goyave.dev/goyave.Router", "goyave"],
  ["github.com/gogf/gf/net/ghttp.Server", "gf"],
  ["github.com/gogf/gf/net/ghttp.RouterGroup", "gf"],
  ["github.com/fasthttp/router.Router", "fasthttp"],
  ["github.com/fasthttp/router.Group", "fasthttp"],
  ["github.com/pocketbase/pocketbase/tools/router.Router", "pocketbase"],
  ["github.com/pocketbase/pocketbase/tools/router.RouterGroup", "pocketbase"],
]);

// Methods that return a group of a router under a path prefix (the first
// argument), by framework.
const GROUPS: Partial<Record<Framework, ReadonlySet<string>>> = {
  gin: new Set(["Group"]),
  echo: new Set(["Group"]),
  chi: new Set(["Route"]),
  fiber: new Set(["Group", "Route"]),
  hertz: new Set(["Group"]),
  iris: new Set(["Party", "PartyFunc"]),
  goyave: new Set(["Subrouter"]),
  gf: new Set(["Group"]),
  fasthttp: new Set(["Group"]),
  pocketbase: new Set(["Group"]),
};

// Methods that return the router they are called on (a group of it
// without a prefix, or it with middleware or metadata), by framework.
const SAME: Partial<Record<Framework, ReadonlySet<string>>> = {
  chi: new Set(["With"]),
  gorilla: new Set(["StrictSlash", "SkipClean", "UseEncodedPath"]),
  goyave: new Set([
    "Group",
    "Middleware",
    "GlobalMiddleware",
    "SetMeta",
    "RemoveMeta",
    "CORS",
  ]),
  // middleware: `rg.Group("/x").Bind(auth).Unbind("rateLimit")`
  pocketbase: new Set(["Bind", "BindFunc", "Unbind"]),
};

export const UPPER_VERBS: ReadonlySet<string> = new Set([
  ...HTTP_METHODS,
  "CONNECT",
  "TRACE",
]);
export const CHI_VERBS: ReadonlySet<string> = new Set(
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

export interface Root {
  framework: Framework;
  mounts: Array<{ parent: RouterRef; prefix: Value }>;
}

export interface RouterRef {
  root: Root;
  rel: Value;
  weak: boolean;
}

export interface PendingRoute {
  call: Node;
  refs: RouterRef[];
  methods: string[];
  path: Value;
  raw: string;
  confidence: number;
  framework: Framework;
}

/** Router analysis over one Go project. */
export class Routers {
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
        if (!framework) {
          // a parameter of another type (an interface of the project):
          // the routers its callers pass
          return declaration.kind === "param"
            ? this.#parameterRefs(
              declaration.fn,
              declaration.index,
              undefined,
              depth,
            )
            : [];
        }
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
          return fn ? this.#returned(fn, depth) : [];
        }
        if (callee?.type !== "selector_expression") return [];
        const method = callee.childForFieldName("field")?.text ?? "";
        const operand = callee.childForFieldName("operand");
        // todosResource{}.Routes(): the router a method of the project returns
        const owner = project.typeOf(operand);
        const declared = owner
          ? project.methodsOf(owner)?.get(method)
          : undefined;
        if (declared) return this.#returned(declared, depth);
        const chain = method === "Subrouter"
          ? gorillaChain(operand, project)
          : undefined;
        if (chain) {
          // r.PathPrefix("/api").Subrouter(), r.Host(h).PathPrefix(p).Subrouter()
          const prefix = chain.prefix && chain.path
            ? joinPaths(chain.prefix, chain.path)
            : chain.prefix ?? chain.path ?? literal("");
          const rel = gorillaPath(prefix);
          return this.refs(chain.base, depth + 1)
            .filter((r) => r.root.framework === "gorilla")
            .map((r) => ({ ...r, rel: joinPaths(r.rel, rel) }));
        }
        const base = this.refs(operand, depth + 1);
        if (base.length === 0) return [];
        const framework = base[0]?.root.framework;
        if (framework && GROUPS[framework]?.has(method)) {
          const prefix = groupPrefix(framework, project.evalString(args[0]));
          return prefix
            ? base.map((r) => ({ ...r, rel: joinPaths(r.rel, prefix) }))
            : [];
        }
        if (framework && SAME[framework]?.has(method)) return base;
        return [];
      }
      case "selector_expression": {
        const qualified = project.qualified(expr);
        if (
          qualified?.[0] === "net/http" && qualified[1] === "DefaultServeMux"
        ) {
          // http.DefaultServeMux.Handle(...): the mux http.Handle uses
          return [{
            root: this.root("net/http.DefaultServeMux", "net/http"),
            rel: literal(""),
            weak: false,
          }];
        }
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

  /** The routers a function or method returns. */
  #returned(fn: Node, depth: number): RouterRef[] {
    const out: RouterRef[] = [];
    for (const ret of findAll(fn, RETURNS)) {
      const value = namedChildren(namedChildren(ret)[0] ?? ret)[0] ??
        namedChildren(ret)[0];
      if (value && value !== ret) {
        out.push(...this.refs(
          value.type === "expression_list" ? namedChildren(value)[0] : value,
          depth + 1,
        ));
      }
    }
    return out;
  }

  #parameterRefs(
    fn: Node,
    index: number,
    framework: Framework | undefined,
    depth: number,
  ): RouterRef[] {
    const project = this.#project;
    if (fn.type === "func_literal") {
      // chi: r.Route("/x", func(r chi.Router) {...}) and r.Group(func(r chi.Router) {...});
      // fiber: app.Route("/x", func(r fiber.Router) {...}); iris: app.PartyFunc("/x", func(p iris.Party) {...})
      const call = fn.parent?.parent;
      const callee = call?.type === "call_expression"
        ? call.childForFieldName("function")
        : null;
      if (callee?.type === "selector_expression") {
        const method = callee.childForFieldName("field")?.text;
        const base = this.refs(callee.childForFieldName("operand"), depth + 1);
        const framework = base[0]?.root.framework;
        if (framework === "chi" && method === "Group") return base;
        if (method && framework && GROUPS[framework]?.has(method) && call) {
          const prefix = groupPrefix(
            framework,
            project.evalString(argumentsOf(call)[0]),
          );
          if (prefix) {
            return base.map((r) => ({ ...r, rel: joinPaths(r.rel, prefix) }));
          }
        }
      }
      // a callback the framework calls with its router:
      // server.RegisterRoutes(func(s *goyave.Server, r *goyave.Router) {...})
      return framework && index >= 0
        ? [this.#unsupplied(fn, index, framework)]
        : [];
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
    if (out.length || !framework) return out;
    return [this.#unsupplied(fn, index, framework)];
  }

  /** A router parameter no call of the project supplies (weak). */
  #unsupplied(fn: Node, index: number, framework: Framework): RouterRef {
    const key = `${
      this.#project.fileOf(fn)?.file.path
    }:${fn.startIndex}:${index}`;
    return { root: this.root(key, framework), rel: literal(""), weak: true };
  }

  /** Calls of the package in `dir`, by called function or method name. */
  #calls(dir: string): Map<string, Node[]> {
    let calls = this.#callsByDir.get(dir);
    if (!calls) {
      calls = new Map();
      for (const file of this.#project.files) {
        if (file.dir !== dir) continue;
        addCallsByName(this.#project.callsIn(file), calls);
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

/**
 * The path prefix of a group: an iris party of a subdomain (`"admin."`,
 * `"api.example.com"`) adds none.
 */
function groupPrefix(
  framework: Framework,
  prefix: Value | undefined,
): Value | undefined {
  if (framework !== "iris" || !prefix) return prefix;
  return /^[\w*-]+(\.[\w-]+)*\.?$/.test(exactText(prefix) ?? "") &&
      (exactText(prefix) ?? "").includes(".")
    ? literal("")
    : prefix;
}

/** The arguments of a call, comments left out. */
export function argumentsOf(call: Node): Node[] {
  const args = call.childForFieldName("arguments");
  return args ? namedChildren(args).filter((n) => n.type !== "comment") : [];
}
