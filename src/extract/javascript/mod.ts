// The JavaScript / TypeScript extractor: HTTP servers (Express, Koa,
// Fastify, Hono, NestJS, Next.js, URLPattern and Bun.serve routes, this
// library's guarded routes) and HTTP clients (fetch, axios, ky, generated
// clients). Parses each file once, keeps plain facts, then composes router
// prefixes, client base URLs and constants across the files of a root.
import type {
  ExtractDiagnostic,
  ExtractResult,
  LanguageExtractor,
  SourceFile,
} from "../extractor.ts";
import type { GrammarName } from "../_syntax/parser.ts";
import { parseSource } from "../_syntax/parser.ts";
import {
  type ChildRef,
  type ClientRec,
  collectFacts,
  type HelperCall,
  type JsFacts,
  type RouteRec,
  type Site,
} from "./collect.ts";
import { type Hole, joinPaths, renderPath, type Val } from "./values.ts";
import { parseDiagnostic } from "../_syntax/tree.ts";
import type { ExtractedPort } from "../types.ts";
import { httpBoundaryKey } from "../../boundary/http_path.ts";

const EXTENSIONS: Readonly<Record<string, GrammarName>> = {
  ".js": "javascript",
  ".jsx": "javascript",
  ".mjs": "javascript",
  ".cjs": "javascript",
  ".ts": "typescript",
  ".mts": "typescript",
  ".cts": "typescript",
  ".tsx": "tsx",
};

/** The grammar for a JavaScript / TypeScript path, if it is one. */
export function jsGrammarOf(path: string): GrammarName | undefined {
  if (/\.d\.[cm]?ts$/.test(path)) return undefined;
  const dot = path.lastIndexOf(".");
  return dot === -1 ? undefined : EXTENSIONS[path.slice(dot)];
}

/**
 * Extracts HTTP ports from JavaScript and TypeScript: servers (Express,
 * Koa, Fastify, Hono, NestJS, Next.js routes, URLPattern and `Bun.serve`
 * routes, `guard.requirePermission(...)` handlers) and clients (fetch,
 * axios, ky, generated clients passing `{ url, method }`).
 *
 * @example
 * ```ts
 * import { javascriptExtractor } from "@portcullis/portcullis/extract";
 * import assert from "node:assert/strict";
 *
 * const { ports } = await javascriptExtractor.extract([{
 *   path: "server.ts",
 *   text: 'import express from "express";\n' +
 *     "const app = express();\n" +
 *     'app.get("/users/:id", (req, res) => res.json({}));\n',
 * }]);
 * assert.equal(ports[0]?.ref.key, "GET /users/{}");
 * ```
 */
export const javascriptExtractor: LanguageExtractor = {
  name: "javascript",
  accepts(path: string): boolean {
    return jsGrammarOf(path) !== undefined;
  },
  async extract(files: readonly SourceFile[]): Promise<ExtractResult> {
    const diagnostics: ExtractDiagnostic[] = [];
    const facts: JsFacts[] = [];
    for (const file of files) {
      const grammar = jsGrammarOf(file.path);
      if (!grammar) continue;
      let tree;
      try {
        tree = await parseSource(grammar, file.text);
      } catch (error) {
        diagnostics.push({
          filePath: file.path,
          severity: "error",
          message: `Cannot parse: ${(error as Error).message}`,
        });
        continue;
      }
      try {
        const problem = parseDiagnostic(tree.rootNode, file.path);
        if (problem) diagnostics.push(problem);
        facts.push(collectFacts(tree.rootNode, file.path, grammar));
      } finally {
        tree.delete();
      }
    }
    const ports = new Composer(facts, diagnostics).ports();
    return { ports, diagnostics };
  },
};

interface Prefix {
  path: string;
  /** Framework of the router at the root of the mount chain. */
  framework: string;
  composed: boolean;
  holes: boolean;
}

