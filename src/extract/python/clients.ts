// Python HTTP clients: requests, httpx and aiohttp calls, on the modules'
// functions and on client objects (sessions, `httpx.Client(base_url=...)`)
// traced through assignments, `self` attributes and annotated parameters.
import { flowedClientPorts } from "../_port/http.ts";
import { ownerOf } from "../_syntax/compact_tree.ts";
import { namedChildren } from "../_syntax/compact_tree.ts";
import {
  clientPath,
  CONFIDENCE,
  exactText,
  type Value,
} from "../_value/mod.ts";
import {
  argument,
  keywordArg,
  localAssignment,
  type PyModule,
  type PyProject,
} from "./project.ts";
import type { Node } from "../_syntax/compact_tree.ts";
import type { ExtractedPort } from "../types.ts";
import type { PyFlow } from "./flow.ts";
import { VERBS } from "./route_calls.ts";
import { isLocustClient } from "./locust.ts";

const CLIENT_CONSTRUCTORS: ReadonlyMap<string, string> = new Map([
  ["requests.Session", "requests"],
  ["requests.session", "requests"],
  ["requests.sessions.Session", "requests"],
  ["httpx.Client", "httpx"],
  ["httpx.AsyncClient", "httpx"],
  ["aiohttp.ClientSession", "aiohttp"],
]);
const CLIENT_MODULES: ReadonlySet<string> = new Set([
  "requests",
  "httpx",
  "aiohttp",
]);

/** The client port of a call, if it is one. */
export function clientPorts(
  module: PyModule,
  call: Node,
  project: PyProject,
  flow: PyFlow,
): ExtractedPort[] {
  const ports: ExtractedPort[] = [];
  for (const client of clientCalls(call, project)) {
    // a wrapper's URL comes from its callers: one port per call site
    ports.push(...flowedClientPorts({
      flowed: flow.expand(module, call, client.url),
      call: { module, call },
      method: client.method,
      framework: client.library,
      path: (url) => clientPath(url, client.base),
      place: (at) => ({
        node: at.call,
        owner: ownerOf(at.call, at.module.file.path, "python"),
        filePath: at.module.file.path,
      }),
      confidence: client.confidence,
      extra: { raw: client.raw },
      wrapper: call.text,
    }));
  }
  return ports;
}

interface ClientCall {
  method: string;
  /** The URL as evaluated where the call is written. */
  url: Value;
  /** The client's base URL, if any. */
  base: Value | undefined;
  raw: string;
  library: string;
  confidence: number;
}

function clientCalls(call: Node, project: PyProject): ClientCall[] {
  const callee = call.childForFieldName("function");
  if (!callee) return [];
  let library: string | undefined;
  let verb: string | undefined;
  let base: Value | undefined;
  const external = project.externalName(callee);
  if (external) {
    const [root, fn, extra] = external.split(".");
    if (!root || !fn || extra !== undefined || !CLIENT_MODULES.has(root)) {
      return [];
    }
    library = root;
    verb = fn;
  } else if (callee.type === "attribute") {
    const object = callee.childForFieldName("object");
    const client = object ? clientObject(object, project) : undefined;
    if (!client) return [];
    library = client.library;
    base = client.base;
    verb = callee.childForFieldName("attribute")?.text;
  }
  if (!library || !verb) return [];
  const args = call.childForFieldName("arguments");
  let method: string | undefined;
  let urlNode: Node | undefined;
  let confidence = 1;
  if (VERBS.has(verb)) {
    method = verb.toUpperCase();
    urlNode = argument(args, 0, "url");
  } else if (verb === "request" || verb === "stream") {
    const methodNode = argument(args, 0, "method");
    const value = methodNode ? project.evalString(methodNode) : undefined;
    const text = exactText(value);
    if (text && /^[A-Za-z]+$/.test(text)) {
      method = text.toUpperCase();
    } else {
      method = "ANY";
      confidence = CONFIDENCE.weak;
    }
    urlNode = argument(args, 1, "url");
  } else return [];
  const url = urlNode ? project.evalString(urlNode) : undefined;
  if (!url || !urlNode) return [];
  return [{ method, url, base, raw: urlNode.text, library, confidence }];
}

interface ClientObject {
  library: string;
  base: Value | undefined;
}

/** Whether an expression is a requests/httpx/aiohttp client object. */
function clientObject(
  object: Node,
  project: PyProject,
): ClientObject | undefined {
  if (isLocustClient(object, project)) {
    return { library: "locust", base: undefined };
  }
  if (object.type === "identifier") {
    // a typed parameter (not assigned in the function): its type's library
    const module = project.moduleOf(object);
    const local = module
      ? localAssignment(module, object, object.text)
      : undefined;
    const typed = local ? undefined : parameterType(object);
    if (typed) {
      const library = CLIENT_CONSTRUCTORS.get(
        project.externalName(typed) ?? "",
      );
      return library ? { library, base: undefined } : undefined;
    }
  }
  const value = project.madeBy(object);
  if (!value) return undefined;
  const callee = value.childForFieldName("function");
  const library = callee
    ? CLIENT_CONSTRUCTORS.get(project.externalName(callee) ?? "")
    : undefined;
  if (!library) return undefined;
  const baseNode = keywordArg(value.childForFieldName("arguments"), "base_url");
  return { library, base: baseNode ? project.evalString(baseNode) : undefined };
}

/** The annotated type of a parameter of the enclosing function. */
function parameterType(identifier: Node): Node | undefined {
  for (let scope = identifier.parent; scope; scope = scope.parent) {
    if (scope.type !== "function_definition") continue;
    const parameters = scope.childForFieldName("parameters");
    for (const parameter of parameters ? namedChildren(parameters) : []) {
      if (
        parameter.type !== "typed_parameter" &&
        parameter.type !== "typed_default_parameter"
      ) continue;
      const name = parameter.childForFieldName("name") ??
        namedChildren(parameter)[0];
      if (name?.text !== identifier.text) continue;
      const type = parameter.childForFieldName("type");
      return type ? namedChildren(type)[0] ?? undefined : undefined;
    }
    return undefined;
  }
  return undefined;
}
