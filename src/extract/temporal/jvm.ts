// Temporal activities of the Java and .NET SDKs: definitions (servers) and
// calls from workflows (clients), keyed by the activity type name the SDK
// registers. Read on compact tree-sitter trees, like the other Temporal SDKs.
//
// Java: an `@ActivityInterface` (of `io.temporal.activity`) names its
// methods `namePrefix` + the method name with its first letter upper-cased,
// unless `@ActivityMethod(name = "x")` gives one (the prefix is then
// ignored, as in the SDK). A server port sits at the method of the class a
// worker registers (`registerActivitiesImplementations(new Impl())`, or a
// Spring `@ActivityImpl` bean), confidence 1; at the interface method when
// that class inherits it; at 0.6 (`registered: "false"`) for a class of the
// scan that implements the interface but is registered nowhere in it; at
// 0.6 (`interface: "unresolved"`) for the `@Override` methods of a
// registered class whose interface is outside the scan root. An interface
// alone (the workflow side's copy) is no server. Calls: methods of
// `Workflow.newActivityStub(X.class, ...)` / `newLocalActivityStub` stubs
// held in a variable or field (also `stub::method` references), and
// `execute`/`executeAsync` of untyped stubs with a literal name (0.95 for a
// same-file constant); a stub of an interface outside the scan gets the
// default name at 0.95.
//
// .NET: a method with `[Activity]` (of `Temporalio.Activities`) is named by
// `[Activity("x")]`, else by its name minus an `Async` suffix when it is
// async or returns a Task/ValueTask (the SDK's rule, per its documentation);
// `[Activity(Dynamic = true)]` has no name and is skipped. A server port sits
// at the attribute, confidence 1 when the class is registered in the scan
// (`AddAllActivities`, `AddActivity(x.Method)`, hosting `Add*Activities<T>`,
// `AddActivitiesInstance`), else 0.6 (`registered: "false"`). Calls:
// `Workflow.ExecuteActivityAsync` / `ExecuteLocalActivityAsync` with a lambda
// (`(MyActivities a) => a.DoAsync()` or a static method) or a name.
//
// Variables are matched by name within a file (no flow analysis).
import type { ExtractDiagnostic, SourceFile } from "../extractor.ts";
import type { GrammarName } from "../_syntax/parser.ts";
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
import { CONFIDENCE_COMPOSED, CONFIDENCE_WEAK } from "../_value/python_go.ts";
import type { ExtractedPort } from "../types.ts";

/** Where the Temporal extractor collects ports and diagnostics. */
export interface TemporalOut {
  ports: ExtractedPort[];
  diagnostics: ExtractDiagnostic[];
}

interface Parsed {
  file: SourceFile;
  tree: CompactTree;
}

async function parseAll(
  files: readonly SourceFile[],
  grammar: GrammarName,
  out: TemporalOut,
): Promise<Parsed[]> {
  const parsed: Parsed[] = [];
  for (const file of files) {
    try {
      parsed.push({ file, tree: await parseCompact(grammar, file) });
    } catch (error) {
      out.diagnostics.push({
        filePath: file.path,
        severity: "error",
        message: `Cannot parse: ${(error as Error).message}`,
      });
    }
  }
  return parsed;
}

function push(
  out: TemporalOut,
  at: Node,
  owner: Node,
  filePath: string,
  grammar: GrammarName,
  role: "server" | "client",
  name: string,
  confidence: number,
  sdk: string,
  extra: Record<string, string> = {},
): void {
  const { line, col } = positionOf(at);
  out.ports.push({
    ref: {
      mechanism: "temporal",
      role,
      key: name,
      line,
      col,
      confidence,
      detail: { activity: name, framework: sdk, ...extra },
    },
    owner: ownerOf(owner, filePath, grammar),
    filePath,
  });
}

/** Last segment of a (qualified, generic) type name: `a.b.C<T>` → `C`. */
function simpleType(text: string): string {
  const bare = text.replace(/<[\s\S]*$/, "").replace(/\?$/, "").trim();
  return bare.slice(bare.lastIndexOf(".") + 1);
}

