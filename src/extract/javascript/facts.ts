// The facts the JavaScript/TypeScript extractor keeps of one file (imports,
// exports, constants, routers, route and client calls): plain data that
// holds no tree nodes, so trees are deleted before files are composed.
import type { Value } from "../_value/mod.ts";
import type { PortOwner } from "../types.ts";
import type { AutoloadRec } from "./autoload.ts";
import type { TrpcNode } from "./trpc.ts";
import type { FeathersService } from "./feathers.ts";

/** An import binding: `import { a as b } from "x"` gives `b -> {x, a}`. */
export interface ImportBinding {
  source: string;
  /** `default`, `*` (namespace) or the imported name. */
  name: string;
}

/** A router-like object: an app, a router, a sub-app. */
export interface RouterDef {
  framework: string;
  /** Own prefix: koa-router `prefix`, Hono `basePath`. */
  prefix: Value;
}

/** An HTTP client instance (`axios.create`, `ky.create`). */
export interface InstanceDef {
  framework: string;
  base: Value;
}

/** Where a port was found. */
export interface Site {
  line: number;
  col: number;
  owner: PortOwner;
}

/** NestJS versioning: URI versions (`/v1`) are the only ones in paths. */
export interface NestVersioning {
  uri: boolean;
  /** The URI prefix (`v` by default). */
  prefix: string;
  /** `defaultVersion`: the versions of controllers that name none. */
  defaults?: string[];
}

/** A route registration. */
export interface RouteRec extends Site {
  /** Local router id; `undefined` for routes that stand alone. */
  router?: string;
  /** Upper-case methods; `ANY` for no restriction. */
  methods: string[];
  /** Path as written. */
  path: Value;
  /** A prefix from the same file (NestJS controller). */
  prefix?: Value;
  framework: string;
  /** `true` when the path was composed by convention (Next.js files). */
  composed?: boolean;
  /** `true` when the method is a guess (no restriction seen). */
  weakMethod?: boolean;
  /** Applies the NestJS global prefix. */
  nest?: boolean;
  /** NestJS versions of the route (`""`: `VERSION_NEUTRAL`). */
  versions?: string[];
  extra: Record<string, string>;
  /** This library's guard in front of the route, when one was seen. */
  guard?: GuardFacts;
  /**
   * A route only when guarded: a whole server's handler (`Deno.serve(h)`,
   * node `serve(h)`) is a catch-all route only when `h` is a guarded one.
   */
  onlyGuarded?: boolean;
}

/**
 * A value of one `guard.requirePermission(...)` argument: the literal
 * string, or the source text of anything else (an `AccessSubject`, a
 * variable), which the report shows as dynamic, never as a guess.
 */
export type GuardArg = string | { dynamic: string };

/** What a handler or route says of this library's guard. */
export interface GuardFacts {
  /** The arguments of each `requirePermission(...)` it goes through. */
  requirements: GuardArg[][];
  /** `authRequired()` seen (alone, or with permissions). */
  auth: boolean;
  /** Imported handlers whose guard the cross-file pass adds. */
  refs: ImportBinding[];
}

/** A child router or plugin reference. */
export type ChildRef =
  | { local: string }
  | { import: ImportBinding };

/** `app.use("/api", router)`, `app.route("/x", sub)`, `app.register(p)`. */
export interface MountRec {
  parent: string;
  prefix: Value;
  child: ChildRef;
  /** `router`: a router object; `plugin`: a function given the parent. */
  kind: "router" | "plugin";
  /**
   * A plugin function's arguments (`register(app, "/api")`): its routes'
   * `parameter` holes named by position (`"1"`) take them.
   */
  args?: Array<Value | undefined>;
}

/** An HTTP call. */
export interface ClientRec extends Site {
  /** Upper-case method, or `undefined` when it cannot be known. */
  method: string | undefined;
  url: Value;
  /** An instance the call goes through (base URL). */
  via?: ChildRef;
  /** `via` may turn out not to be an instance: keep the call without a base. */
  viaOptional?: boolean;
  framework: string;
}

/**
 * A function wrapping an HTTP call whose URL comes from one of its
 * parameters: `function api(path, init) { return fetch(BASE + path, init) }`.
 */
