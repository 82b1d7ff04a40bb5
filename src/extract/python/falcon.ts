// Falcon routes: `app.add_route("/things/{id:int}", ThingResource())` with
// the responders of the resource class (`on_get`, `on_post`... or, with
// `suffix="item"`, `on_get_item`...), and `add_static_route(prefix, dir)`.
import { ownerOf } from "../_syntax/compact_tree.ts";
import { exactText, joinPaths, literal, mapText } from "../_value/mod.ts";
import { argument, memberCalls, type PyProject, unwrap } from "./project.ts";
import { type HttpPort, toPort, VIEW_VERBS } from "./classes.ts";
import { classRoutePorts } from "./route_lists.ts";
import type { Value } from "../_value/mod.ts";
import type { Node } from "../_syntax/compact_tree.ts";
import type { ExtractedPort } from "../types.ts";

const APPS: ReadonlySet<string> = new Set([
  "falcon.App",
  "falcon.API",
  "falcon.asgi.App",
  "falcon.app.App",
]);

/** The Falcon routes of a project. */
export function falconPorts(project: PyProject): ExtractedPort[] {
  if (!project.mentions("falcon")) return [];
  const ports: ExtractedPort[] = [];
  for (
    const { module, call, object, method, args } of memberCalls(project.list)
  ) {
    if (method !== "add_route" && method !== "add_static_route") continue;
    const made = project.madeBy(object);
    const maker = made?.childForFieldName("function");
    if (!maker || !APPS.has(project.externalName(maker) ?? "")) continue;
    const pathNode = argument(
      args,
      0,
      method === "add_route" ? "uri_template" : "prefix",
    );
    const path = pathNode ? project.evalString(pathNode) : undefined;
    if (!pathNode || !path) continue;
    if (method === "add_static_route") {
      const port: HttpPort = {
        module,
        anchor: call,
        method: "GET",
        path: joinPaths(path, "{filename}"),
        raw: pathNode.text,
        confidence: 1,
        framework: "falcon",
        owner: ownerOf(call, module.file.path, "python"),
      };
      ports.push(toPort(port));
      continue;
    }
    const suffixNode = argument(args, 2, "suffix");
    const suffix = suffixNode ? exactText(project.evalString(suffixNode)) : "";
    if (suffix === undefined) continue;
    const resource = argument(args, 1, "resource");
    ports.push(...classRoutePorts(project, {
      module,
      anchor: call,
      handler: resource ? resourceClass(project, resource) : undefined,
      prefix: literal(""),
      path: falconPath(path),
      raw: pathNode.text,
    }, {
      framework: "falcon",
      bases: new Set(),
      verb: (name) => responderVerb(name, suffix),
    }));
  }
  return ports;
}

/** The verb of a responder `on_<verb>` (or `on_<verb>_<suffix>`). */
function responderVerb(name: string, suffix: string): string | undefined {
  const match = /^on_([a-z]+)(?:_(\w+))?$/.exec(name);
  if (!match || (match[2] ?? "") !== suffix) return undefined;
  return VIEW_VERBS.has(match[1]!) ? match[1] : undefined;
}

/**
 * The class expression of a resource: a class named directly, or the class
 * of an instance (`Thing()` or a name bound to one).
 */
function resourceClass(project: PyProject, expr: Node): Node | undefined {
  const value = unwrap(expr);
  if (project.resolveExpr(value)?.kind === "class") return value;
  return project.heldCall(value)?.childForFieldName("function") ?? undefined;
}

/** A Falcon URI template with converters (`{id:int}`) as a path with `{id}`. */
function falconPath(value: Value): Value {
  return mapText(
    value,
    (text) => text.replace(/\{(\w+):[^{}]{0,64}\}/g, "{$1}"),
  );
}
