// The C++ file being read: its comment-free text, scopes, ports and their
// owners (the enclosing class, else the file).
import { HTTP_METHODS, httpPort } from "../_port/http.ts";
import type { SourceFile } from "../extractor.ts";
import { moduleOwner } from "../_syntax/owner.ts";
import type { ExtractedPort, PortOwner } from "../types.ts";
import { CppText, type Scope, scopesAt, scopesOf } from "./text.ts";

/** The standard method a framework name stands for (`Get`, `post`), if any. */
export function methodNamed(name: string): string | undefined {
  const upper = name.toUpperCase();
  return HTTP_METHODS.has(upper) ? upper : undefined;
}

/** One file being read: its comment-free text, scopes and ports. */
export class CppFile {
  readonly file: SourceFile;
  /** The text with comments blanked. */
  readonly code: string;
  /** The same text with its lines and string literals indexed. */
  readonly text: CppText;
  readonly ports: ExtractedPort[];
  #scopes: Scope[] | undefined;

  constructor(file: SourceFile, code: string, ports: ExtractedPort[]) {
    this.file = file;
    this.code = code;
    this.text = new CppText(code);
    this.ports = ports;
  }

  /** The namespace and class scopes of the file. */
  get scopes(): Scope[] {
    return this.#scopes ??= scopesOf(this.code);
  }

  /** The scopes around an offset, outermost first. */
  scopesAt(offset: number): Scope[] {
    return scopesAt(this.scopes, offset);
  }

  /** The owner of a route at an offset: its class, else the file. */
  ownerAt(offset: number): PortOwner {
    const path = this.file.path;
    const around = this.scopesAt(offset);
    const cls = around.filter((s) => s.kind === "class").at(-1);
    if (!cls) return moduleOwner(path);
    const name = cls.name.split("::").at(-1)!;
    return {
      kind: "class",
      name,
      qualifiedName: `${path}::${name}`,
      filePath: path,
    };
  }

  /** Records a port of `method path` at an offset. */
  route(
    offset: number,
    method: string,
    path: string,
    framework: string,
    confidence = 1,
  ): void {
    const line = this.text.lineAt(offset);
    const column = this.text.columnAt(offset);
    const port = httpPort({
      role: "server",
      method,
      path: path.startsWith("/") ? path : "/" + path,
      node: { startPosition: { row: line - 1, column } },
      owner: this.ownerAt(offset),
      filePath: this.file.path,
      confidence,
      framework,
    });
    if (port) this.ports.push(port);
  }
}
