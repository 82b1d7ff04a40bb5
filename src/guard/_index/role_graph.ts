// The role links behind `g(name, x)` and `g(name, x, domain)`, copied from
// casbin's DefaultRoleManager into an adjacency list over the index's string
// ids, and walked as that role manager walks them: `g(a, b)` is true when
// `a` is `b`, or when `b` is reached from `a` in at most
// `maxHierarchyLevel` links of the domain's graph.
import { DefaultRoleManager } from "casbin";
import type { Assertion } from "casbin";
import { mix, type StringInterner, tableSize } from "./string_table.ts";
import { finish, FNV_OFFSET } from "./string_table.ts";

// casbin's DefaultRoleManager keeps links without a domain under this name.
export const DEFAULT_DOMAIN = "casbin::default";

/** One role manager's graph; structured-cloneable and transferable. */
export interface CompiledRoleGraph {
  /** Open addressing over (domain id, name id): node + 1, or 0. */
  readonly slots: Int32Array;
  readonly nodeDomain: Uint32Array;
  readonly nodeName: Uint32Array;
  /** Links of node `i`: `edges[start[i]]` to `edges[start[i + 1] - 1]`. */
  readonly start: Uint32Array;
  /** Node indexes, each in the domain of the node it leaves. */
  readonly edges: Uint32Array;
  /** Most links `g()` follows (casbin's `maxHierarchyLevel`). */
  readonly maxLevel: number;
}

/** A role of casbin's DefaultRoleManager: a name and its direct roles. */
interface RoleNode {
  name: unknown;
  roles: RoleNode[];
}

interface RoleManagerInternals {
  hasPattern?: unknown;
  hasDomainPattern?: unknown;
  hasDomainHierarchy?: unknown;
  maxHierarchyLevel?: unknown;
  allDomains?: unknown;
  hasLink?: unknown;
  syncedHasLink?: unknown;
}

/** What decides a role manager's answers, to notice later changes. */
export interface RoleManagerState {
  readonly rm: unknown;
  readonly allDomains: unknown;
  readonly hasPattern: unknown;
  readonly hasDomainPattern: unknown;
  readonly hasDomainHierarchy: unknown;
  readonly maxHierarchyLevel: unknown;
  readonly hasLink: unknown;
  readonly syncedHasLink: unknown;
}

/** The state of a role function's role manager now. */
export function roleManagerState(
  assertion: Assertion | undefined,
): RoleManagerState {
  const rm = assertion?.rm as unknown as RoleManagerInternals | undefined;
  return {
    rm,
    allDomains: rm?.allDomains,
    hasPattern: rm?.hasPattern,
    hasDomainPattern: rm?.hasDomainPattern,
    hasDomainHierarchy: rm?.hasDomainHierarchy,
    maxHierarchyLevel: rm?.maxHierarchyLevel,
    hasLink: rm?.hasLink,
    syncedHasLink: rm?.syncedHasLink,
  };
}

/** Whether a role manager still has the state taken before (per decision). */
export function sameRoleManager(
  assertion: Assertion | undefined,
  state: RoleManagerState,
): boolean {
  const rm = assertion?.rm as unknown as RoleManagerInternals | undefined;
  if (rm !== state.rm) return false;
  return rm === undefined || rm === null ||
    (rm.allDomains === state.allDomains &&
      rm.hasPattern === state.hasPattern &&
      rm.hasDomainPattern === state.hasDomainPattern &&
      rm.hasDomainHierarchy === state.hasDomainHierarchy &&
      rm.maxHierarchyLevel === state.maxHierarchyLevel &&
      rm.hasLink === state.hasLink &&
      rm.syncedHasLink === state.syncedHasLink);
}

/**
 * The domains of a role function's DefaultRoleManager (domain name to role
 * name to role). `null` when the role function has no role manager (`g()`
 * then compares the two names); a string when the index cannot copy it (a
 * role manager of another kind, or with patterns or domain hierarchies).
 */
function domainsOf(
  assertion: Assertion | undefined,
): { domains: Map<unknown, unknown>; maxLevel: number } | null | string {
  if (assertion === undefined) return "the role function has no definition";
  const rm = assertion.rm as unknown as RoleManagerInternals | undefined;
  if (rm === undefined || rm === null) return null;
  const proto = DefaultRoleManager.prototype as unknown as RoleManagerInternals;
  if (
    (rm as object).constructor !== DefaultRoleManager ||
    rm.hasLink !== proto.hasLink || rm.syncedHasLink !== proto.syncedHasLink
  ) {
    return "the role manager is not casbin's DefaultRoleManager";
  }
  if (
    rm.hasPattern !== false || rm.hasDomainPattern !== false ||
    rm.hasDomainHierarchy !== false
  ) {
    return "the role manager matches roles or domains with patterns or a hierarchy";
  }
  if (
    typeof rm.maxHierarchyLevel !== "number" ||
    !Number.isFinite(rm.maxHierarchyLevel) || !(rm.allDomains instanceof Map)
  ) {
    return "the role manager has no finite maxHierarchyLevel";
  }
  return { domains: rm.allDomains, maxLevel: rm.maxHierarchyLevel };
}

