// Where a root given to the scan really is. A checkout's contents belong to
// whoever wrote the pull request: a directory of it turned into a symbolic
// link must not make the scan read (and report) files outside the checkout.
import { lstat, readlink, realpath, stat } from "node:fs/promises";
import process from "node:process";
import { resolve, sep } from "node:path";
import { displayText } from "../boundary/_display_text.ts";
import { errorCode } from "./_fs_error.ts";
import { ScanError } from "./scan_error.ts";

/**
 * The directories from below the longest common ancestor of `from` and
 * `to` down to `to` itself (absolute, normalized paths).
 */
function pathBelow(from: string, to: string): string[] {
  const a = from.split(sep);
  const b = to.split(sep);
  let common = 0;
  while (common < a.length && common < b.length && a[common] === b[common]) {
    common++;
  }
  const out: string[] = [];
  for (let i = Math.max(common, 1); i < b.length; i++) {
    out.push(b.slice(0, i + 1).join(sep) || sep);
  }
  return out;
}

/**
 * Resolves a root to its real path. Unless `followSymlinks`, a root that
 * is a symbolic link, or is reached through one below the working
 * directory (or below the deepest directory the two share), is refused.
 *
 * @throws {ScanError} `ROOT_IS_SYMLINK`, `ROOT_NOT_FOUND`,
 *   `ROOT_UNREADABLE` or `ROOT_NOT_A_DIRECTORY`.
 */
export async function resolveRoot(
  root: string,
  followSymlinks: boolean,
): Promise<string> {
  const absolute = resolve(root);
  if (!followSymlinks) {
    for (const directory of pathBelow(process.cwd(), absolute)) {
      let isLink = false;
      try {
        isLink = (await lstat(directory)).isSymbolicLink();
      } catch {
        break; // a missing part is reported below
      }
      if (!isLink) continue;
      const target = await readlink(directory).catch(() => "?");
      const what = directory === absolute ? "it" : `"${directory}"`;
      throw new ScanError(
        "ROOT_IS_SYMLINK",
        `Cannot scan "${root}": ${what} is a symbolic link (to "${
          displayText(target, 200)
        }"); allow it with --follow-root-symlink (followRootSymlinks)`,
        root,
      );
    }
  }
  let real: string;
  try {
    real = await realpath(absolute);
  } catch (error) {
    const code = errorCode(error);
    throw new ScanError(
      code === "ENOENT" || code === "ENOTDIR"
        ? "ROOT_NOT_FOUND"
        : "ROOT_UNREADABLE",
      code === "ENOENT" || code === "ENOTDIR"
        ? `Cannot scan "${root}": no such directory`
        : `Cannot scan "${root}": ${code}`,
      root,
      { cause: error },
    );
  }
  let directory: boolean;
  try {
    directory = (await stat(real)).isDirectory();
  } catch (error) {
    throw new ScanError(
      "ROOT_UNREADABLE",
      `Cannot scan "${root}": ${errorCode(error)}`,
      root,
      { cause: error },
    );
  }
  if (!directory) {
    throw new ScanError(
      "ROOT_NOT_A_DIRECTORY",
      `Cannot scan "${root}": not a directory`,
      root,
    );
  }
  return real;
}
