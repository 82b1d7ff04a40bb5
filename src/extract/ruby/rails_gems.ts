// Routes that Rails gems draw from one call in `config/routes.rb`: Devise's
// `devise_for :users` and Doorkeeper's `use_doorkeeper`.
import type { Node } from "web-tree-sitter";
import { CONFIDENCE, exactText, literal, type Value } from "../_value/mod.ts";
import {
  blockBody,
  camelize,
  option,
  PLURAL_ACTIONS,
  positional,
  type RouteContext,
  type RubyFile,
  symbolList,
  symbolName,
} from "./project.ts";
import { optionNames } from "./options.ts";

/** A route a gem draws: method and path below the gem's base path. */
type GemRoute = readonly [string, string];

/** The routes a gem draws at one call, under `base`. */
function emitGemRoutes(
  c: RubyFile,
  call: Node,
  base: readonly Value[],
  routes: readonly GemRoute[],
  options: { confidence?: number; extra: Record<string, string> },
): void {
  for (const [verb, path] of routes) {
    c.emitServer(
      call,
      [verb],
      [...base, literal(path)],
      "rails",
      true,
      options,
    );
  }
}

/** Devise's route modules: the controller name (for `skip:`/`only:`) and routes. */
function deviseModules(
  names: (key: string, fallback: string) => string,
  signOutVia: readonly string[],
): Record<string, { controller: string; routes: GemRoute[] }> {
  const signIn = names("sign_in", "sign_in");
  const password = names("password", "password");
  const registration = names("registration", "");
  const sub = (path: string, rest: string) =>
    [path, rest].filter((p) => p !== "").join("/");
  const resource = (path: string, actions: string[]): GemRoute[] =>
    actions.flatMap((a): GemRoute[] =>
      a === "new"
        ? [["GET", sub(path, names("new", "new"))]]
        : a === "edit"
        ? [["GET", sub(path, names("edit", "edit"))]]
        : a === "update"
        ? [["PATCH", path], ["PUT", path]]
        : a === "create"
        ? [["POST", path]]
        : a === "destroy"
        ? [["DELETE", path]]
        : [["GET", path]]
    );
  const confirmation = names("confirmation", "confirmation");
  const unlock = names("unlock", "unlock");
  return {
    database_authenticatable: {
      controller: "sessions",
      routes: [
        ["GET", signIn],
        ["POST", signIn],
        ...signOutVia.map((v): GemRoute => [v, names("sign_out", "sign_out")]),
      ],
    },
    recoverable: {
      controller: "passwords",
      routes: resource(password, ["new", "create", "edit", "update"]),
    },
    registerable: {
      controller: "registrations",
      routes: [
        ["GET", sub(registration, names("cancel", "cancel"))],
        ["GET", sub(registration, names("sign_up", "sign_up"))],
        ...resource(registration, ["create", "edit", "update", "destroy"]),
      ],
    },
    confirmable: {
      controller: "confirmations",
      routes: resource(confirmation, ["new", "create", "show"]),
    },
    lockable: {
      controller: "unlocks",
      routes: resource(unlock, ["new", "create", "show"]),
    },
    omniauthable: {
      controller: "omniauth_callbacks",
      routes: [
        ["GET", "auth/:provider"],
        ["POST", "auth/:provider"],
        ["GET", "auth/:provider/callback"],
        ["POST", "auth/:provider/callback"],
      ],
    },
  };
}

/**
 * The modules `rails generate devise User` writes into the model, assumed
 * when the model is not in the scan.
 */
const DEVISE_GENERATOR_MODULES: readonly string[] = [
  "database_authenticatable",
  "registerable",
  "recoverable",
];

/** `User` for `:users`, `AdminUser` for `:admin_users`. */
export function modelClassName(resource: string): string {
  const singular = resource.endsWith("ies")
    ? `${resource.slice(0, -3)}y`
    : resource.endsWith("s")
    ? resource.slice(0, -1)
    : resource;
  return camelize(singular);
}

