// Go declarations as the project reads them: imports, parameters, the names
// a statement declares and their values, struct fields, and the types known
// constructors and methods of router and client packages return.
import { namedChildren, type Node } from "../_syntax/compact_tree.ts";
import type { GoDeclaration, GoType } from "./project.ts";

export function packageName(path: string): string {
  const parts = path.split("/");
  let last = parts.pop() ?? path;
  if (/^v\d+$/.test(last) && parts.length) last = parts.pop() ?? last;
  return last.replace(/^go-/, "").replace(/\.v\d+$/, "").replace(/-/g, "_");
}

/**
 * An import path without its major-version segments (`echo/v4` → `echo`,
 * `iris/v12/core/router` → `iris/core/router`), for the tables of known
 * packages.
 */
export function normalizeImport(path: string): string {
  return path.replace(/\/v\d+(?=\/|$)/g, "");
}

export function importSpecs(declaration: Node): Node[] {
  const out: Node[] = [];
  for (const child of namedChildren(declaration)) {
    if (child.type === "import_spec") out.push(child);
    else if (child.type === "import_spec_list") {
      for (const spec of namedChildren(child)) {
        if (spec.type === "import_spec") out.push(spec);
      }
    }
  }
  return out;
}

export function parametersOf(fn: Node): Map<string, GoDeclaration> {
  const out = new Map<string, GoDeclaration>();
  const lists = [
    fn.childForFieldName("receiver"),
    fn.childForFieldName("parameters"),
  ];
  let index = 0;
  for (const list of lists) {
    if (!list) continue;
    const isReceiver = list === lists[0];
    for (const parameter of namedChildren(list)) {
      if (
        parameter.type !== "parameter_declaration" &&
        parameter.type !== "variadic_parameter_declaration"
      ) continue;
      const names = parameter.childrenForFieldName("name").filter((n) => n);
      const type = parameter.childForFieldName("type");
      for (const n of names.length ? names : [null]) {
        if (n && !out.has(n.text)) {
          out.set(n.text, {
            kind: "param",
            fn,
            index: isReceiver ? -1 : index,
            type,
          });
        }
        if (!isReceiver) index++;
      }
    }
  }
  return out;
}

export interface ScopeIndex {
  params?: Map<string, GoDeclaration>;
  names: Map<string, Array<{ end: number; statement: Node }>>;
}

export const DECLARING: ReadonlySet<string> = new Set([
  "short_var_declaration",
  "assignment_statement",
  "var_declaration",
  "const_declaration",
]);

/** The identifiers a declaring statement binds. */
export function declaredNames(statement: Node): string[] {
  switch (statement.type) {
    case "short_var_declaration":
    case "assignment_statement": {
      const left = statement.childForFieldName("left");
      return left
        ? namedChildren(left).filter((n) => n.type === "identifier").map((n) =>
          n.text
        )
        : [];
    }
    case "var_declaration":
    case "const_declaration":
    case "var_spec_list":
      return namedChildren(statement).flatMap(declaredNames);
    case "var_spec":
    case "const_spec":
      return statement.childrenForFieldName("name").flatMap((n) =>
        n ? [n.text] : []
      );
    default:
      return [];
  }
}

export function declares(
  statement: Node,
  name: string,
): GoDeclaration | undefined {
  switch (statement.type) {
    case "short_var_declaration":
    case "assignment_statement": {
      const left = statement.childForFieldName("left");
      const right = statement.childForFieldName("right");
      if (!left || !right) return undefined;
      const names = namedChildren(left);
      const index = names.findIndex((n) =>
        n.type === "identifier" && n.text === name
      );
      if (index === -1) return undefined;
      const values = namedChildren(right);
      if (values.length === names.length) {
        const node = values[index];
        return node ? { kind: "value", node, index, single: true } : undefined;
      }
      const node = values[0];
      return node ? { kind: "value", node, index, single: false } : undefined;
    }
    case "var_declaration":
    case "const_declaration": {
      for (const spec of namedChildren(statement)) {
        const specs = spec.type === "var_spec_list"
          ? namedChildren(spec)
          : [spec];
        for (const s of specs) {
          const found = declares(s, name);
          if (found) return found;
        }
      }
      return undefined;
    }
    case "var_spec":
    case "const_spec": {
      const names = statement.childrenForFieldName("name").filter((n) => n);
      const index = names.findIndex((n) => n?.text === name);
      if (index === -1) return undefined;
      const valueList = statement.childForFieldName("value");
      const values = valueList ? namedChildren(valueList) : [];
      const type = statement.childForFieldName("type");
      if (values.length === names.length) {
        const node = values[index];
        if (node) return { kind: "value", node, index, single: true };
      }
      if (type) return { kind: "typed", type };
      const node = values[0];
      return node ? { kind: "value", node, index, single: false } : undefined;
    }
    default:
      return undefined;
  }
}

