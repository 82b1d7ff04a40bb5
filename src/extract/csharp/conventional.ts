// ASP.NET conventional routing: route registrations (`MapControllerRoute`,
// `MapDefaultControllerRoute`, `MapAreaControllerRoute`, `MapRoute`...) and
// the URLs they give the actions of controllers that are not attribute-routed.
import type { Node } from "web-tree-sitter";
import { exactText, type Value } from "../_value/mod.ts";
import { namedChildren } from "../_syntax/tree.ts";

/** A piece of a route template segment. */
export type TemplatePart =
  | { kind: "text"; text: string }
  | {
    kind: "param";
    /** Parameter name, lower case (route values are case-insensitive). */
    name: string;
    /** The inline default (`{action=Index}`), if any. */
    default?: string;
    /** `{id?}`, a catch-all `{*slug}`, or `id = UrlParameter.Optional`. */
    optional: boolean;
  };

/** A conventional route registered in the scan. */
export interface ConventionalRoute {
  /** The route name (`default`), or `""`. */
  name: string;
  /** The template as written, e.g. `{controller=Home}/{action=Index}/{id?}`. */
  pattern: string;
  /** The template's segments (between slashes). */
  segments: TemplatePart[][];
  /** Defaults by lower-case name: inline and from the `defaults:` object. */
  defaults: Map<string, string>;
  /** Parameters made optional by `UrlParameter.Optional` / `RouteParameter.Optional`. */
  optional: Set<string>;
  /** The area of `MapAreaControllerRoute(name, areaName, ...)`. */
  area?: string;
  /** The registering call. */
  at?: Node;
  /**
   * The folder of the registering project (the registering file's folder,
   * without a trailing `App_Start`).
   */
  folder?: string;
  /** A Web API route (`MapHttpRoute`): it reaches `ApiController`s only. */
  webApi?: boolean;
  /** Not registered in the scan: the project template's default, assumed. */
  assumed?: boolean;
}

/** The default route of `MapDefaultControllerRoute()`. */
export const DEFAULT_PATTERN = "{controller=Home}/{action=Index}/{id?}";

/** The registration methods and where their arguments are. */
const REGISTRATIONS: Record<
  string,
  {
    area?: number;
    pattern?: number;
    defaults?: number;
    receiver?: "routes" | "http";
  }
> = {
  MapControllerRoute: { pattern: 1, defaults: 2 },
  MapAreaControllerRoute: { area: 1, pattern: 2, defaults: 3 },
  MapDefaultControllerRoute: {},
  UseMvcWithDefaultRoute: {},
  MapRoute: { pattern: 1, defaults: 2, receiver: "routes" },
  MapAreaRoute: { area: 1, pattern: 2, defaults: 3, receiver: "routes" },
  // ASP.NET Web API 2: `config.Routes.MapHttpRoute("DefaultApi",
  // "api/{controller}/{id}")`, the action chosen by the HTTP method.
  MapHttpRoute: { pattern: 1, defaults: 2, receiver: "http" },
};

/** Names the template argument may be passed as. */
const PATTERN_NAMES = new Set(["pattern", "template", "url", "routeTemplate"]);

/** Types whose `MapRoute` registers an MVC route. */
const ROUTE_BUILDERS = new Set([
  "IRouteBuilder",
  "RouteBuilder",
  "RouteCollection",
]);

/** Methods whose lambda parameter is an MVC route builder. */
const ROUTE_BUILDER_CALLS = new Set(["UseMvc", "UseRouter"]);

/**
 * The routes that reach the controllers of a file: those registered in its
 * own project (a folder above it), else, when none is, all of the scan.
 */
export function routesFor(
  routes: readonly ConventionalRoute[],
  path: string,
): readonly ConventionalRoute[] {
  const own = routes.filter((r) =>
    r.folder !== undefined &&
    (r.folder === "" || path.startsWith(r.folder + "/"))
  );
  return own.length > 0 ? own : routes;
}