export interface ClientHelper {
  /** Index of the parameter that holds (part of) the URL. */
  param: number;
  /** The URL before and after that parameter. */
  before: Value;
  after: Value;
  /** A literal method, or `undefined`. */
  method: string | undefined;
  /** Index of the parameter holding the request options, if any. */
  methodParam?: number;
  framework: string;
  via?: ChildRef;
}

/** A call of a function that may be a client helper: `api("/users")`. */
export interface HelperCall extends Site {
  callee: ChildRef;
  /** Each argument's value when it is string-like. */
  args: Array<Value | undefined>;
  /** Each argument's method option when it is an object literal. */
  argMethods: Array<string | undefined | null>;
}

/** What a file declares at module level: imports, constants, exports. */
export interface ModuleFacts {
  path: string;
  imports: Map<string, ImportBinding>;
  /** Constants: `NAME`, `OBJ.prop`, `Enum.Member`; `null` when ambiguous. */
  consts: Map<string, Value | null>;
  /** Exported name (or `default`) -> local name. */
  exports: Map<string, string>;
}

/** The routers of a file, the routes registered on them and their mounts. */
export interface RouterFacts {
  /**
   * Routers by id: the local name (`name@<offset of its function>` inside a
   * function, `@<offset>` for one made inline).
   */
  routers: Map<string, RouterDef>;
  routes: RouteRec[];
  mounts: MountRec[];
  /** Functions returning a router: function name -> the router's local. */
  returns: Map<string, string>;
}

/** The HTTP clients of a file: instances, calls and client helpers. */
export interface ClientFacts {
  /** Client instances (`axios.create(...)`) by local name. */
  instances: Map<string, InstanceDef>;
  clients: ClientRec[];
  /** Client helpers by function name. */
  helpers: Map<string, ClientHelper>;
  /** Calls of possible client helpers. */
  helperCalls: HelperCall[];
}

/** Everything the cross-file pass needs from one file. */
export interface JsFacts extends ModuleFacts, RouterFacts, ClientFacts {
  /** Guarded handlers and wrappers by local name (`"(default)"`: the default export). */
  guards: Map<string, GuardFacts>;
  /** `app.setGlobalPrefix("api")` of NestJS. */
  globalPrefix?: Value;
  /** Its `exclude` option: paths (no slashes around) and their method. */
  globalPrefixExclude?: Array<{ path: string; method: string }>;
  /** `app.enableVersioning(...)` of NestJS. */
  nestVersioning?: NestVersioning;
  /** `NestFactory.create(...)` seen: the app's bootstrap is in the project. */
  nestBootstrap?: boolean;
  /** Routes that count only in an app of their framework (`route_modules.ts`). */
  gated?: Array<{ framework: string; app: string; routes: RouteRec[] }>;
  /** `<framework>:<app folder>` of the apps this file shows to use a framework. */
  apps?: string[];
  /** `export * from "..."` in a Next.js app route: its URL (`nextjs.ts`). */
  nextReexports?: Array<Site & { source: string; path: string }>;
  /** tRPC routers and procedures by local name (`trpc.ts`). */
  trpc?: Map<string, TrpcNode>;
  /** tRPC handlers: the endpoint and the router they serve. */
  trpcHandlers?: Array<{ endpoint: string; router: TrpcNode }>;
  /** Feathers `use(path, service)` calls and service classes (`feathers.ts`). */
  feathers?: FeathersService[];
  serviceClasses?: Map<string, string[]>;
  /** `register(AutoLoad, { dir })` calls of fastify (`autoload.ts`). */
  autoloads?: AutoloadRec[];
  /** What the file is to a Sails app (see `sails.ts`). */
  sails?: SailsFacts;
}

/** A file of a Sails app: its routes, blueprint settings, a model, actions. */
export interface SailsFacts {
  /** The app's folder (the part of the path before `config/` or `api/`). */
  app: string;
  kind: "app" | "blueprints" | "model" | "actions";
  /** `config/blueprints.js` settings, when written as literals. */
  rest?: boolean | undefined;
  actions?: boolean | undefined;
  /** A controller's actions: the path Sails gives each. */
  actionRoutes?: Array<{ path: string; site: Site }>;
  prefix?: string | undefined;
  restPrefix?: string | undefined;
  /** A model's identity (its file name in lower case) and where it is. */
  identity?: string;
  site?: Site;
}
