// FastEndpoints: endpoint classes (`class X : Endpoint<Req>`) whose
// `Configure()` declares the route (`Get("/users/{id}")`, `Verbs(Http.GET,
// Http.HEAD)` + `Routes("/a", "/b")`), under the global `RoutePrefix` the
// scan configures (`app.UseFastEndpoints(c => c.Endpoints.RoutePrefix =
// "api")`) and the prefix of the endpoint's `Group<T>()`.
import type { Node } from "web-tree-sitter";
import { routePorts } from "../_port/http.ts";
import { ownerOf } from "../_syntax/owner.ts";
import { namedChildren, walk } from "../_syntax/tree.ts";
import { CONFIDENCE, exactText, joinPaths, literal } from "../_value/mod.ts";
import type { Value } from "../_value/mod.ts";
import {
  basesOf,
  callArgs,
  type CSharpFile,
  routeMethod,
  typeArgument,
} from "./project.ts";
import type { CSharpIndex } from "./index.ts";

/** The verb methods of an endpoint's `Configure()`. */
const VERB_CALLS: Readonly<Record<string, string>> = {
  Get: "GET",
  Post: "POST",
  Put: "PUT",
  Patch: "PATCH",
  Delete: "DELETE",
};

/** The FastEndpoints base classes of an endpoint. */
const ENDPOINT_BASE =
  /^(?:FastEndpoints\.)?(?:Endpoint|EndpointWithoutRequest|EndpointWithMapping|EndpointWithMapper|Ep\.(?:Req|NoReq))\b/;

interface ScanFacts {
  /** Some file of the scan names FastEndpoints. */
  uses: boolean;
  /** The global `Endpoints.RoutePrefix`, if the scan sets one. */
  prefix: Value | undefined;
}

const facts = new WeakMap<CSharpIndex, ScanFacts>();

function scanFacts(c: CSharpFile): ScanFacts {
  const index = c.index;
  if (!index) {
    return {
      uses: /\bFastEndpoints\b/.test(c.file.text),
      prefix: undefined,
    };
  }
  let known = facts.get(index);
  if (known) return known;
  known = { uses: false, prefix: undefined };
  for (const { file, tree } of index.trees) {
    if (!/\bFastEndpoints\b/.test(file.text)) continue;
    known.uses = true;
    if (!file.text.includes("RoutePrefix")) continue;
    walk(tree.rootNode, (n) => {
      if (n.type !== "assignment_expression" || known!.prefix) return;
      const left = n.childForFieldName("left")?.text.replace(/\s+/g, "");
      const right = n.childForFieldName("right");
      if (!left?.endsWith("Endpoints.RoutePrefix") || !right) return;
      const text = exactText(c.evaluate(right));
      if (text) known!.prefix = literal(text);
    });
  }
  facts.set(index, known);
  return known;
}

/** The ports of a FastEndpoints endpoint class. */
export function fastEndpoint(c: CSharpFile, cls: Node): void {
  const base = basesOf(cls)[0];
  if (!base || !ENDPOINT_BASE.test(base.text)) return;
  const body = cls.childForFieldName("body");
  const configure = (body ? namedChildren(body) : []).find((m) =>
    m.type === "method_declaration" &&
    m.childForFieldName("name")?.text === "Configure"
  );
  const block = configure?.childForFieldName("body");
  if (!configure || !block) return;
  const scan = scanFacts(c);
  if (!scan.uses) return;
  const verbs: Array<{ node: Node; verb: string; paths: Node[] }> = [];
  let listed: string[] = [];
  let routes: Node[] = [];
  let anchor: Node | undefined;
  let group: Value | undefined;
  // A group outside the scan: its prefix is unknown, the path partly known.
  let unknownGroup = false;
  walk(block, (n) => {
    if (n.type === "lambda_expression") return false;
    if (n.type !== "invocation_expression") return;
    const fn = n.childForFieldName("function");
    if (fn?.type === "generic_name" && fn.namedChild(0)?.text === "Group") {
      group = groupPrefix(c, typeArgument(fn) ?? "");
      unknownGroup = group === undefined;
      return;
    }
    if (fn?.type !== "identifier") return;
    const args = callArgs(n);
    const verb = VERB_CALLS[fn.text];
    if (verb) verbs.push({ node: n, verb, paths: args });
    else if (fn.text === "Verbs") {
      anchor ??= n;
      listed = args.map((a) => routeMethod(c, a)).filter((v) =>
        v !== undefined
      );
    } else if (fn.text === "Routes") {
      anchor ??= n;
      routes = args;
    }
  });
  if (listed.length > 0 && routes.length > 0 && anchor) {
    verbs.push(
      ...listed.map((verb) => ({ node: anchor!, verb, paths: routes })),
    );
  }
  const owner = ownerOf(configure, c.file.path, "c-sharp");
  const prefix = group
    ? joinPaths(scan.prefix ?? literal(""), group)
    : scan.prefix ?? literal("");
  const seen = new Set<string>();
  for (const { node, verb, paths } of verbs) {
    for (const p of paths) {
      c.ports.push(...routePorts({
        methods: [verb],
        path: joinPaths(prefix, c.evaluate(p)),
        prefixed: scan.prefix !== undefined || group !== undefined,
        node,
        owner,
        filePath: c.file.path,
        framework: "fastendpoints",
        ...(unknownGroup ? { confidence: CONFIDENCE.partial } : {}),
        seen,
      }));
    }
  }
}

/**
 * The prefix of an endpoint group (`class Admin : Group` whose constructor
 * calls `Configure("admin", ...)`), under its parents
 * (`class Sales : SubGroup<Admin>`); undefined when the class is not in the
 * scan.
 */
function groupPrefix(
  c: CSharpFile,
  name: string,
  depth = 0,
): Value | undefined {
  if (depth > 8 || name === "") return undefined;
  const cls = c.classes?.(name)[0];
  const body = cls?.childForFieldName("body");
  if (!cls || !body) return undefined;
  let own: Value | undefined;
  for (const member of namedChildren(body)) {
    if (member.type !== "constructor_declaration") continue;
    walk(member, (n) => {
      if (own || n.type !== "invocation_expression") return;
      const fn = n.childForFieldName("function");
      const first = callArgs(n)[0];
      if (fn?.type === "identifier" && fn.text === "Configure" && first) {
        own = c.evaluate(first);
      }
    });
  }
  if (!own) return undefined;
  const base = basesOf(cls)[0];
  if (
    base?.type === "generic_name" && base.namedChild(0)?.text === "SubGroup"
  ) {
    const parent = groupPrefix(c, typeArgument(base) ?? "", depth + 1);
    return parent ? joinPaths(parent, own) : own;
  }
  return own;
}