/** The project folder of a registering file (see `ConventionalRoute.folder`). */
export function projectFolder(path: string): string {
  const parts = path.split("/").slice(0, -1);
  if (parts.at(-1) === "App_Start") parts.pop();
  return parts.join("/");
}

/**
 * The route the ASP.NET MVC 5 project template registers in
 * `App_Start/RouteConfig.cs` (`{controller}/{action}/{id}`, defaults
 * `Home`/`Index`, `id` optional), assumed for classic MVC controllers of a
 * scan that registers no conventional route.
 */
export function assumedDefaultRoute(): ConventionalRoute {
  const segments = parseTemplate(DEFAULT_PATTERN);
  return {
    name: "Default",
    pattern: DEFAULT_PATTERN,
    segments,
    defaults: new Map([["controller", "Home"], ["action", "Index"]]),
    optional: new Set(["id"]),
    assumed: true,
  };
}

/** Splits a route template into segments, keeping `/` inside braces. */
export function parseTemplate(pattern: string): TemplatePart[][] {
  let text = pattern.trim();
  if (text.startsWith("~/")) text = text.slice(2);
  const raw: string[] = [];
  let depth = 0;
  let current = "";
  for (const c of text) {
    if (c === "{") depth++;
    else if (c === "}") depth = Math.max(0, depth - 1);
    if (c === "/" && depth === 0) {
      raw.push(current);
      current = "";
    } else current += c;
  }
  raw.push(current);
  return raw.filter((s) => s !== "").map(parseSegment);
}

function parseSegment(segment: string): TemplatePart[] {
  const parts: TemplatePart[] = [];
  let i = 0;
  while (i < segment.length) {
    const open = segment.indexOf("{", i);
    if (open < 0) {
      parts.push({ kind: "text", text: segment.slice(i) });
      break;
    }
    if (open > i) parts.push({ kind: "text", text: segment.slice(i, open) });
    let depth = 0;
    let close = open;
    for (; close < segment.length; close++) {
      if (segment[close] === "{") depth++;
      else if (segment[close] === "}" && --depth === 0) break;
    }
    parts.push(parseParameter(segment.slice(open + 1, close)));
    i = close + 1;
  }
  return parts;
}

/** `name`, `*rest`, `name=default`, `name:int?`, `name:regex(..)=x`. */
function parseParameter(inner: string): TemplatePart {
  const match = /^(\*{0,2})([A-Za-z_]\w*)(.*)$/s.exec(inner.trim());
  if (!match) return { kind: "param", name: "", optional: false };
  let rest = match[3] ?? "";
  let optional = match[1] !== "";
  if (rest.endsWith("?")) {
    optional = true;
    rest = rest.slice(0, -1);
  }
  let fallback: string | undefined;
  let parens = 0;
  for (let k = 0; k < rest.length; k++) {
    const c = rest[k];
    if (c === "(") parens++;
    else if (c === ")") parens = Math.max(0, parens - 1);
    else if (c === "=" && parens === 0) {
      fallback = rest.slice(k + 1);
      break;
    }
  }
  const name = match[2]!.toLowerCase();
  return fallback === undefined
    ? { kind: "param", name, optional }
    : { kind: "param", name, default: fallback, optional };
}

/** Arguments of a call as `[name or undefined, value]`. */
function argumentsOf(call: Node): Array<[string | undefined, Node]> {
  const list = call.childForFieldName("arguments");
  const out: Array<[string | undefined, Node]> = [];
  for (const arg of list ? namedChildren(list) : []) {
    if (arg.type !== "argument") continue;
    const name = arg.childForFieldName("name");
    const named = namedChildren(arg).filter((n) => n.id !== name?.id);
    const value = named[named.length - 1];
    if (value) out.push([name?.text, value]);
  }
  return out;
}

/** The argument at `index`, or the one named one of `names`. */
function argument(
  args: Array<[string | undefined, Node]>,
  index: number | undefined,
  names: ReadonlySet<string>,
): Node | undefined {
  const named = args.find(([n]) => n !== undefined && names.has(n));
  if (named) return named[1];
  if (index === undefined) return undefined;
  const positional = args[index];
  return positional && positional[0] === undefined ? positional[1] : undefined;
}

