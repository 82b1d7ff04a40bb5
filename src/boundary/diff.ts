import type { BoundaryGraph } from "./graph.ts";
import { httpPathOf, ProviderIndex } from "./_port_match.ts";
import { type PortRecord, portRecords } from "./port_records.ts";

/**
 * How a provider changed: `removed`, or its key changed on the same owner:
 * the HTTP `method` (same path), the HTTP `path` (the path shape), or the
 * `key` of another mechanism (a renamed topic, method or activity).
 *
 * @example
 * ```ts
 * import type { ProviderChangeKind } from "@portcullis/portcullis/boundary";
 *
 * const kind: ProviderChangeKind = "path";
 * ```
 */
export type ProviderChangeKind = "removed" | "method" | "path" | "key";

/**
 * A provider of the base graph that the head graph removed or changed,
 * with the consumers it served that nothing serves any more.
 *
 * @example
 * ```ts
 * import type { PortRecord, ProviderChange } from "@portcullis/portcullis/boundary";
 *
 * const port: PortRecord = {
 *   graph: "shop", boundaryId: "2c3c7cba2c035619", mechanism: "http", key: "GET /users/{}",
 *   role: "server", ownerId: "api:users.py::get_user", owner: "users.py::get_user",
 *   service: "api", confidence: 1, filePath: "users.py", line: 10,
 * };
 * const change: ProviderChange = { kind: "removed", before: port, consumers: [] };
 * ```
 */
export interface ProviderChange {
  /** What happened to the provider. */
  kind: ProviderChangeKind;
  /** The provider's port in the base graph. */
  before: PortRecord;
  /** Its port in the head graph, when its key changed. */
  after?: PortRecord;
  /**
   * Consumers (of the head graph or of the other graphs) it served that
   * nothing serves in the head: empty when the change breaks nobody.
   */
  consumers: PortRecord[];
}

/**
 * What replacing a base graph by a head graph does to the boundaries
 * between services, against the other graphs of an organisation; see
 * {@linkcode diffPorts}. Lists are sorted by mechanism, key, graph, file
 * and line.
 *
 * @example
 * ```ts
 * import { type BoundaryDiff, diffPorts } from "@portcullis/portcullis/boundary";
 * import assert from "node:assert/strict";
 *
 * const diff: BoundaryDiff = diffPorts({ base: [], head: [] });
 * assert.deepEqual(diff.breaking, []);
 * ```
 */
export interface BoundaryDiff {
  /** Providers removed or changed while consumers still use them. */
  breaking: ProviderChange[];
  /** Providers removed or changed that no remaining consumer needed. */
  safeChanges: ProviderChange[];
  /** Consumers that were served in the base and are not in the head. */
  lostConsumers: PortRecord[];
  /** Consumers new in the head that nothing serves. */
  newUnmatchedConsumers: PortRecord[];
  /** Providers new in the head that nothing consumes. */
  newUnconsumedProviders: PortRecord[];
  /**
   * Why the diff cannot vouch for everything (a graph that hit a scan
   * budget); empty when complete.
   */
  partial: string[];
  /** Ports compared. */
  counts: { base: number; head: number; others: number };
}

/**
 * The ports {@linkcode diffPorts} compares.
 *
 * @example
 * ```ts
 * import type { DiffInput } from "@portcullis/portcullis/boundary";
 *
 * const input: DiffInput = { base: [], head: [], others: [] };
 * ```
 */
export interface DiffInput {
  /** Ports of the repository as it was (e.g. as published, or `main`). */
  base: readonly PortRecord[];
  /** Ports of the repository as it would be (e.g. a pull request). */
  head: readonly PortRecord[];
  /**
   * Ports of the other repositories, unchanged; only those on the
   * boundaries and HTTP paths of {@linkcode diffScope} matter.
   * @default {[]}
   */
  others?: readonly PortRecord[];
  /**
   * Reasons the input is incomplete, copied to the diff's `partial`.
   * @default {[]}
   */
  partial?: readonly string[];
}

/**
 * Options for {@linkcode diffPorts} and {@linkcode diffGraphs}.
 *
 * @example
 * ```ts
 * import type { DiffOptions } from "@portcullis/portcullis/boundary";
 *
 * const options: DiffOptions = { minConfidence: 0.5 };
 * ```
 */