/** A literal string, or a same-file constant holding one (`static final` / `const`). */
function stringOf(
  node: Node | undefined,
  root: Node,
): { text: string; confidence: number } | undefined {
  if (!node) return undefined;
  const literal = stringValue(node);
  if (literal !== undefined) return { text: literal, confidence: 1 };
  const name = node.type === "identifier"
    ? node.text
    : node.type === "field_access" || node.type === "member_access_expression"
    ? node.childForFieldName(node.type === "field_access" ? "field" : "name")
      ?.text
    : undefined;
  if (!name) return undefined;
  for (const declarator of findAll(root, DECLARATORS)) {
    if (declarator.childForFieldName("name")?.text !== name) continue;
    const value = declarator.childForFieldName("value") ??
      namedChildren(declarator).find((n) => n.type !== "identifier");
    const text = value ? stringValue(value) : undefined;
    if (text !== undefined) return { text, confidence: CONFIDENCE_COMPOSED };
  }
  return undefined;
}

const DECLARATORS: ReadonlySet<string> = new Set(["variable_declarator"]);

// ---------------------------------------------------------------- Java

const JAVA_ACTIVITY_PKG = "io.temporal.activity";
const JAVA_WORKFLOW_PKG = "io.temporal.workflow";
const JAVA_OBJECT_METHODS: ReadonlySet<string> = new Set([
  "toString",
  "hashCode",
  "equals",
  "getClass",
]);

interface JavaFile extends Parsed {
  /** Simple name → fully qualified name of single-type imports. */
  imports: Map<string, string>;
  /** Packages imported on demand (`import x.y.*`). */
  wildcards: Set<string>;
}

interface JavaActivity {
  method: string;
  name: string;
  node: Node;
}

interface JavaInterface {
  file: JavaFile;
  node: Node;
  activities: JavaActivity[];
}

function javaImports(file: Parsed): JavaFile {
  const imports = new Map<string, string>();
  const wildcards = new Set<string>();
  for (const statement of namedChildren(file.tree.rootNode)) {
    if (statement.type !== "import_declaration") continue;
    if (/^import\s+static\b/.test(statement.text)) continue;
    const parts = namedChildren(statement);
    const name = parts[0]?.text.replace(/\s+/g, "");
    if (!name) continue;
    if (parts.some((p) => p.type === "asterisk")) wildcards.add(name);
    else imports.set(name.slice(name.lastIndexOf(".") + 1), name);
  }
  return { ...file, imports, wildcards };
}

/** Whether `name` (as written) refers to `pkg.Simple` in `file`. */
function javaRefers(
  file: JavaFile,
  written: string,
  pkg: string,
  simple: string,
): boolean {
  if (written === `${pkg}.${simple}`) return true;
  if (written !== simple) return false;
  const imported = file.imports.get(simple);
  if (imported) return imported === `${pkg}.${simple}`;
  return file.wildcards.has(pkg);
}

function javaAnnotations(decl: Node): Node[] {
  const modifiers = namedChildren(decl).find((n) => n.type === "modifiers");
  return modifiers
    ? namedChildren(modifiers).filter((n) =>
      n.type === "annotation" || n.type === "marker_annotation"
    )
    : [];
}

/** `@A(key = "x")` → `x`; `@A("x")` for `key` `value`. */
function javaAnnotationString(
  annotation: Node,
  key: string,
): string | undefined {
  const args = annotation.childForFieldName("arguments");
  for (const arg of args ? namedChildren(args) : []) {
    if (arg.type === "element_value_pair") {
      if (arg.childForFieldName("key")?.text !== key) continue;
      const value = arg.childForFieldName("value");
      return value ? stringValue(value) : undefined;
    }
    if (key === "value") return stringValue(arg);
  }
  return undefined;
}

function capitalize(name: string): string {
  return name.charAt(0).toUpperCase() + name.slice(1);
}

/**
 * Finds Temporal Java SDK activities: interfaces annotated
 * `@ActivityInterface` whose implementations a worker registers, and calls
 * through `Workflow.newActivityStub` / `newUntypedActivityStub` stubs.
 */
