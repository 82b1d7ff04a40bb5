// String constants that queue code imports from sibling modules
// (`from .config import TOPIC`, `import { TOPIC } from "../config"`), found
// by a line scan of every Python and JavaScript/TypeScript file of the scan
// root. Only simple module-level definitions count: a string literal or an
// environment read with a literal default.

import type { Node } from "web-tree-sitter";
import { composed, hole, literal, type Value } from "../_value/mod.ts";
import type { KindTable } from "../_port/queue.ts";

const PY_ASSIGN = /^([A-Z_][A-Z0-9_]*)\s*(?::\s*[\w.]+\s*)?=\s*(.*)$/;
const PY_STRING = /^(["'])([^"'\\]*)\1\s*(?:#.*)?$/;
const PY_ENV =
  /^(?:os\.)?(?:getenv|environ\.get)\(\s*(["'])[^"'\\]*\1\s*,\s*(["'])([^"'\\]*)\2\s*\)\s*(?:#.*)?$/;
const JS_ASSIGN =
  /^(?:export\s+)?const\s+([A-Za-z_$][\w$]*)\s*(?::\s*\w+\s*)?=\s*(.*)$/;
const JS_STRING = /^(["'`])([^"'`\\$]*)\1$/;
const JS_ENV =
  /^(?:process\.env\.\w+|process\.env\[\s*["'][^"'\\]*["']\s*\])\s*(?:\?\?|\|\|)\s*(["'])([^"'\\]*)\1$/;

/** Constants by file, with module resolution for imports. */
export class ModuleConstants {
  readonly #byFile = new Map<string, Map<string, string>>();
  readonly #known = new Set<string>();

  /** Scans one file's module-level lines (no parsing, linear). */
  add(path: string, text: string): void {
    this.#known.add(path);
    const python = path.endsWith(".py");
    const found = new Map<string, string>();
    let start = 0;
    while (start < text.length) {
      let end = text.indexOf("\n", start);
      if (end < 0) end = text.length;
      const line = text.slice(start, end).trimEnd();
      start = end + 1;
      // Module level only: no indentation.
      if (line === "" || line[0] === " " || line[0] === "\t") continue;
      const assign = (python ? PY_ASSIGN : JS_ASSIGN).exec(line);
      if (!assign) continue;
      const name = assign[1]!;
      let value = assign[2]!.trim();
      if (!python && value.endsWith(";")) value = value.slice(0, -1).trimEnd();
      const literal = (python ? PY_STRING : JS_STRING).exec(value);
      if (literal) {
        found.set(name, literal[2]!);
        continue;
      }
      const env = (python ? PY_ENV : JS_ENV).exec(value);
      if (env) found.set(name, env[python ? 3 : 2]!);
    }
    if (found.size > 0) this.#byFile.set(path, found);
  }

  /**
   * The value of `name` exported by the module `specifier` imports, as seen
   * from the file `from`.
   */
  lookup(from: string, specifier: string, name: string): string | undefined {
    for (const path of this.resolve(from, specifier)) {
      const value = this.#byFile.get(path)?.get(name);
      if (value !== undefined) return value;
    }
    return undefined;
  }

  /** Candidate file paths of an import specifier. */
  resolve(from: string, specifier: string): string[] {
    const dir = from.slice(0, from.lastIndexOf("/") + 1);
    if (from.endsWith(".py")) {
      let base: string;
      let rest = specifier;
      if (rest.startsWith(".")) {
        let up = 0;
        while (rest.startsWith(".")) {
          up++;
          rest = rest.slice(1);
        }
        const parts = dir.split("/").filter((p) => p !== "");
        base = parts.slice(0, parts.length - (up - 1)).join("/");
        base = base === "" ? "" : base + "/";
        const module = rest.replaceAll(".", "/");
        return [`${base}${module}.py`, `${base}${module}/__init__.py`];
      }
      // Absolute module: any file whose path ends with it.
      const tail = rest.replaceAll(".", "/");
      const out: string[] = [];
      for (const path of this.#known) {
        if (
          path === `${tail}.py` || path.endsWith(`/${tail}.py`) ||
          path === `${tail}/__init__.py` ||
          path.endsWith(`/${tail}/__init__.py`)
        ) out.push(path);
      }
      return out;
    }
    if (!specifier.startsWith(".")) return [];
    const parts = (dir + specifier).split("/");
    const resolved: string[] = [];
    for (const part of parts) {
      if (part === "" || part === ".") continue;
      if (part === "..") resolved.pop();
      else resolved.push(part);
    }
    const base = resolved.join("/").replace(/\.(js|mjs|cjs|jsx)$/, "");
    const out: string[] = [];
    for (const ext of [".ts", ".js", ".mts", ".mjs", ".cjs", ".tsx", ".jsx"]) {
      out.push(base + ext, `${base}/index${ext}`);
    }
    return out;
  }
}

/**
 * Queue client kinds exported by modules (`export const producer =
 * kafka.producer()`), so that importers' calls count too.
 */
export class ExportedKinds {
  readonly #byFile = new Map<string, Map<string, string>>();

  /** Records that `path` exports `name` holding a value of `kind`. */
  set(path: string, name: string, kind: string): void {
    let names = this.#byFile.get(path);
    if (!names) this.#byFile.set(path, names = new Map());
    names.set(name, kind);
  }

  /** The kind `name` has in the module an import resolves to. */
  get(
    modules: ModuleConstants,
    from: string,
    specifier: string,
    name: string,
  ): string | undefined {
    for (const path of modules.resolve(from, specifier)) {
      const kind = this.#byFile.get(path)?.get(name);
      if (kind) return kind;
    }
    return undefined;
  }

  /**
   * Binds in `kinds` each name a file imports (`imports`: alias →
   * [specifier, name]) that its module exports holding a queue client;
   * whether any was.
   */
  bindImports(
    kinds: KindTable,
    modules: ModuleConstants,
    from: string,
    imports: ReadonlyMap<string, readonly [string, string]>,
  ): boolean {
    let any = false;
    for (const [alias, [specifier, name]] of imports) {
      const kind = this.get(modules, from, specifier, name);
      if (kind) {
        kinds.bindGlobal(alias, kind);
        any = true;
      }
    }
    return any;
  }

  /** Every exported name (to pick the files that may import one). */
  names(): Set<string> {
    const out = new Set<string>();
    for (const names of this.#byFile.values()) {
      for (const name of names.keys()) out.add(name);
    }
    return out;
  }
}

/**
 * The value a name read in queue code stands for: the expression assigned
 * to it in the file (`assigned`, evaluated by `evaluate`) unless the name is
 * read inside that very assignment, else the constant a sibling module
 * exports under the imported name (`imported`: [specifier, name]), else an
 * unresolved part. A substituted value counts as resolved.
 */
export function nameValue(
  name: Node,
  assigned: Node | undefined,
  evaluate: (node: Node) => Value,
  imported: readonly [string, string] | undefined,
  modules: ModuleConstants | undefined,
  from: string,
): Value {
  if (
    assigned &&
    !(assigned.startIndex <= name.startIndex &&
      assigned.endIndex >= name.endIndex)
  ) {
    return composed(evaluate(assigned));
  }
  const found = imported
    ? modules?.lookup(from, imported[0], imported[1])
    : undefined;
  return found !== undefined ? literal(found, true) : hole(name.text);
}
