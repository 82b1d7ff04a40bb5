// Django URLconfs: `path()`, `re_path()` and `url()` routes under the
// prefixes of the `include()`s that reach their module (or an inline
// `include([...])`), across modules.
import { httpPort } from "../_port/http.ts";
import { ownerOf } from "../_syntax/compact_tree.ts";
import { namedChildren } from "../_syntax/compact_tree.ts";
import {
  CONFIDENCE,
  HOLE,
  joinPaths,
  literal,
  mapText,
  routePath,
  textOf,
  underPrefix,
} from "../_value/mod.ts";
import {
  argument,
  attributeObject,
  keywordArg,
  positionalArgs,
  unwrap,
} from "./project.ts";
import { djangoViewMethods } from "./django_methods.ts";
import type { Value } from "../_value/mod.ts";
import type { PyProject } from "./project.ts";
import type { Node } from "../_syntax/compact_tree.ts";
import type { ExtractedPort } from "../types.ts";

/** What the Django URLconf support knows, for routers mounted in URLconfs. */
export interface DjangoUrls {
  /** The prefixes a URLconf module is included under (`""` when none). */
  modulePrefixes(name: string): Value[];
  /** The external name of a Django route call (`django.urls.path`...), if it is one. */
  routeKind(call: Node): string | undefined;
}

/** A Django route (`users/<int:pk>/` or a `re_path` regex) as a path with `{name}` parameters. */
export function djangoRoute(value: Value, regex: boolean): Value {
  return mapText(
    value,
    (text) =>
      regex
        ? regexGroups(text.replace(/^\^/, "").replace(/\$$/, ""))
          .replace(/\\(.)/g, "$1")
        : text.replace(/<(?:\w+:)?(\w+)>/g, "{$1}"),
  );
}

/**
 * A route regex with each outermost group, nested groups and all, as a
 * `{name}` parameter (`(?P<name>...)`) or a hole, with the quantifier that
 * follows it; an optional group is left out (the shortest path it takes).
 * Escapes and character classes are skipped when matching the parentheses.
 * Linear in the length of the text.
 */
