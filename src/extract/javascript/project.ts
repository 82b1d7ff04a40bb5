// The JavaScript/TypeScript project of a scan root: every file's facts,
// relative module resolution, and the only place that follows imports and
// exports to constants, enums, routers, plugins and client instances.
import type { ExtractDiagnostic, SourceFile } from "../extractor.ts";
import type { GrammarName } from "../_syntax/parser.ts";
import { parseSource } from "../_syntax/parser.ts";
import { parseDiagnostic } from "../_syntax/tree.ts";
import { composed, fillHoles, type Value } from "../_value/mod.ts";
import { collectFacts } from "./collect.ts";
import type { ChildRef, JsFacts } from "./facts.ts";
import { componentScript, isComponent } from "./components.ts";
import { parseFailure } from "../_syntax/passes.ts";

const EXTENSIONS: Readonly<Record<string, GrammarName>> = {
  ".js": "javascript",
  ".jsx": "javascript",
  ".mjs": "javascript",
  ".cjs": "javascript",
  ".ts": "typescript",
  ".mts": "typescript",
  ".cts": "typescript",
  ".tsx": "tsx",
  // single-file components: their <script> blocks (see components.ts)
  ".vue": "typescript",
  ".svelte": "typescript",
};

/** The grammar for a JavaScript / TypeScript path, if it is one. */
export function jsGrammarOf(path: string): GrammarName | undefined {
  if (/\.d\.[cm]?ts$/.test(path)) return undefined;
  const dot = path.lastIndexOf(".");
  return dot === -1 ? undefined : EXTENSIONS[path.slice(dot)];
}

const MAX_DEPTH = 12;

/** What a lookup gives for a constant that reaches itself. */
const CYCLE: unique symbol = Symbol("cycle");

/** The candidate file paths of a relative import specifier. */
export function modulePaths(from: string, source: string): string[] {
  if (source.startsWith("@/") || source.startsWith("~/")) {
    // a root alias: the root itself or its `src/`
    const rest = source.slice(2);
    return [
      ...modulePaths("", `./${rest}`),
      ...modulePaths("", `./src/${rest}`),
    ];
  }
  if (!source.startsWith("./") && !source.startsWith("../")) return [];
  const dir = from.includes("/") ? from.slice(0, from.lastIndexOf("/")) : "";
  const parts = dir ? dir.split("/") : [];
  for (const segment of source.split("/")) {
    if (segment === "." || segment === "") continue;
    if (segment === "..") parts.pop();
    else parts.push(segment);
  }
  const base = parts.join("/");
  const stem = base.replace(/\.(?:[cm]?js|jsx)$/, "");
  return [
    base,
    `${stem}.ts`,
    `${stem}.tsx`,
    `${stem}.js`,
    `${stem}.mjs`,
    `${stem}.cjs`,
    `${stem}.jsx`,
    `${stem}.mts`,
    `${base}/index.ts`,
    `${base}/index.js`,
    `${base}/index.tsx`,
    `${base}/index.mjs`,
  ];
}

/** What a client instance (`axios.create`) is, wherever it was made. */
export interface InstanceRef {
  /** The file that makes it (its base URL is evaluated there). */
  file: JsFacts;
  base: Value;
  framework: string;
}

/** Facts by source file: every extractor reading a file shares them. */
const factCache = new WeakMap<SourceFile, { text: string; facts: JsFacts }>();

/** The files of a JavaScript/TypeScript project, and what they refer to. */
export class JsProject {
  readonly #files = new Map<string, JsFacts>();

  /** A project of already collected facts. */
  constructor(facts: Iterable<JsFacts>) {
    for (const f of facts) this.#files.set(f.path, f);
  }

  /**
   * Parses and reads each JavaScript/TypeScript file (once per file object
   * and text: later loads reuse the facts); parse problems become
   * diagnostics.
   */
  static async load(
    files: readonly SourceFile[],
    diagnostics: ExtractDiagnostic[],
  ): Promise<JsProject> {
    const facts: JsFacts[] = [];
    for (const file of files) {
      const grammar = jsGrammarOf(file.path);
      if (!grammar) continue;
      const cached = factCache.get(file);
      if (cached && cached.text === file.text) {
        facts.push(cached.facts);
        continue;
      }
      let tree;
      try {
        tree = await parseSource(
          grammar,
          isComponent(file.path) ? componentScript(file.text) : file.text,
        );
      } catch (error) {
        diagnostics.push(parseFailure(file.path, error));
        continue;
      }
      try {
        const problem = parseDiagnostic(tree.rootNode, file.path);
        if (problem) diagnostics.push(problem);
        const collected = collectFacts(tree.rootNode, file.path, grammar);
        factCache.set(file, { text: file.text, facts: collected });
        facts.push(collected);
      } finally {
        tree.delete();
      }
    }
    return new JsProject(facts);
  }

  /** Every file's facts. */
  get files(): IterableIterator<JsFacts> {
    return this.#files.values();
  }

  /** The facts of a file by path. */
  file(path: string): JsFacts | undefined {
    return this.#files.get(path);
  }

  /** The project file a relative import of `from` refers to. */
  module(from: string, source: string): JsFacts | undefined {
    for (const candidate of modulePaths(from, source)) {
      const file = this.#files.get(candidate);
      if (file) return file;
    }
    return undefined;
  }

  /**
   * The value with every `constant` hole that names a constant of the
   * project (in the file, or imported) replaced by that constant's value;
   * `composed` when one was.
   */
  resolve(file: JsFacts, value: Value, depth = 0): Value {
    return this.#resolve(file, value, depth, new Set()) ?? value;
  }