export interface DiffOptions {
  /**
   * Ports below this confidence are left out of the comparison. A number
   * from 0 to 1.
   * @default {0}
   */
  minConfidence?: number;
}

function identity(port: PortRecord): string {
  return `${port.role}\u0000${port.graph}\u0000${port.ownerId}\u0000${port.mechanism}\u0000${port.key}`;
}

function compare(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}

function order(a: PortRecord, b: PortRecord): number {
  return compare(a.mechanism, b.mechanism) || compare(a.key, b.key) ||
    compare(a.graph, b.graph) || compare(a.service, b.service) ||
    compare(a.filePath ?? "", b.filePath ?? "") ||
    (a.line ?? 0) - (b.line ?? 0) || compare(a.ownerId, b.ownerId);
}

/** The first port of each identity, in order. */
function distinct(ports: readonly PortRecord[]): PortRecord[] {
  const seen = new Set<string>();
  return ports.filter((port) => {
    const id = identity(port);
    if (seen.has(id)) return false;
    seen.add(id);
    return true;
  });
}

/** The HTTP method and path of a key. */
function methodAndPath(key: string): [string, string] {
  const space = key.indexOf(" ");
  return space === -1 ? ["", key] : [key.slice(0, space), key.slice(space + 1)];
}

/**
 * The added provider of the same owner and mechanism that a removed one
 * most likely became: same HTTP path (a method change), else same method
 * (a path change), else the first.
 */
function successor(
  removed: PortRecord,
  added: readonly PortRecord[],
  taken: Set<PortRecord>,
): [PortRecord, ProviderChangeKind] | undefined {
  const candidates = added.filter((port) =>
    !taken.has(port) && port.graph === removed.graph &&
    port.ownerId === removed.ownerId && port.mechanism === removed.mechanism
  );
  if (candidates.length === 0) return undefined;
  if (removed.mechanism !== "http") return [candidates[0]!, "key"];
  const [method, path] = methodAndPath(removed.key);
  const samePath = candidates.find((port) =>
    methodAndPath(port.key)[1] === path
  );
  if (samePath) return [samePath, "method"];
  const sameMethod = candidates.find((port) =>
    methodAndPath(port.key)[0] === method
  );
  return [sameMethod ?? candidates[0]!, "path"];
}

function checkConfidence(value: number): number {
  if (typeof value !== "number" || !(value >= 0 && value <= 1)) {
    throw new RangeError(
      `Cannot diff ports: minConfidence must be a number from 0 to 1, got ${
        String(value)
      }`,
    );
  }
  return value;
}

/**
 * Compares the ports of one repository before (`base`) and after (`head`)
 * a change, against the unchanged ports of the other repositories, the way
 * a CI gate needs it. A consumer is served by a provider of the same
 * boundary, or for HTTP of the same path when either method is `ANY` (as
 * the scan links them), never by its own owner. A port is the same in base
 * and head when its role, graph, owner, mechanism and key are; a moved
 * line is not a change.
 *
 * - `breaking`: providers of the base missing from the head (removed, or
 *   their key changed on the same owner: HTTP method, path shape, or the key
 *   of a topic, gRPC method or activity), each with the consumers (in the
 *   head or another graph) it served and nothing serves now;
 * - `safeChanges`: the other removed or changed providers;
 * - `lostConsumers`: consumers served in the base and not in the head;
 * - `newUnmatchedConsumers`: consumers new in the head that nothing serves;
 * - `newUnconsumedProviders`: providers new in the head that nothing
 *   consumes.
 *
 * It works on plain records, so a store can give it only the other
 * repositories' ports that matter ({@linkcode diffScope}).
 *
 * @param input The base, head and other ports.
 * @param options A confidence floor.
 * @returns The diff.
 * @throws {RangeError} If `minConfidence` is not a number from 0 to 1.
 *
 * @example Usage
 * ```ts
 * import { diffPorts, type PortRecord } from "@portcullis/portcullis/boundary";
 * import assert from "node:assert/strict";
 *
 * const port = (role: "server" | "client", graph: string, key: string, owner: string): PortRecord => ({
 *   graph, boundaryId: key, mechanism: "http", key, role, ownerId: owner, owner, service: graph, confidence: 1,
 * });
 * const route = port("server", "users", "GET /users/{}", "get_user");
 * const caller = port("client", "web", "GET /users/{}", "load");
 * const renamed = port("server", "users", "GET /members/{}", "get_user");
 *
 * const diff = diffPorts({ base: [route], head: [renamed], others: [caller] });
 * assert.equal(diff.breaking[0]?.kind, "path");
 * assert.equal(diff.breaking[0]?.after?.key, "GET /members/{}");
 * assert.deepEqual(diff.lostConsumers.map((c) => c.owner), ["load"]);
 * ```
 */
