// The command's link to the process: standard streams, and files read and
// written with node:fs (so Deno, Node and Bun run it alike). Graph files are
// read only up to a size limit: a graph from a pull request's CI artifact
// is as untrusted as its code.
import process from "node:process";
import { mkdir, readFile, stat, writeFile } from "node:fs/promises";
import { dirname } from "node:path";
import type { ScanCliIo } from "./scan_cli.ts";
import { displayText } from "../boundary/_display_text.ts";

/** The process's streams and file system. */
export function processIo(): ScanCliIo {
  return {
    stdout: (text) => void process.stdout.write(text),
    stderr: (text) => void process.stderr.write(text),
    isTty: process.stderr.isTTY === true && process.stdout.isTTY === true,
    async writeFile(path, text): Promise<void> {
      await mkdir(dirname(path), { recursive: true });
      await writeFile(path, text, "utf8");
    },
    readFile: readBounded,
  };
}

/**
 * Writes a file the command was asked to write; on a failure says so on
 * stderr and gives false (the command then exits with 2).
 */
export async function writeOutput(
  io: ScanCliIo,
  path: string,
  text: string,
): Promise<boolean> {
  try {
    await io.writeFile(path, text);
    return true;
  } catch (error) {
    io.stderr(
      `Cannot write "${displayText(path)}": ${
        displayText((error as Error).message)
      }\n`,
    );
    return false;
  }
}

/** A UTF-8 file of at most `maxBytes` bytes. */
async function readBounded(path: string, maxBytes: number): Promise<string> {
  const info = await stat(path);
  if (!info.isFile()) throw new Error("not a file");
  if (info.size > maxBytes) {
    throw new Error(
      `${info.size} bytes, more than ${maxBytes} (raise --max-graph-bytes)`,
    );
  }
  const bytes = await readFile(path);
  if (bytes.length > maxBytes) {
    throw new Error(`more than ${maxBytes} bytes (raise --max-graph-bytes)`);
  }
  return new TextDecoder("utf-8", { fatal: true }).decode(bytes);
}
