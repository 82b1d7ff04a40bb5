// How a policy test's string subject becomes the first request value: the
// string itself when the matchers use `r.sub` whole (`r.sub == p.sub`,
// `g(r.sub, p.sub)`), `{ <attribute>: string }` when they read exactly one
// attribute of it (`r.sub.role == p.sub`, as the guard's users are shaped),
// and an error when they read both or several attributes.
import { type Model, Util } from "casbin";
import {
  matcherNodes,
  type Node,
  parseMatcher,
  pathOf,
} from "./_matcher_ast.ts";
import { PolicyTestError } from "./policy_test_error.ts";

/** How the matchers read the first request token. */
interface SubjectReads {
  readonly token: string;
  readonly whole: boolean;
  readonly attributes: ReadonlySet<string>;
}

function readsOf(model: Model): SubjectReads | undefined {
  const token = model.model.get("r")?.get("r")?.tokens[0];
  if (token === undefined) return undefined;
  let whole = false;
  const attributes = new Set<string>();
  const readsToken = (node: Node): boolean => pathOf(node)?.[0] === token;
  const visit = (root: Node): void => {
    // A read of the token is recorded whole, not again through its parts.
    for (const node of matcherNodes(root, (node) => !readsToken(node))) {
      const path = pathOf(node);
      if (path === undefined || path[0] !== token) continue;
      if (path.length === 1) whole = true;
      else attributes.add(path[1]!);
    }
  };
  for (const [, matcher] of model.model.get("m") ?? []) {
    try {
      visit(parseMatcher(matcher.value));
    } catch {
      // the provider refuses a matcher that does not parse
    }
  }
  // Rules evaluated with eval() read the request too.
  if (
    [...(model.model.get("m")?.values() ?? [])].some((m) =>
      Util.hasEval(m.value)
    )
  ) {
    const pattern = new RegExp(
      `\\b${token.replace("_", "[._]")}\\.(\\w+)`,
      "g",
    );
    for (const [, assertion] of model.model.get("p") ?? []) {
      for (const rule of assertion.policy) {
        for (const value of rule) {
          for (const match of value.matchAll(pattern)) {
            attributes.add(match[1]!);
          }
        }
      }
    }
  }
  return { token, whole, attributes };
}

/**
 * The request value for a test case's subject: objects as they are, a
 * string mapped as the model reads `r.sub`.
 */
export function subjectValue(model: Model, subject: unknown): unknown {
  if (typeof subject !== "string") return subject;
  const reads = readsOf(model);
  if (reads === undefined || reads.attributes.size === 0) return subject;
  const name = reads.token.replace(/^r_/, "r.");
  const attributes = [...reads.attributes].sort().map((a) => `${name}.${a}`);
  if (!reads.whole && reads.attributes.size === 1) {
    return { [[...reads.attributes][0]!]: subject };
  }
  throw new PolicyTestError(
    "SUBJECT_AMBIGUOUS",
    `Cannot map the subject "${subject}": the matcher reads ${
      reads.whole ? `${name} itself and ` : ""
    }${attributes.join(" and ")}; give the subject as an object`,
  );
}
