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
import type { SourceFile } from "../extractor.ts";
import type { Node, ParsedFile } from "../_syntax/compact_tree.ts";
import {
  findAll,
  namedChildren,
  parseAllCompact,
  stringValue,
} from "../_syntax/compact_tree.ts";
import type { TemporalOut } from "../_port/temporal.ts";
import { activities, declaredString, simpleType } from "../_port/temporal.ts";
import { CONFIDENCE } from "../_value/confidence.ts";

const JAVA_ACTIVITY_PKG = "io.temporal.activity";
const JAVA_WORKFLOW_PKG = "io.temporal.workflow";
const JAVA_OBJECT_METHODS: ReadonlySet<string> = new Set([
  "toString",
  "hashCode",
  "equals",
  "getClass",
]);

interface JavaFile extends ParsedFile {
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

function javaImports(file: ParsedFile): JavaFile {
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

/** The annotation of a declaration that names `pkg.Simple` in `file`. */
function javaAnnotation(
  file: JavaFile,
  decl: Node,
  pkg: string,
  simple: string,
): Node | undefined {
  return javaAnnotations(decl).find((a) =>
    javaRefers(file, a.childForFieldName("name")?.text ?? "", pkg, simple)
  );
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
  const files = (await parseAllCompact(sources, "java", out.diagnostics)).map(
    javaImports,
  );
  const interfaces = new Map<string, JavaInterface[]>();
  const classes = new Map<string, Array<{ file: JavaFile; node: Node }>>();
  for (const file of files) {
    const root = file.tree.rootNode;
    for (const node of findAll(root, JAVA_NODES.types)) {
      const name = node.childForFieldName("name")?.text;
      if (!name) continue;
      if (node.type === "class_declaration") {
        let list = classes.get(name);
        if (!list) classes.set(name, list = []);
        list.push({ file, node });
        continue;
      }
      const annotation = javaAnnotation(
        file,
        node,
        JAVA_ACTIVITY_PKG,
        "ActivityInterface",
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
        const explicit = javaAnnotation(
          file,
          method,
          JAVA_ACTIVITY_PKG,
          "ActivityMethod",
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
    for (
      const type of extended ? findAll(extended, JAVA_NODES.typeNames) : []
    ) {
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
    for (const call of findAll(root, JAVA_NODES.calls)) {
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
        const bean = javaAnnotation(
          file,
          cls.node,
          "io.temporal.spring.boot",
          "ActivityImpl",
        ) !== undefined;
        if (bean) registered.set(cls.node, { at: cls.node, file });
      }
    }
  }
  for (const [, list] of classes) {
    for (const cls of list) {
      const emit = activities(out, cls.file.file.path, "java", "temporal-java");
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
      for (const type of findAll(implemented, JAVA_NODES.typeNames)) {
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
          activities(out, file.file.path, "java", "temporal-java")(
            where.childForFieldName("name") ?? where,
            "server",
            activity.name,
            isRegistered ? 1 : CONFIDENCE.weak,
            {
              owner: where,
              extra: isRegistered ? {} : { registered: "false" },
            },
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
        emit(name, "server", capitalize(name.text), CONFIDENCE.weak, {
          owner: method,
          extra: { interface: "unresolved" },
        });
      }
    }
  }

  // clients: calls on activity stubs
  for (const file of files) {
    const root = file.tree.rootNode;
    const emit = activities(out, file.file.path, "java", "temporal-java");
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
    for (const node of findAll(root, JAVA_NODES.bindings)) {
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
    for (const call of findAll(root, JAVA_NODES.uses)) {
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
        const name = declaredString(
          args ? namedChildren(args)[0] : undefined,
          root,
        );
        if (name) {
          emit(call, "client", name.text, name.confidence, { owner: call });
        }
        continue;
      }
      if (JAVA_OBJECT_METHODS.has(method)) continue;
      const iface = pick(interfaces.get(kind), file, kind);
      if (iface) {
        const activity = activitiesOf(iface).find((a) => a.method === method);
        if (activity) {
          emit(call, "client", activity.name, 1, { owner: call });
        }
        continue;
      }
      // an interface outside the scan root: Temporal's default name
      emit(call, "client", capitalize(method), CONFIDENCE.composed, {
        owner: call,
      });
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
  for (const declarator of findAll(root, JAVA_NODES.declarators)) {
    if (declarator.childForFieldName("name")?.text !== name) continue;
    const value = declarator.childForFieldName("value");
    if (value?.type === "object_creation_expression") {
      return javaTypeOf(value, root);
    }
    const declared = declarator.parent?.childForFieldName("type");
    if (declared && declared.text !== "var") return simpleType(declared.text);
  }
  for (const parameter of findAll(root, JAVA_NODES.parameters)) {
    if (parameter.childForFieldName("name")?.text !== name) continue;
    const declared = parameter.childForFieldName("type");
    if (declared) return simpleType(declared.text);
  }
  return undefined;
}

/** The node types the Java reader looks for. */
const JAVA_NODES = {
  types: new Set(["class_declaration", "interface_declaration"]),
  typeNames: new Set(["type_identifier", "scoped_type_identifier"]),
  calls: new Set(["method_invocation"]),
  uses: new Set(["method_invocation", "method_reference"]),
  bindings: new Set(["variable_declarator", "assignment_expression"]),
  declarators: new Set(["variable_declarator"]),
  parameters: new Set(["formal_parameter"]),
};
