// Temporal in TypeScript/JavaScript (@temporalio/*): activities handed to
// `Worker.create({ activities })` (servers, also through factories and
// namespace imports) and calls through `proxyActivities()` (clients).
import type { SourceFile } from "../extractor.ts";
import type { GrammarName } from "../_syntax/parser.ts";
import {
  type CompactTree,
  findAll,
  namedChildren,
  type Node,
  parseOrReport,
  stringValue,
} from "../_syntax/compact_tree.ts";
import { activities, type TemporalOut } from "../_port/temporal.ts";
import type { ImportBinding } from "./facts.ts";
import { importedNames } from "./imports.ts";

interface JsFile {
  file: SourceFile;
  tree: CompactTree;
  grammar: GrammarName;
}

/** The Temporal ports of the JavaScript/TypeScript files of a scan root. */
export async function jsTemporal(
  files: SourceFile[],
  out: TemporalOut,
): Promise<void> {
  const parsed = new Map<string, JsFile>();
  const parse = async (file: SourceFile): Promise<JsFile | undefined> => {
    let entry = parsed.get(file.path);
    if (entry) return entry;
    const grammar: GrammarName = file.path.endsWith(".tsx")
      ? "tsx"
      : /\.[cm]?ts$/.test(file.path)
      ? "typescript"
      : "javascript";
    const tree = await parseOrReport(grammar, file, out.diagnostics);
    if (!tree) return undefined;
    entry = { file, tree, grammar };
    parsed.set(file.path, entry);
    return entry;
  };
  try {
    for (const file of files) {
      if (!/["']@temporalio\/(worker|workflow)["']/.test(file.text)) continue;
      const entry = await parse(file);
      if (!entry) continue;
      const root = entry.tree.rootNode;
      const emit = activities(out, file.path, entry.grammar, "temporal-ts");
      const imports = jsImports(root);
      // workflows: proxyActivities()
      const proxies = new Map<string, string>(); // local name -> activity name
      const namespaces = new Set<string>();
      for (
        const declarator of findAll(root, new Set(["variable_declarator"]))
      ) {
        const value = declarator.childForFieldName("value");
        const callee = value?.type === "call_expression"
          ? value.childForFieldName("function")
          : null;
        const imported = callee?.type === "identifier"
          ? imports.get(callee.text)
          : undefined;
        if (
          imported?.source !== "@temporalio/workflow" ||
          (imported.name !== "proxyActivities" &&
            imported.name !== "proxyLocalActivities")
        ) continue;
        const pattern = declarator.childForFieldName("name");
        if (pattern?.type === "identifier") namespaces.add(pattern.text);
        else if (pattern?.type === "object_pattern") {
          for (const element of namedChildren(pattern)) {
            if (element.type === "shorthand_property_identifier_pattern") {
              proxies.set(element.text, element.text);
            } else if (element.type === "pair_pattern") {
              const key = element.childForFieldName("key")?.text;
              const local = element.childForFieldName("value")?.text;
              if (key && local) proxies.set(local, key);
            }
          }
        }
      }
      if (proxies.size || namespaces.size) {
        for (const call of findAll(root, new Set(["call_expression"]))) {
          const callee = call.childForFieldName("function");
          let name: string | undefined;
          if (callee?.type === "identifier") name = proxies.get(callee.text);
          else if (callee?.type === "member_expression") {
            const object = callee.childForFieldName("object")?.text;
            if (object && namespaces.has(object)) {
              name = callee.childForFieldName("property")?.text;
            }
          }
          if (name) {
            emit(call, "client", name);
          }
        }
      }
      // workers: Worker.create({ activities })
      for (const call of findAll(root, new Set(["call_expression"]))) {
        const callee = call.childForFieldName("function");
        if (callee?.type !== "member_expression") continue;
        const object = callee.childForFieldName("object")?.text ?? "";
        if (
          callee.childForFieldName("property")?.text !== "create" ||
          imports.get(object)?.source !== "@temporalio/worker"
        ) continue;
        const options =
          namedChildren(call.childForFieldName("arguments") ?? call)[0];
        if (options?.type !== "object") continue;
        for (const member of namedChildren(options)) {
          let value: Node | null = null;
          if (
            member.type === "shorthand_property_identifier" &&
            member.text === "activities"
          ) value = member;
          else if (
            member.type === "pair" &&
            member.childForFieldName("key")?.text === "activities"
          ) {
            value = member.childForFieldName("value");
          }
          if (!value) continue;
          await jsActivities(value, entry, imports, files, parse, out);
        }
      }
    }
  } finally {
    for (const entry of parsed.values()) entry.tree.delete();
  }
}

/** The names the `import` statements of a file bind. */
function jsImports(root: Node): Map<string, ImportBinding> {
  const tree = { namedChildren, stringValue };
  return new Map(
    namedChildren(root)
      .filter((statement) => statement.type === "import_statement")
      .flatMap((statement) => importedNames(statement, tree)),
  );
}

async function jsActivities(
  value: Node,
  entry: JsFile,
  imports: Map<string, ImportBinding>,
  files: SourceFile[],
  parse: (file: SourceFile) => Promise<JsFile | undefined>,
  out: TemporalOut,
): Promise<void> {
  const path = entry.file.path;
  const emit = activities(out, path, entry.grammar, "temporal-ts");
  if (value.type === "object") {
    for (const member of namedChildren(value)) {
      if (member.type === "shorthand_property_identifier") {
        emit(member, "server", member.text);
      } else if (
        member.type === "pair" || member.type === "method_definition"
      ) {
        const key = member.childForFieldName(
          member.type === "pair" ? "key" : "name",
        );
        const name = key ? stringValue(key) ?? key.text : undefined;
        if (name) {
          emit(member, "server", name);
        }
      } else if (member.type === "spread_element") {
        const inner = namedChildren(member)[0];
        if (inner) await jsActivities(inner, entry, imports, files, parse, out);
      }
    }
    return;
  }
  if (value.type === "call_expression") {
    // activities: createActivities(deps): the object its factory returns
    const callee = value.childForFieldName("function");
    if (callee?.type !== "identifier") return;
    let target: JsFile | undefined = entry;
    let name = callee.text;
    const imported = imports.get(name);
    if (imported) {
      if (!imported.source.startsWith(".") || imported.name === "*") return;
      const file = resolveRelative(path, imported.source, files);
      target = file ? await parse(file) : undefined;
      name = imported.name;
    }
    if (!target) return;
    for (const object of factoryObjects(target.tree.rootNode, name)) {
      await jsActivities(
        object,
        target,
        jsImports(target.tree.rootNode),
        files,
        parse,
        out,
      );
    }
    return;
  }
  const local = value.type === "shorthand_property_identifier" ||
      value.type === "identifier"
    ? value.text
    : undefined;
  const imported = local ? imports.get(local) : undefined;
  if (imported?.name !== "*" || !imported.source.startsWith(".")) return;
  const target = resolveRelative(path, imported.source, files);
  const module = target ? await parse(target) : undefined;
  if (!module) return;
  const emitIn = activities(
    out,
    module.file.path,
    module.grammar,
    "temporal-ts",
  );
  for (const statement of namedChildren(module.tree.rootNode)) {
    if (statement.type !== "export_statement") continue;
    const declaration = statement.childForFieldName("declaration");
    if (!declaration) continue;
    if (declaration.type === "function_declaration") {
      const name = declaration.childForFieldName("name")?.text;
      if (name) {
        emitIn(statement, "server", name, 1, { owner: declaration });
      }
    } else if (declaration.type === "lexical_declaration") {
      for (const declarator of namedChildren(declaration)) {
        const fn = declarator.childForFieldName("value");
        const name = declarator.childForFieldName("name")?.text;
        if (
          name &&
          (fn?.type === "arrow_function" || fn?.type === "function_expression")
        ) {
          emitIn(statement, "server", name, 1, { owner: fn });
        }
      }
    }
  }
}

/** The object literals a factory function named `name` returns. */
function factoryObjects(root: Node, name: string): Node[] {
  let fn: Node | undefined;
  for (const node of findAll(root, FACTORIES)) {
    if (node.type === "function_declaration") {
      if (node.childForFieldName("name")?.text === name) fn = node;
    } else if (node.childForFieldName("name")?.text === name) {
      const value = node.childForFieldName("value");
      if (
        value?.type === "arrow_function" ||
        value?.type === "function_expression"
      ) fn = value;
    }
  }
  const body = fn?.childForFieldName("body");
  if (!body) return [];
  const unwrapped = body.type === "parenthesized_expression"
    ? namedChildren(body)[0]
    : body;
  if (unwrapped?.type === "object") return [unwrapped];
  const out: Node[] = [];
  for (const ret of findAll(body, RETURNS)) {
    let expr = namedChildren(ret)[0];
    if (expr?.type === "parenthesized_expression") {
      expr = namedChildren(expr)[0];
    }
    if (expr?.type === "object") out.push(expr);
  }
  return out;
}

const FACTORIES: ReadonlySet<string> = new Set([
  "function_declaration",
  "variable_declarator",
]);
const RETURNS: ReadonlySet<string> = new Set(["return_statement"]);

function resolveRelative(
  from: string,
  spec: string,
  files: SourceFile[],
): SourceFile | undefined {
  const parts = from.split("/").slice(0, -1);
  for (const segment of spec.split("/")) {
    if (segment === "." || segment === "") continue;
    if (segment === "..") parts.pop();
    else parts.push(segment);
  }
  const base = parts.join("/").replace(/\.[cm]?js$/, "");
  for (
    const candidate of [
      base,
      `${base}.ts`,
      `${base}.js`,
      `${base}.mts`,
      `${base}/index.ts`,
      `${base}/index.js`,
    ]
  ) {
    const file = files.find((f) => f.path === candidate);
    if (file) return file;
  }
  return undefined;
}
