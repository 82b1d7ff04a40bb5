// Apache HttpClient (4.x `org.apache.http`, 5.x `org.apache.hc`): a request
// object `new HttpPost(url)` is the call's port (it is executed later).
import { emitClient } from "./clients.ts";
import type { JavaFile } from "./project.ts";
import type { Node } from "web-tree-sitter";

const REQUEST_CLASSES: Readonly<Record<string, string>> = {
  HttpGet: "GET",
  HttpPost: "POST",
  HttpPut: "PUT",
  HttpPatch: "PATCH",
  HttpDelete: "DELETE",
  HttpHead: "HEAD",
  HttpOptions: "OPTIONS",
};

/** Whether a file imports Apache HttpClient. */
export function usesApacheHttp(text: string): boolean {
  return /import\s+org\.apache\.(?:http|hc)\./.test(text);
}

/** The client port of `new HttpGet(url)` and the like. */
export function apacheRequest(c: JavaFile, creation: Node): void {
  const type = creation.childForFieldName("type")?.text ?? "";
  const method = REQUEST_CLASSES[type.slice(type.lastIndexOf(".") + 1)];
  const url = creation.childForFieldName("arguments")?.namedChild(0);
  if (!method || !url) return;
  emitClient(c, creation, method, url, "apache-httpclient");
}
