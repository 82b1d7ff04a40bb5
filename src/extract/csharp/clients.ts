// HttpClient calls: `GetAsync`/`PostAsJsonAsync`... on HttpClient receivers
// and `new HttpRequestMessage(HttpMethod.X, url)`.
import { HTTP_METHODS, httpPort } from "../_port/http.ts";
import { ownerOf } from "../_syntax/owner.ts";
import {
  clientPath,
  concat,
  CONFIDENCE,
  exactText,
  literal,
} from "../_value/mod.ts";
import { callArgs, type CSharpFile, simpleName } from "./project.ts";
import type { Node } from "web-tree-sitter";

/** `new HttpRequestMessage(HttpMethod.Post, url)`. */
export function requestMessage(
  c: CSharpFile,
  node: Node,
): void {
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
  emitClient(c, node, method, urlArg, "httpclient");
}

export function emitClient(
  c: CSharpFile,
  call: Node,
  method: string,
  urlNode: Node,
  framework: string,
): void {
  const url = c.evaluate(urlNode);
  let path = clientPath(url);
  // A relative URI resolves against the client's BaseAddress.
  if (!path && typeof url.parts[0] === "string") {
    const relative = clientPath(concat([literal("/"), url]));
    if (relative) {
      path = { ...relative, holes: true, confidence: CONFIDENCE.partial };
    }
  }
  if (!path) return;
  const port = httpPort({
    role: "client",
    method,
    path: path.path,
    node: call,
    owner: ownerOf(call, c.file.path, "c-sharp"),
    filePath: c.file.path,
    confidence: path.confidence,
    framework,
    extra: { raw: urlNode.text },
  });
  if (port) c.ports.push(port);
}
