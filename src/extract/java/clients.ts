// Java HTTP clients: RestTemplate, WebClient / RestClient and
// `java.net.http.HttpRequest`, on receivers declared with those types.
import { flowedClientPorts, HTTP_METHODS } from "../_port/http.ts";
import { placeOf } from "../_syntax/owner.ts";
import { anchorOf } from "../_syntax/tree.ts";
import { clientPath, exactText } from "../_value/mod.ts";
import {
  FLUENT_CLIENT_TYPES,
  FLUENT_VERBS,
  type JavaFile,
  REST_TEMPLATE_METHOD,
} from "./project.ts";
import type { Node } from "web-tree-sitter";

/** RestTemplate, WebClient/RestClient and java.net.http calls. */
export function clientCall(c: JavaFile, call: Node): void {
  const name = call.childForFieldName("name")?.text ?? "";
  const object = call.childForFieldName("object");
  const args = (call.childForFieldName("arguments")?.namedChildren ?? [])
    .filter((n): n is Node => n !== null);
  if (name in REST_TEMPLATE_METHOD && object) {
    const type = c.receiverType(object) ??
      (object.type === "method_invocation"
        ? c.expressionType(object)
        : undefined);
    if (type !== "RestTemplate") return;
    let method = REST_TEMPLATE_METHOD[name]!;
    if (method === "") {
      const m = args[1]?.text ?? "";
      method = m.slice(m.lastIndexOf(".") + 1).toUpperCase();
      if (!HTTP_METHODS.has(method)) return;
    }
    const at = anchorOf(call, call.childForFieldName("name") ?? call);
    emitClient(c, at, method, args[0], "resttemplate", object);
    return;
  }
  if (name === "uri" && object?.type === "method_invocation") {
    const verbCall = object;
    const verb = verbCall.childForFieldName("name")?.text ?? "";
    const receiver = verbCall.childForFieldName("object");
    let method: string | undefined;
    if (FLUENT_VERBS.has(verb)) method = verb.toUpperCase();
    else if (verb === "method") {
      const m = verbCall.childForFieldName("arguments")?.namedChild(0)?.text ??
        "";
      method = m.slice(m.lastIndexOf(".") + 1).toUpperCase();
      if (!HTTP_METHODS.has(method)) return;
    } else return;
    const type = c.receiverType(receiver) ??
      (receiver ? c.expressionType(receiver) : undefined);
    if (!type || !FLUENT_CLIENT_TYPES.has(type)) return;
    let target: Node | undefined = args[0];
    if (target?.type === "lambda_expression") {
      target = uriBuilderPath(target);
      if (!target) return;
    }
    const at = anchorOf(call, verbCall.childForFieldName("name") ?? call);
    emitClient(
      c,
      at,
      method,
      target,
      type === "WebClient" ? "webclient" : "restclient",
      receiver,
    );
    return;
  }
  if (
    name === "newBuilder" && object?.text === "HttpRequest"
  ) {
    httpRequestBuilder(c, call, args[0]);
  }
}

/** `uriBuilder -> uriBuilder.path("/x")...build()` → the path argument. */
export function uriBuilderPath(
  lambda: Node,
): Node | undefined {
  let n: Node | null = lambda.childForFieldName("body");
  while (n?.type === "method_invocation") {
    if (n.childForFieldName("name")?.text === "path") {
      return n.childForFieldName("arguments")?.namedChild(0) ?? undefined;
    }
    n = n.childForFieldName("object");
  }
  return undefined;
}

/** `HttpRequest.newBuilder(uri)...GET()/POST(..)/method("X", ..)`. */
export function httpRequestBuilder(
  c: JavaFile,
  start: Node,
  uriArg: Node | undefined,
): void {
  let uri = uriArg;
  let method = "GET";
  let n: Node = start;
  while (
    n.parent?.type === "method_invocation" &&
    n.parent.childForFieldName("object")?.id === n.id
  ) {
    const outer: Node = n.parent;
    const name = outer.childForFieldName("name")?.text ?? "";
    const first = outer.childForFieldName("arguments")?.namedChild(0) ??
      undefined;
    if (name === "uri" && first) uri = first;
    else if (HTTP_METHODS.has(name)) method = name;
    else if (name === "method" && first) {
      const m = exactText(c.evaluate(first))?.toUpperCase();
      if (m && HTTP_METHODS.has(m)) method = m;
    }
    n = outer;
  }
  if (!uri) return;
  emitClient(c, start, method, uri, "java.net.http");
}

/**
 * The client port of a call with a URL; a wrapper's URL built from a
 * parameter gives one port per call site of the file that supplies it.
 */
export function emitClient(
  c: JavaFile,
  call: Node,
  method: string,
  urlNode: Node | undefined,
  framework: string,
  receiver?: Node | null,
): void {
  if (!urlNode) return;
  const base = receiver ? c.clientBase(receiver) : undefined;
  c.ports.push(...flowedClientPorts({
    flowed: c.calls.expand(call, c.evaluate(urlNode)),
    call,
    method,
    framework,
    path: (url) => clientPath(url, base),
    place: (node) => placeOf(node, c.pathOf(node), "java"),
    extra: { raw: urlNode.text },
    wrapper: call.text,
  }));
}
