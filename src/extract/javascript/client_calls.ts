// HTTP calls of a JavaScript/TypeScript file: fetch, axios, ky, generated
// clients, and the helper functions that pass a parameter into a URL.
import type { Node } from "../_syntax/tree.ts";
import { fromParts, type Value } from "../_value/mod.ts";
import type { Collector } from "./collect.ts";
import type { ChildRef } from "./facts.ts";
import {
  argList,
  CLIENT_METHODS,
  constructorName,
  isRelative,
  methodLiteral,
  methodOption,
  pairValue,
  parameterOf,
} from "./nodes.ts";
import type { MemberCall } from "./nodes.ts";
import { unwrap, valueOf } from "./values.ts";
import { localObject, withLocals } from "./locals.ts";

export function clientMemberCall(c: Collector, call: MemberCall): boolean {
  const { node, object, method, args } = call;
  const v = unwrap(object);
  if (v.type === "member_expression") {
    // `this.form.post(url)`: a form client kept on the component
    const instance = c.facts.instances.get(v.text);
    const httpMethod = CLIENT_METHODS[method];
    if (!instance || !v.text.startsWith("this.") || !httpMethod || !args[0]) {
      return false;
    }
    client(c, node, httpMethod, valueOf(args[0]), instance.framework, {
      local: v.text,
    });
    return true;
  }
  if (v.type !== "identifier") return false;
  const binding = c.facts.imports.get(v.text);
  const instance = c.facts.instances.get(v.text);
  let framework: string | undefined;
  let via: ChildRef | undefined;
  if (binding?.source === "axios") {
    framework = "axios";
  } else if (binding?.source === "ky") framework = "ky";
  else if (binding && REQUEST_MODULES.has(binding.source)) {
    framework = "request";
  } else if (instance) {
    framework = instance.framework;
    via = { local: v.text };
  } else if (binding && isRelative(binding.source)) {
    framework = "instance";
    via = { import: binding };
  } else if (!binding && v.text === "$http") {
    // AngularJS injects its HTTP service under this name
    framework = "angularjs";
  }
  if (!framework) return false;
  if (method === "request") {
    const options = args[0];
    if (options && unwrap(options).type === "object") {
      axiosCall(c, node, args, via, framework);
    }
    return true;
  }
  // request's `del` is its DELETE
  const httpMethod = CLIENT_METHODS[method] ??
    (framework === "request" && method === "del" ? "DELETE" : undefined);
  const url = args[0];
  if (!httpMethod || !url) return framework !== "instance";
  client(c, node, httpMethod, valueOf(url), framework, via);
  return true;
}