export function structField(struct: Node, field: string): Node | undefined {
  const list = namedChildren(struct).find((n) =>
    n.type === "field_declaration_list"
  );
  for (const declaration of list ? namedChildren(list) : []) {
    if (declaration.type !== "field_declaration") continue;
    const names = declaration.childrenForFieldName("name");
    if (names.some((n) => n?.text === field)) {
      return declaration.childForFieldName("type") ?? undefined;
    }
  }
  return undefined;
}

const T = (pkg: string, name: string): GoType => ({ pkg, name });
const GORILLA = "github.com/gorilla/mux";
const GIN = "github.com/gin-gonic/gin";
const ECHO = "github.com/labstack/echo";
const CHI = "github.com/go-chi/chi";
const FIBER = "github.com/gofiber/fiber";
const HERTZ = "github.com/cloudwego/hertz/pkg/app/server";
const HERTZ_ROUTE = "github.com/cloudwego/hertz/pkg/route";
const IRIS = "github.com/kataras/iris";
const HTTPROUTER = "github.com/julienschmidt/httprouter";
const DAPR_CLIENT = "github.com/dapr/go-sdk/client";
const GHTTP = "github.com/gogf/gf/net/ghttp";
const DAPR_SERVICE = "github.com/dapr/go-sdk/service/common";
const FASTHTTP_ROUTER = "github.com/fasthttp/router";
const POCKETBASE_ROUTER = "github.com/pocketbase/pocketbase/tools/router";

/** Functions of known packages that construct a value of a known type. */
export const CONSTRUCTORS: ReadonlyMap<string, GoType> = new Map([
  ["net/http.NewServeMux", T("net/http", "ServeMux")],
  ["net/http.NewRequest", T("net/http", "Request")],
  ["net/http.NewRequestWithContext", T("net/http", "Request")],
  [`${GORILLA}.NewRouter`, T(GORILLA, "Router")],
  [`${GIN}.Default`, T(GIN, "Engine")],
  [`${GIN}.New`, T(GIN, "Engine")],
  [`${ECHO}.New`, T(ECHO, "Echo")],
  [`${CHI}.NewRouter`, T(CHI, "Mux")],
  [`${CHI}.NewMux`, T(CHI, "Mux")],
  [`${FIBER}.New`, T(FIBER, "App")],
  [`${HERTZ}.Default`, T(HERTZ, "Hertz")],
  [`${HERTZ}.New`, T(HERTZ, "Hertz")],
  [`${IRIS}.New`, T(IRIS, "Application")],
  [`${IRIS}.Default`, T(IRIS, "Application")],
  [`${HTTPROUTER}.New`, T(HTTPROUTER, "Router")],
  [`${FASTHTTP_ROUTER}.New`, T(FASTHTTP_ROUTER, "Router")],
  [`${POCKETBASE_ROUTER}.NewRouter`, T(POCKETBASE_ROUTER, "Router")],
  ["github.com/gogf/gf/frame/g.Server", T(GHTTP, "Server")],
  [`${GHTTP}.GetServer`, T(GHTTP, "Server")],
  [`${DAPR_CLIENT}.NewClient`, T(DAPR_CLIENT, "Client")],
  [`${DAPR_CLIENT}.NewClientWithAddress`, T(DAPR_CLIENT, "Client")],
  [`${DAPR_CLIENT}.NewClientWithPort`, T(DAPR_CLIENT, "Client")],
  [`${DAPR_CLIENT}.NewClientWithSocket`, T(DAPR_CLIENT, "Client")],
  [
    "github.com/dapr/go-sdk/service/http.NewService",
    T(DAPR_SERVICE, "Service"),
  ],
  [
    "github.com/dapr/go-sdk/service/http.NewServiceWithMux",
    T(DAPR_SERVICE, "Service"),
  ],
  [
    "github.com/dapr/go-sdk/service/grpc.NewService",
    T(DAPR_SERVICE, "Service"),
  ],
  ["go.temporal.io/sdk/worker.New", T("go.temporal.io/sdk/worker", "Worker")],
  ["go.temporal.io/sdk/client.Dial", T("go.temporal.io/sdk/client", "Client")],
  [
    "go.temporal.io/sdk/client.NewClient",
    T("go.temporal.io/sdk/client", "Client"),
  ],
  [
    "go.temporal.io/sdk/client.NewLazyClient",
    T("go.temporal.io/sdk/client", "Client"),
  ],
]);