export async function javaTemporal(
  sources: readonly SourceFile[],
  out: TemporalOut,
): Promise<void> {
  const files = (await parseAll(sources, "java", out)).map(javaImports);
  const interfaces = new Map<string, JavaInterface[]>();
  const classes = new Map<string, Array<{ file: JavaFile; node: Node }>>();
  for (const file of files) {
    const root = file.tree.rootNode;
    for (const node of findAll(root, JAVA_TYPES)) {
      const name = node.childForFieldName("name")?.text;
      if (!name) continue;
      if (node.type === "class_declaration") {
        let list = classes.get(name);
        if (!list) classes.set(name, list = []);
        list.push({ file, node });
        continue;
      }
      const annotation = javaAnnotations(node).find((a) =>
        javaRefers(
          file,
          a.childForFieldName("name")?.text ?? "",
          JAVA_ACTIVITY_PKG,
          "ActivityInterface",
        )
      );
      if (!annotation) continue;
      const prefix = javaAnnotationString(annotation, "namePrefix") ?? "";
      const activities: JavaActivity[] = [];
      const body = node.childForFieldName("body");
      for (const method of body ? namedChildren(body) : []) {
        if (method.type !== "method_declaration") continue;
        const modifiers = namedChildren(method).find((n) =>
          n.type === "modifiers"
        );
        if (modifiers && /\b(static|private)\b/.test(modifiers.text)) continue;
        const methodName = method.childForFieldName("name")?.text;
        if (!methodName) continue;
        const explicit = javaAnnotations(method).find((a) =>
          javaRefers(
            file,
            a.childForFieldName("name")?.text ?? "",
            JAVA_ACTIVITY_PKG,
            "ActivityMethod",
          )
        );
        const given = explicit
          ? javaAnnotationString(explicit, "name")
          : undefined;
        activities.push({
          method: methodName,
          name: given ? given : prefix + capitalize(methodName),
          node: method,
        });
      }
      let list = interfaces.get(name);
      if (!list) interfaces.set(name, list = []);
      list.push({ file, node, activities });
    }
  }
  const pick = <T extends { file: JavaFile }>(
    list: T[] | undefined,
    from: JavaFile,
    simple: string,
  ): T | undefined => {
    if (!list?.length) return undefined;
    const imported = from.imports.get(simple);
    return list.find((c) =>
      imported
        ? imported === `${javaPackage(c.file)}.${simple}`
        : javaPackage(c.file) === javaPackage(from)
    ) ?? (list.length === 1 ? list[0] : undefined);
  };
  /** Activities of an interface, with those of the activity interfaces it extends. */
  const activitiesOf = (
    iface: JavaInterface,
    seen = new Set<Node>(),
  ): JavaActivity[] => {
    if (seen.has(iface.node)) return [];
    seen.add(iface.node);
    const own = [...iface.activities];
    const extended = namedChildren(iface.node).find((n) =>
      n.type === "extends_interfaces"
    );
    for (const type of extended ? findAll(extended, JAVA_TYPE_NAMES) : []) {
      if (type.parent?.type === "type_arguments") continue;
      const parent = pick(
        interfaces.get(simpleType(type.text)),
        iface.file,
        simpleType(type.text),
      );
      if (parent) own.push(...activitiesOf(parent, seen));
    }
    return own;
  };

  // servers: registered implementations (and @ActivityImpl Spring beans)
  const registered = new Map<Node, { at: Node; file: JavaFile }>();
  for (const file of files) {
    const root = file.tree.rootNode;
    if (!/\bio\.temporal\.(worker|spring)\b/.test(file.tree.text)) continue;
    for (const call of findAll(root, JAVA_CALLS)) {
      if (
        call.childForFieldName("name")?.text !==
          "registerActivitiesImplementations" ||
        !call.childForFieldName("object")
      ) continue;
      const args = call.childForFieldName("arguments");
      for (const arg of args ? namedChildren(args) : []) {
        const type = javaTypeOf(arg, root);
        const cls = type ? pick(classes.get(type), file, type) : undefined;
        if (cls && !registered.has(cls.node)) {
          registered.set(cls.node, { at: call, file });
        }
      }
    }
    for (const [, list] of classes) {
      for (const cls of list) {
        if (cls.file !== file || registered.has(cls.node)) continue;
        const bean = javaAnnotations(cls.node).some((a) =>
          javaRefers(
            file,
            a.childForFieldName("name")?.text ?? "",
            "io.temporal.spring.boot",
            "ActivityImpl",
          )
        );
        if (bean) registered.set(cls.node, { at: cls.node, file });
      }
    }
  }
  for (const [, list] of classes) {
    for (const cls of list) {
      const implemented = namedChildren(cls.node).find((n) =>
        n.type === "super_interfaces"
      );
      if (!implemented) continue;
      const isRegistered = registered.has(cls.node);
      const body = cls.node.childForFieldName("body");
      const methods = body
        ? namedChildren(body).filter((n) => n.type === "method_declaration")
        : [];
      let resolved = false;
      for (const type of findAll(implemented, JAVA_TYPE_NAMES)) {
        if (type.parent?.type === "type_arguments") continue;
        const simple = simpleType(type.text);
        const iface = pick(interfaces.get(simple), cls.file, simple);
        if (!iface) continue;
        resolved = true;
        for (const activity of activitiesOf(iface)) {
          const impl = methods.find((m) =>
            m.childForFieldName("name")?.text === activity.method
          );
          const where = impl ?? activity.node;
          const file = impl ? cls.file : iface.file;
          push(
            out,
            where.childForFieldName("name") ?? where,
            where,
            file.file.path,
            "java",
            "server",
            activity.name,
            isRegistered ? 1 : CONFIDENCE_WEAK,
            "temporal-java",
            isRegistered ? {} : { registered: "false" },
          );
        }
      }
      if (resolved || !isRegistered) continue;
      // registered, but its activity interface is outside the scan root:
      // the methods it overrides, under Temporal's default name
      for (const method of methods) {
        const modifiers = namedChildren(method).find((n) =>
          n.type === "modifiers"
        );
        if (
          !modifiers || !/\bpublic\b/.test(modifiers.text) ||
          /\bstatic\b/.test(modifiers.text) ||
          !javaAnnotations(method).some((a) =>
            a.childForFieldName("name")?.text === "Override"
          )
        ) continue;
        const name = method.childForFieldName("name");
        if (!name || JAVA_OBJECT_METHODS.has(name.text)) continue;
        push(
          out,
          name,
          method,
          cls.file.file.path,
          "java",
          "server",
          capitalize(name.text),
          CONFIDENCE_WEAK,
          "temporal-java",
          { interface: "unresolved" },
        );
      }
    }
  }

  // clients: calls on activity stubs
  for (const file of files) {
    const root = file.tree.rootNode;
    const isWorkflow = (node: Node | null): boolean =>
      node !== null &&
      javaRefers(file, node.text, JAVA_WORKFLOW_PKG, "Workflow");
    const stubKind = (value: Node | null): string | undefined => {
      if (value?.type !== "method_invocation") return undefined;
      if (!isWorkflow(value.childForFieldName("object"))) return undefined;
      const method = value.childForFieldName("name")?.text;
      if (
        method === "newUntypedActivityStub" ||
        method === "newUntypedLocalActivityStub"
      ) return "";
      if (
        method !== "newActivityStub" && method !== "newLocalActivityStub"
      ) return undefined;
      const args = value.childForFieldName("arguments");
      const first = args ? namedChildren(args)[0] : undefined;
      if (first?.type !== "class_literal") return undefined;
      const type = namedChildren(first)[0]?.text;
      return type ? simpleType(type) : undefined;
    };
    if (!/\bio\.temporal\.workflow\b/.test(file.tree.text)) continue;
    const stubs = new Map<string, string>(); // variable → interface ("" untyped)
    for (const node of findAll(root, JAVA_BINDINGS)) {
      const target = node.type === "variable_declarator"
        ? node.childForFieldName("name")
        : node.childForFieldName("left");
      const value = node.childForFieldName(
        node.type === "variable_declarator" ? "value" : "right",
      );
      const kind = stubKind(value);
      const name = target?.type === "field_access"
        ? target.childForFieldName("field")?.text
        : target?.text;
      if (kind !== undefined && name) stubs.set(name, kind);
    }
    for (const call of findAll(root, JAVA_USES)) {
      // stub.charge(...) or a method reference stub::charge (Async.function)
      const reference = call.type === "method_reference";
      const parts = reference ? namedChildren(call) : [];
      const object = reference
        ? parts[0] ?? null
        : call.childForFieldName("object");
      const method = reference
        ? (parts.length === 2 && parts[1]!.type === "identifier"
          ? parts[1]!.text
          : "")
        : call.childForFieldName("name")?.text ?? "";
      if (!method) continue;
      let kind = stubKind(object);
      if (kind === undefined && object) {
        const name = object.type === "field_access"
          ? object.childForFieldName("field")?.text
          : object.type === "identifier"
          ? object.text
          : undefined;
        kind = name !== undefined ? stubs.get(name) : undefined;
      }
      if (kind === undefined) continue;
      if (kind === "") {
        if (reference) continue;
        if (method !== "execute" && method !== "executeAsync") continue;
        const args = call.childForFieldName("arguments");
        const name = stringOf(args ? namedChildren(args)[0] : undefined, root);
        if (name) {
          push(
            out,
            call,
            call,
            file.file.path,
            "java",
            "client",
            name.text,
            name.confidence,
            "temporal-java",
          );
        }
        continue;
      }
      if (JAVA_OBJECT_METHODS.has(method)) continue;
      const iface = pick(interfaces.get(kind), file, kind);
      if (iface) {
        const activity = activitiesOf(iface).find((a) => a.method === method);
        if (activity) {
          push(
            out,
            call,
            call,
            file.file.path,
            "java",
            "client",
            activity.name,
            1,
            "temporal-java",
          );
        }
        continue;
      }
      // an interface outside the scan root: Temporal's default name
      push(
        out,
        call,
        call,
        file.file.path,
        "java",
        "client",
        capitalize(method),
        CONFIDENCE_COMPOSED,
        "temporal-java",
      );
    }
  }
}