/** A `key: value` hash option's string values (`path_names: { sign_in: "login" }`). */
function hashStrings(c: RubyFile, node: Node | undefined): Map<string, string> {
  const out = new Map<string, string>();
  if (node?.type !== "hash") return out;
  for (const pair of node.namedChildren) {
    if (pair?.type !== "pair") continue;
    const key = pair.childForFieldName("key");
    const value = exactText(c.evaluate(pair.childForFieldName("value")));
    const name = key?.type === "hash_key_symbol"
      ? key.text
      : key
      ? symbolName(key) ?? exactText(c.evaluate(key))
      : undefined;
    if (name !== undefined && value !== undefined) out.set(name, value);
  }
  return out;
}

/**
 * `devise_for :users` (Devise): the session, password, registration,
 * confirmation, unlock and OmniAuth routes of the modules the model
 * enables (`devise :database_authenticatable, ...` in `class User`; the
 * generator's modules when the model is not in the scan, at a lower
 * confidence), under `path:` or the resource name, with `path_names:`,
 * `only:`, `skip:` and `sign_out_via:`.
 */
export function deviseFor(
  c: RubyFile,
  call: Node,
  ctx: RouteContext,
): void {
  const skip = optionNames(call, "skip");
  if (skip.includes("all")) return;
  const onlyNode = option(call, "only");
  const only = symbolList(onlyNode);
  const pathNames = hashStrings(c, option(call, "path_names"));
  const via = optionNames(call, "sign_out_via").map((v) => v.toUpperCase());
  const modules = deviseModules(
    (key, fallback) => pathNames.get(key) ?? fallback,
    via.length > 0 ? via : ["DELETE"],
  );
  const pathOption = option(call, "path");
  for (const first of positional(call)) {
    const resource = symbolName(first) ?? exactText(c.evaluate(first));
    if (!resource) continue;
    const known = c.rails?.deviseModels.get(
      exactText(c.evaluate(option(call, "class_name"))) ??
        modelClassName(resource),
    );
    const base: Value = pathOption ? c.evaluate(pathOption) : literal(resource);
    for (const name of known ?? DEVISE_GENERATOR_MODULES) {
      const module = modules[name];
      if (!module || skip.includes(module.controller)) continue;
      if (onlyNode && !only.includes(module.controller)) continue;
      emitGemRoutes(c, call, [...ctx.prefix, base], module.routes, {
        confidence: known ? CONFIDENCE.composed : CONFIDENCE.weak,
        extra: { gem: "devise" },
      });
    }
  }
}

/** Doorkeeper's route groups: the controller name and routes. */
const DOORKEEPER_ROUTES: ReadonlyArray<
  { controller: string; routes: GemRoute[] }
> = [
  {
    controller: "authorizations",
    routes: [
      ["GET", "authorize"],
      ["GET", "authorize/native"],
      ["POST", "authorize"],
      ["DELETE", "authorize"],
    ],
  },
  {
    controller: "tokens",
    routes: [["POST", "token"], ["POST", "revoke"], ["POST", "introspect"]],
  },
  {
    controller: "applications",
    routes: PLURAL_ACTIONS.map(([, verb, suffix]): GemRoute => [
      verb,
      `applications${suffix}`,
    ]),
  },
  {
    controller: "authorized_applications",
    routes: [
      ["GET", "authorized_applications"],
      ["DELETE", "authorized_applications/:id"],
    ],
  },
  { controller: "token_info", routes: [["GET", "token/info"]] },
];

/**
 * `use_doorkeeper` (Doorkeeper's OAuth 2 provider): the authorization,
 * token, revoke, introspect, token info and application routes under
 * `scope:` (default `oauth`), less those of `skip_controllers` in its
 * block.
 */
export function useDoorkeeper(
  c: RubyFile,
  call: Node,
  ctx: RouteContext,
): void {
  const scope = option(call, "scope");
  const base = scope ? c.evaluate(scope) : literal("oauth");
  const skipped = new Set<string>();
  for (const stmt of blockBody(call)) {
    if (
      stmt.type === "call" &&
      stmt.childForFieldName("method")?.text === "skip_controllers"
    ) {
      for (const a of positional(stmt)) {
        for (const name of symbolList(a)) skipped.add(name);
      }
    }
  }
  for (const group of DOORKEEPER_ROUTES) {
    if (skipped.has(group.controller)) continue;
    emitGemRoutes(c, call, [...ctx.prefix, base], group.routes, {
      extra: { gem: "doorkeeper" },
    });
  }
}
