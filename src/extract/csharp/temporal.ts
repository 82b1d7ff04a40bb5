// Temporal activities of the .NET SDK: definitions (servers) and calls from
// workflows (clients), keyed by the activity type name the SDK registers.
//
// .NET: a method with `[Activity]` (of `Temporalio.Activities`) is named by
// `[Activity("x")]`, else by its name minus an `Async` suffix when it is
// async or returns a Task/ValueTask (the SDK's rule, per its documentation);
// `[Activity(Dynamic = true)]` has no name and is skipped. A server port sits
// at the attribute, confidence 1 when the class is registered in the scan
// (`AddAllActivities`, `AddActivity(x.Method)`, hosting `Add*Activities<T>`,
// `AddActivitiesInstance`), else 0.6 (`registered: "false"`). Calls:
// `Workflow.ExecuteActivityAsync` / `ExecuteLocalActivityAsync` with a lambda
// (`(MyActivities a) => a.DoAsync()` or a static method) or a name.
//
// Variables are matched by name within a file (no flow analysis).
import type { SourceFile } from "../extractor.ts";
import type { Node, ParsedFile } from "../_syntax/compact_tree.ts";
import {
  findAll,
  namedChildren,
  parseAllCompact,
  stringValue,
} from "../_syntax/compact_tree.ts";
import type { TemporalOut } from "../_port/temporal.ts";
import { activities, declaredString, simpleType } from "../_port/temporal.ts";
import { CONFIDENCE } from "../_value/confidence.ts";

/** A member call `x.Name(...)` / `x.Name<T>(...)`, by the method's name. */
interface MemberCall {
  call: Node;
  callee: Node;
  nameNode: Node | null;
  method: string | undefined;
}

/** The member calls of a tree. */
function* memberCalls(root: Node): Iterable<MemberCall> {
  for (const call of findAll(root, CS_NODES.calls)) {
    const callee = call.childForFieldName("function");
    if (callee?.type !== "member_access_expression") continue;
    const nameNode = callee.childForFieldName("name");
    const method = nameNode?.type === "generic_name"
      ? namedChildren(nameNode)[0]?.text
      : nameNode?.text;
    yield { call, callee, nameNode, method };
  }
}

interface CsActivity {
  method: string;
  name: string;
  attribute: Node;
  node: Node;
}

interface CsClass {
  file: ParsedFile;
  node: Node;
  activities: CsActivity[];
}

function csUsings(root: Node): Set<string> {
  const usings = new Set<string>();
  for (const node of findAll(root, CS_NODES.usings)) {
    // `using Alias = X.Y;` is not a namespace import
    if (namedChildren(node).length !== 1) continue;
    const name = namedChildren(node)[0]?.text.replace(/\s+/g, "");
    if (name && !/^using\s+static\b/.test(node.text)) usings.add(name);
  }
  return usings;
}

/** The Temporal activity name of a method, or undefined when it is not one. */
function csActivity(
  method: Node,
  usings: Set<string>,
): { name: string; attribute: Node } | undefined {
  for (const list of namedChildren(method)) {
    if (list.type !== "attribute_list") continue;
    for (const attribute of namedChildren(list)) {
      if (attribute.type !== "attribute") continue;
      const written = attribute.childForFieldName("name")?.text.replace(
        /\s+/g,
        "",
      ) ?? "";
      const ours = written === "Temporalio.Activities.Activity" ||
        written === "Temporalio.Activities.ActivityAttribute" ||
        ((written === "Activity" || written === "ActivityAttribute") &&
          usings.has("Temporalio.Activities"));
      if (!ours) continue;
      const argList = namedChildren(attribute).find((n) =>
        n.type === "attribute_argument_list"
      );
      let explicit: string | undefined;
      for (const arg of argList ? namedChildren(argList) : []) {
        const parts = namedChildren(arg);
        if (parts.length > 1 || /^\s*\w+\s*[=:][^=]/.test(arg.text)) {
          // Dynamic = true: no fixed name
          if (/^\s*Dynamic\s*=\s*true\b/.test(arg.text)) return undefined;
          continue;
        }
        explicit ??= parts[0] ? stringValue(parts[0]) : undefined;
      }
      if (explicit) return { name: explicit, attribute: list };
      const name = method.childForFieldName("name")?.text ?? "";
      const returns = method.childForFieldName("returns")?.text ?? "";
      const isAsync = namedChildren(method).some((n) =>
        n.type === "modifier" && n.text === "async"
      ) || /^(System\.Threading\.Tasks\.)?(Value)?Task\b/.test(returns);
      return {
        name: isAsync && name.endsWith("Async") && name.length > 5
          ? name.slice(0, -5)
          : name,
        attribute: list,
      };
    }
  }
  return undefined;
}