function javaPackage(file: JavaFile): string {
  const pkg = namedChildren(file.tree.rootNode).find((n) =>
    n.type === "package_declaration"
  );
  return pkg ? (namedChildren(pkg)[0]?.text ?? "").replace(/\s+/g, "") : "";
}

/** The class of `new X(...)`, or of a variable / field declared in the file. */
function javaTypeOf(arg: Node, root: Node): string | undefined {
  if (arg.type === "object_creation_expression") {
    const type = arg.childForFieldName("type");
    return type ? simpleType(type.text) : undefined;
  }
  const name = arg.type === "identifier"
    ? arg.text
    : arg.type === "field_access"
    ? arg.childForFieldName("field")?.text
    : undefined;
  if (!name) return undefined;
  for (const declarator of findAll(root, DECLARATORS)) {
    if (declarator.childForFieldName("name")?.text !== name) continue;
    const value = declarator.childForFieldName("value");
    if (value?.type === "object_creation_expression") {
      return javaTypeOf(value, root);
    }
    const declared = declarator.parent?.childForFieldName("type");
    if (declared && declared.text !== "var") return simpleType(declared.text);
  }
  for (const parameter of findAll(root, JAVA_PARAMETERS)) {
    if (parameter.childForFieldName("name")?.text !== name) continue;
    const declared = parameter.childForFieldName("type");
    if (declared) return simpleType(declared.text);
  }
  return undefined;
}

