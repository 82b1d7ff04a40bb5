// Sails.js routes: the custom routes of `config/routes.js`
// (`module.exports.routes = { "GET /users/:id": "UserController.findOne" }`)
// and the implicit blueprint routes Sails binds by convention: REST routes
// for each model of `api/models/` (on unless `config/blueprints.js` turns
// `rest` off) and action routes for each controller action (only when it
// turns `actions` on, as Sails 1 leaves them off).
import { namedChildren, type Node, stringValue } from "../_syntax/tree.ts";
import { literal } from "../_value/mod.ts";
import type { Collector } from "./collect.ts";
import type { JsFacts, RouteRec, SailsFacts, Site } from "./facts.ts";
import { HTTP_METHODS, memberKey } from "./nodes.ts";
import { unwrap } from "./values.ts";

const CONFIG = /^((?:.*\/)?)config\/(routes|blueprints)\.[cm]?[jt]s$/;
const MODEL = /^((?:.*\/)?)api\/models\/([^/]+)\.[cm]?[jt]s$/;
const CONTROLLER = /^((?:.*\/)?)api\/controllers\/(.+)\.[cm]?[jt]s$/;

/** `"GET /users/:id"`, `"post /login"`, `"/webhook"` (any method). */
const ADDRESS = /^(?:([A-Za-z]+)\s+)?(\/\S*)$/;

/** The most routes one `config/routes.js` gives. */
const MAX_ROUTES = 5_000;

/** The object assigned to `module.exports.<key>` or `module.exports = { key }`. */
function exported(c: Collector, key: string): Node | undefined {
  for (const node of c.nodes("assignment_expression")) {
    if (node.parent?.type !== "expression_statement") continue;
    const left = node.childForFieldName("left")?.text.replace(/\s+/g, "");
    const right = node.childForFieldName("right");
    if (!right) continue;
    const value = unwrap(right);
    if (left === `module.exports.${key}` || left === `exports.${key}`) {
      return value.type === "object" ? value : undefined;
    }
    if (left === "module.exports" && value.type === "object") {
      for (const part of namedChildren(value)) {
        if (memberKey(part) !== key || part.type !== "pair") continue;
        const inner = part.childForFieldName("value");
        if (inner && unwrap(inner).type === "object") return unwrap(inner);
      }
    }
  }
  return undefined;
}

/** The object `module.exports = { ... }` of a file, if it has one. */
function moduleObject(c: Collector): Node | undefined {
  for (const node of c.nodes("assignment_expression")) {
    if (node.childForFieldName("left")?.text !== "module.exports") continue;
    const right = node.childForFieldName("right");
    if (right && unwrap(right).type === "object") return unwrap(right);
  }
  return undefined;
}

