// tRPC procedures as HTTP routes: `router({ list: procedure.query(...),
// create: procedure.mutation(...), post: postRouter })` (v10/v11, also
// nested `router({...})` and plain objects) and v9 chains
// (`createRouter().query("get", {...}).merge("todo.", todoRouter)`). A
// query is `GET <endpoint>/<dotted.path>`, a mutation `POST`; the endpoint
// is the handler's `endpoint` option, the Next.js `pages/api/...` file of
// `createNextApiHandler`, or the prefix of `app.use("/trpc",
// createExpressMiddleware({ router }))`. Routers no handler in the project
// serves are read at tRPC's conventional `/api/trpc`, as composed paths.
// Subscriptions are not HTTP request/response routes and are left out.
import { namedChildren, type Node, stringValue } from "../_syntax/tree.ts";
import { composed, literal } from "../_value/mod.ts";
import type { Collector } from "./collect.ts";
import type { ChildRef, JsFacts, RouteRec, Site } from "./facts.ts";
import type { JsProject } from "./project.ts";
import { argList, memberKey, namedValues, pairValue } from "./nodes.ts";
import { unwrap } from "./values.ts";

/** A procedure, a router's entries, or a name for either. */
export type TrpcNode =
  | { method: string; site: Site }
  | { entries: TrpcEntry[] }
  | { ref: ChildRef };

/** One key of a router; `join` is what goes between it and its parent. */
export interface TrpcEntry {
  key: string;
  join: "." | "";
  node: TrpcNode;
}

const PROCEDURE_METHODS: Readonly<Record<string, string>> = {
  query: "GET",
  mutation: "POST",
};
const ROUTER_CALL =
  /(^|\.)(router|createTRPCRouter|createRouter|mergeRouters)$/;
const HANDLERS =
  /(^|\.)(createNextApiHandler|fetchRequestHandler|createExpressMiddleware|createHTTPHandler|createHTTPServer|createNextRouteHandler)$/;
/** The callees a file with tRPC routers or handlers calls (a cheap gate). */
const TRPC_CALLEE = /(\.query|\.mutation|\.merge|[rR]outers?)$/;
const NEXT_PAGES = /(?:^|\/)pages\/(api\/(?:.*\/)?)\[[^/]+\]\.[cm]?[jt]sx?$/;
const MAX_DEPTH = 16;

/** Reads a value as a tRPC procedure or router, if it is one. */
function trpcNode(c: Collector, node: Node, depth = 0): TrpcNode | undefined {
  if (depth > MAX_DEPTH) return undefined;
  const v = unwrap(node);
  if (v.type === "identifier") {
    const binding = c.facts.imports.get(v.text);
    return { ref: binding ? { import: binding } : { local: v.text } };
  }
  if (v.type === "object") return { entries: objectEntries(c, v, depth) };
  if (v.type !== "call_expression") return undefined;
  const callee = unwrap(v.childForFieldName("function")!);
  const args = argList(v);
  const property = callee.type === "member_expression"
    ? callee.childForFieldName("property")?.text
    : undefined;
  const first = args[0] && unwrap(args[0]);
  if (property && property in PROCEDURE_METHODS && first?.type !== "string") {
    return { method: PROCEDURE_METHODS[property]!, site: c.site(v) };
  }
  if (ROUTER_CALL.test(callee.text) && first?.type === "object") {
    return { entries: objectEntries(c, first, depth) };
  }
  if (ROUTER_CALL.test(callee.text) && first?.type === "identifier") {
    // router(procedures): an object of procedures declared apart
    return trpcNode(c, first, depth + 1);
  }
  const chain = v9Chain(c, v, depth);
  return chain ? { entries: chain } : undefined;
}

function objectEntries(c: Collector, object: Node, depth: number): TrpcEntry[] {
  const out: TrpcEntry[] = [];
  for (const part of namedChildren(object)) {
    const key = memberKey(part);
    const value = part.type === "pair" ? part.childForFieldName("value") : part;
    const node = key && value ? trpcNode(c, value, depth + 1) : undefined;
    if (key && node) out.push({ key, join: ".", node });
  }
  return out;
}

/** `createRouter().query("a", {...}).mutation("b", {...}).merge("x.", r)`. */
function v9Chain(
  c: Collector,
  call: Node,
  depth: number,
): TrpcEntry[] | undefined {
  const out: TrpcEntry[] = [];
  let at: Node = call;
  for (let step = 0; step < 1_000; step++) {
    if (at.type !== "call_expression") return undefined;
    const callee = unwrap(at.childForFieldName("function")!);
    const args = argList(at);
    if (callee.type !== "member_expression") {
      // the chain's root: createRouter()
      return ROUTER_CALL.test(callee.text) && out.length > 0
        ? out.reverse()
        : undefined;
    }
    const property = callee.childForFieldName("property")?.text ?? "";
    const name = args[0] ? stringValue(unwrap(args[0])) : undefined;
    if (property in PROCEDURE_METHODS && name !== undefined) {
      out.push({
        key: name,
        join: ".",
        node: { method: PROCEDURE_METHODS[property]!, site: c.site(at) },
      });
    } else if (property === "merge" && args.length >= 1) {
      const child = trpcNode(c, args[args.length - 1]!, depth + 1);
      if (child) out.push({ key: name ?? "", join: "", node: child });
    } else if (property !== "subscription" && property !== "middleware") {
      // `trpc.router()` ends the chain through a member call
      return ROUTER_CALL.test(callee.text) && out.length > 0
        ? out.reverse()
        : undefined;
    }
    at = unwrap(callee.childForFieldName("object")!);
  }
  return undefined;
}

