// Feathers services: `app.use("/messages", new Messages())` (a class of the
// project, an object of methods, or a database adapter such as
// `feathers-memory`) exposes each service method as a REST route: find →
// `GET /messages`, get → `GET /messages/:id`, create → `POST`, update →
// `PUT /:id`, patch → `PATCH /:id`, remove → `DELETE /:id`; the `methods`
// option limits them. Only in a project that imports `@feathersjs/...`.
import { namedChildren, type Node, stringValue } from "../_syntax/tree.ts";
import { literal } from "../_value/mod.ts";
import type { Collector } from "./collect.ts";
import type { ChildRef, JsFacts, RouteRec, Site } from "./facts.ts";
import type { JsProject } from "./project.ts";
import { bindingOfRequire, isRelative, pairValue } from "./nodes.ts";
import type { MemberCall } from "./nodes.ts";
import { unwrap } from "./values.ts";

const SERVICE_METHODS: ReadonlyArray<[string, string, boolean]> = [
  ["find", "GET", false],
  ["get", "GET", true],
  ["create", "POST", false],
  ["update", "PUT", true],
  ["patch", "PATCH", true],
  ["remove", "DELETE", true],
];
const ALL = SERVICE_METHODS.map(([name]) => name);
/** `exports.Name`, `module.exports.Name`: the name. */
const EXPORTED_NAME = /^(?:module\.)?exports\.([A-Za-z_$][\w$]*)$/;

/** A registered service: its path, methods or class, allowed methods. */
export interface FeathersService extends Site {
  path: string;
  methods?: string[];
  klass?: ChildRef;
  /** A class of a package (a database adapter): every method. */
  adapter?: boolean;
  allowed?: string[];
}

/** The service method names a class body or object literal defines. */
function memberNames(body: Node): string[] {
  const out: string[] = [];
  for (const member of namedChildren(body)) {
    const key = member.type === "method_definition"
      ? member.childForFieldName("name")?.text
      : member.type === "pair"
      ? member.childForFieldName("key")?.text
      : undefined;
    if (key && ALL.includes(key)) out.push(key);
  }
  return out;
}

/** The methods of a class node: its own, or all of them when it extends one. */
function classMethods(klass: Node): string[] {
  const body = klass.childForFieldName("body");
  const extended = namedChildren(klass).some((n) =>
    n.type === "class_heritage"
  );
  return extended ? ALL : body ? memberNames(body) : [];
}

/** Records service classes and `use(path, service)` calls of a file. */
export function feathersFacts(c: Collector): void {
  for (const node of c.nodes("class_declaration")) {
    const name = node.childForFieldName("name")?.text;
    if (name) {
      (c.facts.serviceClasses ??= new Map()).set(name, classMethods(node));
    }
  }
  for (const node of c.nodes("assignment_expression")) {
    // exports.Messages = class Messages { ... }
    // the class first: every assignment of every file comes here
    const right = node.childForFieldName("right");
    const klass = right && unwrap(right);
    if (klass?.type !== "class") continue;
    const left = node.childForFieldName("left")?.text ?? "";
    const m = EXPORTED_NAME.exec(left);
    if (m) {
      (c.facts.serviceClasses ??= new Map()).set(m[1]!, classMethods(klass));
    }
  }
}

/** `app.use("/path", service, { methods })`; returns `false` (no claim). */
export function feathersUse(c: Collector, call: MemberCall): boolean {
  const { node, method, args } = call;
  if (method !== "use" || args.length < 2) return false;
  const path = stringValue(unwrap(args[0]!));
  if (path === undefined || path.includes("*")) return false;
  const service = unwrap(args[1]!);
  const options = args[2] && unwrap(args[2]);
  const listed = options?.type === "object"
    ? pairValue(options, "methods")
    : undefined;
  const allowed = listed && unwrap(listed).type === "array"
    ? namedChildren(unwrap(listed)).map((n) => stringValue(unwrap(n)) ?? "")
    : undefined;
  const rec: FeathersService = {
    ...c.site(node),
    path: path.startsWith("/") ? path : `/${path}`,
    ...(allowed ? { allowed } : {}),
  };
  if (service.type === "object") rec.methods = memberNames(service);
  else if (service.type === "new_expression") {
    const ctor = unwrap(service.childForFieldName("constructor")!);
    const required = ctor.type === "call_expression"
      ? bindingOfRequire(ctor)
      : undefined;
    const binding = required ??
      (ctor.type === "identifier" ? c.facts.imports.get(ctor.text) : undefined);
    if (binding && !isRelative(binding.source)) rec.adapter = true;
    else if (binding) rec.klass = { import: binding };
    else if (ctor.type === "identifier") rec.klass = { local: ctor.text };
    else return false;
  } else return false;
  (c.facts.feathers ??= []).push(rec);
  return false;
}

/** The routes of every Feathers service of a project that uses Feathers. */
export function feathersRoutes(
  project: JsProject,
): Array<[JsFacts, RouteRec]> {
  const files = [...project.files];
  const out: Array<[JsFacts, RouteRec]> = [];
  if (
    !files.some((f) =>
      [...f.imports.values()].some((b) => b.source.startsWith("@feathersjs/"))
    )
  ) return out;
  for (const file of files) {
    for (const service of file.feathers ?? []) {
      let methods = service.adapter ? ALL : service.methods;
      if (service.klass) {
        if ("local" in service.klass) {
          methods = file.serviceClasses?.get(service.klass.local);
        } else {
          const module = project.module(file.path, service.klass.import.source);
          const name = service.klass.import.name === "default"
            ? module?.exports.get("default")
            : service.klass.import.name;
          methods = name ? module?.serviceClasses?.get(name) : undefined;
        }
      }
      for (const [name, verb, withId] of SERVICE_METHODS) {
        if (!methods?.includes(name)) continue;
        if (service.allowed && !service.allowed.includes(name)) continue;
        out.push([file, {
          line: service.line,
          col: service.col,
          owner: service.owner,
          methods: [verb],
          path: literal(withId ? `${service.path}/:id` : service.path),
          framework: "feathers",
          extra: { service: name },
        }]);
      }
    }
  }
  return out;
}
