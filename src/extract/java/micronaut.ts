// Micronaut controllers (`@Controller("/books")` with `@Get("/{id}")`...,
// `uri`/`uris`, URI template query parts dropped) and Quarkus reactive
// routes (`@RouteBase(path = "/x")` with `@Route(path = "/y", methods =
// ...)`), each under the module's context path.
import type { Node } from "web-tree-sitter";
import { CAPITALISED_METHODS, routePorts } from "../_port/http.ts";
import { ownerOf } from "../_syntax/owner.ts";
import {
  addsPrefix,
  joinPaths,
  literal,
  mapText,
  type Value,
} from "../_value/mod.ts";
import type { JavaFile } from "./project.ts";
import { javaAnnotations } from "./annotations.ts";
import { contextPrefix } from "../_spring/settings.ts";

/** Micronaut's method annotations and their method. */
const MICRONAUT_VERBS: Readonly<Record<string, string>> = {
  ...CAPITALISED_METHODS,
  Trace: "TRACE",
};

/** Whether a file uses Micronaut's HTTP annotations or Quarkus routes. */
export function usesAnnotatedRoutes(text: string): boolean {
  return text.includes("io.micronaut.http.annotation") ||
    text.includes("io.quarkus.vertx.web");
}

/** The routes of a Micronaut controller or a Quarkus reactive routes class. */
export function annotatedRoutes(c: JavaFile, cls: Node): void {
  const annotations = javaAnnotations(cls);
  const controller = annotations.find((a) => a.name === "Controller");
  const base = annotations.find((a) => a.name === "RouteBase");
  const micronaut = c.file.text.includes("io.micronaut.http.annotation");
  let prefix: Value;
  const name = cls.childForFieldName("name")?.text ?? "";
  if (micronaut && controller) {
    const value = controller.element(["value"]);
    prefix = value ? c.evaluate(value) : literal("");
  } else if (
    micronaut && cls.type === "interface_declaration" &&
    c.implementers.has(name)
  ) {
    // an interface a controller implements: its routes under that prefix
    prefix = literal(c.implementers.get(name) ?? "", true);
  } else if (base) {
    const value = base.element(["path"]);
    prefix = value ? c.evaluate(value) : literal("");
  } else {
    const quarkus = c.file.text.includes("io.quarkus.vertx.web");
    if (!quarkus) return;
    prefix = literal("");
  }
  const context = contextPrefix(c.settings, c.file.path);
  for (const member of cls.childForFieldName("body")?.namedChildren ?? []) {
    if (member?.type !== "method_declaration") continue;
    for (const a of javaAnnotations(member)) {
      const annotation = a.name;
      let verbs: string[];
      let paths: Value[];
      if (micronaut && annotation in MICRONAUT_VERBS) {
        verbs = [MICRONAUT_VERBS[annotation]!];
        const nodes = [
          ...a.values(["value", "uri"]),
          ...a.values(["uris"]),
        ];
        paths = nodes.length > 0 ? nodes.map((n) => c.evaluate(n)) : [
          literal(""),
        ];
      } else if (!micronaut && annotation === "Route") {
        if (/FAILURE/.test(a.element(["type"])?.text ?? "")) {
          continue;
        }
        const path = a.element(["path", "value"]);
        if (!path) continue;
        paths = [c.evaluate(path)];
        verbs = a.methods(["methods"]);
      } else continue;
      for (const path of paths) {
        c.ports.push(...routePorts({
          methods: verbs,
          path: joinPaths(context, prefix, withoutQuery(path)),
          prefixed: addsPrefix(prefix),
          node: a.node,
          owner: ownerOf(member, c.file.path, "java"),
          filePath: c.file.path,
          framework: micronaut ? "micronaut" : "quarkus-reactive-routes",
        }));
      }
    }
  }
}

/** A URI template without its query part (`/x{?q}` → `/x`) and `:id` kept. */
function withoutQuery(value: Value): Value {
  return mapText(value, (text) => text.replace(/\{[?&][^}]*\}/g, ""));
}