/**
 * Whether the receiver of `MapRoute` is an MVC route builder: a parameter or
 * variable of type `IRouteBuilder`/`RouteCollection`, `RouteTable.Routes`,
 * or the lambda parameter of `app.UseMvc(routes => ...)`.
 */
function isRouteBuilder(
  receiver: Node | null,
  typeOf: (node: Node) => string | undefined,
): boolean {
  if (!receiver) return false;
  if (receiver.text.replace(/\s+/g, "").endsWith("RouteTable.Routes")) {
    return true;
  }
  if (receiver.type !== "identifier") return false;
  const type = typeOf(receiver);
  if (type) return ROUTE_BUILDERS.has(type);
  for (let n: Node | null = receiver.parent; n; n = n.parent) {
    if (n.type !== "lambda_expression") continue;
    const params = n.childForFieldName("parameters");
    if (!params) continue;
    const names = params.type === "implicit_parameter" ||
        params.type === "identifier"
      ? [params.text]
      : namedChildren(params).map((p) => p.childForFieldName("name")?.text);
    if (!names.includes(receiver.text)) continue;
    const call = n.parent?.parent?.parent;
    const fn = call?.type === "invocation_expression"
      ? call.childForFieldName("function")
      : undefined;
    const method = fn?.type === "member_access_expression"
      ? fn.childForFieldName("name")?.text
      : undefined;
    return method !== undefined && ROUTE_BUILDER_CALLS.has(method);
  }
  return false;
}

/** `new { controller = "Home", id = UrlParameter.Optional }`. */
function readDefaults(
  node: Node | undefined,
  evaluate: (node: Node) => Value,
  route: ConventionalRoute,
): void {
  if (node?.type !== "anonymous_object_creation_expression") return;
  const members = namedChildren(node);
  for (let k = 0; k < members.length; k++) {
    const key = members[k]!;
    const value = members[k + 1];
    if (key.type !== "identifier" || key.nextSibling?.type !== "=" || !value) {
      continue;
    }
    k++;
    const name = key.text.toLowerCase();
    if (/^(UrlParameter|RouteParameter)\.Optional$/.test(value.text)) {
      route.optional.add(name);
      continue;
    }
    const text = exactText(evaluate(value));
    if (text !== undefined && !route.defaults.has(name)) {
      route.defaults.set(name, text);
    }
  }
}

/**
 * The conventional route an invocation registers, or undefined: a template
 * that is not a static string, or a `MapRoute` of another library (its
 * receiver is not an MVC route builder), registers nothing.
 */
export function conventionalRoute(
  call: Node,
  evaluate: (node: Node) => Value,
  typeOf: (node: Node) => string | undefined,
): ConventionalRoute | undefined {
  const fn = call.childForFieldName("function");
  if (fn?.type !== "member_access_expression") return undefined;
  const method = fn.childForFieldName("name")?.text ?? "";
  const spec = REGISTRATIONS[method];
  if (!spec) return undefined;
  const receiver = fn.childForFieldName("expression");
  if (spec.receiver === "routes" && !isRouteBuilder(receiver, typeOf)) {
    return undefined;
  }
  if (
    spec.receiver === "http" &&
    !/(^|\.)Routes$/.test(receiver?.text.replace(/\s+/g, "") ?? "") &&
    !(receiver && typeOf(receiver) === "HttpRouteCollection")
  ) return undefined;
  const args = argumentsOf(call);
  let pattern = DEFAULT_PATTERN;
  if (spec.pattern !== undefined) {
    const node = argument(args, spec.pattern, PATTERN_NAMES);
    const text = node ? exactText(evaluate(node)) : undefined;
    if (text === undefined) return undefined;
    pattern = text;
  }
  const nameNode = argument(args, 0, new Set(["name"]));
  const route: ConventionalRoute = {
    name: (nameNode ? exactText(evaluate(nameNode)) : undefined) ?? "",
    pattern,
    segments: parseTemplate(pattern),
    defaults: new Map(),
    optional: new Set(),
    at: call,
  };
  for (const segment of route.segments) {
    for (const part of segment) {
      if (part.kind === "param" && part.default !== undefined) {
        route.defaults.set(part.name, part.default);
      }
    }
  }
  if (spec.area !== undefined) {
    const node = argument(args, spec.area, new Set(["areaName"]));
    const area = node ? exactText(evaluate(node)) : undefined;
    if (!area) return undefined;
    route.area = area;
    route.defaults.set("area", area);
  }
  if (spec.defaults !== undefined) {
    readDefaults(
      argument(args, spec.defaults, new Set(["defaults"])),
      evaluate,
      route,
    );
  }
  const reaches = (token: string) =>
    route.defaults.has(token) ||
    route.segments.some((s) =>
      s.some((p) => p.kind === "param" && p.name === token)
    );
  if (spec.receiver === "http") {
    route.webApi = true;
    return reaches("controller") ? route : undefined;
  }
  return reaches("controller") && reaches("action") ? route : undefined;
}

