// HTTP clients in Kotlin: Spring's WebClient / RestClient (`.get().uri()`)
// and RestTemplate, Ktor's HttpClient (`client.get("/x")`,
// `client.request { method = ...; url(...) }`), java.net.http, and
// Retrofit interfaces (`@GET("users/{id}")`), on receivers whose type
// says which client they are.
import type { Node } from "web-tree-sitter";
import { HTTP_METHODS, HTTP_VERBS, httpPort } from "../_port/http.ts";
import { ownerOf } from "../_syntax/owner.ts";
import { namedChildren } from "../_syntax/tree.ts";
import { clientPath, exactText, joinPaths, type Value } from "../_value/mod.ts";
import {
  FLUENT_CLIENT_TYPES,
  methodConstant,
  REST_TEMPLATE_METHOD,
} from "../_spring/names.ts";
import type { KtFile } from "./project.ts";
import {
  argument,
  callOf,
  isInterface,
  type KtCall,
  membersOf,
  ownAnnotations,
} from "./nodes.ts";

/** Retrofit's request method annotations. */
const RETROFIT: ReadonlySet<string> = new Set([
  "GET",
  "POST",
  "PUT",
  "DELETE",
  "PATCH",
  "HEAD",
  "OPTIONS",
]);

/** The client port of one HTTP call. */
export function clientCall(c: KtFile, node: Node): void {
  const call = callOf(node);
  if (!call?.receiver) return;
  if (call.name in REST_TEMPLATE_METHOD) {
    restTemplate(c, call);
  } else if (call.name === "uri") {
    fluent(c, call);
  } else if (HTTP_VERBS.has(call.name) || call.name === "request") {
    ktorClient(c, call);
  }
}

/** `restTemplate.getForObject(url, ...)`, `exchange(url, HttpMethod.X, ...)`. */
function restTemplate(c: KtFile, call: KtCall): void {
  if (c.receiverType(call.receiver) !== "RestTemplate") return;
  let method = REST_TEMPLATE_METHOD[call.name]!;
  if (method === "") {
    method = methodConstant(call.args[1]?.value.text ?? "");
    if (!HTTP_METHODS.has(method)) return;
  }
  emit(
    c,
    call.node,
    method,
    call.args[0]?.value,
    "resttemplate",
    call.receiver,
  );
}

/** `webClient.get().uri("/x")`, `.method(HttpMethod.POST).uri(...)`. */
function fluent(c: KtFile, call: KtCall): void {
  const verbCall = call.receiver ? callOf(call.receiver) : undefined;
  if (!verbCall?.receiver) return;
  let method: string | undefined;
  if (HTTP_VERBS.has(verbCall.name)) method = verbCall.name.toUpperCase();
  else if (verbCall.name === "method") {
    method = methodConstant(verbCall.args[0]?.value.text ?? "");
  }
  if (!method || !HTTP_METHODS.has(method)) return;
  const type = c.receiverType(verbCall.receiver);
  if (!type || !FLUENT_CLIENT_TYPES.has(type)) return;
  let target = call.args[0]?.value;
  if (!target && call.lambda) target = uriBuilderPath(call.lambda);
  emit(
    c,
    call.node,
    method,
    target,
    type === "WebClient" ? "webclient" : "restclient",
    verbCall.receiver,
  );
}

/** `{ it.path("/x").build() }` → the path argument. */
function uriBuilderPath(lambda: Node): Node | undefined {
  let found: Node | undefined;
  const stack: Node[] = [lambda];
  for (let i = 0; stack.length > 0 && i < 200 && !found; i++) {
    const n = stack.pop()!;
    const call = callOf(n);
    if (call?.name === "path" && call.args[0]) found = call.args[0].value;
    stack.push(...namedChildren(n));
  }
  return found;
}

/**
 * Ktor's HttpClient: `client.get("/x")`, `client.get { url("/x") }`,
 * `client.request("/x") { method = HttpMethod.Post }`,
 * `client.submitForm("/x")` (a POST).
 */
function ktorClient(c: KtFile, call: KtCall): void {
  const type = c.receiverType(call.receiver);
  if (type !== "HttpClient") return;
  let method = HTTP_VERBS.has(call.name) ? call.name.toUpperCase() : "GET";
  let url = argument(call.args, ["urlString", "url"], 0);
  if (call.lambda) {
    for (const stmt of namedChildren(call.lambda)) {
      if (stmt.type === "assignment") {
        const [target, value] = namedChildren(stmt);
        if (target?.text === "method") {
          const m = /HttpMethod\.(\w+)$/.exec(value?.text ?? "")?.[1];
          if (m) method = m.toUpperCase();
        }
      }
      const inner = callOf(stmt);
      if (inner?.name === "url" && !inner.receiver && !url) {
        url = inner.args[0]?.value;
      }
    }
  }
  emit(c, call.node, method, url, "ktor-client", call.receiver);
}

/** Retrofit interface methods (`@GET("users/{id}")`): client ports. */
export function retrofitInterface(c: KtFile, decl: Node): void {
  if (!isInterface(decl)) return;
  for (const member of membersOf(decl)) {
    if (member.type !== "function_declaration") continue;
    for (const a of ownAnnotations(member)) {
      if (!RETROFIT.has(a.name) && a.name !== "HTTP") continue;
      let method = a.name;
      let target = argument(a.args, ["value"], 0);
      if (a.name === "HTTP") {
        method = exactText(c.evaluate(argument(a.args, ["method"], 0)))
          ?.toUpperCase() ?? "";
        target = argument(a.args, ["path"], 1);
        if (!HTTP_METHODS.has(method)) continue;
      }
      if (!target) continue;
      const url = c.evaluate(target);
      const path = clientPath(url) ?? clientPath(joinPaths("/", url));
      if (!path) continue;
      const port = httpPort({
        role: "client",
        method,
        path: path.path,
        node: a.node,
        owner: ownerOf(member, c.file.path, "kotlin"),
        filePath: c.file.path,
        confidence: path.confidence,
        framework: "retrofit",
      });
      if (port) c.ports.push(port);
    }
  }
}

/** The client port of a call with a URL, under the client's base URL. */
function emit(
  c: KtFile,
  node: Node,
  method: string,
  urlNode: Node | undefined,
  framework: string,
  receiver: Node | undefined,
): void {
  if (!urlNode) return;
  const url = c.evaluate(urlNode);
  const base: Value | undefined = receiver ? c.clientBase(receiver) : undefined;
  const path = clientPath(url, base);
  if (!path) return;
  const port = httpPort({
    role: "client",
    method,
    path: path.path,
    node,
    owner: ownerOf(node, c.file.path, "kotlin"),
    filePath: c.file.path,
    confidence: path.confidence,
    framework,
    extra: { raw: urlNode.text },
  });
  if (port) c.ports.push(port);
}