export function client(
  c: Collector,
  node: Node,
  method: string | undefined,
  url: Value,
  framework: string,
  via: ChildRef | undefined,
  init?: Node,
): void {
  url = withLocals(node, url);
  // A URL built from a parameter of the enclosing function: the function
  // is a client helper, its callers are the ports.
  const parts = url.parts;
  for (let i = 0; i < parts.length; i++) {
    const piece = parts[i]!;
    if (typeof piece === "string" || piece.hole !== "constant") continue;
    const param = parameterOf(node, piece.text);
    if (!param) continue;
    // `/items/${id}`, `?q=${q}`, `http://${host}/x`: a path segment, a
    // query value or a host, not the path itself
    const before = parts.slice(0, i).filter((p) => typeof p === "string")
      .join("");
    if (
      before.endsWith("/") || /[?#=&]/.test(before) ||
      /^(?:[a-z][a-z0-9+.-]*:)?\/\/[^/]*$/i.test(before)
    ) continue;
    if (!param.name) return;
    const initParam = init && unwrap(init).type === "identifier"
      ? parameterOf(node, unwrap(init).text)
      : undefined;
    c.facts.helpers.set(param.name, {
      param: param.index,
      before: fromParts(parts.slice(0, i)),
      after: fromParts(parts.slice(i + 1)),
      method: initParam ? undefined : method,
      ...(initParam ? { methodParam: initParam.index } : {}),
      framework,
      ...(via ? { via } : {}),
    });
    return;
  }
  c.facts.clients.push({
    ...c.site(node),
    method,
    url,
    framework,
    ...(via ? { via } : {}),
  });
}

export function fetchCall(
  c: Collector,
  node: Node,
  args: Node[],
): void {
  const first = args[0];
  if (!first) return;
  let input = unwrap(first);
  let init = args[1];
  if (input.type === "identifier" && c.requests.has(input.text)) {
    input = c.requests.get(input.text)!;
  }
  if (input.type === "new_expression") {
    const name = constructorName(input);
    const inner = argList(input);
    if (name === "Request") {
      if (!inner[0]) return;
      init ??= inner[1];
      input = unwrap(inner[0]);
      if (
        input.type === "new_expression" && constructorName(input) === "URL"
      ) {
        input = unwrap(argList(input)[0] ?? input);
      }
    } else if (name === "URL") {
      if (!inner[0]) return;
      input = unwrap(inner[0]);
    } else return;
  }
  // `fetch(url, request)` with a local built by a function of the file
  const local = init && unwrap(init).type === "identifier" &&
      !parameterOf(node, unwrap(init).text)
    ? localObject(node, unwrap(init).text)
    : undefined;
  if (local) init = local;
  const method = init ? methodOption(init) : "GET";
  client(c, node, method, valueOf(input), "fetch", undefined, init);
}

export function axiosCall(
  c: Collector,
  node: Node,
  args: Node[],
  via: ChildRef | undefined,
  framework: string,
): void {
  const first = args[0];
  if (!first) return;
  const v = unwrap(first);
  if (v.type === "object") {
    const url = pairValue(v, "url");
    if (!url) return;
    client(c, node, methodOption(v), valueOf(url), framework, via);
    return;
  }
  const method = args[1] ? methodOption(args[1]) : "GET";
  client(c, node, method, valueOf(v), framework, via);
}

/** The `request` library and its promise wrappers (`request(url, cb)`). */
export const REQUEST_MODULES: ReadonlySet<string> = new Set([
  "request",
  "request-promise",
  "request-promise-native",
  "requestretry",
]);

/**
 * `request(url, callback)`, `request(url, { method })`,
 * `request({ uri | url, method })`: GET unless a method is given.
 */
export function requestCall(c: Collector, node: Node, args: Node[]): void {
  const first = args[0];
  if (!first) return;
  const v = unwrap(first);
  if (v.type === "object") {
    const url = pairValue(v, "uri") ?? pairValue(v, "url");
    if (!url) return;
    client(c, node, methodOption(v), valueOf(url), "request", undefined);
    return;
  }
  const options = args[1] && unwrap(args[1]).type === "object"
    ? args[1]
    : undefined;
  const method = options ? methodOption(options) : "GET";
  client(c, node, method, valueOf(v), "request", undefined);
}

export function kyCall(
  c: Collector,
  node: Node,
  args: Node[],
  via: ChildRef | undefined,
): void {
  const first = args[0];
  if (!first) return;
  const method = args[1] ? methodOption(args[1]) : "GET";
  client(c, node, method, valueOf(first), "ky", via);
}

/** Generated clients: `request({ url: "/x", method: "GET" })`. */
export function generated(
  c: Collector,
  node: Node,
  args: Node[],
  via: ChildRef | undefined,
): boolean {
  for (const arg of args.slice(0, 2)) {
    const v = unwrap(arg);
    if (v.type !== "object") continue;
    const url = pairValue(v, "url");
    const methodNode = pairValue(v, "method");
    if (!url || !methodNode || pairValue(v, "handler")) continue;
    const method = methodLiteral(methodNode);
    if (!method) continue;
    const val = withLocals(node, valueOf(url));
    const head = val.parts[0];
    if (typeof head !== "string" || !/^(\/|https?:\/\/)/.test(head)) continue;
    client(c, node, method, val, "generated", via);
    const last = c.facts.clients[c.facts.clients.length - 1];
    if (via && last) last.viaOptional = true;
    return true;
  }
  return false;
}

// ---- URLPattern and Bun.serve routes --------------------------------
