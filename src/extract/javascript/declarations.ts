// Declarations of a JavaScript/TypeScript file: imports (ES and CommonJS),
// string constants and enums, and what the module exports.
import { namedChildren, type Node, stringValue } from "../_syntax/tree.ts";
import type { Collector } from "./collect.ts";
import {
  CJS,
  constructorName,
  exportedLocal,
  FUNCTION_EXPRESSIONS,
  isStringish,
  memberKey,
  namedValue,
  propertyKey,
  requireSource,
} from "./nodes.ts";
import { unwrap, valueOf } from "./values.ts";
import { importedNames } from "./imports.ts";

export function importDecl(c: Collector, node: Node): void {
  const tree = { namedChildren, stringValue };
  for (const [local, binding] of importedNames(node, tree)) {
    c.facts.imports.set(local, binding);
  }
}

/** `const x = require("m")`, `const { a, b: c } = require("m")`. */
export function requireDecl(c: Collector, node: Node): void {
  const value = node.childForFieldName("value");
  const name = node.childForFieldName("name");
  if (!value || !name) return;
  const v = unwrap(value);
  const from = requireSource(v);
  if (from === undefined) {
    // const Router = require("restify-router").Router
    const object = v.type === "member_expression"
      ? v.childForFieldName("object")
      : null;
    const source = object ? requireSource(unwrap(object)) : undefined;
    const property = v.childForFieldName("property")?.text;
    if (source !== undefined && property && name.type === "identifier") {
      c.facts.imports.set(name.text, { source, name: property });
    }
    return;
  }
  if (name.type === "identifier") {
    c.facts.imports.set(name.text, { source: from, name: "default" });
  } else if (name.type === "object_pattern") {
    for (const part of namedChildren(name)) {
      if (part.type === "shorthand_property_identifier_pattern") {
        c.facts.imports.set(part.text, { source: from, name: part.text });
      } else if (part.type === "pair_pattern") {
        const key = part.childForFieldName("key")?.text;
        const local = part.childForFieldName("value");
        if (key && local?.type === "identifier") {
          c.facts.imports.set(local.text, { source: from, name: key });
        }
      }
    }
  }
}

export function constDecl(c: Collector, node: Node): void {
  const declared = namedValue(node);
  if (!declared) return;
  const { name } = declared;
  const v = unwrap(declared.value);
  if (v.type === "new_expression" && constructorName(v) === "Request") {
    c.requests.set(name.text, v);
  }
  if (v.type === "call_expression") c.handlers.set(name.text, v);
  if (FUNCTION_EXPRESSIONS.has(v.type)) c.functions.add(name.text);
  const declaration = node.parent;
  const isConst = declaration?.type === "lexical_declaration" &&
    declaration.child(0)?.text === "const";
  if (!isConst) {
    // a `let` / `var` string never assigned again reads like a constant
    if (
      (declaration?.type === "lexical_declaration" ||
        declaration?.type === "variable_declaration") &&
      isStringish(v) && !c.reassigned().has(name.text)
    ) c.setConst(name.text, valueOf(v));
    return;
  }
  if (isStringish(v)) {
    c.setConst(name.text, valueOf(v));
  } else if (v.type === "object") {
    for (const pair of namedChildren(v)) {
      if (pair.type !== "pair") continue;
      const key = propertyKey(pair.childForFieldName("key"));
      const pv = pair.childForFieldName("value");
      if (key && pv && isStringish(unwrap(pv))) {
        c.setConst(`${name.text}.${key}`, valueOf(pv));
      }
    }
  }
}

export function enumDecl(c: Collector, node: Node): void {
  const name = node.childForFieldName("name")?.text;
  const body = node.childForFieldName("body");
  if (!name || !body) return;
  for (const member of namedChildren(body)) {
    if (member.type !== "enum_assignment") continue;
    const key = propertyKey(member.childForFieldName("name"));
    const value = member.childForFieldName("value");
    if (key && value && isStringish(unwrap(value))) {
      c.setConst(`${name}.${key}`, valueOf(value));
    }
  }
}

export function exportDecl(c: Collector, node: Node): void {
  const exports = c.facts.exports;
  const declaration = node.childForFieldName("declaration");
  const value = node.childForFieldName("value");
  const isDefault = node.children.some((c) => c?.type === "default");
  if (declaration) {
    if (
      declaration.type === "function_declaration" ||
      declaration.type === "generator_function_declaration"
    ) {
      const name = declaration.childForFieldName("name")?.text;
      if (name) {
        c.functions.add(name);
        exports.set(isDefault ? "default" : name, `fn:${name}`);
      }
    } else if (
      declaration.type === "lexical_declaration" ||
      declaration.type === "variable_declaration"
    ) {
      for (const d of namedChildren(declaration)) {
        const name = d.childForFieldName("name");
        if (d.type === "variable_declarator" && name?.type === "identifier") {
          exports.set(name.text, name.text);
        }
      }
    } else if (
      declaration.type === "class_declaration" ||
      declaration.type === "enum_declaration"
    ) {
      const name = declaration.childForFieldName("name")?.text;
      if (name) exports.set(isDefault ? "default" : name, name);
    }
  } else if (value) {
    const local = exportedLocal(value);
    if (local) exports.set("default", local);
  } else {
    for (const clause of namedChildren(node)) {
      if (clause.type !== "export_clause") continue;
      for (const spec of namedChildren(clause)) {
        const name = spec.childForFieldName("name")?.text;
        const alias = spec.childForFieldName("alias")?.text ?? name;
        if (name && alias) exports.set(alias, name);
      }
    }
  }
}

/** `module.exports = router`, `module.exports = function (app) {...}`. */
export function moduleExports(c: Collector, node: Node): void {
  const left = node.childForFieldName("left");
  const right = node.childForFieldName("right");
  if (!left || !right) return;
  const exports = c.facts.exports;
  if (left.text === "module.exports") {
    const local = exportedLocal(right);
    if (local) exports.set("default", local);
    const object = unwrap(right);
    if (object.type !== "object") return;
    // module.exports = { PREFIX: "/api", USERS }
    exports.set("default", CJS);
    for (const part of namedChildren(object)) {
      const key = memberKey(part);
      const value = part.type === "pair"
        ? part.childForFieldName("value")
        : part;
      if (!key || !value) continue;
      const v = unwrap(value);
      if (
        (v.type === "identifier" ||
          v.type === "shorthand_property_identifier") &&
        c.functions.has(v.text)
      ) {
        // module.exports = { makeRouter }: a function of the module
        exports.set(key, `fn:${v.text}`);
      } else if (
        isStringish(v) || v.type === "shorthand_property_identifier"
      ) {
        c.setConst(`${CJS}.${key}`, valueOf(v));
        exports.set(key, `${CJS}.${key}`);
      } else if (v.type === "identifier") exports.set(key, v.text);
    }
  } else if (/^(module\.)?exports\.[A-Za-z_$][\w$]*$/.test(left.text)) {
    const name = left.text.slice(left.text.lastIndexOf(".") + 1);
    const local = exportedLocal(right);
    if (local) exports.set(name, local);
    else if (isStringish(unwrap(right))) {
      // exports.PREFIX = "/api"
      c.setConst(`${CJS}.${name}`, valueOf(right));
      exports.set(name, `${CJS}.${name}`);
      if (!exports.has("default")) exports.set("default", CJS);
    }
  }
}
