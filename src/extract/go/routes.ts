// Go route registrations: net/http (Go 1.22 method patterns, `Handle` of a
// router under a subtree, `StripPrefix`), gorilla/mux (`.Methods(...)`),
// gin, echo, chi (`Route`, `Mount`, `Method`), fiber, hertz, iris and
// httprouter (the registration methods of each: registrations.ts).
import type { Node } from "../_syntax/compact_tree.ts";
import {
  exactText,
  fromText,
  joinPaths,
  literal,
  mapText,
  textOf,
  type Value,
} from "../_value/mod.ts";
import type { GoProject } from "./project.ts";
import { builtOnly, gorillaBuilderRoute, gorillaPath } from "./gorilla.ts";
import {
  argumentsOf,
  type PendingRoute,
  type RouterRef,
  type Routers,
} from "./routers.ts";
import { registrationOf } from "./registrations.ts";

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
    const built = gorillaBuilderRoute(
      call,
      project,
      routers,
      (handler, parents) =>
        mountStripPrefix(handler, parents, project, routers),
    );
    if (built) return built;
    refs = routers.refs(callee.childForFieldName("operand"));
  }
  const framework = refs[0]?.root.framework;
  if (!framework) return undefined;
  let methods: string[] | undefined;
  let pathNode: Node | undefined;
  let confidence = 1;
  let suffix: string | undefined;
  let given: Value | undefined;
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
      if (builtOnly(call)) return undefined;
      pathNode = args[0];
      methods = gorillaMethods(call, project);
      break;
    }
    default: {
      if (
        method === "Mount" && (framework === "chi" || framework === "fiber")
      ) {
        const prefix = project.evalString(args[0]);
        if (prefix) {
          for (const child of routers.refs(args[1])) {
            for (const parent of refs) {
              child.root.mounts.push({ parent, prefix });
            }
          }
        }
        return undefined;
      }
      const registration = registrationOf(framework, method, args, project);
      if (!registration) return undefined;
      ({ methods, pathNode, confidence, suffix } = registration);
      given = registration.path;
    }
  }
  let path = given ?? project.evalString(pathNode);
  if (!path || !pathNode || !methods) return undefined;
  if (suffix) path = joinPaths(path, literal(suffix));
  if (framework === "gorilla") path = gorillaPath(path);
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
