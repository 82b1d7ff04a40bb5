// Which providers serve a consumer, as the scan links them: the same
// boundary, or for HTTP the same path when either side's method is `ANY`
// (a route with no method restriction, a call whose method is unknown).
// Never a port of the consumer's own owner.
import type { PortRecord } from "./port_records.ts";

const ANY = "ANY";

/** The method and path of an HTTP key (`""` and the key when no space). */
function split(key: string): [string, string] {
  const space = key.indexOf(" ");
  return space === -1 ? ["", key] : [key.slice(0, space), key.slice(space + 1)];
}

/** The providers of a set of graphs, indexed for {@linkcode servedBy}. */
export class ProviderIndex {
  #byBoundary = new Map<string, PortRecord[]>();
  #byPath = new Map<string, PortRecord[]>();

  /** Indexes the providers among `ports`. */
  constructor(...portLists: readonly (readonly PortRecord[])[]) {
    for (const ports of portLists) {
      for (const port of ports) if (port.role === "server") this.#add(port);
    }
  }

  #add(port: PortRecord): void {
    push(this.#byBoundary, port.boundaryId, port);
    if (port.mechanism === "http") push(this.#byPath, split(port.key)[1], port);
  }

  /** The providers that serve `consumer`, each once. */
  servedBy(consumer: PortRecord): PortRecord[] {
    const out: PortRecord[] = [];
    const own = (port: PortRecord): boolean =>
      port.graph === consumer.graph && port.ownerId === consumer.ownerId;
    for (const port of this.#byBoundary.get(consumer.boundaryId) ?? []) {
      if (!own(port)) out.push(port);
    }
    if (consumer.mechanism !== "http") return out;
    const [method, path] = split(consumer.key);
    for (const port of this.#byPath.get(path) ?? []) {
      if (port.boundaryId === consumer.boundaryId || own(port)) continue;
      if (method === ANY || split(port.key)[0] === ANY) out.push(port);
    }
    return out;
  }

  /** Whether any provider serves `consumer`. */
  serves(consumer: PortRecord): boolean {
    return this.servedBy(consumer).length > 0;
  }
}

function push<V>(map: Map<string, V[]>, key: string, value: V): void {
  const list = map.get(key);
  if (list === undefined) map.set(key, [value]);
  else list.push(value);
}

/**
 * What a consumer of `key` would need served: the boundary ids and HTTP
 * paths whose providers can serve it (for a store to fetch only those).
 */
export function httpPathOf(mechanism: string, key: string): string | undefined {
  return mechanism === "http" ? split(key)[1] : undefined;
}