export function diffPorts(
  input: DiffInput,
  options: DiffOptions = {},
): BoundaryDiff {
  const floor = checkConfidence(options.minConfidence ?? 0);
  const kept = (ports: readonly PortRecord[]): PortRecord[] =>
    ports.filter((port) => port.confidence >= floor);
  const base = kept(input.base);
  const head = kept(input.head);
  const others = kept(input.others ?? []);
  const inBase = new Set(base.map(identity));
  const inHead = new Set(head.map(identity));
  const before = new ProviderIndex(base, others);
  const after = new ProviderIndex(head, others);

  const removed = distinct(
    base.filter((p) => p.role === "server" && !inHead.has(identity(p))),
  );
  const added = distinct(
    head.filter((p) => p.role === "server" && !inBase.has(identity(p))),
  );
  const removedIds = new Set(removed.map(identity));

  // the consumers of the head and the other graphs: which lost their
  // providers, and which providers are consumed
  const lost: PortRecord[] = [];
  const lostBy = new Map<string, PortRecord[]>();
  const consumed = new Set<string>();
  const headCount = head.length;
  const all = [...head, ...others];
  for (let i = 0; i < all.length; i++) {
    const consumer = all[i]!;
    if (consumer.role !== "client") continue;
    const now = after.servedBy(consumer);
    for (const provider of now) consumed.add(identity(provider));
    const existed = i >= headCount || inBase.has(identity(consumer));
    if (now.length > 0 || !existed) continue;
    const was = before.servedBy(consumer);
    if (was.length === 0) continue;
    lost.push(consumer);
    for (const provider of was) {
      const id = identity(provider);
      if (!removedIds.has(id)) continue;
      const list = lostBy.get(id);
      if (list === undefined) lostBy.set(id, [consumer]);
      else if (!list.includes(consumer)) list.push(consumer);
    }
  }

  const taken = new Set<PortRecord>();
  const breaking: ProviderChange[] = [];
  const safeChanges: ProviderChange[] = [];
  for (const provider of removed) {
    const next = successor(provider, added, taken);
    const change: ProviderChange = {
      kind: next?.[1] ?? "removed",
      before: provider,
      consumers: (lostBy.get(identity(provider)) ?? []).sort(order),
    };
    if (next !== undefined) {
      taken.add(next[0]);
      change.after = next[0];
    }
    (change.consumers.length > 0 ? breaking : safeChanges).push(change);
  }
  const byChange = (a: ProviderChange, b: ProviderChange): number =>
    order(a.before, b.before);

  return {
    breaking: breaking.sort(byChange),
    safeChanges: safeChanges.sort(byChange),
    lostConsumers: lost.sort(order),
    newUnmatchedConsumers: head.filter((p) =>
      p.role === "client" && !inBase.has(identity(p)) && !after.serves(p)
    ).sort(order),
    newUnconsumedProviders: added.filter((p) => !consumed.has(identity(p)))
      .sort(order),
    partial: [...(input.partial ?? [])],
    counts: { base: base.length, head: head.length, others: others.length },
  };
}

/**
 * The boundaries and HTTP paths on which the other repositories' ports can
 * change a {@linkcode diffPorts} of `base` and `head`: a store needs to
 * fetch only the ports on these.
 *
 * @param base The base ports.
 * @param head The head ports.
 * @returns Sorted boundary ids and HTTP paths.
 *
 * @example Usage
 * ```ts
 * import { diffScope, type PortRecord } from "@portcullis/portcullis/boundary";
 * import assert from "node:assert/strict";
 *
 * const route: PortRecord = {
 *   graph: "users", boundaryId: "b1", mechanism: "http", key: "GET /users/{}", role: "server",
 *   ownerId: "get_user", owner: "get_user", service: "users", confidence: 1,
 * };
 * assert.deepEqual(diffScope([route], []), { boundaryIds: ["b1"], httpPaths: ["/users/{}"] });
 * ```
 */
