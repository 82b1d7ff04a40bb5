// Go HTTP clients: net/http `Get`/`Post`/`Head`/`PostForm`, `NewRequest`
// (with its method), and the same methods on `http.Client` values.
import { clientPath, CONFIDENCE, exactText } from "../_value/mod.ts";
import type { GoProject } from "./project.ts";
import { argumentsOf } from "./routers.ts";
import type { Node } from "../_syntax/compact_tree.ts";

export interface ClientCall {
  method: string;
  path: string;
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
  const result = url ? clientPath(url) : undefined;
  if (!result) return undefined;
  return {
    method,
    path: result.path,
    raw: urlNode.text,
    confidence: Math.min(result.confidence, confidence),
  };
}
