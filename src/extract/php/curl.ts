// PHP's curl extension: `curl_init($url)` (or `curl_setopt($h, CURLOPT_URL,
// $url)`) starts a request, GET unless the function sets `CURLOPT_POST`,
// `CURLOPT_CUSTOMREQUEST` or `CURLOPT_PUT` on a handle.
import type { Node } from "web-tree-sitter";
import { emitClient } from "./clients.ts";
import { type PhpFile, positional } from "./project.ts";

/** The method the function around a curl call sets, else GET. */
function curlMethod(call: Node): string {
  let scope: Node | null = call.parent;
  while (
    scope && scope.type !== "method_declaration" &&
    scope.type !== "function_definition"
  ) scope = scope.parent;
  const text = (scope ?? call).text;
  const custom = /CURLOPT_CUSTOMREQUEST\s*(?:,|=>)\s*['"]([A-Za-z]+)['"]/
    .exec(text);
  const method = custom?.[1]?.toUpperCase();
  if (method && /^(GET|POST|PUT|PATCH|DELETE|HEAD|OPTIONS)$/.test(method)) {
    return method;
  }
  if (/CURLOPT_POST\s*(?:,|=>)\s*(?:true|1)\b/i.test(text)) return "POST";
  if (/CURLOPT_PUT\s*(?:,|=>)\s*(?:true|1)\b/i.test(text)) return "PUT";
  return "GET";
}

/** A `curl_init($url)` or `curl_setopt($h, CURLOPT_URL, $url)` call's client port. */
export function curlCall(c: PhpFile, call: Node): void {
  const name = call.childForFieldName("function")?.text ?? "";
  const args = positional(call);
  let url: Node | undefined;
  if (name === "curl_init") url = args[0];
  else if (name === "curl_setopt" && args[1]?.text === "CURLOPT_URL") {
    url = args[2];
  }
  if (!url) return;
  emitClient(c, call, curlMethod(call), c.evaluate(url), "curl");
}
