// Flask-AppBuilder views: the `@expose(url, methods=...)` methods of a
// `BaseView` / `BaseApi` subclass (ModelView, ModelRestApi...), under the
// class's `route_base` (by default `/<classname>` for a view and
// `/api/<version>/<resource_name>` for an API, `version` "v1" and
// `resource_name` the lower-case class name).
import { ownerOf } from "../_syntax/compact_tree.ts";
import { exactText, joinPaths, literal, type Value } from "../_value/mod.ts";
import {
  argument,
  classAttribute,
  keywordArg,
  type PyProject,
  unwrap,
} from "./project.ts";
import {
  baseClasses,
  classMembers,
  type HttpPort,
  libraryClass,
  toPort,
} from "./classes.ts";
import { flaskRule } from "./route_calls.ts";
import type { ExtractedPort } from "../types.ts";

const EXPOSE = /^flask_appbuilder(?:\.\w+)*\.expose$/;
const API_BASE = /^flask_appbuilder(?:\.\w+)*\.(?:BaseApi|ModelRestApi)$/;
const VIEW_BASE = /^flask_appbuilder(?:\.\w+)*\.\w*View$/;

/** The routes of the Flask-AppBuilder views and APIs of a project. */
export function flaskAppBuilderPorts(project: PyProject): ExtractedPort[] {
  if (!project.mentions("flask_appbuilder")) return [];
  const ports: HttpPort[] = [];
  for (const module of project.list) {
    for (const cls of module.classes.values()) {
      const bases = baseClasses(cls).map((b) =>
        libraryClass(project, unwrap(b)) ?? ""
      );
      const isApi = bases.some((b) => API_BASE.test(b));
      if (!isApi && !bases.some((b) => VIEW_BASE.test(b))) continue;
      const name = cls.childForFieldName("name")?.text.toLowerCase() ?? "";
      const attribute = (attr: string): Value | undefined => {
        const node = classAttribute(cls, attr);
        return node ? project.evalString(node) : undefined;
      };
      const base = attribute("route_base") ?? (isApi
        ? literal(
          `/api/${exactText(attribute("version")) ?? "v1"}/${
            exactText(attribute("resource_name")) ?? name
          }`,
        )
        : literal(`/${name}`));
      for (const { definition, decorators } of classMembers(cls)) {
        for (const decorator of decorators) {
          const call = unwrap(decorator.namedChild(0) ?? decorator);
          const callee = call.type === "call"
            ? call.childForFieldName("function")
            : undefined;
          if (!callee || !EXPOSE.test(project.externalName(callee) ?? "")) {
            continue;
          }
          const args = call.childForFieldName("arguments");
          const urlNode = argument(args, 0, "url");
          const url = urlNode ? project.evalString(urlNode) : literal("/");
          const list = keywordArg(args, "methods") ??
            argument(args, 1, "methods");
          const methods = list ? project.methodList(list) ?? ["ANY"] : ["GET"];
          if (!url) continue;
          for (const method of methods) {
            ports.push({
              module,
              anchor: decorator,
              method,
              path: joinPaths(base, flaskRule(url)),
              raw: urlNode?.text ?? "",
              confidence: 1,
              framework: "flask-appbuilder",
              owner: ownerOf(definition, module.file.path, "python"),
            });
          }
        }
      }
    }
  }
  return ports.map(toPort);
}
