// Server routes of a JavaScript/TypeScript project: each route under every
// prefix its router gets through mounts (`app.use("/api", router)`, Hono
// `route`, fastify `register(plugin, { prefix })`, plugin functions given a
// router), across files, and the NestJS global prefix.
import type { ExtractDiagnostic } from "../extractor.ts";
import type { ExtractedPort } from "../types.ts";
import {
  composed,
  concat,
  CONFIDENCE,
  fillHoles,
  isEmpty,
  joinPaths,
  literal,
  mapText,
  routePath,
  textOf,
  type Value,
} from "../_value/mod.ts";
import type { JsFacts, NestVersioning, RouteRec } from "./facts.ts";
import type { JsProject } from "./project.ts";
import { jsPort } from "./emit.ts";
import { guardDetail, hasGuard } from "./guarded.ts";
import { resolveGuard } from "./guard_refs.ts";
import { autoloadMounts } from "./autoload.ts";

/** A prefix a router is mounted under. */
interface Prefix {
  /** The joined prefix; `composed` when a prefix or constant went into it. */
  value: Value;
  /** Framework of the router at the root of the mount chain. */
  framework: string;
  /** A plugin function's parameters (by position) its caller passed. */
  bound?: ReadonlyMap<string, Value>;
}

interface Mount {
  parent: string;
  prefix: Value;
  file: JsFacts;
  args?: Array<Value | undefined>;
}

/** The value with its `parameter` holes given by a plugin's caller. */
function bind(
  value: Value,
  bound: ReadonlyMap<string, Value> | undefined,
): Value {
  return bound ? fillHoles(value, "parameter", (n) => bound.get(n)) : value;
}

