// Temporal activities: definitions (servers) and calls (clients) in Python,
// Go, TypeScript/JavaScript, Java and .NET, keyed by the activity name the
// SDK registers (an explicit name, else the SDK's default for the function
// or method).
import type {
  ExtractDiagnostic,
  ExtractResult,
  LanguageExtractor,
  SourceFile,
} from "../extractor.ts";
import { GoProject } from "../go/project.ts";
import type { GrammarName } from "../_syntax/parser.ts";
import {
  argument,
  keywordArg,
  type PyModule,
  PyProject,
} from "../python/project.ts";
import { CONFIDENCE_COMPOSED } from "../_value/python_go.ts";
import {
  type CompactTree,
  findAll,
  namedChildren,
  type Node,
  ownerOf,
  parseCompact,
  positionOf,
  stringValue,
} from "../_syntax/compact_tree.ts";
import type { ExtractedPort } from "../types.ts";
import { dotnetTemporal, javaTemporal } from "./jvm.ts";

/**
 * Finds Temporal activity definitions (servers) and activity calls from
 * workflows (clients) in Python, Go, TypeScript/JavaScript, Java and C#
 * files (see `_temporal_jvm.ts` for the Java and .NET SDK rules).
 *
 * @example Usage
 * ```ts
 * import { temporalExtractor } from "@portcullis/portcullis/extract";
 * import assert from "node:assert/strict";
 *
 * const { ports } = await temporalExtractor.extract([{
 *   path: "activities.py",
 *   text: 'from temporalio import activity\n\n@activity.defn(name="charge")\nasync def charge_card(order_id: str) -> None:\n    pass\n',
 * }]);
 * assert.equal(ports[0]?.ref.key, "charge");
 * ```
 */
export const temporalExtractor: LanguageExtractor = {
  name: "temporal",
  accepts(path: string): boolean {
    if (path.endsWith(".pb.go") || path.endsWith(".d.ts")) return false;
    return /\.(py|go|[cm]?[jt]sx?|java|cs)$/.test(path);
  },
  extract: extractTemporal,
};

interface Emitter {
  ports: ExtractedPort[];
  diagnostics: ExtractDiagnostic[];
}

function emit(
  out: Emitter,
  node: Node,
  filePath: string,
  grammar: GrammarName,
  role: "server" | "client",
  name: string,
  confidence: number,
  sdk: string,
  owner: Node = node,
): void {
  const { line, col } = positionOf(node);
  out.ports.push({
    ref: {
      mechanism: "temporal",
      role,
      key: name,
      line,
      col,
      confidence,
      detail: { activity: name, framework: sdk },
    },
    owner: ownerOf(owner, filePath, grammar),
    filePath,
  });
}

async function extractTemporal(
  files: readonly SourceFile[],
): Promise<ExtractResult> {
  const out: Emitter = { ports: [], diagnostics: [] };
  const py = files.filter((f) => f.path.endsWith(".py"));
  if (py.some((f) => f.text.includes("temporalio"))) {
    await pythonTemporal(py, out);
  }
  const go = files.filter((f) => f.path.endsWith(".go"));
  if (go.some((f) => f.text.includes("go.temporal.io/sdk"))) {
    await goTemporal(go, out);
  }
  const js = files.filter((f) => /\.[cm]?[jt]sx?$/.test(f.path));
  if (js.some((f) => f.text.includes("@temporalio/"))) {
    await jsTemporal(js, out);
  }
  const java = files.filter((f) => f.path.endsWith(".java"));
  if (java.some((f) => f.text.includes("io.temporal."))) {
    await javaTemporal(java, out);
  }
  const cs = files.filter((f) => f.path.endsWith(".cs"));
  if (cs.some((f) => f.text.includes("Temporalio"))) {
    await dotnetTemporal(cs, out);
  }
  return out;
}

// ---------------------------------------------------------------- Python

