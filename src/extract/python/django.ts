// Django URLconfs: `path()`, `re_path()` and `url()` routes under the
// prefixes of the `include()`s that reach their module (or an inline
// `include([...])`), across modules.
import { httpPort } from "../_port/http.ts";
import { ownerOf } from "../_syntax/compact_tree.ts";
import { namedChildren } from "../_syntax/compact_tree.ts";
import {
  CONFIDENCE,
  HOLE,
  isEmpty,
  joinPaths,
  literal,
  mapText,
  routePath,
  textOf,
  type Value,
} from "../_value/mod.ts";
import { positionalArgs, type PyProject, unwrap } from "./project.ts";
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
        ? text.replace(/^\^/, "").replace(/\$$/, "")
          .replace(/\(\?P<(\w+)>[^)]*\)/g, "{$1}")
          .replace(/\([^)]*\)/g, HOLE)
          .replace(/\\(.)/g, "$1")
        : text.replace(/<(?:\w+:)?(\w+)>/g, "{$1}"),
  );
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
    { module: string; call: Node; route: Value; regex: boolean }
  > = [];
  const isRoute = (call: Node): string | undefined => {
    const callee = call.childForFieldName("function");
    const name = callee ? project.externalName(callee) : undefined;
    return name && DJANGO_ROUTES.has(name) ? name : undefined;
  };
  for (const module of project.list) {
    for (const call of module.calls) {
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
    for (const prefix of modulePrefixes(name, new Set())) {
      const full = joinPaths(prefix, own);
      const result = routePath(full, !isEmpty(prefix) || !isEmpty(inline));
      const confidence = regex &&
          /[\\()[\]|*+?]/.test(textOf(route).replace(/\(\?P<\w+>[^)]*\)/g, ""))
        ? Math.min(result.confidence, CONFIDENCE.partial)
        : result.confidence;
      const port = httpPort({
        role: "server",
        method: "ANY",
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
  return { ports, urls };
}

function textOrUndefined(value: Value | undefined): string | undefined {
  return value ? textOf(value) : undefined;
}