/** Methods of known types that return a value of a known type. */
export const METHOD_RESULTS: ReadonlyMap<string, GoType> = new Map([
  [`${GORILLA}.Router.PathPrefix`, T(GORILLA, "Route")],
  [`${GORILLA}.Router.Host`, T(GORILLA, "Route")],
  [`${GORILLA}.Route.Subrouter`, T(GORILLA, "Router")],
  [`${GORILLA}.Router.StrictSlash`, T(GORILLA, "Router")],
  [`${GIN}.Engine.Group`, T(GIN, "RouterGroup")],
  [`${GIN}.RouterGroup.Group`, T(GIN, "RouterGroup")],
  [`${ECHO}.Echo.Group`, T(ECHO, "Group")],
  [`${ECHO}.Group.Group`, T(ECHO, "Group")],
  [`${CHI}.Mux.With`, T(CHI, "Router")],
  [`${CHI}.Router.With`, T(CHI, "Router")],
  [`${CHI}.Mux.Route`, T(CHI, "Router")],
  [`${CHI}.Router.Route`, T(CHI, "Router")],
  [`${FIBER}.App.Group`, T(FIBER, "Router")],
  [`${FIBER}.Router.Group`, T(FIBER, "Router")],
  [`${HERTZ}.Hertz.Group`, T(HERTZ_ROUTE, "RouterGroup")],
  [`${HERTZ_ROUTE}.RouterGroup.Group`, T(HERTZ_ROUTE, "RouterGroup")],
  [`${IRIS}.Application.Party`, T(IRIS, "Party")],
  [`${IRIS}.Party.Party`, T(IRIS, "Party")],
  [`${GHTTP}.Server.Group`, T(GHTTP, "RouterGroup")],
  ...["github.com/streadway/amqp", "github.com/rabbitmq/amqp091-go"].map((
    amqp,
  ): [string, GoType] => [`${amqp}.Connection.Channel`, T(amqp, "Channel")]),
  [`${GHTTP}.RouterGroup.Group`, T(GHTTP, "RouterGroup")],
  [`${FASTHTTP_ROUTER}.Router.Group`, T(FASTHTTP_ROUTER, "Group")],
  [`${FASTHTTP_ROUTER}.Group.Group`, T(FASTHTTP_ROUTER, "Group")],
  ...["Router", "RouterGroup"].flatMap((owner) =>
    ["Group", "Bind", "BindFunc", "Unbind"].map((method): [string, GoType] => [
      `${POCKETBASE_ROUTER}.${owner}.${method}`,
      T(
        POCKETBASE_ROUTER,
        method === "Group" || owner === "RouterGroup"
          ? "RouterGroup"
          : "Router",
      ),
    ])
  ),
]);

/** Fields of known types that hold a value of a known type. */
export const FIELD_TYPES: ReadonlyMap<string, GoType> = new Map([
  // app.OnServe().BindFunc(func(se *core.ServeEvent) error { se.Router.GET(...) })
  [
    "github.com/pocketbase/pocketbase/core.ServeEvent.Router",
    T(POCKETBASE_ROUTER, "Router"),
  ],
]);

export const HTTP_METHOD_CONSTANTS: ReadonlyMap<string, string> = new Map(
  [
    "Get",
    "Head",
    "Post",
    "Put",
    "Patch",
    "Delete",
    "Connect",
    "Options",
    "Trace",
  ]
    .map((m) => [`net/http.Method${m}`, m.toUpperCase()]),
);
