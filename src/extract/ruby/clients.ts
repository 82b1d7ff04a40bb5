// Ruby HTTP clients: Net::HTTP, Faraday (with the connection's base URL)
// and HTTParty.
import { flowedClientPorts, HTTP_VERBS } from "../_port/http.ts";
import { placeOf } from "../_syntax/owner.ts";
import { anchorOf, namedChildren } from "../_syntax/tree.ts";
import { firstAssignment } from "../_syntax/locals.ts";
import type { Value } from "../_value/mod.ts";
import { clientPath, composed, concat, literal } from "../_value/mod.ts";
import { option, positional, type RubyFile } from "./project.ts";
import type { Node } from "web-tree-sitter";

/** Net::HTTP, Faraday and HTTParty calls. */
export function client(
  c: RubyFile,
  call: Node,
): void {
  const receiver = call.childForFieldName("receiver");
  const method = call.childForFieldName("method")?.text ?? "";
  if (!receiver) return;
  const a = positional(call);
  const r = receiver.text;
  // Net::HTTP.get(URI(...)), Net::HTTP.post(uri, body)
  if (r === "Net::HTTP") {
    const verb = /^get(_response)?$/.test(method)
      ? "GET"
      : /^post(_form)?$/.test(method)
      ? "POST"
      : undefined;
    if (verb && a[0]) emitClient(c, call, verb, { framework: "net-http" });
    return;
  }
  // Net::HTTP::Post.new(path_or_uri)
  const request = /^Net::HTTP::(Get|Post|Put|Patch|Delete|Head|Options)$/
    .exec(r);
  if (request && method === "new" && a[0]) {
    emitClient(c, call, request[1]!.toUpperCase(), { framework: "net-http" });
    return;
  }
  if (r === "Faraday" || r === "HTTParty") {
    if (HTTP_VERBS.has(method) && a[0]) {
      const framework = r.toLowerCase();
      emitClient(c, call, method.toUpperCase(), { framework });
    }
    return;
  }
  if (!HTTP_VERBS.has(method) || !a[0]) return;
  const kind = receiverKind(c, receiver);
  if (!kind) return;
  emitClient(c, call, method.toUpperCase(), kind);
}

/** The client library of a receiver, with the base URL it was made with. */
interface ClientKind {
  framework: string;
  base?: Value;
}

/** A receiver made by `Net::HTTP.new/start` or `Faraday.new(url: ...)`. */
export function receiverKind(
  c: RubyFile,
  receiver: Node,
): ClientKind | undefined {
  let value: Node | undefined;
  if (receiver.type === "identifier") {
    value = c.localValue(receiver);
    if (!value) {
      // `Net::HTTP.start(host) do |http| ... end`
      for (let n: Node | null = receiver.parent; n; n = n.parent) {
        if (n.type !== "do_block" && n.type !== "block") continue;
        const params = n.childForFieldName("parameters");
        const first = params ? namedChildren(params)[0] : undefined;
        if (first?.text !== receiver.text) continue;
        const owner = n.parent;
        if (
          owner?.type === "call" &&
          owner.childForFieldName("receiver")?.text === "Net::HTTP" &&
          owner.childForFieldName("method")?.text === "start"
        ) return { framework: "net-http" };
        return undefined;
      }
    }
  } else if (receiver.type === "instance_variable") {
    value = instanceValue(receiver);
  }
  if (!value || value.type !== "call") return undefined;
  const r = value.childForFieldName("receiver")?.text;
  const m = value.childForFieldName("method")?.text;
  if (r === "Net::HTTP" && (m === "new" || m === "start")) {
    return { framework: "net-http" };
  }
  if (r === "Faraday" && m === "new") {
    const url = option(value, "url") ?? positional(value)[0];
    return url
      ? { framework: "faraday", base: c.evaluate(url) }
      : { framework: "faraday" };
  }
  return undefined;
}

/** The value assigned to `@x` anywhere in the enclosing class. */
export function instanceValue(variable: Node): Node | undefined {
  return firstAssignment(variable, CLASSES, "assignment");
}

const CLASSES: ReadonlySet<string> = new Set(["class", "module"]);

/**
 * The client port of a call whose first argument is the URL (resolved
 * against the client's `base`); a wrapper's URL built from a parameter
 * gives one port per call site that supplies it.
 */
export function emitClient(
  c: RubyFile,
  call: Node,
  method: string,
  { framework, base }: ClientKind,
): void {
  c.ports.push(...flowedClientPorts({
    flowed: c.calls.expand(call, c.evaluate(positional(call)[0])),
    call: anchorOf(call, call.childForFieldName("method") ?? call),
    method,
    framework,
    path: (value) => clientPath(base ? resolveAgainst(base, value) : value),
    place: (node) => placeOf(node, c.pathOf(node), "ruby"),
  }));
}

/** Resolves a request path against a client's base URL (RFC 3986 style). */
export function resolveAgainst(
  base: Value,
  url: Value,
): Value {
  const first = url.parts[0];
  if (typeof first !== "string") return url;
  if (/^[a-z][a-z0-9+.-]*:\/\//i.test(first)) return url;
  const basePath = clientPath(base)?.path ?? "/";
  // Faraday: a path with a leading slash replaces the base path; a relative
  // one is appended to it.
  if (first.startsWith("/")) return url;
  const dir = basePath.endsWith("/") ? basePath : basePath + "/";
  return composed(concat([literal(dir), url]));
}
