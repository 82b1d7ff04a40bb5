// HttpClient calls: `GetAsync`/`PostAsJsonAsync`... on HttpClient receivers
// and `new HttpRequestMessage(HttpMethod.X, url)`.
import { flowedClientPorts, HTTP_METHODS } from "../_port/http.ts";
import { placeOf } from "../_syntax/owner.ts";
import type { PathResult, Value } from "../_value/mod.ts";
import { clientPath, exactText } from "../_value/mod.ts";
import { relativePath } from "../_value/relative.ts";
import { callArgs, type CSharpFile, simpleName } from "./project.ts";
import type { Node } from "web-tree-sitter";

/** An HttpClient request: the call, its HTTP method and its URL argument. */
export interface HttpClientCall {
  call: Node;
  method: string;
  url: Node;
}

/** `new HttpRequestMessage(HttpMethod.Post, url)`. */
export function requestMessage(c: CSharpFile, node: Node): void {
  const type = simpleName(node.childForFieldName("type")?.text ?? "");
  if (type !== "HttpRequestMessage") return;
  const [methodArg, urlArg] = callArgs(node);
  if (!methodArg || !urlArg) return;
  let method: string | undefined;
  const text = methodArg.text;
  if (text.startsWith("HttpMethod.")) {
    method = text.slice("HttpMethod.".length).toUpperCase();
  } else if (methodArg.type === "object_creation_expression") {
    const inner = callArgs(methodArg)[0];
    method = inner ? exactText(c.evaluate(inner))?.toUpperCase() : undefined;
  }
  if (!method || !HTTP_METHODS.has(method)) return;
  emitClient(c, { call: node, method, url: urlArg });
}

/**
 * The HttpClient port of a call with a URL; a wrapper's URL built from a
 * parameter gives one port per call site that supplies it.
 */
export function emitClient(c: CSharpFile, request: HttpClientCall): void {
  const { call, method, url } = request;
  c.ports.push(...flowedClientPorts({
    flowed: c.calls.expand(call, c.evaluate(url)),
    call,
    method,
    framework: "httpclient",
    path: relativeClientPath,
    place: (node) =>
      placeOf(node, c.index?.fileOf(node)?.path ?? c.file.path, "c-sharp"),
    extra: { raw: url.text },
    wrapper: call.text,
  }));
}

/**
 * The path a client URL calls; a relative URI (`"users/1"`) resolves
 * against the client's BaseAddress, so what it adds is only partly known.
 */
function relativeClientPath(url: Value): PathResult | undefined {
  const path = clientPath(url);
  const lead = url.parts[0];
  if (path || typeof lead !== "string" || /^[a-z][a-z0-9+.-]*:/i.test(lead)) {
    return path;
  }
  const relative = relativePath(url);
  return relative && { ...relative, holes: true };
}