const PY_CALLS: ReadonlySet<string> = new Set([
  "temporalio.workflow.execute_activity",
  "temporalio.workflow.start_activity",
  "temporalio.workflow.execute_local_activity",
  "temporalio.workflow.start_local_activity",
  "temporalio.workflow.execute_activity_method",
  "temporalio.workflow.start_activity_method",
  "temporalio.workflow.execute_local_activity_method",
  "temporalio.workflow.start_local_activity_method",
]);

async function pythonTemporal(
  files: SourceFile[],
  out: Emitter,
): Promise<void> {
  const project = await PyProject.load(files, out.diagnostics);
  try {
    for (const module of project.list) {
      const path = module.file.path;
      for (const decorator of module.decorators) {
        const definition = decorator.parent?.childForFieldName("definition");
        if (definition?.type !== "function_definition") continue;
        const name = pythonActivityName(definition, project);
        if (name) {
          emit(
            out,
            decorator,
            path,
            "python",
            "server",
            name,
            1,
            "temporalio",
            definition,
          );
        }
      }
      for (const call of module.calls) {
        const callee = call.childForFieldName("function");
        if (!callee || !PY_CALLS.has(project.externalName(callee) ?? "")) {
          continue;
        }
        const target = argument(
          call.childForFieldName("arguments"),
          0,
          "activity",
        );
        if (!target) continue;
        const literal = stringValue(target);
        if (literal !== undefined) {
          emit(out, call, path, "python", "client", literal, 1, "temporalio");
          continue;
        }
        const resolved = pythonReference(target, project, module);
        if (resolved) {
          emit(
            out,
            call,
            path,
            "python",
            "client",
            resolved.name,
            resolved.confidence,
            "temporalio",
          );
        }
      }
    }
  } finally {
    project.delete();
  }
}

/** The activity name of a function decorated with `@activity.defn`, if it is one. */
function pythonActivityName(
  definition: Node,
  project: PyProject,
): string | undefined {
  const decorated = definition.parent;
  if (decorated?.type !== "decorated_definition") return undefined;
  for (const decorator of namedChildren(decorated)) {
    if (decorator.type !== "decorator") continue;
    const expr = namedChildren(decorator)[0];
    if (!expr) continue;
    const callee = expr.type === "call"
      ? expr.childForFieldName("function")
      : expr;
    if (
      !callee || project.externalName(callee) !== "temporalio.activity.defn"
    ) continue;
    if (expr.type === "call") {
      const nameNode = keywordArg(expr.childForFieldName("arguments"), "name");
      const explicit = nameNode ? project.evalString(nameNode) : undefined;
      if (explicit && !explicit.text.includes("\u0000")) return explicit.text;
    }
    return definition.childForFieldName("name")?.text;
  }
  return undefined;
}

function pythonReference(
  target: Node,
  project: PyProject,
  module: PyModule,
): { name: string; confidence: number } | undefined {
  const resolved = project.resolveExpr(target);
  if (resolved?.kind === "function") {
    const name = pythonActivityName(resolved.node, project);
    if (name) return { name, confidence: 1 };
  }
  if (target.type === "attribute") {
    // MyActivities.charge: a method of a project class
    const object = target.childForFieldName("object");
    const attr = target.childForFieldName("attribute")?.text;
    const cls = object ? project.resolveExpr(object) : undefined;
    if (cls?.kind === "class" && attr) {
      const body = cls.node.childForFieldName("body");
      for (const statement of body ? namedChildren(body) : []) {
        const def = statement.type === "decorated_definition"
          ? statement.childForFieldName("definition")
          : statement;
        if (def?.childForFieldName("name")?.text !== attr) continue;
        const name = def ? pythonActivityName(def, project) : undefined;
        if (name) return { name, confidence: 1 };
      }
    }
  }
  void module;
  const last = target.type === "attribute"
    ? target.childForFieldName("attribute")?.text
    : target.type === "identifier"
    ? target.text
    : undefined;
  // an activity defined outside the scan root: the SDK uses its name
  return last ? { name: last, confidence: CONFIDENCE_COMPOSED } : undefined;
}

// ---------------------------------------------------------------- Go

