// A compact, plain-JavaScript copy of a tree-sitter parse tree: one cursor
// walk per file fills a few typed arrays (node type, field, start and end
// offsets, parent, end of subtree), then the WASM tree is deleted at once.
// Nodes are read back through `CompactNode`, which offers the part of the
// web-tree-sitter `Node` interface the Python, Go, gRPC and Temporal
// extractors use, without any WASM call. A tree costs 21 bytes a kept node
// (anonymous tokens outside any field are dropped) plus the source text the
// caller already holds.
//
// Parses are shared by the extractors that read the same file with the
// same grammar (Python and Go files are read by their language extractor,
// by gRPC and by Temporal): the compact tree is kept with the `SourceFile`
// object (weakly), so a scan that hands the same file objects to every
// extractor parses each file once per grammar.
import type { Node as WasmNode, Tree } from "web-tree-sitter";
import type { ExtractDiagnostic, SourceFile } from "../extractor.ts";
import { type GrammarName, loadLanguage, parseSource } from "./parser.ts";
import { ownerOf as wasmOwnerOf } from "./owner.ts";
import {
  parseDiagnostic,
  type Position,
  stringParts as wasmStringParts,
  stringValue as wasmStringValue,
} from "./tree.ts";
import type { PortOwner, SourceSpan } from "../types.ts";
import { parseFailure } from "./passes.ts";

const NAMED = 1;

/** Type and field names of one grammar, by id. */
interface Grammar {
  types: readonly string[];
  fields: ReadonlyMap<string, number>;
}

const grammars = new Map<GrammarName, Promise<Grammar>>();

function grammarTables(name: GrammarName): Promise<Grammar> {
  let tables = grammars.get(name);
  if (!tables) {
    tables = loadLanguage(name).then((language) => {
      const fields = new Map<string, number>();
      language.fields.forEach((field, id) => {
        if (field && id !== 0 && !fields.has(field)) fields.set(field, id);
      });
      return { types: language.types, fields };
    });
    grammars.set(name, tables);
  }
  return tables;
}

interface Arrays {
  types: Uint16Array;
  fields: Uint16Array;
  flags: Uint8Array;
  starts: Uint32Array;
  ends: Uint32Array;
  parents: Int32Array;
  lasts: Uint32Array;
}

/** A parse tree copied out of WASM memory; nodes are indices in preorder. */
export class CompactTree {
  /** The parsed source text. */
  readonly text: string;
  /** The grammar's type and field names. */
  readonly grammar: Grammar;
  /** Type id of each node. */
  readonly types: Uint16Array;
  /** Field id under which each node hangs in its parent (0: none). */
  readonly fields: Uint16Array;
  /** `NAMED` bit of each node. */
  readonly flags: Uint8Array;
  /** Start offset (UTF-16 code units) of each node. */
  readonly starts: Uint32Array;
  /** End offset of each node. */
  readonly ends: Uint32Array;
  /** Parent index of each node (-1 for the root). */
  readonly parents: Int32Array;
  /** Index just past the last descendant of each node. */
  readonly lasts: Uint32Array;
  /** The syntax problem of the file (its diagnostic), read before the WASM tree went away. */
  readonly syntaxProblem: ExtractDiagnostic | undefined;
  #lines: Uint32Array | undefined;

  private constructor(
    text: string,
    grammar: Grammar,
    arrays: Arrays,
    syntaxProblem: ExtractDiagnostic | undefined,
  ) {
    this.text = text;
    this.grammar = grammar;
    this.types = arrays.types;
    this.fields = arrays.fields;
    this.flags = arrays.flags;
    this.starts = arrays.starts;
    this.ends = arrays.ends;
    this.parents = arrays.parents;
    this.lasts = arrays.lasts;
    this.syntaxProblem = syntaxProblem;
  }