export function diffScope(
  base: readonly PortRecord[],
  head: readonly PortRecord[],
): { boundaryIds: string[]; httpPaths: string[] } {
  const ids = new Set<string>();
  const paths = new Set<string>();
  for (const port of [...base, ...head]) {
    ids.add(port.boundaryId);
    const path = httpPathOf(port.mechanism, port.key);
    if (path !== undefined) paths.add(path);
  }
  return { boundaryIds: [...ids].sort(), httpPaths: [...paths].sort() };
}

/**
 * A graph of another repository, for {@linkcode diffGraphs}.
 *
 * @example
 * ```ts
 * import { BoundaryGraph, type NamedGraph } from "@portcullis/portcullis/boundary";
 *
 * const other: NamedGraph = { name: "billing", graph: new BoundaryGraph() };
 * ```
 */
export interface NamedGraph {
  /** The repository's name, shown in the diff. */
  name: string;
  /** Its graph. */
  graph: BoundaryGraph;
}

/**
 * Options for {@linkcode diffGraphs}.
 *
 * @example
 * ```ts
 * import type { DiffGraphsOptions } from "@portcullis/portcullis/boundary";
 *
 * const options: DiffGraphsOptions = { name: "shop", others: [] };
 * ```
 */
export interface DiffGraphsOptions extends DiffOptions {
  /**
   * The name of the repository the base and head graphs are of.
   * @default {"head"}
   */
  name?: string;
  /**
   * The graphs of the other repositories.
   * @default {[]}
   */
  others?: readonly NamedGraph[];
}

/** The scan budgets a graph records as hit, as reasons. */
function budgetsHit(name: string, graph: BoundaryGraph): string[] {
  const hits = graph.metadata["budgets_hit"];
  if (!Array.isArray(hits) || hits.length === 0) return [];
  return [
    `${name}: the scan hit ${hits.length} budget${
      hits.length === 1 ? "" : "s"
    } (budgets_hit), so its graph is partial`,
  ];
}

/**
 * {@linkcode diffPorts} of two graphs of one repository (before and after
 * a change) against the graphs of the other repositories. A graph that
 * records scan budgets as hit (`budgets_hit` metadata) makes the diff
 * `partial`.
 *
 * @param base The repository's graph before the change.
 * @param head Its graph after the change.
 * @param options The repository's name, the other graphs, a confidence floor.
 * @returns The diff.
 * @throws {RangeError} If `minConfidence` is not a number from 0 to 1.
 *
 * @example Usage
 * ```ts
 * import { addBoundary, BoundaryGraph, diffGraphs } from "@portcullis/portcullis/boundary";
 * import assert from "node:assert/strict";
 *
 * const users = (path: string): BoundaryGraph => {
 *   const graph = new BoundaryGraph();
 *   graph.addNode({ id: "h", kind: "function", qualifiedName: "users.py::get_user", name: "get_user" });
 *   addBoundary(graph, "h", { mechanism: "http", role: "server", key: `GET ${path}`, line: 3, col: 1, confidence: 1, detail: {} });
 *   return graph;
 * };
 * const web = new BoundaryGraph();
 * web.addNode({ id: "c", kind: "function", qualifiedName: "api.ts::load", name: "load" });
 * addBoundary(web, "c", { mechanism: "http", role: "client", key: "GET /users/{}", line: 9, col: 3, confidence: 1, detail: {} });
 *
 * const diff = diffGraphs(users("/users/{}"), users("/people/{}"), {
 *   name: "users",
 *   others: [{ name: "web", graph: web }],
 * });
 * assert.equal(diff.breaking.length, 1);
 * assert.equal(diff.lostConsumers[0]?.graph, "web");
 * ```
 */
export function diffGraphs(
  base: BoundaryGraph,
  head: BoundaryGraph,
  options: DiffGraphsOptions = {},
): BoundaryDiff {
  const name = options.name ?? "head";
  const others = options.others ?? [];
  return diffPorts({
    base: portRecords(base, name),
    head: portRecords(head, name),
    others: others.flatMap((other) => portRecords(other.graph, other.name)),
    partial: [
      ...budgetsHit(`${name} (base)`, base),
      ...budgetsHit(name, head),
      ...others.flatMap((other) => budgetsHit(other.name, other.graph)),
    ],
  }, options);
}
