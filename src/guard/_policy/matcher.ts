// Static checks of a model's matchers. casbin compiles a matcher only when
// it decides, so a typo or an unknown function builds fine and then throws
// (or, behind a short-circuit, silently denies) on requests. Parsing the
// matcher up front and resolving every name turns that into a load error.
// A CommonJS package: Node's ESM loader offers only its default export.
import expressionEval from "@casbin/expression-eval";

const { addBinaryOp, parse } = expressionEval;
import { FunctionMap, type Model, Util } from "casbin";

/** A node of a parsed matcher expression. */
export interface Node {
  type: string;
  [field: string]: unknown;
}

/** Whether a value is a node of a parsed matcher expression. */
export function isNode(value: unknown): value is Node {
  return typeof value === "object" && value !== null &&
    typeof (value as { type?: unknown }).type === "string";
}

/** The names a matcher may use: request and policy tokens, functions. */
function knownNames(
  model: Model,
  extraFunctions: Iterable<string>,
): { values: Set<string>; functions: Set<string> } {
  const values = new Set<string>();
  for (const section of ["r", "p"]) {
    for (const assertion of model.model.get(section)?.values() ?? []) {
      for (const token of assertion.tokens) values.add(token);
    }
  }
  const functions = new Set<string>(["eval"]);
  const builtins: Map<string, unknown> = FunctionMap.loadFunctionMap()
    .getFunctions();
  for (const name of builtins.keys()) functions.add(name);
  for (const key of model.model.get("g")?.keys() ?? []) functions.add(key);
  for (const name of extraFunctions) functions.add(name);
  return { values, functions };
}

/**
 * Checks every matcher of the model: it must parse, call only known
 * functions, and read only request and policy tokens. Returns a description
 * of the first problem, or undefined when the matchers are sound.
 */
export function checkMatchers(
  model: Model,
  extraFunctions: Iterable<string> = [],
): string | undefined {
  const { values, functions } = knownNames(model, extraFunctions);
  // Parse the way casbin compiles: with its `in` operator, after rewriting
  // `x in (a, b)` to `x in [a, b]`.
  addBinaryOp("in", 1, Util.customIn);
  for (const [key, assertion] of model.model.get("m") ?? []) {
    let root: unknown;
    try {
      root = parse(Util.bracketCompatible(assertion.value));
    } catch (error) {
      return `matcher "${key}" does not parse (${
        error instanceof Error ? error.message : String(error)
      })`;
    }
    const problem = checkNode(root, values, functions);
    if (problem !== undefined) return `matcher "${key}" ${problem}`;
  }
  return undefined;
}

function checkNode(
  node: unknown,
  values: Set<string>,
  functions: Set<string>,
): string | undefined {
  if (!isNode(node)) return undefined;
  switch (node.type) {
    case "Identifier": {
      const name = String(node.name);
      if (values.has(name) || functions.has(name)) return undefined;
      return `uses unknown name "${name.replace(/^([rp]\d*)_/, "$1.")}"`;
    }
    case "CallExpression": {
      const callee = node.callee;
      if (isNode(callee) && callee.type === "Identifier") {
        const name = String(callee.name);
        if (!functions.has(name)) return `calls unknown function "${name}"`;
      } else {
        const problem = checkNode(callee, values, functions);
        if (problem !== undefined) return problem;
      }
      for (const argument of (node.arguments as unknown[]) ?? []) {
        const problem = checkNode(argument, values, functions);
        if (problem !== undefined) return problem;
      }
      return undefined;
    }
    case "MemberExpression": {
      const problem = checkNode(node.object, values, functions);
      if (problem !== undefined || node.computed !== true) return problem;
      return checkNode(node.property, values, functions);
    }
    default:
      for (const [field, child] of Object.entries(node)) {
        if (field === "type") continue;
        for (const item of Array.isArray(child) ? child : [child]) {
          const problem = checkNode(item, values, functions);
          if (problem !== undefined) return problem;
        }
      }
      return undefined;
  }
}