function regexGroups(text: string): string {
  let out = "";
  let depth = 0;
  let group = "";
  let inClass = false;
  for (let i = 0; i < text.length; i++) {
    const char = text[i]!;
    if (char === "\\") {
      if (depth === 0) out += text.slice(i, i + 2);
      i++;
      continue;
    }
    if (inClass) {
      if (char === "]") inClass = false;
      if (depth === 0) out += char;
      continue;
    }
    if (char === "[") {
      inClass = true;
      if (depth === 0) out += char;
    } else if (char === "(") {
      if (depth === 0) {
        group = /^\(\?P<(\w+)>/.exec(text.slice(i, i + 40))?.[1] ?? "";
      }
      depth++;
    } else if (char === ")" && depth > 0) {
      depth--;
      if (depth === 0) {
        const quantifier = text[i + 1] ?? "";
        // an optional group (`(...)?`, `(...)*`) may match nothing: left out
        if (quantifier !== "?" && quantifier !== "*") {
          out += group ? `{${group}}` : HOLE;
        }
        if (/[*+?]/.test(quantifier)) i++;
      }
    } else if (depth === 0) out += char;
  }
  return out;
}

/**
 * The prefix given to `node` by the Django route calls enclosing it in its
 * own file: `path("api/", include([path("users/", ...)]))`.
 */
export function enclosingRoutePrefix(
  node: Node,
  project: PyProject,
  urls: DjangoUrls,
): Value {
  let inline = literal("");
  for (let current = node.parent; current; current = current.parent) {
    if (current.type !== "call") continue;
    const kind = urls.routeKind(current);
    if (!kind) continue;
    const [outer] = positionalArgs(current.childForFieldName("arguments"));
    const value = outer ? project.evalString(outer) : undefined;
    if (value) {
      inline = joinPaths(
        djangoRoute(value, kind !== "django.urls.path"),
        inline,
      );
    }
  }
  return inline;
}

const DJANGO_ROUTES: ReadonlySet<string> = new Set([
  "django.urls.path",
  "django.urls.re_path",
  "django.conf.urls.url",
]);

/** The Django routes of a project, and what DRF needs of the URLconfs. */
export function djangoPorts(
  project: PyProject,
): { ports: ExtractedPort[]; urls: DjangoUrls } {
  // module name -> prefixes it is included under
  const included = new Map<string, Array<{ parent: string; prefix: Value }>>();
  const routes: Array<
    {
      module: string;
      call: Node;
      route: Value;
      regex: boolean;
      view: Node | undefined;
    }
  > = [];
  const isRoute = (call: Node): string | undefined => {
    const name = project.calleeName(call);
    return name && DJANGO_ROUTES.has(name) ? name : undefined;
  };
  // included lists of routes, keyed by module and position
  const lists = new Set<string>();
  const containerOf = (module: string, call: Node): string => {
    for (let at = call.parent; at; at = at.parent) {
      if (at.type === "list" && lists.has(listKey(module, at))) {
        return listKey(module, at);
      }
    }
    return module;
  };
  const urls: DjangoUrls = {
    modulePrefixes: (name) => modulePrefixes(name, new Set()),
    routeKind: isRoute,
  };
  for (const module of project.list) {
    for (const call of module.calls) {
      const kind = isRoute(call);
      if (!kind) continue;
      const args = call.childForFieldName("arguments");
      const routeNode = argument(args, 0, "route") ?? keywordArg(args, "regex");
      const viewNode = argument(args, 1, "view");
      const route = routeNode ? project.evalString(routeNode) : undefined;
      if (!routeNode || !route) continue;
      const regex = kind !== "django.urls.path";
      const target = viewNode ? unwrap(viewNode) : undefined;
      // `path("api/", api.urls)` of a Django Ninja API: its routes are read
      // with the other routers
      if (isNinjaUrls(project, target)) continue;
      const targetCallee = target?.type === "call"
        ? target.childForFieldName("function")
        : null;
      if (
        target && targetCallee &&
        project.externalName(targetCallee)?.endsWith(".include")
      ) {
        const [inner] = positionalArgs(target.childForFieldName("arguments"));
        let innerValue = inner ? unwrap(inner) : undefined;
        // include((patterns, app_name), namespace=...)
        if (innerValue?.type === "tuple") {
          const first = namedChildren(innerValue)[0];
          innerValue = first ? unwrap(first) : undefined;
        }
        if (!innerValue) continue;
        let child: string | undefined;
        if (innerValue.type === "string") {
          const text = textOrUndefined(project.evalString(innerValue));
          child = text ? project.findModule(text)?.name : undefined;
        } else if (
          innerValue.type === "identifier" || innerValue.type === "attribute"
        ) {
          const resolved = project.resolveExpr(innerValue);
          if (resolved?.kind === "module") child = resolved.module.name;
          // include(local_patterns): a list of routes named in a module
          const list = resolved?.kind === "value"
            ? unwrap(resolved.node)
            : undefined;
          if (resolved?.kind === "value" && list?.type === "list") {
            child = listKey(resolved.module.name, list);
            lists.add(child);
          }
        }
        if (child) {
          const list = included.get(child) ?? [];
          const inline = enclosingRoutePrefix(call, project, urls);
          list.push({
            parent: containerOf(module.name, call),
            prefix: joinPaths(inline, djangoRoute(route, regex)),
          });
          included.set(child, list);
        }
        continue; // inline include([...]) lists are handled by their own path() calls
      }
      routes.push({ module: module.name, call, route, regex, view: viewNode });
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
  const ports: ExtractedPort[] = [];
  for (const { module: name, call, route, regex, view } of routes) {
    const module = project.modules.get(name);
    if (!module) continue;
    const methods = djangoViewMethods(project, view) ?? ["ANY"];
    // path("api/", include([path("users/", ...)])) inside the same file
    const inline = enclosingRoutePrefix(call, project, urls);
    const own = underPrefix(inline, djangoRoute(route, regex));
    for (const prefix of modulePrefixes(containerOf(name, call), new Set())) {
      const result = routePath(underPrefix(prefix, own));
      const confidence = regex &&
          /[\\()[\]|*+?]/.test(textOf(route).replace(/\(\?P<\w+>[^)]*\)/g, ""))
        ? Math.min(result.confidence, CONFIDENCE.partial)
        : result.confidence;
      for (const method of methods) {
        const port = httpPort({
          role: "server",
          method,
          path: result.path,
          node: call,
          owner: ownerOf(call, module.file.path, "python"),
          filePath: module.file.path,
          confidence,
          framework: "django",
          extra: { raw: textOf(route) },
        });
        if (port) ports.push(port);
      }
    }
  }
  return { ports, urls };
}

function isNinjaUrls(project: PyProject, view: Node | undefined): boolean {
  const object = attributeObject(view, "urls");
  const made = object ? project.madeBy(object) : undefined;
  const maker = made?.childForFieldName("function");
  return maker ? project.externalName(maker) === "ninja.NinjaAPI" : false;
}

/** The key of a list of routes included by name (`include(patterns)`). */
function listKey(module: string, list: Node): string {
  return `${module}#${list.startIndex}`;
}

function textOrUndefined(value: Value | undefined): string | undefined {
  return value ? textOf(value) : undefined;
}
