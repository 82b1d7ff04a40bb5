// Dapr service invocation with the Go SDK: the sidecar delivers
// `client.InvokeMethod(ctx, "orders", "checkout", "post")` to the app as
// `POST /checkout`, which a service registers with
// `s.AddServiceInvocationHandler("/checkout", h)` (any method).
import type { Node } from "../_syntax/compact_tree.ts";
import { exactText, routePath } from "../_value/mod.ts";
import { goRoutePort } from "./route_port.ts";
import type { ExtractedPort } from "../types.ts";
import type { GoProject } from "./project.ts";
import { normalizeImport } from "./declarations.ts";
import { argumentsOf } from "./routers.ts";

export const DAPR_CLIENT = "github.com/dapr/go-sdk/client";
export const DAPR_COMMON = "github.com/dapr/go-sdk/service/common";

// Client methods that invoke a method of another app: (method name, verb).
const INVOKE: ReadonlySet<string> = new Set([
  "InvokeMethod",
  "InvokeMethodWithContent",
  "InvokeMethodWithCustomContent",
]);

/** The ports of a Dapr SDK invocation call or handler registration. */
export function daprInvocationPorts(
  call: Node,
  project: GoProject,
): ExtractedPort[] {
  const callee = call.childForFieldName("function");
  if (callee?.type !== "selector_expression") return [];
  const method = callee.childForFieldName("field")?.text ?? "";
  const server = method === "AddServiceInvocationHandler";
  if (!server && !INVOKE.has(method)) return [];
  const receiver = project.typeOf(callee.childForFieldName("operand"));
  const pkg = receiver ? normalizeImport(receiver.pkg) : "";
  if (server ? pkg !== DAPR_COMMON : pkg !== DAPR_CLIENT) return [];
  const args = argumentsOf(call);
  const name = project.evalString(server ? args[0] : args[2]);
  if (!name) return [];
  let verb: string | undefined = "ANY";
  if (!server) {
    const text = exactText(project.evalString(args[3]));
    verb = text && /^[A-Za-z]+$/.test(text) ? text.toUpperCase() : undefined;
  }
  const port = goRoutePort(project, {
    at: call,
    role: server ? "server" : "client",
    method: verb,
    path: routePath(name),
    framework: "dapr-go-sdk",
    ...(server
      ? {}
      : { extra: { app: exactText(project.evalString(args[1])) ?? "" } }),
  });
  return port ? [port] : [];
}