const ORIGIN = /^[a-z][a-z0-9+.-]*:\/\/[^/?#]*/i;

/** Drops a scheme and host written in a prefix (`http://h/api` → `/api`). */
function pathOnly(value: Value): Value {
  const head = value.parts[0];
  return typeof head === "string" && ORIGIN.test(head)
    ? mapText(value, (text) => text.replace(ORIGIN, ""))
    : value;
}

/** Server frameworks a plugin's file may import, by module. */
const SERVER_MODULES: Readonly<Record<string, string>> = {
  express: "express",
  koa: "koa",
  "@koa/router": "koa",
  "koa-router": "koa",
  fastify: "fastify",
  hono: "hono",
  restify: "restify",
};

/**
 * The framework of an exported plugin function (`module.exports =
 * function (app) { app.get(...) }`) whose file imports a server framework,
 * for one no file of the project mounts.
 */
function unmountedPlugin(file: JsFacts, local: string): string | undefined {
  if (![...file.exports.values()].includes(local)) return undefined;
  for (const binding of file.imports.values()) {
    const framework = SERVER_MODULES[binding.source];
    if (framework) return framework;
  }
  return undefined;
}

/** The server ports of a project's routes. */
/** The most prefixes one router gets through its mounts. */
const MAX_PREFIXES = 1_000;

export class Servers {
  readonly #project: JsProject;
  readonly #diagnostics: ExtractDiagnostic[];
  /** child router gid -> mounts */
  readonly #mounts = new Map<string, Mount[]>();
  #globalPrefix: Value | undefined;
  #globalExclude: Array<{ path: string; method: string }> = [];
  #versioning: NestVersioning | undefined;
  #bootstrap = false;

  constructor(project: JsProject, diagnostics: ExtractDiagnostic[]) {
    this.#project = project;
    this.#diagnostics = diagnostics;
    for (const file of project.files) {
      for (const mount of file.mounts) {
        const child = project.target(file, mount.child, mount.kind);
        if (!child) continue;
        let list = this.#mounts.get(child);
        if (!list) this.#mounts.set(child, list = []);
        list.push({
          parent: `${file.path}#${mount.parent}`,
          prefix: mount.prefix,
          file,
          ...(mount.args ? { args: mount.args } : {}),
        });
      }
      for (const load of autoloadMounts(file, project.files)) {
        const child = `${load.child.path}#${load.local}`;
        let list = this.#mounts.get(child);
        if (!list) this.#mounts.set(child, list = []);
        list.push({
          parent: `${file.path}#${load.parent}`,
          prefix: load.prefix,
          file: load.child,
        });
      }
      if (file.globalPrefix && !this.#globalPrefix) {
        this.#globalPrefix = composed(
          pathOnly(project.resolve(file, file.globalPrefix)),
        );
        this.#globalExclude = file.globalPrefixExclude ?? [];
      }
      this.#versioning ??= file.nestVersioning;
      this.#bootstrap ||= !!file.nestBootstrap;
    }
  }

  /** Prefixes computed without cutting a mount cycle, by router. */
  readonly #known = new Map<string, Prefix[]>();
  /** Whether the computation under way cut a mount cycle. */
  #cutCycle = false;
  /** Whether some router's prefixes were cut to `MAX_PREFIXES` (warned once). */
  #cutPrefixes = false;

  /**
   * The prefixes of a router (by global id), through its mounts: memoized,
   * and at most `MAX_PREFIXES`, so that a router mounted twice on each of
   * 22 levels costs 44 steps, not 2^22.
   */
  #prefixes(gid: string, seen: Set<string>): Prefix[] {
    const known = this.#known.get(gid);
    if (known) return known;
    const outer = this.#cutCycle;
    this.#cutCycle = false;
    const prefixes = this.#computePrefixes(gid, seen);
    if (!this.#cutCycle) this.#known.set(gid, prefixes);
    this.#cutCycle ||= outer;
    return prefixes;
  }

  #computePrefixes(gid: string, seen: Set<string>): Prefix[] {
    const hash = gid.indexOf("#");
    const file = this.#project.file(gid.slice(0, hash))!;
    const local = gid.slice(hash + 1);
    const router = file.routers.get(local);
    const own = this.#project.resolve(file, router?.prefix ?? literal(""));
    const ownPath = pathOnly(own);
    const mounts = this.#mounts.get(gid);
    if (seen.has(gid) && mounts && mounts.length > 0) this.#cutCycle = true;
    if (!mounts || mounts.length === 0 || seen.has(gid)) {
      if (local.startsWith("fn:")) {
        // a plugin nothing in the project mounts: exported, it is mounted
        // where the project is used, under a prefix unknown here
        const framework = unmountedPlugin(file, local);
        return framework ? [{ value: composed(literal("")), framework }] : [];
      }
      return [{
        value: isEmpty(ownPath) ? ownPath : composed(ownPath),
        framework: router?.framework ?? "",
      }];
    }
    seen.add(gid);
    const out: Prefix[] = [];
    for (const mount of mounts) {
      for (const parent of this.#prefixes(mount.parent, seen)) {
        if (out.length === MAX_PREFIXES) {
          if (!this.#cutPrefixes) {
            this.#cutPrefixes = true;
            this.#diagnostics.push({
              filePath: file.path,
              severity: "warning",
              message:
                `Cannot follow every mount of router "${local}": it is reached through more than ${MAX_PREFIXES} mount paths; the first ${MAX_PREFIXES} are used`,
            });
          }
          break;
        }
        const resolve = (v: Value) =>
          this.#project.resolve(mount.file, bind(v, parent.bound));
        const mounted = resolve(mount.prefix);
        const mountPath = pathOnly(mounted);
        let value = joinPaths(parent.value, mountPath, ownPath);
        if (textOf(value) === "/") value = literal("");
        const prefixed = parent.value.composed || !isEmpty(mountPath) ||
          !isEmpty(ownPath) || mounted.composed;
        const bound = new Map<string, Value>();
        mount.args?.forEach((arg, i) => {
          if (arg) bound.set(String(i), resolve(arg));
        });
        out.push({
          value: prefixed ? composed(value) : value,
          framework: parent.framework,
          ...(bound.size > 0 ? { bound } : {}),
        });
      }
    }
    seen.delete(gid);
    return out;
  }

  /** Adds the ports of one route. */
  routePorts(file: JsFacts, route: RouteRec, out: ExtractedPort[]): void {
    const guard = route.guard &&
      resolveGuard(this.#project, file, route.guard);
    if (route.onlyGuarded && (!guard || !hasGuard(guard))) return;
    const extra = guard
      ? { ...route.extra, ...guardDetail(guard) }
      : route.extra;
    const prefixes: Prefix[] = route.router !== undefined
      ? this.#prefixes(`${file.path}#${route.router}`, new Set())
      : [{ value: literal(""), framework: route.framework }];
    for (const prefix of prefixes) {
      let local = pathOnly(
        this.#project.resolve(file, bind(route.path, prefix.bound)),
      );
      if (route.prefix) {
        const own = pathOnly(this.#project.resolve(file, route.prefix));
        const joined = joinPaths(own, local);
        local = isEmpty(own) ? joined : composed(joined);
      }
      const text = textOf(local);
      if (text !== "" && !text.startsWith("/")) {
        if (!route.nest) continue;
        local = concat([literal("/"), local]);
      }
      for (const method of route.methods) {
        for (const head of this.#nestHeads(route, textOf(local), method)) {
          const path = routePath(
            joinPaths(prefix.value, head, local),
            prefix.value.composed || !!route.composed || !isEmpty(head),
          );
          const port = jsPort(file.path, route, {
            role: "server",
            method,
            path: path.path,
            confidence: route.weakMethod ? CONFIDENCE.weak : path.confidence,
            framework: route.framework === "plugin"
              ? prefix.framework
              : route.framework,
            extra,
          }, this.#diagnostics);
          if (port) out.push(port);
        }
      }
    }
  }

  /**
   * What NestJS puts before a route's controller path: the global prefix
   * (unless `exclude` names the route) and, with URI versioning, one
   * `/v<version>` per version. URI versioning applies when the project
   * enables it, or when its bootstrap (`NestFactory.create`) is not in the
   * project at all and the route names versions.
   */
  #nestHeads(route: RouteRec, path: string, method: string): Value[] {
    if (!route.nest) return [literal("")];
    const bare = path.replace(/^\/+|\/+$/g, "");
    const excluded = this.#globalExclude.some((e) =>
      (e.method === "ANY" || e.method === method) &&
      (e.path === bare ||
        (/\(\.\*\)$|\*$/.test(e.path) &&
          bare.startsWith(e.path.replace(/\/?(\(\.\*\)|\*)$/, ""))))
    );
    const global = excluded || !this.#globalPrefix
      ? literal("")
      : this.#globalPrefix;
    const versioning = this.#versioning ??
      (this.#bootstrap ? undefined : { uri: true, prefix: "v" });
    const versions = route.versions ?? versioning?.defaults;
    if (!versioning?.uri || !versions || versions.length === 0) {
      return [global];
    }
    return versions.map((v) =>
      v === ""
        ? global
        : joinPaths(global, literal(`/${versioning.prefix}${v}`))
    );
  }
}