/** A controller action as conventional routing sees it. */
export interface ConventionalAction {
  /** Controller name without the `Controller` suffix. */
  controller: string;
  /** Action name (`[ActionName]`, else the method name without `Async`). */
  action: string;
  /** The controller's `[Area]`, if any. */
  area?: string;
  /** The method's parameter names, lower case. */
  parameters: ReadonlySet<string>;
}

const same = (a: string, b: string) => a.toLowerCase() === b.toLowerCase();

/**
 * The URL paths a conventional route gives an action, longest first, each
 * with `{}` for a parameter: none when the route cannot reach the action.
 *
 * The full form, then every shorter form obtained by leaving out trailing
 * segments that are optional or at their default (`/Home/Index`, `/Home`,
 * `/` for `HomeController.Index` on the default route). A segment of an
 * optional or defaulted parameter other than `controller`/`action`/`area`
 * (`{id?}`) is written only when the action has a parameter of that name.
 */
export function conventionalPaths(
  route: ConventionalRoute,
  action: ConventionalAction,
): string[] {
  const values: Record<string, string | undefined> = {
    controller: action.controller,
    action: action.action,
    area: action.area,
  };
  const params = new Set<string>();
  for (const segment of route.segments) {
    for (const p of segment) if (p.kind === "param") params.add(p.name);
  }
  for (const token of ["controller", "action", "area"]) {
    const value = values[token];
    const fixed = route.defaults.get(token);
    if (params.has(token)) {
      if (value === undefined) return [];
      if (token === "area" && route.area && !same(route.area, value)) return [];
    } else if (fixed !== undefined) {
      if (value === undefined || !same(fixed, value)) return [];
    } else if (token === "area" && value !== undefined) {
      return [];
    }
  }
  const rendered: string[] = [];
  const omittable: boolean[] = [];
  for (const segment of route.segments) {
    let text = "";
    for (const p of segment) {
      if (p.kind === "text") text += p.text;
      else text += values[p.name] ?? (p.name in values ? "" : "{}");
    }
    rendered.push(text);
    const only = segment.length === 1 ? segment[0]! : undefined;
    let canOmit = false;
    if (only?.kind === "param") {
      const value = values[only.name];
      const fallback = route.defaults.get(only.name);
      canOmit = only.name in values
        ? value !== undefined && fallback !== undefined && same(fallback, value)
        : only.optional || route.optional.has(only.name) ||
          fallback !== undefined;
    }
    omittable.push(canOmit);
  }
  const out: string[] = [];
  for (let k = rendered.length; k >= 0; k--) {
    if (k < rendered.length && !omittable[k]) break;
    // A trailing optional parameter the action does not bind: skip the form.
    const last = k > 0 ? route.segments[k - 1]! : undefined;
    const tail = last?.length === 1 ? last[0] : undefined;
    if (
      tail?.kind === "param" && !(tail.name in values) &&
      omittable[k - 1] && !action.parameters.has(tail.name)
    ) continue;
    out.push("/" + rendered.slice(0, k).join("/"));
  }
  return out;
}
