// Symfony routes: `#[Route]` attributes and `@Route(...)` docblock
// annotations, the class prefix and each method's route and methods.
import { HTTP_METHODS, routePorts } from "../_port/http.ts";
import { ownerOf } from "../_syntax/owner.ts";
import { namedChildren } from "../_syntax/tree.ts";
import {
  addsPrefix,
  exactText,
  joinPaths,
  literal,
  type Value,
} from "../_value/mod.ts";
import {
  arrayEntries,
  lastName,
  named,
  type PhpFile,
  positional,
} from "./project.ts";
import type { Node } from "web-tree-sitter";

/** Symfony: class `#[Route('/prefix')]` + method `#[Route('/x', methods: [...])]`. */
export function symfonyController(
  c: PhpFile,
  cls: Node,
): void {
  const classPrefixes = routeAttributes(c, cls).map((a) => a.path);
  if (classPrefixes.length === 0) classPrefixes.push(literal(""));
  // a routing file that imports this directory's routes under a prefix
  const imported = c.routePrefixes.filter((p) => c.file.path.startsWith(p.dir));
  const prefixes = imported.length === 0 ? classPrefixes : imported.flatMap(
    (p) => classPrefixes.map((own) => joinPaths(literal(p.prefix, true), own)),
  );
  const body = cls.childForFieldName("body");
  for (const method of body ? namedChildren(body) : []) {
    if (method.type !== "method_declaration") continue;
    for (const route of routeAttributes(c, method)) {
      for (const prefix of prefixes) {
        c.ports.push(...routePorts({
          methods: route.verbs,
          path: joinPaths(prefix, route.path),
          prefixed: addsPrefix(prefix),
          node: route.node,
          owner: ownerOf(method, c.file.path, "php"),
          filePath: c.file.path,
          framework: "symfony",
        }));
      }
    }
  }
}

export function routeAttributes(
  c: PhpFile,
  decl: Node,
): Array<{ node: Node; path: Value; verbs: string[] }> {
  const out = docblockRoutes(decl);
  const lists = decl.childForFieldName("attributes");
  if (!lists) return out;
  for (const group of namedChildren(lists)) {
    for (const attribute of namedChildren(group)) {
      if (attribute.type !== "attribute") continue;
      const name = namedChildren(attribute).find((c) =>
        c.type === "name" || c.type === "qualified_name"
      );
      if (lastName(name?.text ?? "") !== "Route") continue;
      const pathNode = named(attribute, "path") ?? positional(attribute)[0];
      const methods = named(attribute, "methods");
      let verbs = arrayEntries(methods)
        .map((e) =>
          (exactText(c.evaluate(e.value)) ??
            /::METHOD_([A-Z]+)$/.exec(e.value.text)?.[1] ?? "").toUpperCase()
        )
        .filter((v) => HTTP_METHODS.has(v));
      if (methods && verbs.length === 0) {
        const single = exactText(c.evaluate(methods))?.toUpperCase();
        if (single && HTTP_METHODS.has(single)) verbs = [single];
      }
      out.push({
        node: group,
        path: pathNode ? c.evaluate(pathNode) : literal(""),
        verbs: verbs.length > 0 ? verbs : ["ANY"],
      });
    }
  }
  return out;
}

const ANNOTATION = /@Route\(/g;

/**
 * The `@Route("/x", methods={"GET"})` annotations of a declaration's
 * docblock (Symfony before attributes): `"/x"` or `path="/x"`, and
 * `methods={"GET", "POST"}` or `methods="GET"`.
 */
function docblockRoutes(
  decl: Node,
): Array<{ node: Node; path: Value; verbs: string[] }> {
  const out: Array<{ node: Node; path: Value; verbs: string[] }> = [];
  const comment = decl.previousNamedSibling;
  if (comment?.type !== "comment" || !comment.text.startsWith("/**")) {
    return out;
  }
  const text = comment.text;
  ANNOTATION.lastIndex = 0;
  for (let m = ANNOTATION.exec(text); m; m = ANNOTATION.exec(text)) {
    let depth = 1;
    let end = m.index + m[0].length;
    while (end < text.length && depth > 0) {
      const c = text[end++];
      if (c === "(") depth++;
      else if (c === ")") depth--;
    }
    const args = text.slice(m.index + m[0].length, end - 1);
    const path = /^\s*"([^"]*)"/.exec(args)?.[1] ??
      /\bpath\s*=\s*"([^"]*)"/.exec(args)?.[1];
    if (path === undefined) continue;
    const list = /\bmethods\s*=\s*\{([^}]*)\}/.exec(args)?.[1] ??
      /\bmethods\s*=\s*("[A-Za-z]+")/.exec(args)?.[1] ?? "";
    const verbs = [...list.matchAll(/"([A-Za-z]+)"/g)]
      .map((v) => v[1]!.toUpperCase())
      .filter((v) => HTTP_METHODS.has(v));
    out.push({
      node: comment,
      path: literal(path),
      verbs: verbs.length > 0 ? verbs : ["ANY"],
    });
  }
  return out;
}
