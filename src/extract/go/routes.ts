// Go route registrations: net/http (Go 1.22 method patterns, `Handle` of a
// router under a subtree, `StripPrefix`), gorilla/mux (`.Methods(...)`),
// gin, echo and chi (`Route`, `Mount`, `Method`).
import { namedChildren, type Node } from "../_syntax/compact_tree.ts";
import {
  CONFIDENCE,
  exactText,
  fromText,
  literal,
  mapText,
  textOf,
} from "../_value/mod.ts";
import type { GoProject } from "./project.ts";
import {
  argumentsOf,
  CHI_VERBS,
  type PendingRoute,
  type RouterRef,
  type Routers,
  UPPER_VERBS,
} from "./routers.ts";

/** A route registration call, if it is one (mounts are recorded). */
export function routeOf(
  call: Node,
  project: GoProject,
  routers: Routers,
): PendingRoute | undefined {
  const callee = call.childForFieldName("function");
  if (callee?.type !== "selector_expression") return undefined;
  const method = callee.childForFieldName("field")?.text ?? "";
  const args = argumentsOf(call);
  let refs: RouterRef[];
  const qualified = project.qualified(callee);
  if (qualified) {
    if (qualified[0] !== "net/http") return undefined;
    if (method !== "HandleFunc" && method !== "Handle") return undefined;
    refs = [{
      root: routers.root("net/http.DefaultServeMux", "net/http"),
      rel: literal(""),
      weak: false,
    }];
  } else {
    refs = routers.refs(callee.childForFieldName("operand"));
  }
  const framework = refs[0]?.root.framework;
  if (!framework) return undefined;
  let methods: string[] | undefined;
  let pathNode: Node | undefined;
  let confidence = 1;
  switch (framework) {
    case "net/http": {
      if (method !== "HandleFunc" && method !== "Handle") return undefined;
      const pattern = project.evalString(args[0]);
      if (!pattern || !args[0]) return undefined;
      if (mountStripPrefix(args[1], refs, project, routers)) return undefined;
      // http.Handle("/api/", apiRouter): the router serves that subtree
      const mounted = routers.refs(args[1]);
      if (mounted.length) {
        const prefix = mapText(pattern, (text) => text.replace(/\/$/, ""));
        if (!/^[A-Z]+\s/.test(textOf(prefix))) {
          for (const child of mounted) {
            for (const parent of refs) {
              child.root.mounts.push({ parent, prefix });
            }
          }
          return undefined;
        }
      }
      // Go 1.22: "GET /users/{id}", "POST example.com/x", "/x/{rest...}", "/{$}"
      const match = /^([A-Z]+)\s+(.*)$/.exec(textOf(pattern));
      let path = match ? match[2] ?? "" : textOf(pattern);
      if (!path.startsWith("/")) {
        const slash = path.indexOf("/");
        path = slash === -1 ? "/" : path.slice(slash);
      }
      path = path.replace(/\{\$\}$/, "").replace(/\{(\w*)\.\.\.\}/g, "{$1}");
      return {
        call,
        refs,
        methods: [match?.[1] ?? "ANY"],
        path: fromText(path, pattern.composed),
        raw: args[0].text,
        confidence,
        framework,
      };
    }
    case "gorilla": {
      if (method !== "HandleFunc" && method !== "Handle") return undefined;
      pathNode = args[0];
      methods = gorillaMethods(call, project);
      break;
    }
    case "gin":
    case "echo": {
      if (UPPER_VERBS.has(method)) {
        methods = [method];
        pathNode = args[0];
      } else if (method === "Any") {
        methods = ["ANY"];
        pathNode = args[0];
      } else if (method === "Handle" || method === "Add") {
        methods = [verbOf(args[0], project)];
        if (methods[0] === "ANY") confidence = CONFIDENCE.weak;
        pathNode = args[1];
      } else if (method === "Match" && framework === "echo") {
        const list = args[0];
        const body = list?.childForFieldName("body");
        const verbs = body
          ? namedChildren(body).map((n) =>
            exactText(project.evalString(namedChildren(n)[0] ?? n))
          )
          : [];
        methods = verbs.every((v) => v && /^[A-Za-z]+$/.test(v)) && verbs.length
          ? verbs.map((v) => (v ?? "").toUpperCase())
          : ["ANY"];
        pathNode = args[1];
      } else return undefined;
      break;
    }
    case "chi": {
      if (CHI_VERBS.has(method)) {
        methods = [method.toUpperCase()];
        pathNode = args[0];
      } else if (method === "Handle" || method === "HandleFunc") {
        methods = ["ANY"];
        pathNode = args[0];
      } else if (method === "Method" || method === "MethodFunc") {
        methods = [verbOf(args[0], project)];
        if (methods[0] === "ANY") confidence = CONFIDENCE.weak;
        pathNode = args[1];
      } else if (method === "Mount") {
        const prefix = project.evalString(args[0]);
        if (prefix) {
          for (const child of routers.refs(args[1])) {
            for (const parent of refs) {
              child.root.mounts.push({ parent, prefix });
            }
          }
        }
        return undefined;
      } else return undefined;
      break;
    }
  }
  let path = project.evalString(pathNode);
  if (!path || !pathNode || !methods) return undefined;
  if (framework === "gorilla") {
    // {id:[0-9]+} -> {id}
    path = mapText(
      path,
      (text) => text.replace(/\{(\w+):[^{}]*(?:\{[^{}]*\}[^{}]*)*\}/g, "{$1}"),
    );
  }
  return {
    call,
    refs,
    methods,
    path,
    raw: pathNode.text,
    confidence,
    framework,
  };
}

/** The method a verb argument names (`"GET"`, `http.MethodGet`), else `ANY`. */
function verbOf(arg: Node | undefined, project: GoProject): string {
  const verb = exactText(project.evalString(arg));
  return verb && /^[A-Za-z]+$/.test(verb) ? verb.toUpperCase() : "ANY";
}

/** `mux.Handle("/api/", http.StripPrefix("/api", sub))` mounts `sub`. */
function mountStripPrefix(
  handler: Node | undefined,
  refs: RouterRef[],
  project: GoProject,
  routers: Routers,
): boolean {
  if (handler?.type !== "call_expression") return false;
  const qualified = project.qualified(handler.childForFieldName("function"));
  if (qualified?.[0] !== "net/http" || qualified[1] !== "StripPrefix") {
    return false;
  }
  const [prefixNode, inner] = argumentsOf(handler);
  const prefix = project.evalString(prefixNode);
  const children = routers.refs(inner);
  if (!prefix || children.length === 0) return false;
  for (const child of children) {
    for (const parent of refs) child.root.mounts.push({ parent, prefix });
  }
  return true;
}

/** The methods of a gorilla route from a chained `.Methods("GET", ...)`. */
function gorillaMethods(call: Node, project: GoProject): string[] {
  let current: Node = call;
  while (
    current.parent?.type === "selector_expression" &&
    current.parent.parent?.type === "call_expression"
  ) {
    const chained = current.parent.parent;
    if (current.parent.childForFieldName("field")?.text === "Methods") {
      const verbs = argumentsOf(chained).map((a) =>
        exactText(project.evalString(a))
      );
      if (verbs.length && verbs.every((v) => v && /^[A-Za-z]+$/.test(v))) {
        return verbs.map((v) => (v ?? "").toUpperCase());
      }
      return ["ANY"];
    }
    current = chained;
  }
  return ["ANY"];
}