/** Reads a file's tRPC routers, procedures and handlers. */
export function trpcFacts(c: Collector): void {
  const calls = c.nodes("call_expression");
  // one pass over the file's calls, each callee's text read once
  const named = calls.some((n) => {
    const callee = n.childForFieldName("function")?.text ?? "";
    return TRPC_CALLEE.test(callee) || HANDLERS.test(callee);
  });
  if (!named) return;
  for (const { name, value } of namedValues(c.nodes("variable_declarator"))) {
    const type = unwrap(value).type;
    if (type !== "call_expression" && type !== "object") continue;
    const node = trpcNode(c, value);
    if (!node) continue;
    // a plain object counts when it holds procedures itself
    if (
      type === "object" && "entries" in node &&
      !node.entries.some((e) => "method" in e.node)
    ) continue;
    (c.facts.trpc ??= new Map()).set(name.text, node);
  }
  for (const call of calls) {
    if (!HANDLERS.test(call.childForFieldName("function")?.text ?? "")) {
      continue;
    }
    const options = argList(call)[0];
    if (!options || unwrap(options).type !== "object") continue;
    const routerArg = pairValue(unwrap(options), "router");
    const router = routerArg && trpcNode(c, routerArg);
    if (!router) continue;
    const endpointArg = pairValue(unwrap(options), "endpoint");
    let endpoint = endpointArg ? stringValue(unwrap(endpointArg)) : undefined;
    const pages = NEXT_PAGES.exec(c.facts.path);
    if (endpoint === undefined && pages) {
      endpoint = "/" + pages[1]!.replace(/\/$/, "");
    }
    if (endpoint === undefined) endpoint = usePrefix(call);
    (c.facts.trpcHandlers ??= []).push({ endpoint: endpoint ?? "", router });
  }
}

/** `app.use("/trpc", createExpressMiddleware(...))`: `/trpc`. */
function usePrefix(call: Node): string | undefined {
  const args = call.parent;
  const use = args?.parent;
  if (args?.type !== "arguments" || use?.type !== "call_expression") {
    return undefined;
  }
  if (!/\.use$/.test(use.childForFieldName("function")?.text ?? "")) {
    return undefined;
  }
  const first = argList(use)[0];
  return first ? stringValue(unwrap(first)) : undefined;
}

/** The routes of every tRPC procedure a project serves. */
export function trpcRoutes(project: JsProject): Array<[JsFacts, RouteRec]> {
  const out: Array<[JsFacts, RouteRec]> = [];
  const files = [...project.files];
  // only in a project that uses tRPC
  const usesTrpc = files.some((f) =>
    [...f.imports.values()].some((b) => b.source.startsWith("@trpc/"))
  );
  if (!usesTrpc) return out;
  const served: Array<{ file: JsFacts; endpoint: string; node: TrpcNode }> = [];
  for (const file of files) {
    for (const h of file.trpcHandlers ?? []) {
      served.push({ file, endpoint: h.endpoint, node: h.router });
    }
  }
  let conventional = false;
  if (served.length === 0) {
    // no handler in the project: the routers no other router names
    const named = new Set<string>();
    const note = (file: JsFacts, node: TrpcNode, depth: number): void => {
      if (depth > MAX_DEPTH) return;
      if ("ref" in node) {
        const target = resolve(project, file, node.ref);
        if (target) named.add(`${target.file.path}#${target.local}`);
      } else if ("entries" in node) {
        for (const e of node.entries) note(file, e.node, depth + 1);
      }
    };
    for (const file of files) {
      for (const node of file.trpc?.values() ?? []) note(file, node, 0);
    }
    for (const file of files) {
      for (const [local, node] of file.trpc ?? []) {
        if ("entries" in node && !named.has(`${file.path}#${local}`)) {
          served.push({ file, endpoint: "/api/trpc", node });
          conventional = true;
        }
      }
    }
  }
  for (const { file, endpoint, node } of served) {
    walk(project, file, node, "", 0, new Set(), (at, path, method, site) => {
      const url = `${endpoint.replace(/\/$/, "")}/${path}`;
      out.push([at, {
        ...site,
        methods: [method],
        path: conventional ? composed(literal(url)) : literal(url),
        framework: "trpc",
        composed: true,
        extra: { procedure: path },
      }]);
    });
  }
  return out;
}

function resolve(
  project: JsProject,
  file: JsFacts,
  ref: ChildRef,
): { file: JsFacts; local: string; node: TrpcNode } | undefined {
  if ("local" in ref) {
    const node = file.trpc?.get(ref.local);
    return node && { file, local: ref.local, node };
  }
  const module = project.module(file.path, ref.import.source);
  const local = module?.exports.get(ref.import.name);
  const node = local ? module?.trpc?.get(local) : undefined;
  return module && local && node ? { file: module, local, node } : undefined;
}

function walk(
  project: JsProject,
  file: JsFacts,
  node: TrpcNode,
  path: string,
  depth: number,
  seen: Set<string>,
  emit: (file: JsFacts, path: string, method: string, site: Site) => void,
): void {
  if (depth > MAX_DEPTH) return;
  if ("method" in node) {
    if (path !== "") emit(file, path, node.method, node.site);
    return;
  }
  if ("ref" in node) {
    const target = resolve(project, file, node.ref);
    if (!target) return;
    const id = `${target.file.path}#${target.local}`;
    if (seen.has(id)) return;
    seen.add(id);
    walk(project, target.file, target.node, path, depth + 1, seen, emit);
    seen.delete(id);
    return;
  }
  for (const entry of node.entries) {
    const joined = path === "" || entry.key === "" || path.endsWith(".")
      ? path + entry.key
      : path + entry.join + entry.key;
    walk(project, file, entry.node, joined, depth + 1, seen, emit);
  }
}
