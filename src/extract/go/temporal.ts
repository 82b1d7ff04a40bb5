// Temporal in Go (go.temporal.io/sdk): `w.RegisterActivity(...)` (servers)
// and `workflow.ExecuteActivity(ctx, ...)` calls (clients); workflows
// (`workflow:<type>`) from `w.RegisterWorkflow(...)` (servers) and
// `c.ExecuteWorkflow(...)`/`workflow.ExecuteChildWorkflow(...)` (clients).
import type { GoProject } from "./project.ts";
import { namedChildren, type Node } from "../_syntax/compact_tree.ts";
import { activities, type TemporalOut } from "../_port/temporal.ts";
import { CONFIDENCE, exactText } from "../_value/mod.ts";
import type { SourceFile } from "../extractor.ts";
import { eachBuiltFile } from "./test_files.ts";
import { argumentsOf } from "./routers.ts";
import { localFunction } from "./callees.ts";

const GO_WORKER = "go.temporal.io/sdk/worker";
const GO_WORKFLOW = "go.temporal.io/sdk/workflow";
const GO_CLIENT = "go.temporal.io/sdk/client";

/** The Temporal ports of the Go files of a scan root. */
export function goTemporal(
  files: SourceFile[],
  out: TemporalOut,
): Promise<void> {
  return eachBuiltFile(files, out.diagnostics, (file, project) => {
    const emit = activities(out, file.file.path, "go", "temporal-go");
    for (const call of project.callsIn(file)) {
      const callee = call.childForFieldName("function");
      if (callee?.type !== "selector_expression") continue;
      const method = callee.childForFieldName("field")?.text ?? "";
      const args = argumentsOf(call);
      const qualified = project.qualified(callee);
      const workflow = workflowOf(call, method, args, qualified, project);
      if (workflow) {
        emit(call, workflow.role, `workflow:${workflow.name}`, 1, {
          extra: { workflow: workflow.name },
        });
        continue;
      }
      if (qualified) {
        if (
          qualified[0] !== GO_WORKFLOW ||
          (method !== "ExecuteActivity" && method !== "ExecuteLocalActivity")
        ) continue;
        const target = args[1];
        const literal = project.evalString(target);
        const text = exactText(literal);
        if (literal && text !== undefined) {
          emit(
            call,
            "client",
            text,
            literal.composed ? CONFIDENCE.composed : 1,
          );
          continue;
        }
        const name = goFunctionName(target, project);
        if (name) {
          emit(call, "client", name);
        }
        continue;
      }
      if (
        method !== "RegisterActivity" &&
        method !== "RegisterActivityWithOptions"
      ) continue;
      const receiver = project.typeOf(callee.childForFieldName("operand"));
      if (receiver?.pkg !== GO_WORKER) continue;
      const target = args[0];
      if (method === "RegisterActivityWithOptions") {
        const name = goOptionName(args[1], project);
        if (name) {
          emit(call, "server", name);
          continue;
        }
      }
      const type = localFunction(target, project)
        ? undefined
        : project.typeOf(target);
      const methods = type ? project.methodsOf(type) : undefined;
      if (methods) {
        // a struct: every exported method is an activity
        for (const [name] of methods) {
          if (/^[A-Z]/.test(name)) {
            emit(call, "server", name);
          }
        }
        continue;
      }
      const name = goFunctionName(target, project);
      if (name) {
        emit(call, "server", name);
      }
    }
  });
}

// Client calls that start a workflow, by method: the workflow argument.
const STARTS: ReadonlyMap<string, number> = new Map([
  ["ExecuteWorkflow", 2],
  ["SignalWithStartWorkflow", 5],
]);

/**
 * A workflow registration (`w.RegisterWorkflow(Order)`, server) or start
 * (`c.ExecuteWorkflow(ctx, opts, Order)`, `workflow.ExecuteChildWorkflow(ctx,
 * Order)`, client), keyed by the workflow type name.
 */
function workflowOf(
  call: Node,
  method: string,
  args: Node[],
  qualified: [string, string] | undefined,
  project: GoProject,
): { role: "server" | "client"; name: string } | undefined {
  const callee = call.childForFieldName("function");
  if (qualified) {
    if (qualified[0] !== GO_WORKFLOW || method !== "ExecuteChildWorkflow") {
      return undefined;
    }
    const name = workflowName(args[1], project);
    return name ? { role: "client", name } : undefined;
  }
  const receiver = project.typeOf(callee?.childForFieldName("operand"));
  if (
    receiver?.pkg === GO_WORKER &&
    (method === "RegisterWorkflow" || method === "RegisterWorkflowWithOptions")
  ) {
    const name = (method === "RegisterWorkflowWithOptions"
      ? goOptionName(args[1], project)
      : undefined) ?? goFunctionName(args[0], project);
    return name ? { role: "server", name } : undefined;
  }
  const at = STARTS.get(method);
  if (at === undefined || receiver?.pkg !== GO_CLIENT) return undefined;
  const name = workflowName(args[at], project);
  return name ? { role: "client", name } : undefined;
}

/** A workflow given as a function or by its type name. */
function workflowName(
  node: Node | undefined,
  project: GoProject,
): string | undefined {
  const text = exactText(project.evalString(node));
  return text !== undefined && text !== ""
    ? text
    : goFunctionName(node, project);
}

/** `ChargeCard`, `acts.ChargeCard`, `activities.ChargeCard` → `ChargeCard`. */
function goFunctionName(
  node: Node | undefined,
  project: GoProject,
): string | undefined {
  if (node?.type === "selector_expression") {
    return node.childForFieldName("field")?.text;
  }
  return localFunction(node, project) ? node?.text : undefined;
}

/** `activity.RegisterOptions{Name: "charge"}` → `charge`. */
function goOptionName(
  node: Node | undefined,
  project: GoProject,
): string | undefined {
  if (node?.type !== "composite_literal") return undefined;
  const body = node.childForFieldName("body");
  for (const element of body ? namedChildren(body) : []) {
    if (element.type !== "keyed_element") continue;
    const [key, value] = namedChildren(element);
    if (key?.text !== "Name") continue;
    const inner = value?.type === "literal_element"
      ? namedChildren(value)[0]
      : value;
    const name = project.evalString(inner);
    const text = exactText(name);
    if (text !== undefined) return text;
  }
  return undefined;
}
