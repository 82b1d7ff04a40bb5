// Fails when an exported symbol of a public entry point has no JSDoc
// `@example`. `deno doc --lint` checks JSDoc and return types but not
// examples, which JSR scores and `deno test --doc` runs.
import denoJson from "../deno.json" with { type: "json" };

interface DocTag {
  kind: string;
}
interface DocNode {
  name: string;
  kind: string;
  jsDoc?: { tags?: DocTag[] };
  declarationKind?: string;
  location?: { filename: string; line: number };
}

const entryPoints = Object.values(denoJson.exports);
const output = await new Deno.Command(Deno.execPath(), {
  args: ["doc", "--json", ...entryPoints],
  stdout: "piped",
  // Warnings of `deno doc` are scripts/doc_lint.ts's to report.
  stderr: "piped",
}).output();
if (!output.success) {
  // deno-lint-ignore no-console
  console.error(new TextDecoder().decode(output.stderr));
  Deno.exit(1);
}
const parsed = JSON.parse(new TextDecoder().decode(output.stdout));
interface DocModule {
  "module_doc"?: { tags?: DocTag[] };
  symbols?: DocNode[];
}
const modules = Object.entries(parsed.nodes as Record<string, DocModule>);
const nodes: DocNode[] = modules.flatMap(([, module]) => module.symbols ?? []);

const problems: string[] = [];
for (const [file, module] of modules) {
  if (!entryPoints.some((entry) => file.endsWith(entry.slice(1)))) continue;
  if (!module.module_doc?.tags?.some((tag) => tag.kind === "example")) {
    problems.push(`module doc of ${file}`);
  }
}
const seen = new Set<string>();
for (const node of flatten(nodes)) {
  if (["moduleDoc", "import", "reference"].includes(node.kind)) continue;
  if (node.declarationKind === "private") continue;
  const id = `${node.name}@${node.location?.filename}:${node.location?.line}`;
  if (seen.has(id)) continue;
  seen.add(id);
  const tags = node.jsDoc?.tags ?? [];
  if (!tags.some((tag) => tag.kind === "example")) {
    problems.push(
      `${node.name} (${node.kind}) at ${node.location?.filename}:${node.location?.line}`,
    );
  }
}

function* flatten(list: DocNode[]): Generator<DocNode> {
  for (const node of list) {
    const declarations = (node as { declarations?: DocNode[] }).declarations;
    if (declarations) {
      for (const declaration of declarations) {
        yield { ...declaration, name: node.name };
      }
    } else {
      yield node;
    }
  }
}

if (problems.length > 0) {
  // deno-lint-ignore no-console
  console.error(
    `Exports without an @example (${problems.length}):\n  ${
      problems.join("\n  ")
    }`,
  );
  Deno.exit(1);
}
// deno-lint-ignore no-console
console.log(`Every export documents an example (${seen.size} checked)`);
