// Bottle's module-level route decorators (`@route("/ping")`, `@get(...)`,
// `@post(...)`...), which register on the default application. Routes of
// `Bottle()` objects and their mounts are read with the other routers.
import { ownerOf } from "../_syntax/compact_tree.ts";
import { CONFIDENCE, routePath } from "../_value/mod.ts";
import { httpPort } from "../_port/http.ts";
import { argument, type PyProject } from "./project.ts";
import { sanicRule } from "./route_calls.ts";
import type { ExtractedPort } from "../types.ts";

const DEFAULT_APP = /^bottle\.(route|get|post|put|patch|delete)$/;

/** The routes of Bottle's module-level decorators, at the root. */
export function bottlePorts(project: PyProject): ExtractedPort[] {
  if (!project.mentions("bottle")) return [];
  const ports: ExtractedPort[] = [];
  for (const module of project.list) {
    for (const call of module.calls) {
      const callee = call.childForFieldName("function");
      if (!callee) continue;
      const kind = DEFAULT_APP.exec(project.externalName(callee) ?? "")?.[1];
      if (!kind) continue;
      const args = call.childForFieldName("arguments");
      const pathNode = argument(args, 0, "path");
      const path = pathNode ? project.evalString(pathNode) : undefined;
      if (!pathNode || !path) continue;
      let methods = [kind.toUpperCase()];
      let confidence = 1;
      const method = kind === "route" ? argument(args, 1, "method") : undefined;
      if (method) {
        const listed = project.methodList(method);
        methods = listed ?? ["ANY"];
        if (!listed) confidence = CONFIDENCE.weak;
      } else if (kind === "route") methods = ["GET"];
      const anchor = call.parent?.type === "decorator" ? call.parent : call;
      const definition = anchor.type === "decorator"
        ? anchor.parent?.childForFieldName("definition") ?? call
        : call;
      const result = routePath(sanicRule(path));
      for (const m of methods) {
        const port = httpPort({
          role: "server",
          method: m,
          path: result.path,
          node: anchor,
          owner: ownerOf(definition, module.file.path, "python"),
          filePath: module.file.path,
          confidence: Math.min(result.confidence, confidence),
          framework: "bottle",
          extra: { raw: pathNode.text },
        });
        if (port) ports.push(port);
      }
    }
  }
  return ports;
}