const JAVA_TYPES: ReadonlySet<string> = new Set([
  "class_declaration",
  "interface_declaration",
]);
const JAVA_TYPE_NAMES: ReadonlySet<string> = new Set([
  "type_identifier",
  "scoped_type_identifier",
]);
const JAVA_CALLS: ReadonlySet<string> = new Set(["method_invocation"]);
const JAVA_USES: ReadonlySet<string> = new Set([
  "method_invocation",
  "method_reference",
]);
const JAVA_BINDINGS: ReadonlySet<string> = new Set([
  "variable_declarator",
  "assignment_expression",
]);
const JAVA_PARAMETERS: ReadonlySet<string> = new Set(["formal_parameter"]);

// ---------------------------------------------------------------- .NET

interface CsActivity {
  method: string;
  name: string;
  attribute: Node;
  node: Node;
}

interface CsClass {
  file: Parsed;
  node: Node;
  activities: CsActivity[];
}

function csUsings(root: Node): Set<string> {
  const usings = new Set<string>();
  for (const node of findAll(root, CS_USINGS)) {
    // `using Alias = X.Y;` is not a namespace import
    if (namedChildren(node).length !== 1) continue;
    const name = namedChildren(node)[0]?.text.replace(/\s+/g, "");
    if (name && !/^using\s+static\b/.test(node.text)) usings.add(name);
  }
  return usings;
}

