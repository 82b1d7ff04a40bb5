// The .d.ts files of the npm packages. One TypeScript program, without Deno
// types (a stray `Deno.` in src/ fails the build), emits the declarations of
// every entry point; each package then takes the files its entry points
// reach, with:
// - relative specifiers ending in .js (understood by every resolution mode),
//   and those into another package rewritten to its entry point;
// - JSR specifiers in the JSDoc examples shown as the npm ones;
// - a reference to @types/emscripten where web-tree-sitter's declarations
//   are imported, since they use its global `EmscriptenModule`.
import ts from "typescript";
import { basename, dirname, join, normalize } from "node:path";
import {
  entryOfFile,
  JSR_NAME,
  type NpmPackage,
  npmSpecifier,
} from "./layout.ts";

/** Packages whose declarations need a `/// <reference types>` to check. */
const AMBIENT_TYPES: Record<string, string> = {
  "web-tree-sitter": "emscripten",
};

/** Emits the declarations of `files` under `outDir`; throws on any diagnostic. */
export function emitDeclarations(
  root: string,
  files: string[],
  outDir: string,
  nodeTypesRoot: string,
): void {
  const program = ts.createProgram(files.map((file) => join(root, file)), {
    declaration: true,
    emitDeclarationOnly: true,
    allowImportingTsExtensions: true,
    rewriteRelativeImportExtensions: true,
    module: ts.ModuleKind.ESNext,
    moduleResolution: ts.ModuleResolutionKind.Bundler,
    target: ts.ScriptTarget.ES2022,
    lib: [
      "lib.es2022.d.ts",
      "lib.dom.d.ts",
      "lib.dom.iterable.d.ts",
      "lib.esnext.disposable.d.ts",
    ],
    types: ["node"],
    typeRoots: [nodeTypesRoot],
    strict: true,
    exactOptionalPropertyTypes: true,
    noImplicitOverride: true,
    noUncheckedIndexedAccess: true,
    skipLibCheck: true,
    declarationDir: outDir,
    rootDir: root,
  });
  const emitted = program.emit();
  const diagnostics = [
    ...ts.getPreEmitDiagnostics(program),
    ...emitted.diagnostics,
  ];
  if (diagnostics.length > 0) {
    throw new Error(
      `Cannot build the npm packages: the type check failed\n${
        ts.formatDiagnostics(diagnostics, {
          getCanonicalFileName: (name) => name,
          getCurrentDirectory: () => root,
          getNewLine: () => "\n",
        })
      }`,
    );
  }
}

/** Where a source file's declarations are: ./src/x.ts -> ./types/src/x.d.ts. */
export function typesPath(file: string): string {
  return `./types/${file.replace(/^\.\//, "").replace(/\.ts$/, ".d.ts")}`;
}

const SPECIFIER =
  /(\bfrom\s*|\bimport\s*\(\s*|\bimport\s+|<reference\s+types=)"([^"]+)"/g;

/**
 * Copies the declarations `npm`'s entry points reach from `emitted` (the
 * output of emitDeclarations) into `packageDir`/types, rewritten for npm.
 * Returns the bare packages they import.
 */
export async function packDeclarations(
  emitted: string,
  npm: NpmPackage,
  packageDir: string,
): Promise<string[]> {
  const queue = Object.values(npm.entries).map((file) =>
    normalize(file.replace(/\.ts$/, ".d.ts"))
  );
  const seen = new Set<string>(queue);
  const imported = new Set<string>();
  const jsr = new RegExp(`"(${JSR_NAME}(?:/[a-z_]+)?)"`, "g");
  while (queue.length > 0) {
    const file = queue.pop()!;
    const text = await Deno.readTextFile(join(emitted, file));
    const ambient = new Set<string>();
    const rewriteImport = (
      whole: string,
      lead: string,
      spec: string,
    ): string => {
      if (lead.startsWith("<reference")) return whole;
      if (!spec.startsWith(".")) {
        const npmName = npmSpecifier(spec);
        if (npmName !== undefined) return `${lead}"${npmName}"`;
        if (!spec.startsWith("node:")) {
          const name = packageName(spec);
          imported.add(name);
          const types = AMBIENT_TYPES[name];
          if (types !== undefined) ambient.add(types);
        }
        return whole;
      }
      const target = normalize(
        join(dirname(file), spec.replace(/\.(ts|js)$/, ".d.ts")),
      );
      // A private module of another package ("_" file, such as the SQL
      // client both database entry points use) is copied, as the bundles
      // copy its code.
      if (!npm.owns(target) && !basename(target).startsWith("_")) {
        const entry = entryOfFile(target.replace(/\.d\.ts$/, ".ts"));
        if (entry === undefined) {
          throw new Error(
            `Cannot pack declarations: ${file} imports ${target}, in no entry point`,
          );
        }
        return `${lead}"${entry}"`;
      }
      if (!seen.has(target)) {
        seen.add(target);
        queue.push(target);
      }
      return `${lead}"${spec.replace(/\.ts$/, ".js")}"`;
    };
    let rewritten = text.split("\n").map((line) =>
      // Comments (JSDoc examples) only get the npm names of this project.
      /^\s*(\*|\/\*|\/\/)/.test(line)
        ? line.replace(jsr, (_, spec: string) => `"${npmSpecifier(spec)}"`)
        : line.replace(SPECIFIER, rewriteImport)
    ).join("\n");
    for (const types of ambient) {
      rewritten = `/// <reference types="${types}" />\n${rewritten}`;
      imported.add(`@types/${types}`);
    }
    const out = join(packageDir, "types", file);
    await Deno.mkdir(dirname(out), { recursive: true });
    await Deno.writeTextFile(out, rewritten);
  }
  return [...imported];
}

/** "@scope/name/sub" -> "@scope/name"; "name/sub" -> "name". */
export function packageName(specifier: string): string {
  const parts = specifier.split("/");
  return specifier.startsWith("@") ? `${parts[0]}/${parts[1]}` : parts[0]!;
}