function nodeHash(domain: number, name: number): number {
  return finish(mix(mix(FNV_OFFSET, domain), name));
}

/**
 * Copies the role manager of a role function, interning its domain and
 * role names; a string says why casbin must answer instead.
 */
export function compileRoleGraph(
  assertion: Assertion | undefined,
  strings: StringInterner,
): CompiledRoleGraph | string {
  const read = domainsOf(assertion);
  if (typeof read === "string") return read;
  const nodeDomain: number[] = [];
  const nodeName: number[] = [];
  const links: number[][] = [];
  if (read !== null) {
    for (const [domain, roles] of read.domains) {
      if (typeof domain !== "string" || !(roles instanceof Map)) {
        return "the role manager holds a domain that is not a string";
      }
      const domainId = strings.intern(domain);
      const nodeOf = new Map<unknown, number>();
      for (const [name, role] of roles as Map<unknown, RoleNode>) {
        if (typeof name !== "string" || role?.name !== name) {
          return "the role manager holds a role that is not a string";
        }
        nodeOf.set(role, nodeName.length);
        nodeDomain.push(domainId);
        nodeName.push(strings.intern(name));
      }
      for (const role of (roles as Map<unknown, RoleNode>).values()) {
        const out: number[] = [];
        for (const parent of role.roles) {
          const node = nodeOf.get(parent);
          // casbin walks the role objects; the copy walks names.
          if (node === undefined) {
            return "the role manager links a role outside its domain";
          }
          out.push(node);
        }
        links.push(out);
      }
    }
  }
  const count = nodeName.length;
  const slots = new Int32Array(tableSize(count));
  const mask = slots.length - 1;
  const start = new Uint32Array(count + 1);
  let total = 0;
  for (let node = 0; node < count; node++) {
    start[node] = total;
    total += links[node]!.length;
    let slot = nodeHash(nodeDomain[node]!, nodeName[node]!) & mask;
    while (slots[slot] !== 0) slot = (slot + 1) & mask;
    slots[slot] = node + 1;
  }
  start[count] = total;
  const edges = new Uint32Array(total);
  for (let node = 0; node < count; node++) {
    edges.set(links[node]!, start[node]!);
  }
  return {
    slots,
    nodeDomain: Uint32Array.from(nodeDomain),
    nodeName: Uint32Array.from(nodeName),
    start,
    edges,
    maxLevel: read === null ? 0 : read.maxLevel,
  };
}

/** The node of a role in a domain, or -1. */
function nodeOf(
  graph: CompiledRoleGraph,
  domain: number,
  name: number,
): number {
  const slots = graph.slots;
  const mask = slots.length - 1;
  for (let slot = nodeHash(domain, name) & mask;; slot = (slot + 1) & mask) {
    const entry = slots[slot]!;
    if (entry === 0) return -1;
    const node = entry - 1;
    if (graph.nodeDomain[node] === domain && graph.nodeName[node] === name) {
      return node;
    }
  }
}

/** The buffers of a role graph, for a transfer list. */
export function roleGraphBuffers(graph: CompiledRoleGraph): ArrayBuffer[] {
  return [
    graph.slots,
    graph.nodeDomain,
    graph.nodeName,
    graph.start,
    graph.edges,
  ].map((array) => array.buffer as ArrayBuffer);
}

/**
 * Walks a role graph from `name` in `domain` (ids; the domain may be -1
 * when it names no domain of the graph): writes the name ids `g(name, x)`
 * is true for into `out` (`name` first) and returns how many. `queue` and
 * `marks` are scratch buffers of one entry per node; `stamp` is a value
 * that no mark holds yet.
 */
export function reachRoles(
  graph: CompiledRoleGraph,
  domain: number,
  name: number,
  out: Uint32Array,
  queue: Uint32Array,
  marks: Uint32Array,
  stamp: number,
): number {
  out[0] = name;
  const first = domain === -1 ? -1 : nodeOf(graph, domain, name);
  if (first === -1) return 1;
  let count = 1;
  queue[0] = first;
  marks[first] = stamp;
  let from = 0;
  let end = 1;
  for (let depth = 0; depth < graph.maxLevel && from < end; depth++) {
    const level = end;
    for (let i = from; i < level; i++) {
      const node = queue[i]!;
      for (let e = graph.start[node]!; e < graph.start[node + 1]!; e++) {
        const parent = graph.edges[e]!;
        if (marks[parent] !== stamp) {
          marks[parent] = stamp;
          queue[end++] = parent;
          out[count++] = graph.nodeName[parent]!;
        }
      }
    }
    from = level;
  }
  return count;
}
