// Masonite routes: `Route.get("/users/@id", "UserController@show")` and
// the other verbs, `Route.match`, `Route.any`, `Route.view`, redirects,
// `Route.resource` / `Route.api` (one route per generated action), under
// the prefixes of the `Route.group([...], prefix=...)` calls around them;
// and Masonite 2's `Get(...)`, `Post(...)`, `RouteGroup([...])`.
import { ownerOf } from "../_syntax/compact_tree.ts";
import { joinPaths, literal, mapText, underPrefix } from "../_value/mod.ts";
import { argument, keywordArg, type PyProject } from "./project.ts";
import { type HttpPort, toPort } from "./classes.ts";
import type { Value } from "../_value/mod.ts";
import type { Node } from "../_syntax/compact_tree.ts";
import type { ExtractedPort } from "../types.ts";

const VERB_ROUTES: ReadonlyMap<string, string> = new Map([
  ["get", "GET"],
  ["post", "POST"],
  ["put", "PUT"],
  ["patch", "PATCH"],
  ["delete", "DELETE"],
  ["options", "OPTIONS"],
  ["head", "HEAD"],
  ["any", "ANY"],
  ["view", "GET"],
  ["redirect", "GET"],
  ["permanent_redirect", "GET"],
  // Masonite 2 route classes
  ["Get", "GET"],
  ["Post", "POST"],
  ["Put", "PUT"],
  ["Patch", "PATCH"],
  ["Delete", "DELETE"],
  ["Options", "OPTIONS"],
  ["Head", "HEAD"],
  ["Redirect", "GET"],
  ["View", "GET"],
]);
const GROUPS: ReadonlySet<string> = new Set(["group", "RouteGroup"]);
/** The actions `Route.resource` generates, as (method, suffix). */
const RESOURCE: ReadonlyArray<[string, string]> = [
  ["GET", ""],
  ["GET", "/create"],
  ["POST", ""],
  ["GET", "/@id"],
  ["GET", "/@id/edit"],
  ["PUT", "/@id"],
  ["PATCH", "/@id"],
  ["DELETE", "/@id"],
];
/** The actions `Route.api` generates (no HTML forms). */
const API: ReadonlyArray<[string, string]> = RESOURCE.filter(([, suffix]) =>
  !suffix.endsWith("create") && !suffix.endsWith("edit")
);

/** The Masonite routes of a project. */
export function masonitePorts(project: PyProject): ExtractedPort[] {
  if (!project.mentions("masonite")) return [];
  const ports: HttpPort[] = [];
  for (const module of project.list) {
    for (const call of module.calls) {
      const kind = routeKind(project, call);
      if (!kind || GROUPS.has(kind)) continue;
      const args = call.childForFieldName("arguments");
      let routes: Array<[string, string]>;
      let pathNode: Node | undefined;
      if (kind === "match") {
        const list = argument(args, 0, "request_methods");
        const methods = list ? project.methodList(list) : undefined;
        pathNode = argument(args, 1, "url");
        routes = (methods ?? ["ANY"]).map((m) => [m, ""]);
      } else if (kind === "resource" || kind === "api") {
        pathNode = argument(args, 0, "base_url");
        routes = [...(kind === "api" ? API : RESOURCE)];
      } else {
        const method = VERB_ROUTES.get(kind);
        if (!method) continue;
        pathNode = argument(args, 0, "url");
        routes = [[method, ""]];
      }
      const path = pathNode ? project.evalString(pathNode) : undefined;
      if (!pathNode || !path) continue;
      const prefix = groupPrefix(project, call);
      for (const [method, suffix] of routes) {
        const full = underPrefix(prefix, joinPaths(path, suffix));
        ports.push({
          module,
          anchor: call,
          method,
          path: masoniteRoute(full),
          raw: pathNode.text,
          confidence: 1,
          framework: "masonite",
          owner: ownerOf(call, module.file.path, "python"),
        });
      }
    }
  }
  return ports.map(toPort);
}

/**
 * The Masonite route function a call makes (`get` for `Route.get(...)`,
 * `Get` for Masonite 2's `Get(...)`), if it is one.
 */
function routeKind(project: PyProject, call: Node): string | undefined {
  const name = project.calleeName(call);
  const match = name
    ? /^masonite\.routes(?:\.\w+)*?\.(?:Route\.)?(\w+)$/.exec(name)
    : null;
  return match?.[1];
}

/** The prefixes of the route groups around a route call, outermost first. */
function groupPrefix(project: PyProject, call: Node): Value {
  let prefix = literal("");
  for (let at = call.parent; at; at = at.parent) {
    if (at.type !== "call") continue;
    const kind = routeKind(project, at);
    if (!kind || !GROUPS.has(kind)) continue;
    const node = keywordArg(at.childForFieldName("arguments"), "prefix");
    const value = node ? project.evalString(node) : undefined;
    if (value) prefix = joinPaths(value, prefix);
  }
  return prefix;
}

/** A Masonite route (`/users/@id:integer`, `/search/?term`) with `{id}` parameters. */
function masoniteRoute(value: Value): Value {
  return mapText(value, (text) => text.replace(/[@?](\w+)(?::\w+)?/g, "{$1}"));
}
