// Test helper: a tree of files under a new temporary directory.

/** Writes `files` (path -> text) under a new temporary directory. */
export async function makeTree(
  files: Record<string, string>,
): Promise<string> {
  const root = await Deno.makeTempDir({ prefix: "portcullis-scan-" });
  for (const [path, text] of Object.entries(files)) {
    const full = `${root}/${path}`;
    await Deno.mkdir(full.slice(0, full.lastIndexOf("/")), { recursive: true });
    await Deno.writeTextFile(full, text);
  }
  return root;
}

/** An Express route of `path`: one server port in a TypeScript file. */
export function route(path: string): string {
  return `import express from "express";\nconst app = express();\napp.get("${path}", (q, s) => s.end());\n`;
}
