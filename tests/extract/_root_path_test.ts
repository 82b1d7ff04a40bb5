import assert from "node:assert/strict";
import { scan, type ScanResult } from "../../src/extract/scan.ts";
import { makeTree, route } from "./_temp_tree.ts";

function scannedFiles(result: ScanResult): string[] {
  return [...new Set(result.ports.map((p) => p.port.filePath))].sort();
}

/** A checkout whose `services` is a link to a directory outside it. */
async function linkedCheckout(): Promise<
  { base: string; cleanup(): Promise<void> }
> {
  const base = await makeTree({
    "outside/secret.ts": route("/outside"),
    "checkout/app/own.ts": route("/own"),
    "checkout/app/inner/x.ts": route("/inner"),
  });
  await Deno.symlink(`${base}/outside`, `${base}/checkout/services`);
  await Deno.symlink(`${base}/outside`, `${base}/checkout/app/link`);
  return {
    base,
    cleanup: () => Deno.remove(base, { recursive: true }),
  };
}

Deno.test({
  name:
    "scan() refuses a root that is a symbolic link unless followRootSymlinks",
  ignore: Deno.build.os === "windows",
  async fn(): Promise<void> {
    const { base, cleanup } = await linkedCheckout();
    try {
      const root = `${base}/checkout/services`;
      await assert.rejects(scan([root]), (error) => {
        assert.equal((error as { code?: string }).code, "ROOT_IS_SYMLINK");
        assert.match(
          (error as Error).message,
          /it is a symbolic link \(to ".*outside"\); allow it with --follow-root-symlink/,
        );
        return true;
      });
      const result = await scan([root], { followRootSymlinks: true });
      assert.deepEqual(scannedFiles(result), ["secret.ts"]);
      assert.equal(
        result.roots[0]?.realPath,
        await Deno.realPath(`${base}/outside`),
      );
      assert.equal(result.roots[0]?.path, root);
    } finally {
      await cleanup();
    }
  },
});

Deno.test({
  name:
    "scan() refuses a root reached through a symbolic link on the way to it",
  ignore: Deno.build.os === "windows",
  async fn(): Promise<void> {
    const { base, cleanup } = await linkedCheckout();
    try {
      await Deno.mkdir(`${base}/outside/sub`);
      await assert.rejects(scan([`${base}/checkout/services/sub`]), {
        name: "ScanError",
        code: "ROOT_IS_SYMLINK",
        message: /services" is a symbolic link/,
      });
    } finally {
      await cleanup();
    }
  },
});

Deno.test({
  name: "scan() never follows symbolic links inside a root",
  ignore: Deno.build.os === "windows",
  async fn(): Promise<void> {
    const { base, cleanup } = await linkedCheckout();
    try {
      const result = await scan([`${base}/checkout/app`]);
      assert.deepEqual(scannedFiles(result), ["inner/x.ts", "own.ts"]);
      assert.deepEqual(result.diagnostics, []);
    } finally {
      await cleanup();
    }
  },
});