  /**
   * Copies `tree` with one cursor walk. Anonymous leaves that hang under no
   * field (punctuation, keywords) are left out: nothing reads them, and
   * they are about half of all nodes. The caller still deletes `tree`.
   */
  static copy(tree: Tree, text: string, grammar: Grammar): CompactTree {
    const root = tree.rootNode;
    const problem = root.hasError ? parseDiagnostic(root, "") : undefined;
    const size = root.descendantCount;
    const types = new Uint16Array(size);
    const fields = new Uint16Array(size);
    const flags = new Uint8Array(size);
    const starts = new Uint32Array(size);
    const ends = new Uint32Array(size);
    const parents = new Int32Array(size);
    const lasts = new Uint32Array(size);
    const stack: number[] = [];
    const cursor = tree.walk();
    let count = 0;
    try {
      for (;;) {
        const named = cursor.nodeIsNamed;
        const field = cursor.currentFieldId;
        let keep = named || field !== 0;
        if (!keep && cursor.gotoFirstChild()) {
          // an anonymous node with children (rare): kept with them
          cursor.gotoParent();
          keep = true;
        }
        if (keep) {
          const index = count++;
          types[index] = cursor.nodeTypeId;
          fields[index] = field;
          flags[index] = named ? NAMED : 0;
          starts[index] = cursor.startIndex;
          ends[index] = cursor.endIndex;
          parents[index] = stack.length ? stack[stack.length - 1]! : -1;
          if (cursor.gotoFirstChild()) {
            stack.push(index);
            continue;
          }
          lasts[index] = count;
        }
        let done = false;
        while (!cursor.gotoNextSibling()) {
          if (!cursor.gotoParent()) {
            done = true;
            break;
          }
          lasts[stack.pop()!] = count;
        }
        if (done) break;
      }
    } finally {
      cursor.delete();
    }
    return new CompactTree(text, grammar, {
      types: types.slice(0, count),
      fields: fields.slice(0, count),
      flags: flags.slice(0, count),
      starts: starts.slice(0, count),
      ends: ends.slice(0, count),
      parents: parents.slice(0, count),
      lasts: lasts.slice(0, count),
    }, problem);
  }

  /** The root node. */
  get rootNode(): CompactNode {
    return new CompactNode(this, 0);
  }

  /** Number of nodes. */
  get size(): number {
    return this.types.length;
  }

  /** Nothing to release (kept so callers can treat it like a WASM tree). */
  delete(): void {}

  /** 0-based row and UTF-16 column of an offset (tree-sitter counts `\n`). */
  point(offset: number): { row: number; column: number } {
    const lines = this.#lines ??= lineStarts(this.text);
    let low = 0;
    let high = lines.length - 1;
    while (low < high) {
      const mid = (low + high + 1) >> 1;
      if (lines[mid]! <= offset) low = mid;
      else high = mid - 1;
    }
    return { row: low, column: offset - lines[low]! };
  }

  /** The node at a preorder index. */
  node(index: number): CompactNode {
    return new CompactNode(this, index);
  }
}

function lineStarts(text: string): Uint32Array {
  let count = 1;
  for (let i = text.indexOf("\n"); i !== -1; i = text.indexOf("\n", i + 1)) {
    count++;
  }
  const lines = new Uint32Array(count);
  let k = 1;
  for (let i = text.indexOf("\n"); i !== -1; i = text.indexOf("\n", i + 1)) {
    lines[k++] = i + 1;
  }
  return lines;
}

/**
 * One node of a `CompactTree`. Every read is a typed-array lookup; like
 * web-tree-sitter nodes, each navigation returns a new object, so compare
 * nodes by `id` (and `tree`), not by identity.
 */
export class CompactNode {
  /** The tree the node belongs to. */
  readonly tree: CompactTree;
  /** Preorder index: unique within the tree. */
  readonly id: number;

  constructor(tree: CompactTree, id: number) {
    this.tree = tree;
    this.id = id;
  }

  /** Node type name (`call`, `identifier`, `(`...). */
  get type(): string {
    const id = this.tree.types[this.id]!;
    return this.tree.grammar.types[id] || "ERROR";
  }

  /** Whether the node is named in the grammar. */
  get isNamed(): boolean {
    return (this.tree.flags[this.id]! & NAMED) !== 0;
  }

  /** Start offset in UTF-16 code units. */
  get startIndex(): number {
    return this.tree.starts[this.id]!;
  }

  /** End offset in UTF-16 code units. */
  get endIndex(): number {
    return this.tree.ends[this.id]!;
  }

  /** The source text of the node. */
  get text(): string {
    return this.tree.text.slice(
      this.tree.starts[this.id]!,
      this.tree.ends[this.id]!,
    );
  }

  /** 0-based start row and column. */
  get startPosition(): { row: number; column: number } {
    return this.tree.point(this.tree.starts[this.id]!);
  }

  /** 0-based end row and column. */
  get endPosition(): { row: number; column: number } {
    return this.tree.point(this.tree.ends[this.id]!);
  }

  /** The parent node, or `null` for the root. */
  get parent(): CompactNode | null {
    const parent = this.tree.parents[this.id]!;
    return parent < 0 ? null : new CompactNode(this.tree, parent);
  }

  /** Number of children (named and anonymous). */
  get childCount(): number {
    const { lasts } = this.tree;
    const end = lasts[this.id]!;
    let count = 0;
    for (let c = this.id + 1; c < end; c = lasts[c]!) count++;
    return count;
  }

