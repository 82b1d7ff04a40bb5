// Grape APIs: classes that subclass `Grape::API` (directly or through a base
// class of the scan), their `prefix`, path `version`, namespaces,
// `route_param`, verbs and `mount`ed APIs, across files.
import type { Node } from "web-tree-sitter";
import { HTTP_METHODS, HTTP_VERBS } from "../_port/http.ts";
import { eachFile } from "../_syntax/passes.ts";
import { namedChildren, walk } from "../_syntax/tree.ts";
import { exactText, literal, type Value } from "../_value/mod.ts";
import {
  blockBody,
  lastConstant,
  option,
  positional,
  RubyFile,
  symbolList,
  symbolName,
} from "./project.ts";
import { mountTarget } from "./rails.ts";
import { type RubyScan, servingFiles, withRubyTrees } from "./route_files.ts";

/** `class Users < ::MyAPI::Base`: the class and its superclass. */
const CLASS_HEADER =
  /^[ \t]*class[ \t]+((?:::)?[A-Z][\w:]*)[ \t]*<[ \t]*((?:::)?[A-Z][\w:]*)/gm;

/** Blocks that add a path segment. */
const NAMESPACES: ReadonlySet<string> = new Set([
  "namespace",
  "resource",
  "resources",
  "group",
  "segment",
]);

/** The deepest namespace and mount nesting read. */
const MAX_DEPTH = 64;

/**
 * Most API and namespace bodies read for one root API (mounts that fan out
 * at every level would otherwise read exponentially many).
 */
export const MAX_GRAPE_READS = 10_000;

/** Class names (last segments) that are Grape APIs, from class headers. */
export function grapeClasses(texts: readonly string[]): Set<string> {
  const parent = new Map<string, string>();
  for (const text of texts) {
    if (!text.includes("class")) continue;
    for (const m of text.matchAll(CLASS_HEADER)) {
      parent.set(lastConstant(m[1]!), m[2]!.replace(/^::/, ""));
    }
  }
  const apis = new Set<string>();
  for (const name of parent.keys()) {
    const seen = new Set<string>();
    for (let at: string | undefined = name; at && !seen.has(at);) {
      seen.add(at);
      const up: string | undefined = parent.get(at);
      if (up === "Grape::API" || up === "Grape::API::Instance") {
        apis.add(name);
        break;
      }
      at = up === undefined ? undefined : lastConstant(up);
    }
  }
  return apis;
}

interface Api {
  ruby: RubyFile;
  body: Node[];
}

/** The path settings in effect while a Grape body is read. */
interface GrapeScope {
  /** Mount path, prefix, version and namespaces, composed. */
  base: Value[];
  prefix: Value[];
  version: Value[];
  path: Value[];
}

function parts(scope: GrapeScope): Value[] {
  return [...scope.base, ...scope.prefix, ...scope.version, ...scope.path];
}

/** A segment from `:users`, `"users"` or `":id"`. */
function segmentOf(c: RubyFile, node: Node | undefined): Value {
  return node ? c.evaluate(node) : literal("");
}

class GrapeReader {
  readonly apis: Map<string, Api>;
  readonly active = new Set<string>();
  #reads = 0;

  constructor(apis: Map<string, Api>) {
    this.apis = apis;
  }