/**
 * Finds Temporal .NET SDK activities: methods with `[Activity]` of classes a
 * worker registers, and `Workflow.ExecuteActivityAsync` /
 * `ExecuteLocalActivityAsync` calls (lambda or activity name).
 */
export async function dotnetTemporal(
  sources: readonly SourceFile[],
  out: TemporalOut,
): Promise<void> {
  const files = await parseAllCompact(sources, "c-sharp", out.diagnostics);
  const classes = new Map<string, CsClass[]>();
  for (const file of files) {
    const root = file.tree.rootNode;
    const usings = csUsings(root);
    for (const node of findAll(root, CS_NODES.classes)) {
      const name = node.childForFieldName("name")?.text;
      if (!name) continue;
      const activities: CsActivity[] = [];
      const body = node.childForFieldName("body");
      for (const method of body ? namedChildren(body) : []) {
        if (method.type !== "method_declaration") continue;
        const activity = csActivity(method, usings);
        if (!activity) continue;
        activities.push({
          method: method.childForFieldName("name")?.text ?? "",
          name: activity.name,
          attribute: activity.attribute,
          node: method,
        });
      }
      let list = classes.get(name);
      if (!list) classes.set(name, list = []);
      list.push({ file, node, activities });
    }
  }
  const classNamed = (name: string | undefined): CsClass | undefined => {
    const list = name ? classes.get(name) : undefined;
    return list?.find((c) => c.activities.length) ?? list?.[0];
  };

  // registrations on worker options / hosting builders
  const registered = new Map<CsActivity, boolean>();
  for (const file of files) {
    const root = file.tree.rootNode;
    if (!/\bTemporalio\b/.test(file.tree.text)) continue;
    for (const { call, nameNode, method } of memberCalls(root)) {
      if (!method || !CS_REGISTRATIONS.has(method)) continue;
      const typeArg = nameNode?.type === "generic_name"
        ? findAll(nameNode, CS_NODES.typeArguments)[0]
        : undefined;
      const args = namedChildren(call.childForFieldName("arguments") ?? call)
        .map((a) => namedChildren(a).at(-1))
        .filter((a): a is Node => a !== undefined);
      if (method === "AddActivity") {
        const target = args[0];
        if (target?.type !== "member_access_expression") continue;
        const member = target.childForFieldName("name")?.text;
        const receiver = target.childForFieldName("expression");
        const cls = receiver
          ? classNamed(csTypeOf(receiver, root) ?? receiver.text)
          : undefined;
        for (const activity of cls?.activities ?? []) {
          if (activity.method === member) registered.set(activity, true);
        }
        continue;
      }
      let type: string | undefined;
      if (typeArg) {
        type = simpleType(namedChildren(typeArg)[0]?.text ?? "");
      } else if (args[0]) {
        type = csTypeOf(args[0], root);
      }
      for (const activity of classNamed(type)?.activities ?? []) {
        registered.set(activity, true);
      }
    }
  }
  for (const [, list] of classes) {
    for (const cls of list) {
      const emit = activities(
        out,
        cls.file.file.path,
        "c-sharp",
        "temporal-dotnet",
      );
      for (const activity of cls.activities) {
        const isRegistered = registered.has(activity);
        emit(
          activity.attribute,
          "server",
          activity.name,
          isRegistered ? 1 : CONFIDENCE.weak,
          {
            owner: activity.node,
            extra: isRegistered ? {} : { registered: "false" },
          },
        );
      }
    }
  }

  // calls from workflows
  for (const file of files) {
    const root = file.tree.rootNode;
    const emit = activities(out, file.file.path, "c-sharp", "temporal-dotnet");
    const usings = csUsings(root);
    if (!/\bTemporalio\.Workflows\b/.test(file.tree.text)) continue;
    for (const { call, callee, method } of memberCalls(root)) {
      if (
        method !== "ExecuteActivityAsync" &&
        method !== "ExecuteLocalActivityAsync"
      ) continue;
      const receiver = callee.childForFieldName("expression")?.text.replace(
        /\s+/g,
        "",
      );
      if (
        receiver !== "Temporalio.Workflows.Workflow" &&
        !(receiver === "Workflow" && usings.has("Temporalio.Workflows"))
      ) continue;
      const first = namedChildren(
        namedChildren(call.childForFieldName("arguments") ?? call)[0] ?? call,
      ).at(-1);
      if (!first) continue;
      if (first.type === "lambda_expression") {
        const resolved = csLambdaActivity(first, classNamed);
        if (resolved) {
          emit(call, "client", resolved.name, resolved.confidence, {
            owner: call,
          });
        }
        continue;
      }
      const name = declaredString(first, root);
      if (name) {
        emit(call, "client", name.text, name.confidence, { owner: call });
      }
    }
  }
}

