// Every distinct string of a compiled index, stored once as UTF-16 code
// units and found through an open-addressing hash table: typed arrays only,
// so that a worker can build the table and hand it over without a copy, and
// a lookup reads a request string code unit by code unit without
// allocating.

/** The strings of a compiled index; structured-cloneable and transferable. */
export interface StringTable {
  /** All distinct strings, concatenated. */
  readonly chars: Uint16Array;
  /** String `i` is `chars[start[i]]` to `chars[start[i + 1] - 1]`. */
  readonly start: Uint32Array;
  readonly hash: Uint32Array;
  /** Open addressing, power-of-two size: string id + 1, or 0 for empty. */
  readonly slots: Int32Array;
}

export const FNV_OFFSET = 0x811c9dc5;
const FNV_PRIME = 0x01000193;

/** Adds one value (a code unit, an id) to an FNV-1a hash in progress. */
export function mix(hash: number, value: number): number {
  return Math.imul(hash ^ value, FNV_PRIME);
}

/**
 * Spreads every input bit over the low bits (murmur3's finalizer): the
 * tables index by the low bits, and FNV over small integers leaves them
 * clustered.
 */
export function finish(hash: number): number {
  hash ^= hash >>> 16;
  hash = Math.imul(hash, 0x85ebca6b);
  hash ^= hash >>> 13;
  hash = Math.imul(hash, 0xc2b2ae35);
  hash ^= hash >>> 16;
  return hash >>> 0;
}

export function hashString(text: string): number {
  let hash = FNV_OFFSET;
  for (let i = 0; i < text.length; i++) hash = mix(hash, text.charCodeAt(i));
  return finish(hash);
}

/** A power of two at least twice `count` (load factor at most 1/2). */
export function tableSize(count: number): number {
  let size = 8;
  while (size < count * 2) size *= 2;
  return size;
}

/** Collects strings while an index is built; ids in order of first use. */
export class StringInterner {
  readonly #ids = new Map<string, number>();
  readonly strings: string[] = [];

  intern(text: string): number {
    let id = this.#ids.get(text);
    if (id === undefined) {
      id = this.strings.length;
      this.#ids.set(text, id);
      this.strings.push(text);
    }
    return id;
  }

  /** The id of a string already interned, or -1. */
  find(text: string): number {
    return this.#ids.get(text) ?? -1;
  }

  /**
   * The table of every string interned so far; pauses (yields) after
   * every 1,024 strings.
   */
  *table(): Generator<void, StringTable> {
    const strings = this.strings;
    let charCount = 0;
    for (const text of strings) charCount += text.length;
    const chars = new Uint16Array(charCount);
    const start = new Uint32Array(strings.length + 1);
    const hash = new Uint32Array(strings.length);
    const slots = new Int32Array(tableSize(strings.length));
    const mask = slots.length - 1;
    let offset = 0;
    for (let id = 0; id < strings.length; id++) {
      if (id % 1024 === 1023) yield;
      const text = strings[id]!;
      start[id] = offset;
      for (let i = 0; i < text.length; i++) {
        chars[offset++] = text.charCodeAt(i);
      }
      const h = hashString(text);
      hash[id] = h;
      let slot = h & mask;
      while (slots[slot] !== 0) slot = (slot + 1) & mask;
      slots[slot] = id + 1;
    }
    start[strings.length] = offset;
    return { chars, start, hash, slots };
  }
}

/** The id of `text` in the table, or -1. */
export function stringId(table: StringTable, text: string): number {
  const hash = hashString(text);
  const { chars, start, slots } = table;
  const mask = slots.length - 1;
  for (let slot = hash & mask;; slot = (slot + 1) & mask) {
    const entry = slots[slot]!;
    if (entry === 0) return -1;
    const id = entry - 1;
    if (table.hash[id] !== hash) continue;
    const from = start[id]!;
    if (start[id + 1]! - from !== text.length) continue;
    let i = 0;
    while (i < text.length && chars[from + i] === text.charCodeAt(i)) i++;
    if (i === text.length) return id;
  }
}

/** The string with this id, decoded from the table. */
export function stringAt(table: StringTable, id: number): string {
  const from = table.start[id]!;
  const to = table.start[id + 1]!;
  let out = "";
  // In chunks: String.fromCharCode takes its arguments on the stack.
  for (let i = from; i < to; i += 4096) {
    out += String.fromCharCode(
      ...table.chars.subarray(i, Math.min(to, i + 4096)),
    );
  }
  return out;
}

/** The buffers of a string table, for a transfer list. */
export function stringTableBuffers(table: StringTable): ArrayBuffer[] {
  return [table.chars, table.start, table.hash, table.slots].map((array) =>
    array.buffer as ArrayBuffer
  );
}