interface Resolution {
  pieces: Array<string | Hole>;
  composed: boolean;
}

const MAX_DEPTH = 12;

/** The cross-file pass: imports, constants, mounts, instances. */
class Composer {
  #files = new Map<string, JsFacts>();
  #diagnostics: ExtractDiagnostic[];
  /** child router gid -> mounts */
  #mounts = new Map<
    string,
    Array<{ parent: string; prefix: Val; file: JsFacts; kind: string }>
  >();
  #globalPrefix: Prefix | undefined;

  constructor(facts: JsFacts[], diagnostics: ExtractDiagnostic[]) {
    for (const f of facts) this.#files.set(f.path, f);
    this.#diagnostics = diagnostics;
    for (const file of facts) {
      for (const mount of file.mounts) {
        const child = this.#target(file, mount.child, mount.kind);
        if (!child) continue;
        let list = this.#mounts.get(child);
        if (!list) this.#mounts.set(child, list = []);
        list.push({
          parent: `${file.path}#${mount.parent}`,
          prefix: mount.prefix,
          file,
          kind: mount.kind,
        });
      }
      if (file.globalPrefix && !this.#globalPrefix) {
        const r = this.#resolve(file, file.globalPrefix);
        const rendered = renderPieces(r.pieces);
        this.#globalPrefix = {
          path: rendered.path,
          framework: "nestjs",
          composed: true,
          holes: rendered.holes,
        };
      }
    }
  }

  ports(): ExtractedPort[] {
    const out: ExtractedPort[] = [];
    for (const file of this.#files.values()) {
      for (const route of file.routes) this.#routePorts(file, route, out);
      for (const client of file.clients) this.#clientPort(file, client, out);
      for (const call of file.helperCalls) this.#helperPorts(file, call, out);
    }
    return out;
  }

  // ---- module resolution --------------------------------------------

  #module(from: string, source: string): JsFacts | undefined {
    if (!source.startsWith("./") && !source.startsWith("../")) return undefined;
    const dir = from.includes("/") ? from.slice(0, from.lastIndexOf("/")) : "";
    const parts = dir ? dir.split("/") : [];
    for (const segment of source.split("/")) {
      if (segment === "." || segment === "") continue;
      if (segment === "..") parts.pop();
      else parts.push(segment);
    }
    const base = parts.join("/");
    const stem = base.replace(/\.(?:[cm]?js|jsx)$/, "");
    for (
      const candidate of [
        base,
        `${stem}.ts`,
        `${stem}.tsx`,
        `${stem}.js`,
        `${stem}.mjs`,
        `${stem}.cjs`,
        `${stem}.jsx`,
        `${base}/index.ts`,
        `${base}/index.js`,
        `${base}/index.tsx`,
        `${base}/index.mjs`,
      ]
    ) {
      const file = this.#files.get(candidate);
      if (file) return file;
    }
    return undefined;
  }

  /** The global id of a mounted router or plugin function. */
  #target(file: JsFacts, child: ChildRef, kind: string): string | undefined {
    if ("local" in child) {
      return this.#localTarget(file, child.local, kind);
    }
    const module = this.#module(file.path, child.import.source);
    if (!module) return undefined;
    const local = module.exports.get(child.import.name);
    if (!local) return undefined;
    return this.#localTarget(module, local, kind);
  }

  #localTarget(
    file: JsFacts,
    local: string,
    kind: string,
  ): string | undefined {
    if (local.startsWith("fn:")) {
      return kind === "plugin" ? `${file.path}#${local}` : undefined;
    }
    if (file.routers.has(local)) return `${file.path}#${local}`;
    // a plain function exported by name and used as a plugin
    if (kind === "plugin") return `${file.path}#fn:${local}`;
    return undefined;
  }

  /** A client instance (its base URL) through local or imported names. */
  #instance(
    file: JsFacts,
    via: ChildRef,
  ): { file: JsFacts; base: Val; framework: string } | undefined {
    if ("local" in via) {
      const instance = file.instances.get(via.local);
      return instance &&
        { file, base: instance.base, framework: instance.framework };
    }
    const module = this.#module(file.path, via.import.source);
    if (!module) return undefined;
    const local = module.exports.get(via.import.name);
    const instance = local ? module.instances.get(local) : undefined;
    return instance &&
      { file: module, base: instance.base, framework: instance.framework };
  }

  // ---- constants -----------------------------------------------------

  #resolve(file: JsFacts, val: Val, depth = 0): Resolution {
    const pieces: Array<string | Hole> = [];
    let composed = false;
    for (const piece of val) {
      if (typeof piece === "string") pieces.push(piece);
      else if ("hole" in piece) pieces.push(piece);
      else {
        const found = this.#lookup(file, piece.ref, depth);
        if (found) {
          pieces.push(...found.pieces);
          composed = true;
          if (found.composed) composed = true;
        } else pieces.push({ hole: piece.ref });
      }
    }
    return { pieces, composed };
  }

  #lookup(file: JsFacts, ref: string, depth: number): Resolution | undefined {
    if (depth > MAX_DEPTH) return undefined;
    // CommonJS: `exports.X` inside the module that sets it
    if (ref.startsWith("exports.")) ref = `module.${ref}`;
    const own = file.consts.get(ref);
    if (own) return this.#resolve(file, own, depth + 1);
    if (own === null) return undefined;
    const dot = ref.indexOf(".");
    const head = dot === -1 ? ref : ref.slice(0, dot);
    const rest = dot === -1 ? "" : ref.slice(dot);
    const binding = file.imports.get(head);
    if (!binding) return undefined;
    const module = this.#module(file.path, binding.source);
    if (!module) return undefined;
    if (binding.name === "*") {
      // import * as config from "../config"; config.PREFIX
      if (!rest) return undefined;
      const name = rest.slice(1);
      const local = module.exports.get(name.split(".")[0]!);
      if (!local) return undefined;
      return this.#lookup(
        module,
        local + name.slice(name.split(".")[0]!.length),
        depth + 1,
      );
    }
    const local = module.exports.get(binding.name);
    if (!local || local.startsWith("fn:")) return undefined;
    return this.#lookup(module, local + rest, depth + 1);
  }

  // ---- servers -------------------------------------------------------

  #prefixes(gid: string, seen: Set<string>): Prefix[] {
    const hash = gid.indexOf("#");
    const file = this.#files.get(gid.slice(0, hash))!;
    const local = gid.slice(hash + 1);
    const own = file.routers.get(local)?.prefix ?? [];
    const ownResolved = this.#resolve(file, own);
    const ownRendered = renderPieces(ownResolved.pieces);
    const mounts = this.#mounts.get(gid);
    if (!mounts || mounts.length === 0 || seen.has(gid)) {
      if (local.startsWith("fn:")) return [];
      return [{
        path: ownRendered.path,
        framework: file.routers.get(local)?.framework ?? "",
        composed: ownRendered.path !== "" || ownResolved.composed,
        holes: ownRendered.holes,
      }];
    }
    seen.add(gid);
    const out: Prefix[] = [];
    for (const mount of mounts) {
      const mountResolved = this.#resolve(mount.file, mount.prefix);
      const mountRendered = renderPieces(mountResolved.pieces);
      for (const parent of this.#prefixes(mount.parent, seen)) {
        const path = joinPaths(
          joinPaths(parent.path, mountRendered.path),
          ownRendered.path,
        );
        out.push({
          path: path === "/" ? "" : path,
          framework: parent.framework,
          composed: parent.composed || mountRendered.path !== "" ||
            ownRendered.path !== "" || mountResolved.composed,
          holes: parent.holes || mountRendered.holes || ownRendered.holes,
        });
      }
    }
    seen.delete(gid);
    return out;
  }

  #routePorts(file: JsFacts, route: RouteRec, out: ExtractedPort[]): void {
    let prefixes: Prefix[];
    if (route.router !== undefined) {
      prefixes = this.#prefixes(`${file.path}#${route.router}`, new Set());
    } else {
      prefixes = [{
        path: "",
        framework: route.framework,
        composed: false,
        holes: false,
      }];
    }
    if (route.nest && this.#globalPrefix) {
      const global = this.#globalPrefix;
      prefixes = prefixes.map((p) => ({
        ...p,
        path: joinPaths(global.path, p.path),
        composed: true,
        holes: p.holes || global.holes,
      }));
    }
    let local = this.#resolve(file, route.path);
    if (route.prefix) {
      const prefix = this.#resolve(file, route.prefix);
      const renderedPrefix = renderPieces(prefix.pieces);
      const renderedPath = renderPieces(local.pieces);
      local = {
        pieces: [joinPaths(renderedPrefix.path, renderedPath.path)],
        composed: local.composed || prefix.composed ||
          renderedPrefix.path !== "",
      };
      if (renderedPrefix.holes || renderedPath.holes) {
        local.pieces.push({ hole: "" });
      }
    }
    const rendered = renderPieces(local.pieces);
    const routePath = rendered.path.startsWith("/") || rendered.path === ""
      ? rendered.path
      : route.nest
      ? `/${rendered.path}`
      : undefined;
    if (routePath === undefined) return;
    for (const prefix of prefixes) {
      const path = joinPaths(prefix.path, routePath);
      const holes = rendered.holes || prefix.holes;
      const composed = local.composed || prefix.composed || !!route.composed;
      for (const method of route.methods) {
        const confidence = confidenceOf(route.weakMethod, holes, composed);
        const port = this.#port(file, route, "server", method, path, {
          confidence,
          framework: route.framework === "plugin"
            ? prefix.framework
            : route.framework,
        });
        if (port) out.push(port);
      }
    }
  }

  // ---- clients -------------------------------------------------------

  #clientPort(file: JsFacts, client: ClientRec, out: ExtractedPort[]): void {
    const url = this.#resolve(file, client.url);
    let framework = client.framework;
    let base: Resolution | undefined;
    if (client.via) {
      const instance = this.#instance(file, client.via);
      if (instance) {
        framework = instance.framework;
        base = this.#resolve(instance.file, instance.base);
      } else if (!client.viaOptional) return; // not an HTTP client after all
    }
    this.#emitClient(
      file,
      client,
      url,
      base,
      client.method,
      framework,
      {},
      out,
    );
  }

  /** Calls of client helpers: `api("/users")` with `api` wrapping fetch. */
  #helperPorts(file: JsFacts, call: HelperCall, out: ExtractedPort[]): void {
    let module: JsFacts | undefined = file;
    let local: string | undefined;
    if ("local" in call.callee) local = call.callee.local;
    else {
      module = this.#module(file.path, call.callee.import.source);
      local = module?.exports.get(call.callee.import.name);
    }
    if (!module || !local) return;
    const name = local.startsWith("fn:") ? local.slice(3) : local;
    const helper = module.helpers.get(name);
    if (!helper) return;
    const arg = call.args[helper.param];
    if (!arg) return;
    const before = this.#resolve(module, helper.before);
    const middle = this.#resolve(file, arg);
    const after = this.#resolve(module, helper.after);
    const url: Resolution = {
      pieces: [...before.pieces, ...middle.pieces, ...after.pieces],
      composed: true,
    };
    let method = helper.method;
    if (helper.methodParam !== undefined) {
      const option = call.argMethods[helper.methodParam];
      method = helper.methodParam >= call.args.length
        ? "GET"
        : option === null
        ? undefined
        : option;
    }
    let framework = helper.framework;
    let base: Resolution | undefined;
    if (helper.via) {
      const instance = this.#instance(module, helper.via);
      if (!instance) return;
      framework = instance.framework;
      base = this.#resolve(instance.file, instance.base);
    }
    this.#emitClient(file, call, url, base, method, framework, {
      helper: name,
    }, out);
  }

  #emitClient(
    file: JsFacts,
    site: Site,
    url: Resolution,
    base: Resolution | undefined,
    clientMethod: string | undefined,
    framework: string,
    extra: Record<string, string>,
    out: ExtractedPort[],
  ): void {
    const rendered = renderPath(url.pieces) ??
      (base ? renderRelative(url.pieces) : undefined);
    if (!rendered) return;
    let path = rendered.path;
    let holes = rendered.holes;
    let composed = url.composed;
    const absolute = typeof url.pieces[0] === "string" &&
      /^[a-z][a-z0-9+.-]*:\/\//i.test(url.pieces[0]);
    if (base && base.pieces.length && !absolute) {
      const basePath = renderPath(base.pieces);
      if (basePath) {
        path = joinPaths(basePath.path, path);
        holes ||= basePath.holes && basePath.path !== "/";
        composed = true;
      }
    }
    const method = clientMethod ?? "ANY";
    const confidence = confidenceOf(
      clientMethod === undefined,
      holes,
      composed,
    );
    const port = this.#port(file, { ...site, extra }, "client", method, path, {
      confidence,
      framework,
    });
    if (port) out.push(port);
  }

  #port(
    file: JsFacts,
    site: Site & { framework?: string; extra?: Record<string, string> },
    role: "server" | "client",
    method: string,
    path: string,
    options: { confidence: number; framework?: string },
  ): ExtractedPort | undefined {
    let key: string;
    try {
      key = httpBoundaryKey(method, path);
    } catch (error) {
      this.#diagnostics.push({
        filePath: file.path,
        severity: "warning",
        message:
          `Cannot normalize ${role} path "${path}" at ${site.line}:${site.col}: ${
            (error as Error).message
          }`,
      });
      return undefined;
    }
    const extra = site.extra ?? {};
    return {
      ref: {
        mechanism: "http",
        role,
        key,
        line: site.line,
        col: site.col,
        confidence: options.confidence,
        detail: {
          method,
          path,
          framework: options.framework ?? site.framework ?? "",
          ...extra,
        },
      },
      owner: site.owner,
      filePath: file.path,
    };
  }
}

