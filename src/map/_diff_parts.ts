// What every diff format says about a port and a change, as plain words;
// each format escapes them its own way.
import type { ProviderChange } from "../boundary/diff.ts";
import type { PortRecord } from "../boundary/port_records.ts";

/** Entries shown per list; `undefined` for all. */
export type ListLimit = number | undefined;

/** The first `limit` entries of a list. */
export function first<T>(list: readonly T[], limit: ListLimit): readonly T[] {
  return limit === undefined ? list : list.slice(0, limit);
}

/** Where each graph's roots lie: graph -> root label -> path. */
export type RootPaths = Readonly<
  Record<string, Readonly<Record<string, string>>>
>;

/** A port's file and position inside its repository: `web/src/api.ts:4:9`. */
export function place(port: PortRecord, roots: RootPaths): string {
  return `${pathOf(port, roots)}${
    port.line === undefined
      ? ""
      : `:${port.line}${port.col === undefined ? "" : `:${port.col}`}`
  }`;
}

/**
 * A port's file relative to its repository: under its root's path when
 * its graph records it (`root_paths`), else under the service's name.
 */
export function pathOf(port: PortRecord, roots: RootPaths): string {
  const file = port.filePath ?? "?";
  const mine = Object.hasOwn(roots, port.graph) ? roots[port.graph]! : {};
  const root = Object.hasOwn(mine, port.service)
    ? mine[port.service]!
    : port.service;
  if (root === "" || root === ".") return file;
  return `${root.replace(/\/+$/, "")}/${file}`;
}

/** The short name of a port's owner: after `::`, else the whole name. */
export function ownerName(port: PortRecord): string {
  const at = port.owner.lastIndexOf("::");
  return at === -1 ? port.owner : port.owner.slice(at + 2);
}

/** What happened to a provider, in words. */
export function changeWords(change: ProviderChange): string {
  switch (change.kind) {
    case "removed":
      return "removed";
    case "method":
      return "method changed";
    case "path":
      return "path changed";
    case "key":
      return "renamed";
  }
}

/** The provider's key, and its new key for a change. */
export function changeKeys(change: ProviderChange): string {
  const before = `${change.before.mechanism} ${change.before.key}`;
  return change.after === undefined
    ? before
    : `${before} -> ${change.after.key}`;
}

/** A count and a noun, pluralized. */
export function count(n: number, noun: string): string {
  return `${n} ${noun}${n === 1 ? "" : "s"}`;
}
