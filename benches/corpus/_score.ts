// Scores what a scan found against a hand-written ground truth: port
// precision and recall, link recall and link precision, with the misses and
// the false ports listed. Pure: no file system, no scanner.
import { canonicalKey, type TruthFile, type TruthPort } from "./_corpus.ts";

/** A port as the scan reported it (from the graph's exposes/consumes relations). */
export interface ScannedPort {
  mechanism: string;
  role: "server" | "client";
  key: string;
  /** Relative to the scanned repository root. */
  file: string;
  line: number;
  confidence: number;
}

/** A consumer -> provider link as the scan reported it. */
export interface ScannedLink {
  consumer: ScannedPort;
  provider: ScannedPort;
}

/** The figures and the lists for one repository. */
export interface RepoScore {
  /** Certain truth ports. */
  truthPorts: number;
  /** Ports the scan reported. */
  scannedPorts: number;
  /** Scanned ports that matched a certain truth port. */
  truePorts: number;
  /** Scanned ports that matched an uncertain truth port (counted neither way). */
  ignoredPorts: number;
  /** truePorts / (scanned - ignored); 1 when nothing was scanned. */
  precision: number;
  /** truePorts / truthPorts; 1 when the truth has no port. */
  recall: number;
  /** Certain truth links (both ends certain). */
  truthLinks: number;
  /** Truth links the scan made. */
  foundLinks: number;
  /** foundLinks / truthLinks; 1 when the truth has no link. */
  linkRecall: number;
  /** Links the scan made. */
  scannedLinks: number;
  /** Scanned links between two certain truth ports that the truth does not have. */
  wrongLinks: number;
  /** Truth ports the scan did not report. */
  misses: TruthPort[];
  /** Scanned ports the truth does not have. */
  falsePorts: ScannedPort[];
  /** Truth links the scan did not make, as `consumer -> provider`. */
  missedLinks: string[];
  /** The wrong links, as `file:line key -> file:line key`. */
  wrongLinkList: string[];
}

function portKey(mechanism: string, role: string, key: string): string {
  return `${mechanism}\u0000${role}\u0000${key}`;
}

function endKey(mechanism: string, key: string, file: string): string {
  return `${mechanism}\u0000${key}\u0000${file}`;
}

function ratio(part: number, whole: number): number {
  return whole === 0 ? 1 : part / whole;
}

/** The files where a truth port may be reported: its own, then `also`. */
export function filesOf(port: TruthPort): string[] {
  return [port.file, ...(port.also ?? [])];
}

/**
 * Pairs scanned ports with truth ports of the same mechanism, role and key
 * reported in one of the truth port's files; a port in the truth port's own
 * file pairs before one in an `also` file, then the closest lines first.
 * Returns, for each scanned port (by index), the truth port it matched.
 */
export function matchPorts(
  truth: readonly TruthPort[],
  scanned: readonly ScannedPort[],
): Map<number, TruthPort> {
  const byKey = new Map<string, number[]>();
  scanned.forEach((port, index) => {
    const key = portKey(port.mechanism, port.role, port.key);
    const list = byKey.get(key);
    if (list) list.push(index);
    else byKey.set(key, [index]);
  });
  const pairs: [number, TruthPort, number][] = [];
  for (const t of truth) {
    const key = portKey(t.mechanism, t.role, canonicalKey(t.mechanism, t.key));
    const files = filesOf(t);
    for (const s of byKey.get(key) ?? []) {
      const rank = files.indexOf(scanned[s]!.file);
      if (rank === -1) continue;
      const distance = rank === 0 ? Math.abs(t.line - scanned[s]!.line) : 0;
      pairs.push([(rank === 0 ? 0 : 1e9) + distance, t, s]);
    }
  }
  pairs.sort((a, b) => a[0] - b[0] || a[1].line - b[1].line || a[2] - b[2]);
  const matched = new Map<number, TruthPort>();
  const usedTruth = new Set<TruthPort>();
  for (const [, t, s] of pairs) {
    if (usedTruth.has(t) || matched.has(s)) continue;
    usedTruth.add(t);
    matched.set(s, t);
  }
  return matched;
}

/**
 * Scores one repository. A truth link is found when the scan linked a
 * consumer with the link's consumer mechanism, key and file (or an `also`
 * file) to a provider with the provider's mechanism, key and file (the scan
 * links owners once per boundary, so lines are not compared).
 */
export function scoreRepo(
  truth: TruthFile,
  scanned: readonly ScannedPort[],
  links: readonly ScannedLink[],
): RepoScore {
  const matched = matchPorts(truth.ports, scanned);
  const certain = truth.ports.filter((p) => !p.uncertain);
  const found = new Set<TruthPort>();
  const falsePorts: ScannedPort[] = [];
  let ignored = 0;
  scanned.forEach((port, index) => {
    const t = matched.get(index);
    if (!t) falsePorts.push(port);
    else if (t.uncertain) ignored++;
    else found.add(t);
  });
  const byId = new Map(truth.ports.map((p) => [p.id, p]));
  const ends = (p: TruthPort): string[] =>
    filesOf(p).map((file) =>
      endKey(p.mechanism, canonicalKey(p.mechanism, p.key), file)
    );
  const scannedPairs = new Set(
    links.map((l) =>
      endKey(l.consumer.mechanism, l.consumer.key, l.consumer.file) + "\u0001" +
      endKey(l.provider.mechanism, l.provider.key, l.provider.file)
    ),
  );
  const truthPairs = new Set<string>();
  let truthLinks = 0;
  let foundLinks = 0;
  const missedLinks: string[] = [];
  for (const link of truth.links) {
    const consumer = byId.get(link.consumer)!;
    const provider = byId.get(link.provider)!;
    const pairs = ends(consumer).flatMap((c) =>
      ends(provider).map((p) => c + "\u0001" + p)
    );
    for (const pair of pairs) truthPairs.add(pair);
    if (link.uncertain || consumer.uncertain || provider.uncertain) continue;
    truthLinks++;
    if (pairs.some((pair) => scannedPairs.has(pair))) foundLinks++;
    else {
      missedLinks.push(
        `${link.consumer} -> ${link.provider}` +
          (link.via ? ` (via ${link.via})` : ""),
      );
    }
  }
  // a scanned link is wrong when both of its ends are certain truth ports
  // (by mechanism, key and file) and the truth has no such link
  const certainEnds = new Set(certain.flatMap(ends));
  const wrongLinkList: string[] = [];
  for (const l of links) {
    const c = endKey(l.consumer.mechanism, l.consumer.key, l.consumer.file);
    const p = endKey(l.provider.mechanism, l.provider.key, l.provider.file);
    if (
      certainEnds.has(c) && certainEnds.has(p) &&
      !truthPairs.has(c + "\u0001" + p)
    ) {
      wrongLinkList.push(
        `${l.consumer.file}:${l.consumer.line} ${l.consumer.key} -> ` +
          `${l.provider.file}:${l.provider.line} ${l.provider.key}`,
      );
    }
  }
  const truePorts = found.size;
  return {
    truthPorts: certain.length,
    scannedPorts: scanned.length,
    truePorts,
    ignoredPorts: ignored,
    precision: ratio(truePorts, scanned.length - ignored),
    recall: ratio(truePorts, certain.length),
    truthLinks,
    foundLinks,
    linkRecall: ratio(foundLinks, truthLinks),
    scannedLinks: links.length,
    wrongLinks: wrongLinkList.length,
    misses: certain.filter((p) => !found.has(p)),
    falsePorts,
    missedLinks,
    wrongLinkList,
  };
}