const GO_WORKER = "go.temporal.io/sdk/worker";
const GO_WORKFLOW = "go.temporal.io/sdk/workflow";

async function goTemporal(files: SourceFile[], out: Emitter): Promise<void> {
  const project = await GoProject.load(files, out.diagnostics);
  try {
    for (const file of project.files) {
      const path = file.file.path;
      for (
        const call of project.callsIn(file)
      ) {
        const callee = call.childForFieldName("function");
        if (callee?.type !== "selector_expression") continue;
        const method = callee.childForFieldName("field")?.text ?? "";
        const args = namedChildren(call.childForFieldName("arguments") ?? call)
          .filter((n) => n.type !== "comment");
        const qualified = project.qualified(callee);
        if (qualified) {
          if (
            qualified[0] !== GO_WORKFLOW ||
            (method !== "ExecuteActivity" && method !== "ExecuteLocalActivity")
          ) continue;
          const target = args[1];
          const literal = project.evalString(target);
          if (literal && !literal.text.includes("\u0000")) {
            emit(
              out,
              call,
              path,
              "go",
              "client",
              literal.text,
              literal.composed ? CONFIDENCE_COMPOSED : 1,
              "temporal-go",
            );
            continue;
          }
          const name = goFunctionName(target, project);
          if (name) {
            emit(out, call, path, "go", "client", name, 1, "temporal-go");
          }
          continue;
        }
        if (
          method !== "RegisterActivity" &&
          method !== "RegisterActivityWithOptions"
        ) continue;
        const receiver = project.typeOf(callee.childForFieldName("operand"));
        if (receiver?.pkg !== GO_WORKER) continue;
        const target = args[0];
        if (method === "RegisterActivityWithOptions") {
          const name = goOptionName(args[1], project);
          if (name) {
            emit(out, call, path, "go", "server", name, 1, "temporal-go");
            continue;
          }
        }
        const type = target?.type === "identifier" &&
            project.functionNamed(target, target.text)
          ? undefined
          : project.typeOf(target);
        const methods = type ? project.methodsOf(type) : undefined;
        if (methods) {
          // a struct: every exported method is an activity
          for (const [name] of methods) {
            if (/^[A-Z]/.test(name)) {
              emit(out, call, path, "go", "server", name, 1, "temporal-go");
            }
          }
          continue;
        }
        const name = goFunctionName(target, project);
        if (name) emit(out, call, path, "go", "server", name, 1, "temporal-go");
      }
    }
  } finally {
    project.delete();
  }
}

/** `ChargeCard`, `acts.ChargeCard`, `activities.ChargeCard` → `ChargeCard`. */
function goFunctionName(
  node: Node | undefined,
  project: GoProject,
): string | undefined {
  if (!node) return undefined;
  if (node.type === "identifier") {
    return project.functionNamed(node, node.text) ? node.text : undefined;
  }
  if (node.type === "selector_expression") {
    return node.childForFieldName("field")?.text;
  }
  return undefined;
}

/** `activity.RegisterOptions{Name: "charge"}` → `charge`. */
function goOptionName(
  node: Node | undefined,
  project: GoProject,
): string | undefined {
  if (node?.type !== "composite_literal") return undefined;
  const body = node.childForFieldName("body");
  for (const element of body ? namedChildren(body) : []) {
    if (element.type !== "keyed_element") continue;
    const [key, value] = namedChildren(element);
    if (key?.text !== "Name") continue;
    const inner = value?.type === "literal_element"
      ? namedChildren(value)[0]
      : value;
    const name = project.evalString(inner);
    if (name && !name.text.includes("\u0000")) return name.text;
  }
  return undefined;
}

// ---------------------------------------------------------------- TS / JS

interface JsFile {
  file: SourceFile;
  tree: CompactTree;
  grammar: GrammarName;
}

