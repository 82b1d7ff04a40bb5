// The JDK's built-in server (`com.sun.net.httpserver`):
// `server.createContext("/users", handler)`, with the methods its handler
// tells apart (`exchange.getRequestMethod().equals("POST")`, a `switch` on
// the method); `ANY` when it tells none apart.
import type { Node } from "web-tree-sitter";
import { HTTP_METHODS, routePorts } from "../_port/http.ts";
import { ownerOf } from "../_syntax/owner.ts";
import { anchorOf, walk } from "../_syntax/tree.ts";
import type { JavaFile } from "./project.ts";
import { javaString, typeName } from "./project.ts";

/** Whether a file uses the JDK's HTTP server. */
export function usesJdkHttpServer(text: string): boolean {
  return text.includes("com.sun.net.httpserver");
}

/** The contexts the file's servers create. */
export function jdkServerRoutes(c: JavaFile, root: Node): void {
  walk(root, (node) => {
    if (node.type !== "method_invocation") return;
    if (node.childForFieldName("name")?.text !== "createContext") return;
    const object = node.childForFieldName("object");
    const type = object ? c.receiverType(object) : undefined;
    if (type !== undefined && !/^Https?Server$/.test(type)) return;
    const args = node.childForFieldName("arguments")?.namedChildren ?? [];
    const first = args[0];
    if (!first) return;
    const path = c.evaluate(first);
    const head = path.parts[0];
    if (typeof head !== "string" || !head.startsWith("/")) return;
    const body = args[1] ? handlerBody(root, args[1]) : undefined;
    const verbs = body ? requestMethods(body) : [];
    c.ports.push(...routePorts({
      methods: verbs.length > 0 ? verbs : ["ANY"],
      path,
      prefixed: false,
      node: anchorOf(node, node.childForFieldName("name") ?? node),
      owner: ownerOf(node, c.file.path, "java"),
      filePath: c.file.path,
      framework: "jdk-httpserver",
    }));
  });
}

/**
 * The code that handles a context's requests: a lambda's body, the
 * `handle` method of an anonymous class or of a class of the file
 * (`new UploadHandler()`), a referenced method (`App::health`).
 */
function handlerBody(root: Node, handler: Node): Node | undefined {
  if (handler.type === "lambda_expression") {
    return handler.childForFieldName("body") ?? undefined;
  }
  if (handler.type === "object_creation_expression") {
    const anonymous = handler.namedChildren.find((n) =>
      n?.type === "class_body"
    );
    if (anonymous) return method(anonymous, "handle");
    const name = typeName(handler.childForFieldName("type"));
    let body: Node | undefined;
    walk(root, (n) => {
      if (body || n.type !== "class_declaration") return;
      if (n.childForFieldName("name")?.text !== name) return;
      const members = n.childForFieldName("body");
      body = members ? method(members, "handle") : undefined;
    });
    return body;
  }
  if (handler.type === "method_reference") {
    const name = handler.namedChildren.at(-1)?.text ?? "";
    let body: Node | undefined;
    walk(root, (n) => {
      if (body || n.type !== "method_declaration") return;
      if (n.childForFieldName("name")?.text === name) {
        body = n.childForFieldName("body") ?? undefined;
      }
    });
    return body;
  }
  return undefined;
}

function method(members: Node, name: string): Node | undefined {
  for (const m of members.namedChildren) {
    if (
      m?.type === "method_declaration" &&
      m.childForFieldName("name")?.text === name
    ) {
      return m.childForFieldName("body") ?? undefined;
    }
  }
  return undefined;
}

/**
 * The HTTP methods a handler compares the request's method with:
 * `equals`/`equalsIgnoreCase` on `getRequestMethod()` (or a variable set
 * from it) and the case labels of a `switch` on it.
 */
function requestMethods(body: Node): string[] {
  const vars = new Set<string>();
  walk(body, (n) => {
    if (n.type !== "variable_declarator") return;
    const value = n.childForFieldName("value");
    const name = n.childForFieldName("name")?.text;
    if (name && value && value.text.includes("getRequestMethod()")) {
      vars.add(name);
    }
  });
  const isMethod = (n: Node | null | undefined): boolean => {
    const text = n?.text.replace(/[()\s]/g, "") ?? "";
    return (n?.text.includes("getRequestMethod()") ?? false) ||
      vars.has(text) || vars.has(text.replace(/\.toUpperCase$/, ""));
  };
  const out = new Set<string>();
  const add = (literal: Node | null | undefined): void => {
    if (literal?.type !== "string_literal") return;
    const verb = javaString(literal).toUpperCase();
    if (HTTP_METHODS.has(verb)) out.add(verb);
  };
  walk(body, (n) => {
    if (n.type === "method_invocation") {
      const name = n.childForFieldName("name")?.text;
      if (name !== "equals" && name !== "equalsIgnoreCase") return;
      const object = n.childForFieldName("object");
      const arg = n.childForFieldName("arguments")?.namedChild(0);
      if (isMethod(object)) add(arg);
      else if (isMethod(arg)) add(object);
    } else if (
      n.type === "switch_expression" || n.type === "switch_statement"
    ) {
      if (!isMethod(n.childForFieldName("condition"))) return;
      walk(n.childForFieldName("body") ?? n, (label) => {
        if (label.type !== "switch_label") return;
        for (const child of label.namedChildren) add(child);
      });
    }
  });
  return [...out];
}