  read(api: Api, scope: GrapeScope, depth: number): void {
    if (depth > MAX_DEPTH || ++this.#reads > MAX_GRAPE_READS) return;
    const c = api.ruby;
    // `prefix` and `version` hold for the statements after them
    const own: GrapeScope = { ...scope };
    for (const stmt of api.body) {
      if (stmt.type !== "call" || stmt.childForFieldName("receiver")) continue;
      const method = stmt.childForFieldName("method")?.text ?? "";
      const first = positional(stmt)[0];
      if (method === "prefix" && first) {
        own.prefix = [segmentOf(c, first)];
      } else if (method === "version") {
        const usingNode = option(stmt, "using");
        const using = usingNode ? symbolName(usingNode) : "path";
        const versions = positional(stmt).map((v) => segmentOf(c, v));
        const segments = using === "path" ? versions.map((v) => [v]) : [[]];
        if (stmt.childForFieldName("block")) {
          for (const version of segments) {
            this.read({ ruby: c, body: blockBody(stmt) }, {
              ...own,
              version,
            }, depth + 1);
          }
        } else own.version = segments[0] ?? [];
      } else if (NAMESPACES.has(method) || method === "route_param") {
        const name = segmentOf(c, first);
        const text = exactText(name);
        const segment = method === "route_param" && text !== undefined
          ? literal(`:${text}`)
          : name;
        this.read({ ruby: c, body: blockBody(stmt) }, {
          ...own,
          path: [...own.path, segment],
        }, depth + 1);
      } else if (HTTP_VERBS.has(method) || method === "route") {
        this.route(c, stmt, method, own);
      } else if (method === "mount") {
        this.mount(c, stmt, own, depth);
      }
    }
  }

  route(c: RubyFile, call: Node, method: string, scope: GrapeScope): void {
    const list = positional(call);
    let verbs = [method.toUpperCase()];
    let path = list[0];
    if (method === "route") {
      // `route :any, "x"`, `route ["GET", "POST"], "x"`
      verbs = symbolList(list[0]).map((v) => v.toUpperCase());
      if (verbs.includes("ANY")) verbs = ["ANY"];
      verbs = verbs.filter((v) => v === "ANY" || HTTP_METHODS.has(v));
      path = list[1];
    }
    if (verbs.length === 0) return;
    const all = parts(scope);
    c.emitServer(
      call,
      verbs,
      [...all, segmentOf(c, path)],
      "grape",
      all.length > 0,
    );
  }

  mount(c: RubyFile, call: Node, scope: GrapeScope, depth: number): void {
    const target = mountTarget(call);
    const node = target?.target ?? positional(call)[0];
    if (!node) return;
    const name = lastConstant(node.text);
    const api = this.apis.get(name);
    if (!api || this.active.has(name)) return;
    const at = target ? [segmentOf(c, target.at)] : [];
    this.active.add(name);
    try {
      this.read(api, {
        base: [...parts(scope), ...at],
        prefix: [],
        version: [],
        path: [],
      }, depth + 1);
    } finally {
      this.active.delete(name);
    }
  }
}

/**
 * Grape routes of a scan: every API class (one subclassing `Grape::API`,
 * or a class of the scan that does) not mounted by another is read at the
 * root; a mounted one under the path of its `mount`.
 */
export async function extractGrape(scan: RubyScan): Promise<void> {
  const { files, constants, ports, diagnostics } = scan;
  const sources = servingFiles(files);
  if (!sources.some((f) => f.text.includes("Grape::API"))) return;
  const classes = grapeClasses(sources.map((f) => f.text));
  if (classes.size === 0) return;
  const apis = new Map<string, Api>();
  const mounted = new Set<string>();
  const apiFiles = sources.filter((f) => {
    for (const m of f.text.matchAll(CLASS_HEADER)) {
      if (classes.has(lastConstant(m[1]!))) return true;
    }
    return false;
  });
  await withRubyTrees(
    apiFiles,
    diagnostics,
    (file, root) => {
      const ruby = new RubyFile(file, constants, ports);
      walk(root, (n) => {
        if (n.type !== "class") return;
        const name = lastConstant(n.childForFieldName("name")?.text ?? "");
        const body = n.childForFieldName("body");
        if (!classes.has(name) || !body || apis.has(name)) return;
        const statements = namedChildren(body);
        apis.set(name, { ruby, body: statements });
        walk(body, (m) => {
          if (
            m.type === "call" && !m.childForFieldName("receiver") &&
            m.childForFieldName("method")?.text === "mount"
          ) {
            const target = mountTarget(m)?.target ?? positional(m)[0];
            if (target) mounted.add(lastConstant(target.text));
          }
        });
      });
    },
    () =>
      eachFile(
        [...apis].filter(([name]) => !mounted.has(name)).map((
          [name, api],
        ) => ({ name, api, path: api.ruby.file.path })),
        diagnostics,
        ({ name, api }) => {
          const reader = new GrapeReader(apis);
          reader.active.add(name);
          reader.read(api, { base: [], prefix: [], version: [], path: [] }, 0);
          return Promise.resolve();
        },
      ),
  );
}
