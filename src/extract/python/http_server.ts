// The standard library's `http.server`: a `BaseHTTPRequestHandler`
// subclass answers a verb in `do_<VERB>`, and a path where that method
// compares the request path (`self.path`, or the `.path` of
// `urlparse(self.path)`) with a literal: `if parsed.path == "/hello":`.
import { namedChildren, ownerOf } from "../_syntax/compact_tree.ts";
import { exactText } from "../_value/mod.ts";
import { type PyProject, unwrap } from "./project.ts";
import {
  classMembers,
  type HttpPort,
  libraryClass,
  toPort,
} from "./classes.ts";
import { VERBS } from "./route_calls.ts";
import type { Node } from "../_syntax/compact_tree.ts";
import type { ExtractedPort } from "../types.ts";

const HANDLERS: ReadonlySet<string> = new Set([
  "http.server.BaseHTTPRequestHandler",
  "http.server.SimpleHTTPRequestHandler",
]);
const MAX_NODES = 20000;

/** The routes `http.server` request handlers of a project compare paths with. */
export function httpServerPorts(project: PyProject): ExtractedPort[] {
  if (!project.mentions("http.server")) return [];
  const ports: HttpPort[] = [];
  for (const module of project.list) {
    for (const cls of module.classes.values()) {
      const superclasses = cls.childForFieldName("superclasses");
      const bases = superclasses ? namedChildren(superclasses) : [];
      if (
        !bases.some((b) => HANDLERS.has(libraryClass(project, unwrap(b)) ?? ""))
      ) {
        continue;
      }
      for (const { definition } of classMembers(cls)) {
        const verb = /^do_([A-Z]+)$/.exec(
          definition.childForFieldName("name")?.text ?? "",
        )?.[1];
        if (!verb || !VERBS.has(verb.toLowerCase())) continue;
        const seen = new Set<string>();
        for (const literal of comparedPaths(definition)) {
          const path = exactText(project.evalString(literal));
          if (!path?.startsWith("/") || seen.has(path)) continue;
          seen.add(path);
          ports.push({
            module,
            anchor: literal,
            method: verb,
            path: project.evalString(literal)!,
            raw: literal.text,
            confidence: 1,
            framework: "http.server",
            owner: ownerOf(definition, module.file.path, "python"),
          });
        }
      }
    }
  }
  return ports.map(toPort);
}

/** The string literals a method compares a request path with (`==`). */
function comparedPaths(fn: Node): Node[] {
  const out: Node[] = [];
  const stack: Node[] = [fn];
  let visited = 0;
  while (stack.length > 0 && visited++ < MAX_NODES) {
    const node = stack.pop()!;
    if (
      node.type === "comparison_operator" &&
      /^[^=]*==[^=]*$/.test(operators(node))
    ) {
      const [left, right] = namedChildren(node);
      if (left && right) {
        if (right.type === "string" && isRequestPath(left)) out.push(right);
        else if (left.type === "string" && isRequestPath(right)) out.push(left);
      }
    }
    stack.push(...namedChildren(node));
  }
  return out;
}

function operators(node: Node): string {
  const [left, right] = namedChildren(node);
  return left && right
    ? node.text.slice(
      left.endIndex - node.startIndex,
      right.startIndex - node.startIndex,
    )
    : "";
}

/** `self.path`, `parsed.path` or a name `path`: the request path. */
function isRequestPath(node: Node): boolean {
  const value = unwrap(node);
  return value.type === "identifier"
    ? value.text === "path"
    : value.type === "attribute" &&
      value.childForFieldName("attribute")?.text === "path";
}