/** The Temporal activity name of a method, or undefined when it is not one. */
function csActivity(
  method: Node,
  usings: Set<string>,
): { name: string; attribute: Node } | undefined {
  for (const list of namedChildren(method)) {
    if (list.type !== "attribute_list") continue;
    for (const attribute of namedChildren(list)) {
      if (attribute.type !== "attribute") continue;
      const written = attribute.childForFieldName("name")?.text.replace(
        /\s+/g,
        "",
      ) ?? "";
      const ours = written === "Temporalio.Activities.Activity" ||
        written === "Temporalio.Activities.ActivityAttribute" ||
        ((written === "Activity" || written === "ActivityAttribute") &&
          usings.has("Temporalio.Activities"));
      if (!ours) continue;
      const argList = namedChildren(attribute).find((n) =>
        n.type === "attribute_argument_list"
      );
      let explicit: string | undefined;
      for (const arg of argList ? namedChildren(argList) : []) {
        const parts = namedChildren(arg);
        if (parts.length > 1 || /^\s*\w+\s*[=:][^=]/.test(arg.text)) {
          // Dynamic = true: no fixed name
          if (/^\s*Dynamic\s*=\s*true\b/.test(arg.text)) return undefined;
          continue;
        }
        explicit ??= parts[0] ? stringValue(parts[0]) : undefined;
      }
      if (explicit) return { name: explicit, attribute: list };
      const name = method.childForFieldName("name")?.text ?? "";
      const returns = method.childForFieldName("returns")?.text ?? "";
      const isAsync = namedChildren(method).some((n) =>
        n.type === "modifier" && n.text === "async"
      ) || /^(System\.Threading\.Tasks\.)?(Value)?Task\b/.test(returns);
      return {
        name: isAsync && name.endsWith("Async") && name.length > 5
          ? name.slice(0, -5)
          : name,
        attribute: list,
      };
    }
  }
  return undefined;
}

/**
 * Finds Temporal .NET SDK activities: methods with `[Activity]` of classes a
 * worker registers, and `Workflow.ExecuteActivityAsync` /
 * `ExecuteLocalActivityAsync` calls (lambda or activity name).
 */
