// NestJS controllers: `@Controller(prefix)` classes and their
// `@Get`/`@Post`... methods.
import { namedChildren, type Node, stringValue } from "../_syntax/tree.ts";
import { literal, type Value } from "../_value/mod.ts";
import type { Collector } from "./collect.ts";
import {
  isStringish,
  NEST_DECORATORS,
  pairValue,
  pathValues,
} from "./nodes.ts";
import type { MemberCall } from "./nodes.ts";
import { unwrap, valueOf } from "./values.ts";
import {
  classDecorators,
  decoratedMethods,
  importedDecorator,
} from "./decorators.ts";

export function nestName(
  c: Collector,
  decorator: Node,
): { name: string; args: Node[] } | undefined {
  return importedDecorator(c, decorator, "@nestjs/common");
}

/** Nest paths: a path or an array of them, with or without a leading `/`. */
function nestPaths(node: Node): Value[] {
  const v = unwrap(node);
  if (v.type !== "array") return pathValues(v);
  return namedChildren(v).filter((n) => isStringish(unwrap(n))).map((n) =>
    valueOf(n)
  );
}

export function nestClass(
  c: Collector,
  node: Node,
): void {
  const decorators = classDecorators(node);
  let prefixes: Value[] | undefined;
  let versions: string[] | undefined;
  for (const decorator of decorators) {
    const d = nestName(c, decorator);
    if (d?.name !== "Controller") continue;
    const arg = d.args[0];
    if (!arg) prefixes = [literal("")];
    else if (unwrap(arg).type === "object") {
      const path = pairValue(unwrap(arg), "path");
      prefixes = path ? nestPaths(path) : [literal("")];
      const version = pairValue(unwrap(arg), "version");
      versions = version && versionsOf(version);
    } else prefixes = nestPaths(arg);
  }
  if (!prefixes) return;
  const body = node.childForFieldName("body");
  if (!body) return;
  for (const [member, pending] of decoratedMethods(body)) {
    // @Version(...) on the method replaces the controller's versions
    let own = versions;
    for (const decorator of pending) {
      const d = nestName(c, decorator);
      if (d?.name === "Version" && d.args[0]) own = versionsOf(d.args[0]);
    }
    for (const decorator of pending) {
      const d = nestName(c, decorator);
      const method = d && NEST_DECORATORS[d.name];
      if (!d || !method) continue;
      const paths = d.args[0] ? nestPaths(d.args[0]) : [literal("")];
      for (const prefix of prefixes) {
        for (const path of paths) {
          c.facts.routes.push({
            ...c.site(decorator, member),
            methods: [method],
            path,
            prefix,
            framework: "nestjs",
            nest: true,
            ...(own ? { versions: own } : {}),
            extra: {},
          });
        }
      }
    }
  }
}

/** `VERSION_NEUTRAL`: a route answering without a version in its path. */
const NEUTRAL = "";

/** The versions a `version` option or `@Version(...)` argument names. */
function versionsOf(node: Node): string[] | undefined {
  const v = unwrap(node);
  const items = v.type === "array" ? namedChildren(v) : [v];
  const out: string[] = [];
  for (const item of items) {
    const u = unwrap(item);
    if (/(^|\.)VERSION_NEUTRAL$/.test(u.text)) out.push(NEUTRAL);
    else {
      const text = stringValue(u);
      if (text === undefined) return undefined;
      out.push(text === "VERSION_NEUTRAL" ? NEUTRAL : text);
    }
  }
  return out.length > 0 ? out : undefined;
}

/**
 * The Nest application calls of a bootstrap: `setGlobalPrefix(p, { exclude })`,
 * `enableVersioning({ type, prefix, defaultVersion })`, `NestFactory.create`.
 */
export function nestAppCall(c: Collector, call: MemberCall): boolean {
  const { object, method, args } = call;
  if (method === "create" && c.lib(unwrap(object))?.name === "NestFactory") {
    c.facts.nestBootstrap = true;
    return false;
  }
  // the method first: this runs for every member call of every file
  if (method !== "setGlobalPrefix" && method !== "enableVersioning") {
    return false;
  }
  if (!c.importsFrom("@nestjs/")) return false;
  const options = args[1] && unwrap(args[1]).type === "object"
    ? unwrap(args[1])
    : undefined;
  if (method === "setGlobalPrefix" && args[0]) {
    c.facts.globalPrefix = valueOf(args[0]);
    const exclude = options && pairValue(options, "exclude");
    if (exclude && unwrap(exclude).type === "array") {
      const out: Array<{ path: string; method: string }> = [];
      for (const item of namedChildren(unwrap(exclude))) {
        const u = unwrap(item);
        const path = u.type === "object"
          ? stringValue(unwrap(pairValue(u, "path") ?? u))
          : stringValue(u);
        const verb = u.type === "object"
          ? /(\w+)$/.exec(pairValue(u, "method")?.text ?? "")?.[1]
          : undefined;
        if (path === undefined) continue;
        out.push({
          path: path.replace(/^\/+|\/+$/g, ""),
          method: !verb || verb === "ALL" ? "ANY" : verb.toUpperCase(),
        });
      }
      c.facts.globalPrefixExclude = out;
    }
    return true;
  }
  if (method === "enableVersioning") {
    const first = args[0] && unwrap(args[0]).type === "object"
      ? unwrap(args[0])
      : undefined;
    const type = first && pairValue(first, "type")?.text;
    const prefix = first && pairValue(first, "prefix");
    const defaults = first && pairValue(first, "defaultVersion");
    c.facts.nestVersioning = {
      uri: !type || /(^|\.)URI$/.test(type),
      prefix: prefix?.type === "false"
        ? ""
        : (prefix && stringValue(unwrap(prefix))) ?? "v",
      ...(defaults && versionsOf(defaults)
        ? { defaults: versionsOf(defaults)! }
        : {}),
    };
    return true;
  }
  return false;
}