/**
 * The confidence scale: 0.6 with the method unknown (`weak`), 0.8 with an
 * unresolved part, 0.95 when composed from a prefix or constant, else 1.
 */
function confidenceOf(
  weak: boolean | undefined,
  holes: boolean,
  composed: boolean,
): number {
  return weak ? 0.6 : holes ? 0.8 : composed ? 0.95 : 1;
}

/** Renders prefix-like pieces: holes become `{}`, nothing is dropped. */
function renderPieces(
  pieces: ReadonlyArray<string | Hole>,
): { path: string; holes: boolean } {
  let path = "";
  let holes = false;
  for (const piece of pieces) {
    if (typeof piece === "string") path += piece;
    else {
      holes = true;
      if (piece.hole !== "") path += "{}";
    }
  }
  const origin = /^[a-z][a-z0-9+.-]*:\/\/[^/?#]*/i.exec(path);
  if (origin) path = path.slice(origin[0].length);
  return { path, holes };
}

/** A relative client URL under a base (`api.get("users")` with ky). */
function renderRelative(
  pieces: ReadonlyArray<string | Hole>,
): { path: string; holes: boolean } | undefined {
  const head = pieces[0];
  if (typeof head !== "string" || head === "" || /^[?#]/.test(head)) {
    return undefined;
  }
  return renderPath(["/", ...pieces]);
}
export { jsGrpc } from "./grpc.ts";
export { jsTemporal } from "./temporal.ts";
export { jsQueueExports, jsQueuePorts } from "./queue.ts";