  /** Number of named children. */
  get namedChildCount(): number {
    const { lasts, flags } = this.tree;
    const end = lasts[this.id]!;
    let count = 0;
    for (let c = this.id + 1; c < end; c = lasts[c]!) {
      if (flags[c]! & NAMED) count++;
    }
    return count;
  }

  /** The child at `index`, or `null`. */
  child(index: number): CompactNode | null {
    const { lasts } = this.tree;
    const end = lasts[this.id]!;
    let k = 0;
    for (let c = this.id + 1; c < end; c = lasts[c]!) {
      if (k++ === index) return new CompactNode(this.tree, c);
    }
    return null;
  }

  /** The named child at `index`, or `null`. */
  namedChild(index: number): CompactNode | null {
    const { lasts, flags } = this.tree;
    const end = lasts[this.id]!;
    let k = 0;
    for (let c = this.id + 1; c < end; c = lasts[c]!) {
      if ((flags[c]! & NAMED) && k++ === index) {
        return new CompactNode(this.tree, c);
      }
    }
    return null;
  }

  /** All children (named and anonymous). */
  get children(): CompactNode[] {
    const { lasts } = this.tree;
    const end = lasts[this.id]!;
    const out: CompactNode[] = [];
    for (let c = this.id + 1; c < end; c = lasts[c]!) {
      out.push(new CompactNode(this.tree, c));
    }
    return out;
  }

  /** The named children. */
  get namedChildren(): CompactNode[] {
    return namedChildren(this);
  }

  /** The first child under field `name`, or `null`. */
  childForFieldName(name: string): CompactNode | null {
    const field = this.tree.grammar.fields.get(name);
    if (field === undefined) return null;
    const { lasts, fields } = this.tree;
    const end = lasts[this.id]!;
    for (let c = this.id + 1; c < end; c = lasts[c]!) {
      if (fields[c] === field) return new CompactNode(this.tree, c);
    }
    return null;
  }

  /** Every child under field `name`. */
  childrenForFieldName(name: string): CompactNode[] {
    const field = this.tree.grammar.fields.get(name);
    const out: CompactNode[] = [];
    if (field === undefined) return out;
    const { lasts, fields } = this.tree;
    const end = lasts[this.id]!;
    for (let c = this.id + 1; c < end; c = lasts[c]!) {
      if (fields[c] === field) out.push(new CompactNode(this.tree, c));
    }
    return out;
  }
}

/** The node type the Python, Go, gRPC and Temporal extractors work on. */
export type Node = CompactNode;

/** Named children of a node. */
export function namedChildren(node: CompactNode): CompactNode[] {
  const { lasts, flags } = node.tree;
  const end = lasts[node.id]!;
  const out: CompactNode[] = [];
  for (let c = node.id + 1; c < end; c = lasts[c]!) {
    if (flags[c]! & NAMED) out.push(new CompactNode(node.tree, c));
  }
  return out;
}

/** Every node of a type in `types` within `root` (and `root`), in source order. */
export function findAll(
  root: CompactNode,
  types: ReadonlySet<string>,
): CompactNode[] {
  const { tree } = root;
  const wanted = typeIds(tree.grammar, types);
  const out: CompactNode[] = [];
  const end = tree.lasts[root.id]!;
  const ids = tree.types;
  for (let i = root.id; i < end; i++) {
    if (wanted.has(ids[i]!)) out.push(new CompactNode(tree, i));
  }
  return out;
}

/**
 * Every node (named or not) of `root`'s subtree whose type is a key of
 * `buckets`, pushed to that bucket in source order.
 */
export function collectNodes(
  root: CompactNode,
  buckets: ReadonlyMap<string, CompactNode[]>,
): void {
  const { tree } = root;
  const byId = new Map<number, CompactNode[]>();
  tree.grammar.types.forEach((type, id) => {
    const bucket = buckets.get(type);
    if (bucket) byId.set(id, bucket);
  });
  const end = tree.lasts[root.id]!;
  const { types, flags } = tree;
  for (let i = root.id; i < end; i++) {
    if (!(flags[i]! & NAMED)) continue;
    const bucket = byId.get(types[i]!);
    if (bucket) bucket.push(new CompactNode(tree, i));
  }
}

const typeIdCache = new WeakMap<
  Grammar,
  WeakMap<ReadonlySet<string>, Set<number>>
>();

function typeIds(grammar: Grammar, types: ReadonlySet<string>): Set<number> {
  let perGrammar = typeIdCache.get(grammar);
  if (!perGrammar) typeIdCache.set(grammar, perGrammar = new WeakMap());
  let ids = perGrammar.get(types);
  if (!ids) {
    ids = new Set();
    grammar.types.forEach((type, id) => {
      if (types.has(type)) ids!.add(id);
    });
    if (types.has("ERROR")) ids.add(0xffff);
    perGrammar.set(types, ids);
  }
  return ids;
}