export async function dotnetTemporal(
  sources: readonly SourceFile[],
  out: TemporalOut,
): Promise<void> {
  const files = await parseAll(sources, "c-sharp", out);
  const classes = new Map<string, CsClass[]>();
  for (const file of files) {
    const root = file.tree.rootNode;
    const usings = csUsings(root);
    for (const node of findAll(root, CS_CLASSES)) {
      const name = node.childForFieldName("name")?.text;
      if (!name) continue;
      const activities: CsActivity[] = [];
      const body = node.childForFieldName("body");
      for (const method of body ? namedChildren(body) : []) {
        if (method.type !== "method_declaration") continue;
        const activity = csActivity(method, usings);
        if (!activity) continue;
        activities.push({
          method: method.childForFieldName("name")?.text ?? "",
          name: activity.name,
          attribute: activity.attribute,
          node: method,
        });
      }
      let list = classes.get(name);
      if (!list) classes.set(name, list = []);
      list.push({ file, node, activities });
    }
  }
  const classNamed = (name: string | undefined): CsClass | undefined => {
    const list = name ? classes.get(name) : undefined;
    return list?.find((c) => c.activities.length) ?? list?.[0];
  };

  // registrations on worker options / hosting builders
  const registered = new Map<CsActivity, boolean>();
  for (const file of files) {
    const root = file.tree.rootNode;
    if (!/\bTemporalio\b/.test(file.tree.text)) continue;
    for (const call of findAll(root, CS_CALLS)) {
      const callee = call.childForFieldName("function");
      if (callee?.type !== "member_access_expression") continue;
      const nameNode = callee.childForFieldName("name");
      const method = nameNode?.type === "generic_name"
        ? namedChildren(nameNode)[0]?.text
        : nameNode?.text;
      if (!method || !CS_REGISTRATIONS.has(method)) continue;
      const typeArg = nameNode?.type === "generic_name"
        ? findAll(nameNode, CS_TYPE_ARGS)[0]
        : undefined;
      const args = namedChildren(call.childForFieldName("arguments") ?? call)
        .map((a) => namedChildren(a).at(-1))
        .filter((a): a is Node => a !== undefined);
      if (method === "AddActivity") {
        const target = args[0];
        if (target?.type !== "member_access_expression") continue;
        const member = target.childForFieldName("name")?.text;
        const receiver = target.childForFieldName("expression");
        const cls = receiver
          ? classNamed(csTypeOf(receiver, root) ?? receiver.text)
          : undefined;
        for (const activity of cls?.activities ?? []) {
          if (activity.method === member) registered.set(activity, true);
        }
        continue;
      }
      let type: string | undefined;
      if (typeArg) {
        type = simpleType(namedChildren(typeArg)[0]?.text ?? "");
      } else if (args[0]) {
        type = csTypeOf(args[0], root);
      }
      for (const activity of classNamed(type)?.activities ?? []) {
        registered.set(activity, true);
      }
    }
  }
  for (const [, list] of classes) {
    for (const cls of list) {
      for (const activity of cls.activities) {
        const isRegistered = registered.has(activity);
        push(
          out,
          activity.attribute,
          activity.node,
          cls.file.file.path,
          "c-sharp",
          "server",
          activity.name,
          isRegistered ? 1 : CONFIDENCE_WEAK,
          "temporal-dotnet",
          isRegistered ? {} : { registered: "false" },
        );
      }
    }
  }

  // calls from workflows
  for (const file of files) {
    const root = file.tree.rootNode;
    const usings = csUsings(root);
    if (!/\bTemporalio\.Workflows\b/.test(file.tree.text)) continue;
    for (const call of findAll(root, CS_CALLS)) {
      const callee = call.childForFieldName("function");
      if (callee?.type !== "member_access_expression") continue;
      const nameNode = callee.childForFieldName("name");
      const method = nameNode?.type === "generic_name"
        ? namedChildren(nameNode)[0]?.text
        : nameNode?.text;
      if (
        method !== "ExecuteActivityAsync" &&
        method !== "ExecuteLocalActivityAsync"
      ) continue;
      const receiver = callee.childForFieldName("expression")?.text.replace(
        /\s+/g,
        "",
      );
      if (
        receiver !== "Temporalio.Workflows.Workflow" &&
        !(receiver === "Workflow" && usings.has("Temporalio.Workflows"))
      ) continue;
      const first = namedChildren(
        namedChildren(call.childForFieldName("arguments") ?? call)[0] ?? call,
      ).at(-1);
      if (!first) continue;
      if (first.type === "lambda_expression") {
        const resolved = csLambdaActivity(first, classNamed);
        if (resolved) {
          push(
            out,
            call,
            call,
            file.file.path,
            "c-sharp",
            "client",
            resolved.name,
            resolved.confidence,
            "temporal-dotnet",
          );
        }
        continue;
      }
      const name = stringOf(first, root);
      if (name) {
        push(
          out,
          call,
          call,
          file.file.path,
          "c-sharp",
          "client",
          name.text,
          name.confidence,
          "temporal-dotnet",
        );
      }
    }
  }
}

