// HTTP port records: the method names routing DSLs use and the port of a
// route or a call, keyed by the normalized method and path.
import { httpBoundaryKey } from "../../boundary/http_path.ts";
import type { ExtractedPort, PortOwner } from "../types.ts";
import type { Value } from "../_value/value.ts";
import { type PathResult, routePath } from "../_value/path.ts";
import { withHostDetails } from "../_value/host.ts";

/** Where a port is reported: any syntax node (0-based row and column). */
export interface Positioned {
  readonly startPosition: { row: number; column: number };
}

/** The HTTP method names recognised in framework calls. */
export const HTTP_METHODS: ReadonlySet<string> = new Set([
  "GET",
  "POST",
  "PUT",
  "PATCH",
  "DELETE",
  "HEAD",
  "OPTIONS",
]);

/** {@linkcode HTTP_METHODS} in lower case, as routing DSLs spell them. */
export const HTTP_VERBS: ReadonlySet<string> = new Set(
  [...HTTP_METHODS].map((m) => m.toLowerCase()),
);

/**
 * {@linkcode HTTP_METHODS} by the capitalised names annotations and
 * decorators give them (`@Get`, `@Delete`).
 */
export const CAPITALISED_METHODS: Readonly<Record<string, string>> = Object
  .fromEntries(
    [...HTTP_METHODS].map((m) => [m[0] + m.slice(1).toLowerCase(), m]),
  );

/**
 * Evaluates a string literal node with `evaluate` for its interpolated

/** Options of {@linkcode httpPort}. */
export interface HttpPortInit {
  role: "server" | "client";
  method: string;
  path: string;
  node: Positioned;
  owner: PortOwner;
  filePath: string;
  confidence: number;
  framework: string;
  extra?: Record<string, string>;
}

/**
 * Builds an HTTP port, or undefined when the path cannot be normalized (the
 * caller records nothing rather than a wrong key; `invalid` hears why).
 */
export function httpPort(
  init: HttpPortInit,
  invalid?: (error: Error) => void,
): ExtractedPort | undefined {
  let key: string;
  try {
    key = httpBoundaryKey(init.method, init.path);
  } catch (error) {
    invalid?.(error as Error);
    return undefined;
  }
  const { row, column } = init.node.startPosition;
  return {
    ref: {
      mechanism: "http",
      role: init.role,
      key,
      line: row + 1,
      col: column + 1,
      confidence: init.confidence,
      detail: {
        method: init.method,
        path: init.path,
        framework: init.framework,
        ...init.extra,
      },
    },
    owner: init.owner,
    filePath: init.filePath,
  };
}

/** Options of {@linkcode routePorts}. */
export interface RouteInit {
  /** `server` (the default) for a served route, `client` for a call. */
  role?: "server" | "client";
  /** The methods the route answers (`ANY` for all). */
  methods: Iterable<string>;
  /** The route's path with its prefixes joined (see `joinPaths`). */
  path: Value;
  /** Whether a prefix was joined: the path then counts as composed. */
  prefixed: boolean;
  node: Positioned;
  owner: PortOwner;
  filePath: string;
  framework: string;
  /** The most the route allows (a guessed method caps it). */
  confidence?: number;
  extra?: Record<string, string>;
  /** The keys reported already: a port with one of them is left out. */
  seen?: Set<string>;
}

/**
 * The ports of a route: its path as a server serves it (see `routePath`),
 * one port per method; none for a path that cannot be normalized.
 */
export function routePorts(init: RouteInit): ExtractedPort[] {
  const route = routePath(init.path, init.prefixed);
  const confidence = Math.min(route.confidence, init.confidence ?? 1);
  const out: ExtractedPort[] = [];
  for (const method of init.methods) {
    const port = httpPort({
      role: init.role ?? "server",
      method,
      path: route.path,
      node: init.node,
      owner: init.owner,
      filePath: init.filePath,
      confidence,
      framework: init.framework,
      ...(init.extra ? { extra: init.extra } : {}),
    });
    if (!port || init.seen?.has(port.ref.key)) continue;
    init.seen?.add(port.ref.key);
    out.push(port);
  }
  return out;
}

/** Where a client port is reported: its node, owner and file. */
export interface ClientPlace {
  node: Positioned;
  owner: PortOwner;
  filePath: string;
}

/** Options of {@linkcode flowedClientPorts}. */
export interface FlowedClients<N> {
  /** The values the call's URL takes, each with the call site giving it. */
  flowed: ReadonlyArray<{ value: Value; site?: N }>;
  /** The call itself (where a URL that needs no caller is reported). */
  call: N;
  method: string;
  framework: string;
  /** The path of a URL (with the client's base, relative rules...). */
  path: (url: Value) => PathResult | undefined;
  /** Where a port at a node (the call or a call site) is reported. */
  place: (node: N) => ClientPlace;
  /** The most the call allows (a guessed method caps it). */
  confidence?: number;
  /**
   * Details of every port; a port at a call site also gets `wrapper`, one
   * whose URL names a host `host` (`users:8080`, `${USERS_ADDR}`).
   */
  extra?: Record<string, string>;
  /** The text of the wrapped call, for `detail.wrapper`. */
  wrapper?: string;
}

/**
 * The client ports of a call whose URL may come from its callers (a
 * wrapper): one per value, at the call site that gives it.
 */
export function flowedClientPorts<N>(init: FlowedClients<N>): ExtractedPort[] {
  const out: ExtractedPort[] = [];
  for (const { value, site } of init.flowed) {
    const path = init.path(value);
    if (!path) continue;
    const place = init.place(site ?? init.call);
    const extra = withHostDetails(
      site && init.wrapper !== undefined
        ? { ...init.extra, wrapper: init.wrapper }
        : init.extra,
      value,
    );
    const port = httpPort({
      role: "client",
      method: init.method,
      path: path.path,
      ...place,
      confidence: Math.min(path.confidence, init.confidence ?? 1),
      framework: init.framework,
      ...(extra ? { extra } : {}),
    });
    if (port) out.push(port);
  }
  return out;
}

/** The actions of a RESTful resource, by their Rails names. */
export type ResourceAction =
  | "index"
  | "new"
  | "create"
  | "show"
  | "edit"
  | "update"
  | "destroy";

/** How a framework names and places the actions of a resource. */
export interface ResourceStyle {
  /** The framework's name of an action (`store` for Laravel's create). */
  names?: Partial<Record<ResourceAction, string>>;
  /** The path of the `new` form (`/new`, Laravel's `/create`). */
  newPath?: string;
  /** The member path after the collection (`/:id`; `""` when singular). */
  member: string;
}

/**
 * The routes of a RESTful resource in a framework's style: its name of each
 * action, the method, and the path after the collection's.
 */
export function resourceActions(
  style: ResourceStyle,
): ReadonlyArray<[string, string, string]> {
  const name = (action: ResourceAction) => style.names?.[action] ?? action;
  const member = style.member;
  return [
    [name("index"), "GET", ""],
    [name("new"), "GET", style.newPath ?? "/new"],
    [name("create"), "POST", ""],
    [name("show"), "GET", member],
    [name("edit"), "GET", `${member}/edit`],
    [name("update"), "PATCH", member],
    [name("update"), "PUT", member],
    [name("destroy"), "DELETE", member],
  ];
}