/** 1-based position of a node's start. */
export function positionOf(node: CompactNode): Position {
  const { row, column } = node.startPosition;
  return { line: row + 1, col: column + 1 };
}

/** 1-based span of a node. */
export function spanOf(node: CompactNode): SourceSpan {
  const start = node.startPosition;
  const end = node.endPosition;
  return {
    startLine: start.row + 1,
    startCol: start.column + 1,
    endLine: end.row + 1,
    endCol: end.column + 1,
  };
}

// The shared helpers of `_tree.ts` and `_owner.ts` read only `type`, `text`,
// `parent`, `child`, `namedChild(Count)`, `childForFieldName` and the
// positions, which `CompactNode` provides with the same meaning.
function asWasm(node: CompactNode): WasmNode {
  return node as unknown as WasmNode;
}

/** `stringParts` of `_tree.ts` for compact nodes. */
export function stringParts(
  node: CompactNode,
): Array<string | CompactNode> | undefined {
  return wasmStringParts(asWasm(node)) as
    | Array<string | CompactNode>
    | undefined;
}

/** `stringValue` of `_tree.ts` for compact nodes. */
export function stringValue(node: CompactNode): string | undefined {
  return wasmStringValue(asWasm(node));
}

/** `ownerOf` of `_owner.ts` for compact nodes. */
export function ownerOf(
  node: CompactNode,
  filePath: string,
  grammar: GrammarName,
): PortOwner {
  return wasmOwnerOf(asWasm(node), filePath, grammar);
}

const parsed = new WeakMap<
  SourceFile,
  Map<GrammarName, { text: string; tree: CompactTree | Error }>
>();

/**
 * Parses a file into a compact tree (the WASM tree is deleted before this
 * returns). The result is kept with the `SourceFile` object while its text
 * is unchanged, so later extractors reading the same file with the same
 * grammar reuse it; a parse failure is kept and thrown again the same way.
 */
export async function parseCompact(
  grammar: GrammarName,
  file: SourceFile,
): Promise<CompactTree> {
  let perFile = parsed.get(file);
  const cached = perFile?.get(grammar);
  if (cached && cached.text === file.text) {
    if (cached.tree instanceof Error) throw cached.tree;
    return cached.tree;
  }
  const text = file.text;
  let result: CompactTree | Error;
  try {
    const tables = await grammarTables(grammar);
    const tree = await parseSource(grammar, text);
    try {
      result = CompactTree.copy(tree, text, tables);
    } finally {
      tree.delete();
    }
  } catch (error) {
    result = error instanceof Error ? error : new Error(String(error));
  }
  if (!perFile) parsed.set(file, perFile = new Map());
  perFile.set(grammar, { text, tree: result });
  if (result instanceof Error) throw result;
  return result;
}

/**
 * {@linkcode parseCompact}, with a failure reported as an `error`
 * diagnostic (and `undefined` returned) and, with `reportSyntax`, a tree
 * with syntax errors reported as a `warning`.
 */
export async function parseOrReport(
  grammar: GrammarName,
  file: SourceFile,
  diagnostics: ExtractDiagnostic[],
  reportSyntax = false,
): Promise<CompactTree | undefined> {
  let tree: CompactTree;
  try {
    tree = await parseCompact(grammar, file);
  } catch (error) {
    diagnostics.push(parseFailure(file.path, error));
    return undefined;
  }
  if (reportSyntax && tree.syntaxProblem) {
    diagnostics.push({ ...tree.syntaxProblem, filePath: file.path });
  }
  return tree;
}

/** A file with its compact tree. */
export interface ParsedFile {
  file: SourceFile;
  tree: CompactTree;
}

/** {@linkcode parseOrReport} of every file; the ones that parse. */
export async function parseAllCompact(
  files: readonly SourceFile[],
  grammar: GrammarName,
  diagnostics: ExtractDiagnostic[],
  reportSyntax = false,
): Promise<ParsedFile[]> {
  const parsed: ParsedFile[] = [];
  for (const file of files) {
    const tree = await parseOrReport(grammar, file, diagnostics, reportSyntax);
    if (tree) parsed.push({ file, tree });
  }
  return parsed;
}

/**
 * Reads a project of compact trees with `body`, then frees its trees (also
 * when `body` throws).
 */
export async function withProject<P extends { delete(): void }>(
  load: Promise<P>,
  body: (project: P) => void,
): Promise<void> {
  const project = await load;
  try {
    body(project);
  } finally {
    project.delete();
  }
}