/** `(MyActivities a) => a.DoAsync(x)` or `() => MyActivities.Do(x)`. */
function csLambdaActivity(
  lambda: Node,
  classNamed: (name: string | undefined) => CsClass | undefined,
): { name: string; confidence: number } | undefined {
  let body = lambda.childForFieldName("body");
  if (body?.type === "await_expression") body = namedChildren(body)[0] ?? null;
  if (body?.type !== "invocation_expression") return undefined;
  const callee = body.childForFieldName("function");
  if (callee?.type !== "member_access_expression") return undefined;
  const method = callee.childForFieldName("name")?.text;
  const receiver = callee.childForFieldName("expression")?.text;
  if (!method || !receiver) return undefined;
  let type = receiver;
  const params = lambda.childForFieldName("parameters");
  for (const param of params ? findAll(params, CS_PARAMS) : []) {
    if (param.childForFieldName("name")?.text !== receiver) continue;
    const declared = param.childForFieldName("type")?.text;
    if (!declared) return undefined;
    type = declared;
  }
  const cls = classNamed(simpleType(type));
  if (cls) {
    const activity = cls.activities.find((a) => a.method === method);
    return activity ? { name: activity.name, confidence: 1 } : undefined;
  }
  // a class outside the scan root: the SDK's default name
  return {
    name: method.endsWith("Async") && method.length > 5
      ? method.slice(0, -5)
      : method,
    confidence: CONFIDENCE_COMPOSED,
  };
}

/** The class of `new X(...)`, `typeof(X)`, `this`, or a variable of the file. */
function csTypeOf(arg: Node, root: Node): string | undefined {
  if (arg.type === "object_creation_expression") {
    const type = arg.childForFieldName("type");
    return type ? simpleType(type.text) : undefined;
  }
  if (arg.type === "typeof_expression") {
    const type = arg.childForFieldName("type") ?? namedChildren(arg)[0];
    return type ? simpleType(type.text) : undefined;
  }
  if (arg.type === "this" || arg.type === "this_expression") {
    let node: Node | null = arg.parent;
    while (node && node.type !== "class_declaration") node = node.parent;
    return node?.childForFieldName("name")?.text;
  }
  if (arg.type !== "identifier") return undefined;
  for (const declarator of findAll(root, DECLARATORS)) {
    if (declarator.childForFieldName("name")?.text !== arg.text) continue;
    const value = namedChildren(declarator).find((n) =>
      n.type === "object_creation_expression"
    );
    if (value) return csTypeOf(value, root);
    const declared = declarator.parent?.childForFieldName("type");
    if (declared && declared.type !== "implicit_type") {
      return simpleType(declared.text);
    }
  }
  for (const param of findAll(root, CS_PARAMS)) {
    if (param.childForFieldName("name")?.text !== arg.text) continue;
    const declared = param.childForFieldName("type");
    if (declared) return simpleType(declared.text);
  }
  return undefined;
}

const CS_USINGS: ReadonlySet<string> = new Set(["using_directive"]);
const CS_CLASSES: ReadonlySet<string> = new Set([
  "class_declaration",
  "record_declaration",
  "struct_declaration",
]);
const CS_CALLS: ReadonlySet<string> = new Set(["invocation_expression"]);
const CS_TYPE_ARGS: ReadonlySet<string> = new Set(["type_argument_list"]);
const CS_PARAMS: ReadonlySet<string> = new Set(["parameter"]);
const CS_REGISTRATIONS: ReadonlySet<string> = new Set([
  "AddAllActivities",
  "AddActivity",
  "AddScopedActivities",
  "AddSingletonActivities",
  "AddTransientActivities",
  "AddStaticActivities",
  "AddActivitiesInstance",
]);
