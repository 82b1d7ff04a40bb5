// An in-memory ScanCliIo for the command tests: files in a map, streams
// collected.
import type { ScanCliIo } from "../../src/extract/scan_cli.ts";

export interface MemoryIo extends ScanCliIo {
  files: Map<string, string>;
  out: () => string;
  err: () => string;
}

/** An io over the given files. */
export function memoryIo(files: Record<string, string> = {}): MemoryIo {
  const stdout: string[] = [];
  const stderr: string[] = [];
  const map = new Map(Object.entries(files));
  return {
    files: map,
    stdout: (text) => void stdout.push(text),
    stderr: (text) => void stderr.push(text),
    isTty: false,
    writeFile: (path, text) => {
      if (path.startsWith("/unwritable/")) {
        return Promise.reject(new Error("EACCES"));
      }
      map.set(path, text);
      return Promise.resolve();
    },
    readFile: (path, maxBytes) => {
      const text = map.get(path);
      if (text === undefined) return Promise.reject(new Error("ENOENT"));
      if (new TextEncoder().encode(text).length > maxBytes) {
        return Promise.reject(new Error(`more than ${maxBytes} bytes`));
      }
      return Promise.resolve(text);
    },
    out: () => stdout.join(""),
    err: () => stderr.join(""),
  };
}