  /**
   * `resolve` with the constants being resolved on `stack`: a constant that
   * reaches itself (`const a = b + "/x"; const b = a + "/y"`) has no value
   * (reading it throws at run time), so the whole reference stays a hole
   * instead of an unrolled, impossible path. `undefined` means a cycle.
   */
  #resolve(
    file: JsFacts,
    value: Value,
    depth: number,
    stack: Set<string>,
  ): Value | undefined {
    let cycle = false;
    const resolved = fillHoles(value, "constant", (name) => {
      const found = cycle ? undefined : this.#lookup(file, name, depth, stack);
      if (found === CYCLE) cycle = true;
      return found === CYCLE ? undefined : found;
    });
    return cycle ? undefined : resolved;
  }

  /** The value of a constant `NAME` or `NAME.prop` as seen in `file`. */
  lookup(file: JsFacts, ref: string, depth = 0): Value | undefined {
    const found = this.#lookup(file, ref, depth, new Set());
    return found === CYCLE ? undefined : found;
  }

  #lookup(
    file: JsFacts,
    ref: string,
    depth: number,
    stack: Set<string>,
  ): Value | undefined | typeof CYCLE {
    if (depth > MAX_DEPTH) return undefined;
    // CommonJS: `exports.X` inside the module that sets it
    if (ref.startsWith("exports.")) ref = `module.${ref}`;
    const own = file.consts.get(ref);
    if (own) {
      const id = `${file.path}\u0000${ref}`;
      if (stack.has(id)) return CYCLE;
      stack.add(id);
      const value = this.#resolve(file, own, depth + 1, stack);
      stack.delete(id);
      return value ?? CYCLE;
    }
    if (own === null) return undefined;
    const dot = ref.indexOf(".");
    const head = dot === -1 ? ref : ref.slice(0, dot);
    const rest = dot === -1 ? "" : ref.slice(dot);
    const binding = file.imports.get(head);
    if (!binding) return undefined;
    const module = this.module(file.path, binding.source);
    if (!module) return undefined;
    if (binding.name === "*") {
      // import * as config from "./config"; config.PREFIX
      if (!rest) return undefined;
      const name = rest.slice(1);
      const first = name.split(".")[0]!;
      const local = module.exports.get(first);
      if (!local) return undefined;
      return this.#lookup(
        module,
        local + name.slice(first.length),
        depth + 1,
        stack,
      );
    }
    const local = module.exports.get(binding.name);
    if (!local || local.startsWith("fn:")) return undefined;
    return this.#lookup(module, local + rest, depth + 1, stack);
  }

  /**
   * The global id (`<file>#<local>`) of a mounted router or plugin function
   * a local name or an import refers to.
   */
  target(file: JsFacts, child: ChildRef, kind: string): string | undefined {
    if ("local" in child) return localTarget(file, child.local, kind);
    const module = this.module(file.path, child.import.source);
    if (!module) return undefined;
    const local = module.exports.get(child.import.name);
    return local ? localTarget(module, local, kind) : undefined;
  }

  /** A client instance (its base URL) through local or imported names. */
  instance(file: JsFacts, via: ChildRef): InstanceRef | undefined {
    if ("local" in via) {
      const instance = file.instances.get(via.local);
      return instance &&
        { file, base: instance.base, framework: instance.framework };
    }
    const module = this.module(file.path, via.import.source);
    if (!module) return undefined;
    const local = module.exports.get(via.import.name);
    const instance = local ? module.instances.get(local) : undefined;
    return instance &&
      { file: module, base: instance.base, framework: instance.framework };
  }

  /** The value of a constant a file sees under a local name (for queues). */
  constant(path: string, local: string, member?: string): Value | undefined {
    const file = this.#files.get(path);
    if (!file) return undefined;
    const found = this.lookup(
      file,
      member === undefined ? local : `${local}.${member}`,
    );
    return found ? composed(found) : undefined;
  }

  /** The local names a file binds by imports. */
  imported(path: string): Iterable<string> {
    return this.#files.get(path)?.imports.keys() ?? [];
  }

  /** The file and name a local name of `path` is imported from. */
  origin(
    path: string,
    local: string,
  ): { path: string; name: string } | undefined {
    const file = this.#files.get(path);
    const binding = file?.imports.get(local);
    if (!file || !binding) return undefined;
    const module = this.module(file.path, binding.source);
    return module ? { path: module.path, name: binding.name } : undefined;
  }

  /** A function a call refers to, by local name or import: its file and name. */
  callee(
    file: JsFacts,
    callee: ChildRef,
  ): { file: JsFacts; name: string } | undefined {
    if ("local" in callee) return { file, name: callee.local };
    const module = this.module(file.path, callee.import.source);
    const local = module?.exports.get(callee.import.name);
    if (!module || !local) return undefined;
    return {
      file: module,
      name: local.startsWith("fn:") ? local.slice(3) : local,
    };
  }
}

function localTarget(
  file: JsFacts,
  local: string,
  kind: string,
): string | undefined {
  if (local.startsWith("fn:")) {
    if (kind === "plugin") return `${file.path}#${local}`;
    // a mounted call of a function that returns a router
    const router = file.returns.get(local.slice(3));
    return router ? `${file.path}#${router}` : undefined;
  }
  if (file.routers.has(local)) return `${file.path}#${local}`;
  // a plain function exported by name and used as a plugin
  if (kind === "plugin") return `${file.path}#fn:${local}`;
  return undefined;
}
