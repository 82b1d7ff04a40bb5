// Go kit HTTP clients: `httptransport.NewClient(method, tgt, enc, dec)`.
// The path is where the code sets it: on the `*url.URL` (`tgt.Path =
// "/sum"`, or inside a helper such as `copyURL(u, "/sum")`), else in the
// request encoder (`req.URL.Path = "/profiles/" + id`). A method or path
// given by a parameter takes its value at each caller.
import {
  findAll,
  namedChildren,
  type Node,
  ownerOf,
} from "../_syntax/compact_tree.ts";
import {
  clientPath,
  concat,
  CONFIDENCE,
  exactText,
  fillHoles,
  fromParts,
  isEmpty,
  literal,
  type Part,
  type Value,
} from "../_value/mod.ts";
import { flowedClientPorts } from "../_port/http.ts";
import type { ExtractedPort } from "../types.ts";
import type { GoProject } from "./project.ts";
import type { GoFlow } from "./flow.ts";
import { parametersOf } from "./declarations.ts";
import { argumentsOf } from "./routers.ts";
import { localFunction } from "./callees.ts";

const GOKIT_HTTP = "github.com/go-kit/kit/transport/http";
const ASSIGNMENTS: ReadonlySet<string> = new Set(["assignment_statement"]);
const FUNCTIONS: ReadonlySet<string> = new Set([
  "function_declaration",
  "method_declaration",
  "func_literal",
]);

/** The client ports of a Go kit `httptransport.NewClient` call. */
export function goKitClientPorts(
  call: Node,
  project: GoProject,
  flow: GoFlow,
): ExtractedPort[] {
  const qualified = project.qualified(call.childForFieldName("function"));
  if (qualified?.[0] !== GOKIT_HTTP || qualified[1] !== "NewClient") return [];
  const [methodNode, urlNode, encoder] = argumentsOf(call);
  const method = project.evalString(methodNode);
  let path = urlPath(urlNode, call, project, flow);
  if (!path || isEmpty(path)) path = encoderPath(encoder, project);
  if (!method || !path) return [];
  // the method and the path flow through callers together
  const out: ExtractedPort[] = [];
  for (
    const { value, site } of flow.expand(
      call,
      concat([method, literal(" "), path]),
    )
  ) {
    const split = splitMethod(value);
    if (!split) continue;
    out.push(...flowedClientPorts({
      flowed: [{ value: split.path, ...(site ? { site } : {}) }],
      call,
      method: split.method ?? "ANY",
      framework: "go-kit",
      path: (url) => clientPath(url),
      place: (node) => {
        const file = project.fileOf(node)?.file.path ?? "";
        return { node, owner: ownerOf(node, file, "go"), filePath: file };
      },
      confidence: split.method ? CONFIDENCE.literal : CONFIDENCE.weak,
      extra: { raw: urlNode?.text ?? "" },
      wrapper: call.text,
    }));
  }
  return out;
}

/** `GET /x` → the method and the path (the method `undefined` if a hole). */
function splitMethod(
  value: Value,
): { method: string | undefined; path: Value } | undefined {
  const [first, ...rest] = value.parts;
  if (typeof first !== "string") {
    // an unresolved method: the path follows the first " "
    const at = rest.findIndex((p) => typeof p === "string" && p.includes(" "));
    const part = rest[at];
    if (typeof part !== "string") return undefined;
    const tail = part.slice(part.indexOf(" ") + 1);
    const parts: Part[] = [...(tail ? [tail] : []), ...rest.slice(at + 1)];
    return { method: undefined, path: fromParts(parts, value.composed) };
  }
  const space = first.indexOf(" ");
  if (space === -1) return undefined;
  const verb = first.slice(0, space);
  const tail = first.slice(space + 1);
  const parts: Part[] = [...(tail ? [tail] : []), ...rest];
  return {
    method: /^[A-Za-z]+$/.test(verb) ? verb.toUpperCase() : undefined,
    path: fromParts(parts, value.composed),
  };
}

/**
 * The path set on a `*url.URL` argument: `u.Path = ...` in the enclosing
 * function before the call, or in the project function that returns it.
 */
function urlPath(
  url: Node | undefined,
  call: Node,
  project: GoProject,
  flow: GoFlow,
): Value | undefined {
  if (!url) return undefined;
  if (url.type === "identifier") {
    const scope = enclosingFunction(call);
    return scope
      ? assignedPath(scope, `${url.text}.Path`, project, call.startIndex)
      : undefined;
  }
  if (url.type !== "call_expression") return undefined;
  const fn = localFunction(url.childForFieldName("function"), project);
  if (!fn) return undefined;
  // copyURL(base, "/sum"): `next.Path = path` with the argument
  for (const target of pathTargets(fn)) {
    const value = assignedPath(fn, target, project);
    if (value) {
      return fillHoles(
        value,
        "parameter",
        (name) => flow.argument(fn, url, name),
      );
    }
  }
  return undefined;
}

/** `x.Path` for each `x` a function assigns a path to. */
function pathTargets(fn: Node): string[] {
  const out: string[] = [];
  for (const statement of findAll(fn, ASSIGNMENTS)) {
    const left = statement.childForFieldName("left")?.text.replace(/\s/g, "");
    if (left && /^\w+\.Path$/.test(left)) out.push(left);
  }
  return out;
}

/** The path an encoder sets on its request: `req.URL.Path = ...`. */
function encoderPath(
  encoder: Node | undefined,
  project: GoProject,
): Value | undefined {
  const fn = localFunction(encoder, project);
  if (!fn) return undefined;
  const request = [...parametersOf(fn)].find(([, p]) =>
    p.kind === "param" && p.index === 1
  )?.[0];
  return request ? assignedPath(fn, `${request}.URL.Path`, project) : undefined;
}

/** The last value assigned to `target` in `scope` (before `before`). */
function assignedPath(
  scope: Node,
  target: string,
  project: GoProject,
  before = Infinity,
): Value | undefined {
  let found: Node | undefined;
  for (const statement of findAll(scope, ASSIGNMENTS)) {
    if (statement.startIndex > before) break;
    const left = statement.childForFieldName("left")?.text.replace(/\s/g, "");
    if (left === target) found = statement;
  }
  const right = found?.childForFieldName("right");
  const value = right ? project.evalString(namedChildren(right)[0]) : undefined;
  return value && exactText(value) !== "" ? value : undefined;
}

function enclosingFunction(node: Node): Node | undefined {
  let current = node.parent;
  while (current && !FUNCTIONS.has(current.type)) current = current.parent;
  return current ?? undefined;
}
