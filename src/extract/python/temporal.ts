// Temporal in Python (temporalio): `@activity.defn` functions (servers) and
// `workflow.execute_activity(...)` calls (clients).
import { argument, keywordArg } from "./project.ts";
import { eachModule } from "./each_module.ts";
import { namedChildren, stringValue } from "../_syntax/compact_tree.ts";
import { activities, type TemporalOut } from "../_port/temporal.ts";
import { CONFIDENCE, exactText } from "../_value/mod.ts";
import type { PyModule, PyProject } from "./project.ts";
import type { Node } from "../_syntax/compact_tree.ts";
import type { SourceFile } from "../extractor.ts";

const PY_CALLS: ReadonlySet<string> = new Set([
  "temporalio.workflow.execute_activity",
  "temporalio.workflow.start_activity",
  "temporalio.workflow.execute_local_activity",
  "temporalio.workflow.start_local_activity",
  "temporalio.workflow.execute_activity_method",
  "temporalio.workflow.start_activity_method",
  "temporalio.workflow.execute_local_activity_method",
  "temporalio.workflow.start_local_activity_method",
]);

/** The Temporal ports of the Python files of a scan root. */
export function pythonTemporal(
  files: SourceFile[],
  out: TemporalOut,
): Promise<void> {
  return eachModule(files, out.diagnostics, (module, project) => {
    const emit = activities(out, module.file.path, "python", "temporalio");
    for (const decorator of module.decorators) {
      const definition = decorator.parent?.childForFieldName("definition");
      if (definition?.type !== "function_definition") continue;
      const name = pythonActivityName(definition, project);
      if (name) {
        emit(decorator, "server", name, 1, { owner: definition });
      }
    }
    for (const call of module.calls) {
      const callee = call.childForFieldName("function");
      if (!callee || !PY_CALLS.has(project.externalName(callee) ?? "")) {
        continue;
      }
      const target = argument(
        call.childForFieldName("arguments"),
        0,
        "activity",
      );
      if (!target) continue;
      const literal = stringValue(target);
      if (literal !== undefined) {
        emit(call, "client", literal);
        continue;
      }
      const resolved = pythonReference(target, project, module);
      if (resolved) {
        emit(call, "client", resolved.name, resolved.confidence);
      }
    }
  });
}

/** The activity name of a function decorated with `@activity.defn`, if it is one. */
function pythonActivityName(
  definition: Node,
  project: PyProject,
): string | undefined {
  const decorated = definition.parent;
  if (decorated?.type !== "decorated_definition") return undefined;
  for (const decorator of namedChildren(decorated)) {
    if (decorator.type !== "decorator") continue;
    const expr = namedChildren(decorator)[0];
    if (!expr) continue;
    const callee = expr.type === "call"
      ? expr.childForFieldName("function")
      : expr;
    if (
      !callee || project.externalName(callee) !== "temporalio.activity.defn"
    ) continue;
    if (expr.type === "call") {
      const nameNode = keywordArg(expr.childForFieldName("arguments"), "name");
      const explicit = nameNode ? project.evalString(nameNode) : undefined;
      const text = exactText(explicit);
      if (text !== undefined) return text;
    }
    return definition.childForFieldName("name")?.text;
  }
  return undefined;
}

function pythonReference(
  target: Node,
  project: PyProject,
  module: PyModule,
): { name: string; confidence: number } | undefined {
  const resolved = project.resolveExpr(target);
  if (resolved?.kind === "function") {
    const name = pythonActivityName(resolved.node, project);
    if (name) return { name, confidence: 1 };
  }
  if (target.type === "attribute") {
    // MyActivities.charge: a method of a project class
    const object = target.childForFieldName("object");
    const attr = target.childForFieldName("attribute")?.text;
    const cls = object ? project.resolveExpr(object) : undefined;
    if (cls?.kind === "class" && attr) {
      const body = cls.node.childForFieldName("body");
      for (const statement of body ? namedChildren(body) : []) {
        const def = statement.type === "decorated_definition"
          ? statement.childForFieldName("definition")
          : statement;
        if (def?.childForFieldName("name")?.text !== attr) continue;
        const name = def ? pythonActivityName(def, project) : undefined;
        if (name) return { name, confidence: 1 };
      }
    }
  }
  void module;
  const last = target.type === "attribute"
    ? target.childForFieldName("attribute")?.text
    : target.type === "identifier"
    ? target.text
    : undefined;
  // an activity defined outside the scan root: the SDK uses its name
  return last ? { name: last, confidence: CONFIDENCE.composed } : undefined;
}
