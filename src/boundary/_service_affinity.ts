// Which of several services serving the same HTTP path a call reaches, when
// nothing names its host: the one that serves the most of the calls of the
// same file, and among several such its own service (another part of it: a
// front end and its API routes, a proxy to replicas). A client module talks to one base URL, so a load test
// whose calls all go to the web front end does not reach an API's
// same-path `GET /login`. With no such majority every service stays.
import type { PortRecord } from "./port_records.ts";
import { HttpProviders, splitHttpKey } from "./_path_template.ts";

/** A pair filter for `LinkOptions.accept`. */
export type PairFilter = (
  consumerId: string,
  providerId: string,
  boundaryId: string,
) => boolean;

/**
 * A filter that refuses, for an HTTP call whose path several services
 * serve (not counting the call's own owner), the providers of the services
 * that serve fewer of its file's calls than the best one, and of the other
 * best ones when its own service is among them. `serviceOf` names the service of a provider
 * port (`""`: unknown, never refused). Other pairs are accepted.
 */
export function serviceAffinity(
  ports: readonly PortRecord[],
  serviceOf: (port: PortRecord) => string,
): PairFilter {
  const providers = new HttpProviders(ports);
  const serviceOfOwner = new Map<string, string>();
  for (const port of ports) {
    if (port.role === "server") {
      serviceOfOwner.set(port.ownerId, serviceOf(port));
    }
  }
  // file -> its calls, each with the services serving it
  const byFile = new Map<
    string,
    Array<{ port: PortRecord; services: Set<string>; own: string }>
  >();
  for (const port of ports) {
    if (port.role !== "client" || port.mechanism !== "http") continue;
    const [method, path] = splitHttpKey(port.key);
    const services = new Set<string>();
    for (const provider of providers.serving(method, path)) {
      if (provider.ownerId === port.ownerId) continue;
      const service = serviceOfOwner.get(provider.ownerId) ?? "";
      if (service !== "") services.add(service);
    }
    const file = `${port.graph}\u0000${port.service}\u0000${
      port.filePath ?? port.ownerId
    }`;
    const list = byFile.get(file);
    const entry = { port, services, own: serviceOf(port) };
    if (list === undefined) byFile.set(file, [entry]);
    else list.push(entry);
  }
  // consumer owner + boundary -> the services it may reach
  const allowed = new Map<string, Set<string>>();
  const free = new Set<string>();
  for (const calls of byFile.values()) {
    const score = new Map<string, number>();
    for (const { services } of calls) {
      for (const service of services) {
        score.set(service, (score.get(service) ?? 0) + 1);
      }
    }
    for (const { port, services, own } of calls) {
      const key = `${port.ownerId}\u0000${port.boundaryId}`;
      let best = 0;
      for (const service of services) {
        best = Math.max(best, score.get(service)!);
      }
      let kept = new Set([...services].filter((s) => score.get(s) === best));
      // among the best, its own service (another part of it) wins
      if (kept.size > 1 && kept.has(own)) kept = new Set([own]);
      if (kept.size === services.size) {
        free.add(key);
        continue;
      }
      const earlier = allowed.get(key);
      // an owner with several calls of one key keeps what any of them may reach
      if (earlier === undefined) allowed.set(key, kept);
      else for (const service of kept) earlier.add(service);
    }
  }
  for (const key of free) allowed.delete(key);
  return (consumerId, providerId, boundaryId) => {
    const kept = allowed.get(`${consumerId}\u0000${boundaryId}`);
    if (kept === undefined) return true;
    const service = serviceOfOwner.get(providerId) ?? "";
    return service === "" || kept.has(service);
  };
}
