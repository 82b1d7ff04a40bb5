// Builds the npm packages into npm/<name>/ (see scripts/npm/layout.ts):
// `portcullis` (guard, boundary core, adapters) and `portcullis-scan` (the
// extractors and the portcullis-scan command, depending on the core). Each
// gets ESM bundles, .d.ts declarations, and a package.json whose
// dependencies are exactly the packages its bundles and declarations
// import, at the versions pinned in deno.json.
//
//   deno run -A scripts/build_npm.ts [version]
import { join } from "node:path";
import denoJson from "../deno.json" with { type: "json" };
import { bundle, jsPath, stopBundler } from "./npm/_bundle.ts";
import { emitDeclarations, packDeclarations } from "./npm/_declarations.ts";
import { manifest } from "./npm/_manifest.ts";
import { NPM_DIR, PACKAGES } from "./npm/layout.ts";

const root = new URL("../", import.meta.url).pathname;
const version = Deno.args[0] ?? denoJson.version;

// Every pinned package into node_modules/, for the type check.
const install = await new Deno.Command(Deno.execPath(), {
  args: ["install", "--quiet"],
  cwd: root,
}).output();
if (!install.success) {
  throw new Error("Cannot build the npm packages: deno install failed");
}

const outDir = join(root, NPM_DIR);
await Deno.remove(outDir, { recursive: true }).catch(() => {});
await Deno.mkdir(outDir, { recursive: true });

// Declarations of every entry point at once, with Node's types at the
// version deno.json pins (from Deno's package store).
const declarations = join(outDir, ".declarations");
const nodeTypes = denoJson.imports["@types/node"].replace(
  "npm:@types/node@",
  "",
);
emitDeclarations(
  root,
  Object.values(denoJson.exports),
  declarations,
  join(root, `node_modules/.deno/@types+node@${nodeTypes}/node_modules/@types`),
);

for (const npm of PACKAGES) {
  const packageDir = join(outDir, npm.name);
  const imported = [
    ...npm.resolvedAtRunTime,
    ...await bundle(root, npm),
    ...await packDeclarations(declarations, npm, packageDir),
  ];
  for (const file of Object.values(npm.bins)) {
    const path = join(packageDir, jsPath(file));
    const code = await Deno.readTextFile(path);
    if (!code.startsWith("#!")) {
      await Deno.writeTextFile(path, `#!/usr/bin/env node\n${code}`);
    }
    await Deno.chmod(path, 0o755);
  }
  const packageJson = manifest(npm, version, imported);
  await Deno.writeTextFile(
    join(packageDir, "package.json"),
    JSON.stringify(packageJson, null, 2) + "\n",
  );
  for (const file of ["README.md", "CHANGELOG.md", "LICENSE"]) {
    await Deno.copyFile(join(root, file), join(packageDir, file));
  }
  // deno-lint-ignore no-console
  console.log(
    `Built ${npm.name}@${version} in ${NPM_DIR}/${npm.name}/ (${
      Object.keys(npm.entries).length
    } entry points; dependencies: ${
      Object.keys(packageJson.dependencies as object).join(", ") || "none"
    })`,
  );
}
await stopBundler();
await Deno.remove(declarations, { recursive: true });