/** `(MyActivities a) => a.DoAsync(x)` or `() => MyActivities.Do(x)`. */
function csLambdaActivity(
  lambda: Node,
  classNamed: (name: string | undefined) => CsClass | undefined,
): { name: string; confidence: number } | undefined {
  let body = lambda.childForFieldName("body");
  if (body?.type === "await_expression") body = namedChildren(body)[0] ?? null;
  if (body?.type !== "invocation_expression") return undefined;
  const callee = body.childForFieldName("function");
  if (callee?.type !== "member_access_expression") return undefined;
  const method = callee.childForFieldName("name")?.text;
  const receiver = callee.childForFieldName("expression")?.text;
  if (!method || !receiver) return undefined;
  let type = receiver;
  const params = lambda.childForFieldName("parameters");
  for (const param of params ? findAll(params, CS_NODES.parameters) : []) {
    if (param.childForFieldName("name")?.text !== receiver) continue;
    const declared = param.childForFieldName("type")?.text;
    if (!declared) return undefined;
    type = declared;
  }
  const cls = classNamed(simpleType(type));
  if (cls) {
    const activity = cls.activities.find((a) => a.method === method);
    return activity ? { name: activity.name, confidence: 1 } : undefined;
  }
  // a class outside the scan root: the SDK's default name
  return {
    name: method.endsWith("Async") && method.length > 5
      ? method.slice(0, -5)
      : method,
    confidence: CONFIDENCE.composed,
  };
}

/** The class of `new X(...)`, `typeof(X)`, `this`, or a variable of the file. */
function csTypeOf(arg: Node, root: Node): string | undefined {
  if (arg.type === "object_creation_expression") {
    const type = arg.childForFieldName("type");
    return type ? simpleType(type.text) : undefined;
  }
  if (arg.type === "typeof_expression") {
    const type = arg.childForFieldName("type") ?? namedChildren(arg)[0];
    return type ? simpleType(type.text) : undefined;
  }
  if (arg.type === "this" || arg.type === "this_expression") {
    let node: Node | null = arg.parent;
    while (node && node.type !== "class_declaration") node = node.parent;
    return node?.childForFieldName("name")?.text;
  }
  if (arg.type !== "identifier") return undefined;
  for (const declarator of findAll(root, CS_NODES.declarators)) {
    if (declarator.childForFieldName("name")?.text !== arg.text) continue;
    const value = namedChildren(declarator).find((n) =>
      n.type === "object_creation_expression"
    );
    if (value) return csTypeOf(value, root);
    const declared = declarator.parent?.childForFieldName("type");
    if (declared && declared.type !== "implicit_type") {
      return simpleType(declared.text);
    }
  }
  for (const param of findAll(root, CS_NODES.parameters)) {
    if (param.childForFieldName("name")?.text !== arg.text) continue;
    const declared = param.childForFieldName("type");
    if (declared) return simpleType(declared.text);
  }
  return undefined;
}

/** The node types the .NET reader looks for. */
const CS_NODES = {
  usings: new Set(["using_directive"]),
  classes: new Set([
    "class_declaration",
    "record_declaration",
    "struct_declaration",
  ]),
  calls: new Set(["invocation_expression"]),
  typeArguments: new Set(["type_argument_list"]),
  declarators: new Set(["variable_declarator"]),
  parameters: new Set(["parameter"]),
};
const CS_REGISTRATIONS: ReadonlySet<string> = new Set([
  "AddAllActivities",
  "AddActivity",
  "AddScopedActivities",
  "AddSingletonActivities",
  "AddTransientActivities",
  "AddStaticActivities",
  "AddActivitiesInstance",
]);
