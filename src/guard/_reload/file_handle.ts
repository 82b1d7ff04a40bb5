// An open file whose metadata can be checked synchronously and cheaply on
// every request. Its handle keeps pointing at the file it opened: an edit
// in place changes its size or times, and a rename over its path or a
// delete drops its link count, so one fstat tells whether the file at the
// path may differ from what was read through it, before any watcher event
// has arrived. Deno's own file API is used under Deno (its fstat costs a
// fifth of node:fs's there), node:fs elsewhere.
import { close, fstatSync, open, read } from "node:fs";

/** What an fstat says about a file, for change detection. */
export interface FileStamp {
  readonly size: number;
  readonly mtimeMs: number;
  readonly ctimeMs: number;
  readonly ino: number;
  readonly nlink: number;
}

/** Whether two stamps describe the same version of a file. */
export function sameStamp(a: FileStamp, b: FileStamp): boolean {
  return a.size === b.size && a.mtimeMs === b.mtimeMs &&
    a.ctimeMs === b.ctimeMs && a.ino === b.ino && a.nlink === b.nlink;
}

/** An open file. */
export interface OpenFile {
  /** The file's stamp now (a synchronous fstat of the handle). */
  stampSync(): FileStamp;
  /** Reads the file from its start to its end. */
  readAll(): Promise<Uint8Array>;
  /** Closes the handle; later calls do nothing. */
  close(): void;
}

interface DenoFileInfo {
  size: number;
  mtime: Date | null;
  ctime?: Date | null;
  ino: number | null;
  nlink: number | null;
}

interface DenoFsFile {
  statSync(): DenoFileInfo;
  read(buffer: Uint8Array): Promise<number | null>;
  close(): void;
}

interface DenoFs {
  open(path: string, options: { read: true }): Promise<DenoFsFile>;
}

const deno = (globalThis as { Deno?: DenoFs }).Deno;

const CHUNK = 64 * 1024;

/** Reads `next` chunks until it reports the end. */
async function readChunks(
  next: (buffer: Uint8Array) => Promise<number>,
  sizeHint: number,
): Promise<Uint8Array> {
  let buffer = new Uint8Array(Math.max(sizeHint + 1, CHUNK));
  let length = 0;
  for (;;) {
    if (length === buffer.byteLength) {
      const grown = new Uint8Array(buffer.byteLength * 2);
      grown.set(buffer);
      buffer = grown;
    }
    const count = await next(buffer.subarray(length));
    if (count === 0) break;
    length += count;
  }
  return buffer.subarray(0, length);
}

class DenoOpenFile implements OpenFile {
  #file: DenoFsFile | undefined;

  constructor(file: DenoFsFile) {
    this.#file = file;
  }

  stampSync(): FileStamp {
    const info = this.#open().statSync();
    return {
      size: info.size,
      mtimeMs: info.mtime?.getTime() ?? 0,
      ctimeMs: info.ctime?.getTime() ?? 0,
      ino: info.ino ?? 0,
      nlink: info.nlink ?? 1,
    };
  }

  readAll(): Promise<Uint8Array> {
    const file = this.#open();
    return readChunks(
      async (buffer) => (await file.read(buffer)) ?? 0,
      this.stampSync().size,
    );
  }

  close(): void {
    const file = this.#file;
    this.#file = undefined;
    try {
      file?.close();
    } catch {
      // already closed
    }
  }

  #open(): DenoFsFile {
    if (this.#file === undefined) throw new Error("the file is closed");
    return this.#file;
  }
}

class NodeOpenFile implements OpenFile {
  #fd: number | undefined;

  constructor(fd: number) {
    this.#fd = fd;
  }

  stampSync(): FileStamp {
    const info = fstatSync(this.#open());
    return {
      size: info.size,
      mtimeMs: info.mtimeMs,
      ctimeMs: info.ctimeMs,
      ino: info.ino,
      nlink: info.nlink,
    };
  }

  readAll(): Promise<Uint8Array> {
    const fd = this.#open();
    let position = 0;
    return readChunks(
      (buffer) =>
        new Promise<number>((resolve, reject) => {
          read(fd, buffer, 0, buffer.byteLength, position, (error, count) => {
            if (error) reject(error);
            else {
              position += count;
              resolve(count);
            }
          });
        }),
      this.stampSync().size,
    );
  }

  close(): void {
    const fd = this.#fd;
    this.#fd = undefined;
    if (fd !== undefined) close(fd, () => {});
  }

  #open(): number {
    if (this.#fd === undefined) throw new Error("the file is closed");
    return this.#fd;
  }
}

/** Node's error code for a Deno error class (`NotFound` is `ENOENT`). */
function withCode(error: unknown): unknown {
  if (
    error instanceof Error && !("code" in error) && error.name === "NotFound"
  ) {
    Object.assign(error, { code: "ENOENT" });
  }
  return error;
}

/** Opens a file for reading; rejects with a Node-style error (`code`). */
export async function openFile(path: string): Promise<OpenFile> {
  if (deno !== undefined) {
    try {
      return new DenoOpenFile(await deno.open(path, { read: true }));
    } catch (error) {
      throw withCode(error);
    }
  }
  const fd = await new Promise<number>((resolve, reject) => {
    open(path, "r", (error, fd) => (error ? reject(error) : resolve(fd)));
  });
  return new NodeOpenFile(fd);
}
