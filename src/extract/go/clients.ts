// Go HTTP clients: net/http `Get`/`Post`/`Head`/`PostForm`, `NewRequest`
// (with its method), and the same methods on `http.Client` values.
import {
  clientPath,
  CONFIDENCE,
  exactText,
  type Value,
} from "../_value/mod.ts";
import type { GoProject } from "./project.ts";
import { argumentsOf } from "./routers.ts";
import type { Node } from "../_syntax/compact_tree.ts";
import type { ExtractedPort } from "../types.ts";
import { flowedClientPorts } from "../_port/http.ts";
import { ownerOf } from "../_syntax/compact_tree.ts";
import type { GoFlow } from "./flow.ts";

export interface ClientCall {
  method: string;
  /** The URL as evaluated where the call is written. */
  url: Value;
  raw: string;
  confidence: number;
}

const CLIENT_FUNCTIONS: ReadonlyMap<string, string> = new Map([
  ["Get", "GET"],
  ["Head", "HEAD"],
  ["Post", "POST"],
  ["PostForm", "POST"],
]);

/** A net/http client call, if it is one. */
export function clientOf(
  call: Node,
  project: GoProject,
): ClientCall | undefined {
  const callee = call.childForFieldName("function");
  if (callee?.type !== "selector_expression") return undefined;
  const args = argumentsOf(call);
  const name = callee.childForFieldName("field")?.text ?? "";
  const qualified = project.qualified(callee);
  let method: string | undefined;
  let urlNode: Node | undefined;
  let confidence = 1;
  if (qualified) {
    if (qualified[0] !== "net/http") return undefined;
    if (name === "NewRequest" || name === "NewRequestWithContext") {
      const offset = name === "NewRequest" ? 0 : 1;
      const verb = exactText(project.evalString(args[offset]));
      if (verb && /^[A-Za-z]+$/.test(verb)) method = verb.toUpperCase();
      else {
        method = "ANY";
        confidence = CONFIDENCE.weak;
      }
      urlNode = args[offset + 1];
    } else {
      method = CLIENT_FUNCTIONS.get(name);
      urlNode = args[0];
    }
  } else {
    method = CLIENT_FUNCTIONS.get(name);
    if (!method) return undefined;
    const type = project.typeOf(callee.childForFieldName("operand"));
    if (type?.pkg !== "net/http" || type.name !== "Client") return undefined;
    urlNode = args[0];
  }
  if (!method || !urlNode) return undefined;
  const url = project.evalString(urlNode);
  return url ? { method, url, raw: urlNode.text, confidence } : undefined;
}

/**
 * The client ports of a call: at the call, or, for a wrapper whose URL
 * comes from a parameter, at each call site that gives it.
 */
export function clientPorts(
  call: Node,
  project: GoProject,
  flow: GoFlow,
): ExtractedPort[] {
  const client = clientOf(call, project);
  if (!client) return [];
  return flowedClientPorts({
    flowed: flow.expand(call, client.url),
    call,
    method: client.method,
    framework: "net/http",
    path: (url) => clientPath(url),
    place: (node) => {
      const file = project.fileOf(node)?.file.path ?? "";
      return { node, owner: ownerOf(node, file, "go"), filePath: file };
    },
    confidence: client.confidence,
    extra: { raw: client.raw },
    wrapper: call.text,
  });
}
