// Route registration methods of the Go routers that take a path and
// handlers (gin, echo, chi, fiber, hertz, iris, httprouter, goyave, gf,
// fasthttp/router, PocketBase): which method
// names register which HTTP methods, and where the path argument is.
import { namedChildren, type Node } from "../_syntax/compact_tree.ts";
import { CONFIDENCE, exactText, literal, type Value } from "../_value/mod.ts";
import type { GoProject } from "./project.ts";
import { CHI_VERBS, type Framework, UPPER_VERBS } from "./routers.ts";

/** The HTTP methods and the path argument of a registration call. */
export interface Registration {
  methods: string[];
  pathNode: Node | undefined;
  confidence: number;
  /** Appended to the path: `/*` for a directory of files. */
  suffix?: string;
  /** The path, when the registration gives it with the method. */
  path?: Value;
}

interface Style {
  /** `GET(path, ...)` (upper) or `Get(path, ...)` (camel). */
  verbs: ReadonlySet<string>;
  /** Registers a path for every method. */
  any: ReadonlySet<string>;
  /** `Handle(method, path, ...)`: the method first. */
  methodFirst: ReadonlySet<string>;
  /** `Match([]string{...}, path, ...)` or `HandleMany("GET POST", path)`. */
  methodList: ReadonlySet<string>;
  /** Serves files under a path pattern, or one file (`GET`). */
  files?: ReadonlySet<string>;
  /** Serves a directory of files under a path prefix (`GET prefix/*`). */
  dirs?: ReadonlySet<string>;
  /** A pattern `"/x"` (any method) or `"GET:/x"` (gf `BindHandler`). */
  patterns?: ReadonlySet<string>;
}

const none: ReadonlySet<string> = new Set();
const set = (...names: string[]): ReadonlySet<string> => new Set(names);

const STYLES: Partial<Record<Framework, Style>> = {
  gin: {
    verbs: UPPER_VERBS,
    any: set("Any"),
    methodFirst: set("Handle"),
    methodList: set("Match"),
    files: set("StaticFile", "StaticFileFS"),
    dirs: set("Static", "StaticFS"),
  },
  echo: {
    verbs: UPPER_VERBS,
    any: set("Any"),
    methodFirst: set("Add"),
    methodList: set("Match"),
    files: set("File"),
    dirs: set("Static"),
  },
  chi: {
    verbs: CHI_VERBS,
    any: set("Handle", "HandleFunc"),
    methodFirst: set("Method", "MethodFunc"),
    methodList: none,
  },
  fiber: {
    // `Query`: the HTTP QUERY method (fiber v3)
    verbs: new Set([...CHI_VERBS, "Query"]),
    any: set("All"),
    methodFirst: set("Add"),
    methodList: none,
  },
  hertz: {
    verbs: UPPER_VERBS,
    any: set("Any"),
    methodFirst: set("Handle"),
    methodList: none,
  },
  iris: {
    verbs: CHI_VERBS,
    any: set("Any"),
    methodFirst: set("Handle", "HandleFunc"),
    methodList: set("HandleMany"),
  },
  goyave: {
    verbs: CHI_VERBS,
    any: none,
    methodFirst: none,
    methodList: set("Route"),
  },
  gf: {
    verbs: UPPER_VERBS,
    any: set("ALL"),
    methodFirst: none,
    methodList: none,
    patterns: set("BindHandler"),
  },
  fasthttp: {
    verbs: UPPER_VERBS,
    any: set("ANY"),
    methodFirst: set("Handle"),
    methodList: none,
    // ServeFiles("/static/{filepath:*}", root)
    files: set("ServeFiles", "ServeFilesCustom", "ServeFS"),
  },
  pocketbase: {
    verbs: UPPER_VERBS,
    any: set("Any"),
    methodFirst: set("Route"),
    methodList: none,
  },
  httprouter: {
    verbs: UPPER_VERBS,
    any: none,
    methodFirst: set("Handle", "Handler", "HandlerFunc"),
    methodList: none,
    files: set("ServeFiles"),
  },
};

/** The registration a method call on a router of `framework` makes. */
export function registrationOf(
  framework: Framework,
  method: string,
  args: Node[],
  project: GoProject,
): Registration | undefined {
  const style = STYLES[framework];
  if (!style) return undefined;
  if (style.verbs.has(method)) {
    return {
      methods: [method.toUpperCase()],
      pathNode: args[0],
      confidence: 1,
    };
  }
  if (style.files?.has(method)) {
    return { methods: ["GET"], pathNode: args[0], confidence: 1 };
  }
  if (style.dirs?.has(method)) {
    return { methods: ["GET"], pathNode: args[0], confidence: 1, suffix: "/*" };
  }
  if (style.patterns?.has(method)) {
    const pattern = project.evalString(args[0]);
    const match = /^([A-Za-z]+):(\/.*)$/.exec(exactText(pattern) ?? "");
    return match?.[1] && match[2]
      ? {
        methods: [match[1].toUpperCase()],
        pathNode: args[0],
        confidence: 1,
        path: literal(match[2], pattern?.composed),
      }
      : { methods: ["ANY"], pathNode: args[0], confidence: 1 };
  }
  if (style.any.has(method)) {
    return { methods: ["ANY"], pathNode: args[0], confidence: 1 };
  }
  if (style.methodFirst.has(method) || style.methodList.has(method)) {
    const verbs = verbsOf(args[0], project);
    return verbs
      ? { methods: verbs, pathNode: args[1], confidence: 1 }
      : { methods: ["ANY"], pathNode: args[1], confidence: CONFIDENCE.weak };
  }
  return undefined;
}

/**
 * The verbs of a method argument: `"GET"`, `http.MethodGet`,
 * `[]string{"GET", "POST"}` or `"GET POST"`; `undefined` when one is not
 * a literal verb.
 */
function verbsOf(
  node: Node | undefined,
  project: GoProject,
): string[] | undefined {
  if (!node) return undefined;
  const body = node.type === "composite_literal"
    ? node.childForFieldName("body")
    : undefined;
  const texts = body
    ? namedChildren(body).map((n) =>
      exactText(project.evalString(namedChildren(n)[0] ?? n))
    )
    : (exactText(project.evalString(node)) ?? "").trim().split(/\s+/);
  if (
    texts.length === 0 ||
    !texts.every((v) => v !== undefined && /^[A-Za-z]+$/.test(v))
  ) return undefined;
  return texts.map((v) => (v ?? "").toUpperCase());
}
