// Guzzle clients (`new Client(['base_uri' => ...])`, typed parameters and
// properties), resolving relative URIs against `base_uri` as RFC 3986 does.
import { flowedClientPorts } from "../_port/http.ts";
import { placeOf } from "../_syntax/owner.ts";
import { anchorOf, namedChildren, walk } from "../_syntax/tree.ts";
import type { PathResult, Value } from "../_value/mod.ts";
import {
  clientPath,
  composed,
  concat,
  exactText,
  literal,
} from "../_value/mod.ts";
import { relativePath } from "../_value/relative.ts";
import { arrayEntries, lastName, type PhpFile, positional } from "./project.ts";
import type { Node } from "web-tree-sitter";

/** A Guzzle client receiver, with its `base_uri` when known. */
export function guzzleClient(
  c: PhpFile,
  object: Node,
): { base?: Value } | undefined {
  let creation: Node | undefined;
  let type = "";
  if (object.type === "variable_name") {
    const value = c.localValue(object);
    if (value?.type === "object_creation_expression") creation = value;
    else type = c.parameter(object)?.childForFieldName("type")?.text ?? "";
  } else if (
    object.type === "member_access_expression" &&
    object.childForFieldName("object")?.text === "$this"
  ) {
    const name = object.childForFieldName("name")?.text ?? "";
    const found = propertyValue(c, object, name);
    if (found?.type === "object_creation_expression") creation = found;
    else if (found) type = found.text;
  }
  if (creation) {
    const cls = namedChildren(creation).find((c) =>
      c.type === "name" || c.type === "qualified_name"
    )?.text ?? "";
    if (!c.guzzleClasses.has(cls)) {
      return undefined;
    }
    const options = positional(creation)[0];
    for (const entry of arrayEntries(options)) {
      if (entry.key && exactText(c.evaluate(entry.key)) === "base_uri") {
        return { base: c.evaluate(entry.value) };
      }
    }
    return {};
  }
  const t = type.replace(/^\?/, "");
  return c.guzzleClasses.has(t) || c.guzzleClasses.has(lastName(t))
    ? {}
    : undefined;
}

/**
 * What `$this->name` holds: the `new X(...)` assigned to it, or the type
 * of the promoted/typed property or constructor parameter it comes from.
 */
export function propertyValue(
  c: PhpFile,
  at: Node,
  name: string,
): Node | undefined {
  let cls: Node | null = at.parent;
  while (cls && cls.type !== "class_declaration") cls = cls.parent;
  if (!cls) return undefined;
  let found: Node | undefined;
  walk(cls, (n) => {
    if (found?.type === "object_creation_expression") return false;
    if (n.type === "assignment_expression") {
      const left = n.childForFieldName("left");
      if (left?.text === `$this->${name}`) {
        const right = n.childForFieldName("right");
        if (right?.type === "object_creation_expression") found = right;
        else if (right?.type === "variable_name") {
          const param = c.parameter(right);
          const type = param?.childForFieldName("type");
          if (type) found = type;
        }
      }
    } else if (
      (n.type === "property_promotion_parameter" ||
        n.type === "property_declaration") &&
      n.text.includes(`$${name}`)
    ) {
      const type = n.childForFieldName("type");
      if (type && !found) found = type;
    }
  });
  return found;
}

/**
 * The client port of a call with a URL (relative ones resolved against
 * `base`); a wrapper's URL built from a parameter gives one port per call
 * site that supplies it.
 */
export function emitClient(
  c: PhpFile,
  call: Node,
  method: string,
  url: Value,
  framework: string,
  base?: Value,
): void {
  const anchor = anchorOf(call, call.childForFieldName("name") ?? call);
  c.ports.push(...flowedClientPorts({
    flowed: c.calls.expand(call, url),
    call: anchor,
    method,
    framework,
    path: (value) => phpClientPath(value, base),
    place: (node) => placeOf(node, c.pathOf(node), "php"),
  }));
}

/**
 * The path a Guzzle/Laravel URL calls: a relative one resolved against the
 * base (RFC 3986: it replaces the base's last segment), or only partly
 * known without one.
 */
function phpClientPath(url: Value, base?: Value): PathResult | undefined {
  const first = url.parts[0];
  const relative = typeof first === "string" && !first.startsWith("/") &&
    !/^[a-z][a-z0-9+.-]*:\/\//i.test(first);
  if (!relative) return clientPath(url);
  if (!base) return relativePath(url);
  const basePath = clientPath(base)?.path ?? "/";
  const dir = basePath.slice(0, basePath.lastIndexOf("/") + 1);
  return clientPath(composed(concat([literal(dir), url])));
}