async function jsTemporal(files: SourceFile[], out: Emitter): Promise<void> {
  const parsed = new Map<string, JsFile>();
  const parse = async (file: SourceFile): Promise<JsFile | undefined> => {
    let entry = parsed.get(file.path);
    if (entry) return entry;
    const grammar: GrammarName = file.path.endsWith(".tsx")
      ? "tsx"
      : /\.[cm]?ts$/.test(file.path)
      ? "typescript"
      : "javascript";
    try {
      entry = { file, tree: await parseCompact(grammar, file), grammar };
    } catch (error) {
      out.diagnostics.push({
        filePath: file.path,
        severity: "error",
        message: `Cannot parse: ${(error as Error).message}`,
      });
      return undefined;
    }
    parsed.set(file.path, entry);
    return entry;
  };
  try {
    for (const file of files) {
      if (!/["']@temporalio\/(worker|workflow)["']/.test(file.text)) continue;
      const entry = await parse(file);
      if (!entry) continue;
      const root = entry.tree.rootNode;
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
            emit(
              out,
              call,
              file.path,
              entry.grammar,
              "client",
              name,
              1,
              "temporal-ts",
            );
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

interface JsImport {
  source: string;
  name: string; // "*" for a namespace import
}

function jsImports(root: Node): Map<string, JsImport> {
  const imports = new Map<string, JsImport>();
  for (const statement of namedChildren(root)) {
    if (statement.type !== "import_statement") continue;
    const sourceNode = statement.childForFieldName("source");
    const source = sourceNode ? stringValue(sourceNode) : undefined;
    if (source === undefined) continue;
    for (const clause of namedChildren(statement)) {
      if (clause.type !== "import_clause") continue;
      for (const part of namedChildren(clause)) {
        if (part.type === "namespace_import") {
          const local = namedChildren(part)[0]?.text;
          if (local) imports.set(local, { source, name: "*" });
        } else if (part.type === "named_imports") {
          for (const spec of namedChildren(part)) {
            const name = spec.childForFieldName("name")?.text;
            const alias = spec.childForFieldName("alias")?.text;
            if (name) imports.set(alias ?? name, { source, name });
          }
        } else if (part.type === "identifier") {
          imports.set(part.text, { source, name: "default" });
        }
      }
    }
  }
  return imports;
}

async function jsActivities(
  value: Node,
  entry: JsFile,
  imports: Map<string, JsImport>,
  files: SourceFile[],
  parse: (file: SourceFile) => Promise<JsFile | undefined>,
  out: Emitter,
): Promise<void> {
  const path = entry.file.path;
  if (value.type === "object") {
    for (const member of namedChildren(value)) {
      if (member.type === "shorthand_property_identifier") {
        emit(
          out,
          member,
          path,
          entry.grammar,
          "server",
          member.text,
          1,
          "temporal-ts",
        );
      } else if (
        member.type === "pair" || member.type === "method_definition"
      ) {
        const key = member.childForFieldName(
          member.type === "pair" ? "key" : "name",
        );
        const name = key ? stringValue(key) ?? key.text : undefined;
        if (name) {
          emit(
            out,
            member,
            path,
            entry.grammar,
            "server",
            name,
            1,
            "temporal-ts",
          );
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
  for (const statement of namedChildren(module.tree.rootNode)) {
    if (statement.type !== "export_statement") continue;
    const declaration = statement.childForFieldName("declaration");
    if (!declaration) continue;
    if (declaration.type === "function_declaration") {
      const name = declaration.childForFieldName("name")?.text;
      if (name) {
        emit(
          out,
          statement,
          module.file.path,
          module.grammar,
          "server",
          name,
          1,
          "temporal-ts",
          declaration,
        );
      }
    } else if (declaration.type === "lexical_declaration") {
      for (const declarator of namedChildren(declaration)) {
        const fn = declarator.childForFieldName("value");
        const name = declarator.childForFieldName("name")?.text;
        if (
          name &&
          (fn?.type === "arrow_function" || fn?.type === "function_expression")
        ) {
          emit(
            out,
            statement,
            module.file.path,
            module.grammar,
            "server",
            name,
            1,
            "temporal-ts",
            fn,
          );
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
