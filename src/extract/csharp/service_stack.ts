// ServiceStack: request DTOs routed by `[Route("/hello/{Name}", "GET,POST")]`
// and the fluent `Routes.Add<Hello>("/hello", "GET")` of an AppHost.
import type { Node } from "web-tree-sitter";
import { routePorts } from "../_port/http.ts";
import { ownerOf } from "../_syntax/owner.ts";
import { exactText, type Value } from "../_value/mod.ts";
import {
  attributeArgs,
  attributesOf,
  basesOf,
  callArgs,
  type CSharpFile,
  namedAttributeArg,
  ROUTE_METHODS,
  simpleName,
  unwrap,
} from "./project.ts";
import type { CSharpIndex } from "./index.ts";

/** Whether a scan has a `global using ServiceStack;`, by index. */
const globalUse = new WeakMap<CSharpIndex, boolean>();

/** A file that imports ServiceStack (or a scan with a global using of it). */
function usesServiceStack(c: CSharpFile): boolean {
  if (/^\s*using\s+ServiceStack\s*;/m.test(c.file.text)) return true;
  const index = c.index;
  if (!index) return false;
  let known = globalUse.get(index);
  if (known === undefined) {
    known = index.trees.some((t) =>
      /^\s*global\s+using\s+ServiceStack\s*;/m.test(t.file.text)
    );
    globalUse.set(index, known);
  }
  return known;
}

/** `"GET,POST"` (or `"GET POST"`) as methods; nothing: `ANY`. */
function verbList(c: CSharpFile, node: Node | undefined): string[] {
  if (!node) return ["ANY"];
  const text = exactText(c.evaluate(node));
  if (text === undefined) return ["ANY"];
  const verbs = text.split(/[\s,]+/).map((v) => v.toUpperCase())
    .filter((v) => v !== "");
  if (verbs.length === 0 || verbs.includes("ANY")) return ["ANY"];
  return verbs.filter((v) => ROUTE_METHODS.has(v));
}

function emit(
  c: CSharpFile,
  at: Node,
  path: Value,
  verbs: string[],
): void {
  const text = exactText(path);
  if (text !== undefined && !text.startsWith("/")) return;
  c.ports.push(...routePorts({
    methods: verbs,
    path,
    prefixed: false,
    node: at,
    owner: ownerOf(at, c.file.path, "c-sharp"),
    filePath: c.file.path,
    framework: "servicestack",
  }));
}

/**
 * The `[Route(path, verbs)]` of a ServiceStack request DTO: a class of a
 * ServiceStack file that is no MVC controller (not `...Controller`, no
 * `[ApiController]`, no controller base).
 */
export function serviceStackDto(c: CSharpFile, cls: Node): void {
  const routes = attributesOf(cls).filter((a) =>
    simpleName(a.childForFieldName("name")?.text ?? "") === "Route"
  );
  if (routes.length === 0 || !usesServiceStack(c)) return;
  const name = cls.childForFieldName("name")?.text ?? "";
  if (name.endsWith("Controller")) return;
  if (
    attributesOf(cls).some((a) =>
      /^(ApiController|Controller)$/.test(
        simpleName(a.childForFieldName("name")?.text ?? ""),
      )
    )
  ) return;
  if (
    basesOf(cls).some((b) => /Controller(Base)?$/.test(simpleName(b.text)))
  ) return;
  for (const a of routes) {
    const [path, verbs] = attributeArgs(a);
    if (!path) continue;
    emit(
      c,
      a,
      c.evaluate(path),
      verbList(c, verbs ?? namedAttributeArg(a, "Verbs")),
    );
  }
}

/**
 * `Routes.Add<Hello>("/hello", "GET")` (chained `.Add<T>(...)` calls too)
 * in a ServiceStack file: the receiver chain starts at `Routes`.
 */
export function serviceStackRoutesAdd(c: CSharpFile, call: Node): void {
  const fn = call.childForFieldName("function");
  if (fn?.type !== "member_access_expression") return;
  const name = fn.childForFieldName("name");
  if (name?.type !== "generic_name" || name.namedChild(0)?.text !== "Add") {
    return;
  }
  let receiver: Node | null = fn.childForFieldName("expression");
  for (let depth = 0; receiver && depth < 32; depth++) {
    const r: Node = unwrap(receiver);
    if (r.type === "invocation_expression") {
      receiver = r.childForFieldName("function")?.childForFieldName(
        "expression",
      ) ?? null;
      continue;
    }
    const root = r.type === "member_access_expression" &&
        r.childForFieldName("expression")?.type === "this_expression"
      ? r.childForFieldName("name")?.text
      : r.text;
    if (root !== "Routes" || !usesServiceStack(c)) return;
    const [path, verbs] = callArgs(call);
    if (path) {
      emit(c, call, c.evaluate(path), verbList(c, verbs));
    }
    return;
  }
}
