// Which HTTP providers serve a call, by method and path: the providers of
// the call's exact path first; only when there are none, the routes whose
// parameters (`{}`) take the call's literal segments (`/pay/partner-57`
// served by `/pay/{}`), as a router prefers its static routes; and only
// when there are none either, the routes of the same path in another case.
// A method `ANY` on either side matches every method.
import type { PortRecord } from "./port_records.ts";

const ANY = "ANY";
const PARAM = "{}";

/** The method and path of an HTTP key (`""` and the key when no space). */
export function splitHttpKey(key: string): [string, string] {
  const space = key.indexOf(" ");
  return space === -1 ? ["", key] : [key.slice(0, space), key.slice(space + 1)];
}

/** Whether a call's method may reach a route's method. */
export function methodsMeet(call: string, route: string): boolean {
  return call === route || call === ANY || route === ANY;
}

/**
 * Whether the route path `template` serves the normalized call path
 * `path`: the same number of segments, each route segment equal to the
 * call's or a parameter (`{}`). A call's own parameter is served only by
 * a route parameter (its value is unknown, so no literal is assumed).
 */
export function templateServes(template: string, path: string): boolean {
  const route = template.split("/");
  const call = path.split("/");
  if (route.length !== call.length) return false;
  let literalTaken = false;
  for (let i = 0; i < route.length; i++) {
    const r = route[i]!;
    const c = call[i]!;
    if (r === c) continue;
    if (r !== PARAM || c === PARAM) return false;
    literalTaken = true;
  }
  return literalTaken || template === path;
}

/** A node of the template trie: children by segment, the routes ending here. */
interface TrieNode {
  children: Map<string, TrieNode>;
  paths: string[];
}

/** Trie nodes one template lookup may visit (a bound on hostile input). */
const MAX_VISITS = 10_000;

/** The HTTP providers of some ports, indexed by path and by segments. */
export class HttpProviders {
  #byPath = new Map<string, PortRecord[]>();
  /** Paths with a parameter, segment by segment. */
  #templates: TrieNode = { children: new Map(), paths: [] };

  /** Indexes the HTTP server ports among `ports`. */
  constructor(ports: Iterable<PortRecord>) {
    for (const port of ports) {
      if (port.role !== "server" || port.mechanism !== "http") continue;
      const path = splitHttpKey(port.key)[1];
      const list = this.#byPath.get(path);
      if (list !== undefined) {
        list.push(port);
        continue;
      }
      this.#byPath.set(path, [port]);
      if (path.includes(PARAM)) this.#addTemplate(path);
    }
  }

  #addTemplate(path: string): void {
    let node = this.#templates;
    for (const segment of path.split("/")) {
      let next = node.children.get(segment);
      if (next === undefined) {
        next = { children: new Map(), paths: [] };
        node.children.set(segment, next);
      }
      node = next;
    }
    node.paths.push(path);
  }

  /** The template paths that serve `path` (at most {@linkcode MAX_VISITS} steps). */
  #templatesServing(path: string): string[] {
    const segments = path.split("/");
    const out: string[] = [];
    let visits = 0;
    const walk = (node: TrieNode, at: number): void => {
      if (++visits > MAX_VISITS) return;
      if (at === segments.length) {
        out.push(...node.paths);
        return;
      }
      const segment = segments[at]!;
      const same = node.children.get(segment);
      if (same !== undefined) walk(same, at + 1);
      const param = segment === PARAM ? undefined : node.children.get(PARAM);
      if (param !== undefined) walk(param, at + 1);
    };
    walk(this.#templates, 0);
    return out;
  }

  /**
   * The providers a call of `method` on the normalized `path` reaches:
   * those of the exact path whose method meets it, else (none there) those
   * of every route template that serves the path.
   */
  serving(method: string, path: string): PortRecord[] {
    const meets = (port: PortRecord): boolean =>
      methodsMeet(method, splitHttpKey(port.key)[0]);
    const exact = this.#byPath.get(path)?.filter(meets) ?? [];
    if (exact.length > 0) return exact;
    const out: PortRecord[] = [];
    for (const template of this.#templatesServing(path)) {
      if (template === path) continue;
      for (const port of this.#byPath.get(template)!) {
        if (meets(port)) out.push(port);
      }
    }
    if (out.length > 0) return out;
    // routers that match without case (ASP.NET: `/VehicleInfo/{}` serves
    // `/vehicleinfo/7`) are the last resort
    for (const port of this.#byLowerPath().get(path.toLowerCase()) ?? []) {
      if (splitHttpKey(port.key)[1] !== path && meets(port)) out.push(port);
    }
    return out;
  }

  #lower: Map<string, PortRecord[]> | undefined;

  #byLowerPath(): Map<string, PortRecord[]> {
    if (this.#lower !== undefined) return this.#lower;
    const lower = new Map<string, PortRecord[]>();
    for (const [path, ports] of this.#byPath) {
      const key = path.toLowerCase();
      const list = lower.get(key);
      if (list === undefined) lower.set(key, [...ports]);
      else list.push(...ports);
    }
    this.#lower = lower;
    return lower;
  }
}
