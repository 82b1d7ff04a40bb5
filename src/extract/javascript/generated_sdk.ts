// Generated API clients whose request sites are member calls: the
// @hey-api/openapi-ts SDK (`(options?.client ?? client).get({ url:
// "/api/v1/users/", ...options })` in `sdk.gen.ts`, a client from
// `@hey-api/client-*`) and openapi-generator's typescript-fetch
// (`this.request({ path: \`/pet/{petId}\`.replace(...), method: "GET" })` in
// a class extending `BaseAPI`). Each request site is a client port; the
// application code calling the SDK's functions is not read as such.
import type { Node } from "../_syntax/tree.ts";
import type { Collector } from "./collect.ts";
import { CLIENT_METHODS, methodLiteral, pairValue } from "./nodes.ts";
import type { MemberCall } from "./nodes.ts";
import { unwrap, valueOf } from "./values.ts";
import { client } from "./client_calls.ts";

/** Whether the file is a hey-api SDK (imports a hey-api client or is named as one). */
function heyApi(c: Collector, path: string): boolean {
  if (/(?:^|\/)(?:sdk|services)\.gen\.[cm]?ts$/.test(path)) return true;
  for (const binding of c.facts.imports.values()) {
    if (binding.source.startsWith("@hey-api/")) return true;
  }
  return false;
}

/** `\`/pet/{id}\`.replace(...)` -> the template it starts from. */
function withoutReplace(node: Node): Node {
  let v = unwrap(node);
  for (let depth = 0; depth < 8 && v.type === "call_expression"; depth++) {
    const callee = v.childForFieldName("function");
    if (
      callee?.type !== "member_expression" ||
      callee.childForFieldName("property")?.text !== "replace"
    ) break;
    v = unwrap(callee.childForFieldName("object") ?? v);
  }
  return v;
}

/** Whether `node` is inside a class that extends openapi-generator's `BaseAPI`. */
function inBaseApi(node: Node): boolean {
  for (let p = node.parent; p; p = p.parent) {
    if (p.type === "class_declaration" || p.type === "class") {
      return /\bextends\s+(?:[\w$]+\.)?BaseAPI\b/.test(
        p.text.slice(0, p.text.indexOf("{")),
      );
    }
  }
  return false;
}

/** Records a generated SDK's request site; `false` when it is none. */
export function generatedSdkCall(c: Collector, call: MemberCall): boolean {
  const { node, object, method, args } = call;
  const options = args[0] ? unwrap(args[0]) : undefined;
  if (options?.type !== "object") return false;
  if (method === "request" && unwrap(object).type === "this") {
    const pathNode = pairValue(options, "path");
    const methodNode = pairValue(options, "method");
    const verb = methodNode ? methodLiteral(methodNode) : undefined;
    if (!pathNode || !verb || !inBaseApi(node)) {
      return false;
    }
    client(
      c,
      node,
      verb,
      valueOf(withoutReplace(pathNode)),
      "openapi-generator",
      undefined,
    );
    return true;
  }
  const verb = CLIENT_METHODS[method];
  const url = pairValue(options, "url");
  if (!verb || !url || !heyApi(c, c.facts.path)) return false;
  client(c, node, verb, valueOf(url), "hey-api", undefined);
  return true;
}
