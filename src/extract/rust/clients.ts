// reqwest and awc clients: `reqwest::get(url)`, and `get/post/...` or
// `request(Method::X, url)` on receivers built by or declared with them.
import { flowedClientPorts } from "../_port/http.ts";
import { ownerOf } from "../_syntax/owner.ts";
import { namedChildren, type Node, walk } from "../_syntax/tree.ts";
import { clientPath } from "../_value/mod.ts";
import { argsOf, callSite, chainRoot, unwrap } from "./nodes.ts";
import type { RustFile, RustScan } from "./project.ts";

/** Calls on reqwest/awc clients: `client.get(url)`, `request(Method, url)`. */
export function clientCall(
  c: RustScan,
  f: RustFile,
  call: Node,
  receiver: Node,
  name = "request",
): void {
  if (f.crates.size === 0) return;
  const crate = clientCrate(c, f, receiver);
  if (!crate) return;
  const args = argsOf(call);
  let method: string | undefined;
  let url: Node | undefined;
  if (name === "request") {
    method = c.methodFilter(args[0]);
    url = args[1];
  } else {
    method = name.toUpperCase();
    url = args[0];
  }
  if (!method || !url) return;
  emitClient(c, f, call, method, url, crate);
}

/** `reqwest::get(url)` and `reqwest::blocking::get(url)`. */
export function freeClientCall(
  c: RustScan,
  f: RustFile,
  call: Node,
): void {
  if (!f.crates.has("reqwest")) return;
  const fn = call.childForFieldName("function");
  if (fn?.type !== "scoped_identifier") return;
  if (!/^reqwest::(blocking::)?get$/.test(fn.text)) return;
  const url = argsOf(call)[0];
  if (url) emitClient(c, f, call, "GET", url, "reqwest");
}

/** Which client crate a receiver belongs to, or undefined. */
export function clientCrate(
  c: RustScan,
  f: RustFile,
  receiver: Node,
): string | undefined {
  const r = unwrap(receiver);
  let type: string | undefined;
  if (r.type === "identifier") {
    const value = c.letValue(r.text, r);
    if (value) type = constructedType(value);
    else type = paramType(c, r);
  } else if (
    r.type === "field_expression" &&
    r.childForFieldName("value")?.text === "self"
  ) {
    type = fieldType(f, r.childForFieldName("field")?.text ?? "");
  } else if (r.type === "call_expression") {
    type = constructedType(r);
  }
  if (!type) return undefined;
  const crate = /^(reqwest|awc)\b/.exec(type)?.[1];
  if (crate) return f.crates.has(crate) ? crate : undefined;
  // A bare `Client` imported from one of the crates.
  if (/^Client\b/.test(type) && f.crates.size === 1) {
    return [...f.crates][0];
  }
  return undefined;
}

export function constructedType(
  value: Node,
): string | undefined {
  const root = chainRoot(value);
  if (root.type !== "call_expression") return undefined;
  const fn = root.childForFieldName("function")?.text ?? "";
  const m = /^((?:\w+::)*)(Client|ClientBuilder)::(new|builder|default)$/
    .exec(fn);
  return m ? `${m[1]}Client` : undefined;
}

export function paramType(
  c: RustScan,
  id: Node,
): string | undefined {
  const fn = c.enclosingFunction(id);
  const params = fn?.childForFieldName("parameters");
  for (const p of params ? namedChildren(params) : []) {
    if (p.childForFieldName("pattern")?.text === id.text) {
      return (p.childForFieldName("type")?.text ?? "").replace(
        /^&(mut )?/,
        "",
      );
    }
  }
  return undefined;
}

export function fieldType(
  f: RustFile,
  field: string,
): string | undefined {
  let found: string | undefined;
  walk(f.tree.rootNode, (n) => {
    if (found) return false;
    if (
      n.type === "field_declaration" &&
      n.childForFieldName("name")?.text === field
    ) {
      found = n.childForFieldName("type")?.text;
    }
  });
  return found;
}

/**
 * The client port of a call with a URL; a wrapper's URL built from a
 * parameter gives one port per call site that supplies it.
 */
export function emitClient(
  c: RustScan,
  f: RustFile,
  call: Node,
  method: string,
  urlNode: Node,
  framework: string,
): void {
  c.ports.push(...flowedClientPorts({
    flowed: c.calls.expand(call, c.evaluate(urlNode)),
    call,
    method,
    framework,
    path: (url) => clientPath(url),
    place: (node) => {
      const file = c.fileOf(node)?.file.path ?? f.file.path;
      return {
        node: callSite(node),
        owner: ownerOf(node, file, "rust"),
        filePath: file,
      };
    },
    extra: { raw: urlNode.text },
  }));
}