/** Reads what a file of a Sails app says: routes, settings, models, actions. */
export function sailsFacts(c: Collector): void {
  const path = c.facts.path;
  const config = CONFIG.exec(path);
  if (config?.[2] === "routes") {
    const routes = exported(c, "routes");
    if (!routes) return;
    c.facts.sails = { app: config[1]!, kind: "app" };
    for (const part of namedChildren(routes)) {
      if (part.type !== "pair") continue;
      const key = stringValue(part.childForFieldName("key")!);
      const address = key ? ADDRESS.exec(key.trim()) : null;
      if (!address) continue; // `r|^/\d+$|` regular expressions and the like
      const verb = address[1]?.toUpperCase();
      if (verb && verb !== "ALL" && !HTTP_METHODS.has(verb)) continue;
      if (c.facts.routes.length >= MAX_ROUTES) break;
      c.facts.routes.push({
        ...c.site(part, part.childForFieldName("value") ?? part),
        methods: [verb && verb !== "ALL" ? verb : "ANY"],
        path: literal(address[2]!),
        framework: "sails",
        extra: {},
      });
    }
    return;
  }
  if (config?.[2] === "blueprints") {
    const settings = exported(c, "blueprints");
    if (!settings) return;
    const flag = (key: string): boolean | undefined => {
      for (const part of namedChildren(settings)) {
        if (memberKey(part) !== key || part.type !== "pair") continue;
        const value = part.childForFieldName("value")?.type;
        return value === "true" ? true : value === "false" ? false : undefined;
      }
      return undefined;
    };
    const text = (key: string): string | undefined => {
      for (const part of namedChildren(settings)) {
        if (memberKey(part) !== key || part.type !== "pair") continue;
        const value = part.childForFieldName("value");
        return value ? stringValue(unwrap(value)) : undefined;
      }
      return undefined;
    };
    c.facts.sails = {
      app: config[1]!,
      kind: "blueprints",
      rest: flag("rest"),
      actions: flag("actions"),
      prefix: text("prefix"),
      restPrefix: text("restPrefix"),
    };
    return;
  }
  const model = MODEL.exec(path);
  if (model) {
    const object = moduleObject(c);
    if (!object) return;
    c.facts.sails = {
      app: model[1]!,
      kind: "model",
      identity: model[2]!.toLowerCase(),
      site: c.site(object),
    };
    return;
  }
  const controller = CONTROLLER.exec(path);
  if (!controller) return;
  const object = moduleObject(c);
  if (!object) return;
  const name = controller[2]!;
  const classic = /(?:^|\/)([^/]+)Controller$/.exec(name);
  const actions: Array<{ path: string; site: Site }> = [];
  if (classic) {
    // api/controllers/UserController.js: each function is user/<name>
    const base = name.slice(0, name.length - "Controller".length).toLowerCase();
    for (const part of namedChildren(object)) {
      const key = memberKey(part) ??
        (part.type === "method_definition"
          ? part.childForFieldName("name")?.text
          : undefined);
      if (!key || key.startsWith("_")) continue;
      const value = part.type === "pair"
        ? unwrap(part.childForFieldName("value")!)
        : part;
      if (!/function|arrow_function|method_definition/.test(value.type)) {
        continue;
      }
      actions.push({
        path: `/${base}/${key.toLowerCase()}`,
        site: c.site(part),
      });
    }
  } else if (
    namedChildren(object).some((part) => memberKey(part) === "fn")
  ) {
    // an actions2 file: api/controllers/user/find-one.js is user/find-one
    actions.push({ path: `/${name.toLowerCase()}`, site: c.site(object) });
  }
  if (actions.length > 0) {
    c.facts.sails = {
      app: controller[1]!,
      kind: "actions",
      actionRoutes: actions,
    };
  }
}

/** The file and route of each blueprint route of a project's Sails apps. */
export function sailsBlueprints(
  files: Iterable<JsFacts>,
): Array<[JsFacts, RouteRec]> {
  const apps = new Map<string, SailsFacts[]>();
  const byFacts = new Map<SailsFacts, JsFacts>();
  for (const file of files) {
    if (!file.sails) continue;
    let list = apps.get(file.sails.app);
    if (!list) apps.set(file.sails.app, list = []);
    list.push(file.sails);
    byFacts.set(file.sails, file);
  }
  const out: Array<[JsFacts, RouteRec]> = [];
  for (const facts of apps.values()) {
    // an app is one with a `config/routes.js` of Sails routes
    if (!facts.some((f) => f.kind === "app")) continue;
    const settings = facts.find((f) => f.kind === "blueprints");
    const prefix = trim(settings?.prefix);
    const rest = prefix + trim(settings?.restPrefix);
    for (const f of facts) {
      const file = byFacts.get(f)!;
      const route = (methods: string[], path: string, site: Site) =>
        out.push([file, {
          ...site,
          methods,
          path: literal(path),
          framework: "sails",
          composed: true,
          extra: { blueprint: f.kind === "model" ? "rest" : "action" },
        }]);
      if (f.kind === "model" && settings?.rest !== false) {
        const base = `${rest}/${f.identity}`;
        route(["GET", "POST"], base, f.site!);
        route(["GET", "PATCH", "DELETE"], `${base}/:id`, f.site!);
      }
      if (f.kind === "actions" && settings?.actions === true) {
        for (const action of f.actionRoutes ?? []) {
          route(["ANY"], prefix + action.path, action.site);
        }
      }
    }
  }
  return out;
}

/** A blueprint prefix without its trailing slash (`""` for none). */
function trim(prefix: string | undefined): string {
  if (!prefix) return "";
  const clean = prefix.replace(/\/+$/, "");
  return clean.startsWith("/") ? clean : `/${clean}`;
}
