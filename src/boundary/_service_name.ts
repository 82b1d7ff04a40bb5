// Whether a port belongs to a named service (a host name a call or a
// gateway route gives: `userservice:8080`, `lb://customers-service`,
// `http://cart/`): its directories when a deployment file tells them, else
// a folder of its path (or its root) spelled like the name.
import type { PortRecord } from "./port_records.ts";

/** Lower case, letters and digits only: `Customers_Service` -> `customersservice`. */
function squash(text: string): string {
  return text.toLowerCase().replace(/[^a-z0-9]/g, "");
}

/**
 * The service a host names: its first DNS label, without scheme, user,
 * port or path (`http://user.shop.svc:8080/x` -> `user`); `""` when the
 * host is not a plain name (an address, a template left unresolved).
 */
export function serviceOfHost(host: string): string {
  let text = host.trim().replace(/^[a-z][a-z0-9+.-]*:\/\//i, "");
  text = text.replace(/^[^@/]*@/, "").replace(/[/?#].*$/, "");
  text = text.replace(/:\d*$/, "");
  if (!/^[A-Za-z][A-Za-z0-9_.-]*$/.test(text)) return "";
  return text.split(".")[0]!;
}

/** Whether a folder name spells a service name. */
function folderNames(folder: string, squashed: string, lower: string): boolean {
  if (squash(folder) === squashed) return true;
  const low = folder.toLowerCase();
  // `spring-petclinic-customers-service` for `customers-service`, never a
  // one-word name (`service` is not every `*-service`)
  return /[-_.]/.test(lower) && low.length > lower.length &&
    low.endsWith(lower) && /[-_.]/.test(low[low.length - lower.length - 1]!);
}

/** Which ports belong to which named service. */
export class ServiceLocator {
  #directories: ReadonlyMap<string, readonly string[]>;
  #located = new Map<string, boolean>();
  #ports: readonly PortRecord[];

  /**
   * `directories`: the folders (relative to a root, `/`-separated, no
   * trailing slash) deployment files give each service name; `ports`:
   * every port, to tell whether a name is found at all.
   */
  constructor(
    ports: readonly PortRecord[],
    directories: ReadonlyMap<string, readonly string[]> = new Map(),
  ) {
    this.#ports = ports;
    const lowered = new Map<string, string[]>();
    for (const [name, dirs] of directories) {
      const key = name.toLowerCase();
      lowered.set(key, [...(lowered.get(key) ?? []), ...dirs]);
    }
    this.#directories = lowered;
  }

  /** Whether `port` belongs to the service `name`. */
  holds(name: string, port: PortRecord): boolean {
    const lower = name.toLowerCase();
    const squashed = squash(name);
    if (squashed === "") return false;
    const file = port.filePath ?? "";
    const dirs = this.#directories.get(lower);
    if (dirs !== undefined) {
      return dirs.some((dir) =>
        dir === "" || dir === "." || file.startsWith(dir + "/")
      );
    }
    if (port.service !== "" && folderNames(port.service, squashed, lower)) {
      return true;
    }
    const folders = file.split("/");
    folders.pop();
    return folders.some((folder) => folderNames(folder, squashed, lower));
  }

  /**
   * The service a port is in, as a key: the deepest service folder
   * (deployment or build manifest) holding it, else its root and the first folder
   * under the folders every port of that root shares (`src/` in
   * `src/cart/..`, `src/users/..`), else its root.
   */
  serviceKey(port: PortRecord): string {
    const file = port.filePath ?? "";
    let best: string | undefined;
    for (const dirs of this.#directories.values()) {
      for (const dir of dirs) {
        const inside = dir === "" || dir === "." || file.startsWith(dir + "/");
        if (inside && (best === undefined || dir.length > best.length)) {
          best = dir;
        }
      }
    }
    if (best !== undefined) {
      return `${port.graph}\u0000${port.service}\u0000${best}/`;
    }
    const shared =
      this.#sharedFolders().get(`${port.graph}\u0000${port.service}`) ?? 0;
    const folders = file.split("/");
    folders.pop();
    const folder = folders[shared];
    return `${port.graph}\u0000${port.service}\u0000${folder ?? ""}`;
  }

  #shared: Map<string, number> | undefined;

  /** Per root: how many leading folders all its ports' files share. */
  #sharedFolders(): Map<string, number> {
    if (this.#shared !== undefined) return this.#shared;
    const prefixes = new Map<string, string[]>();
    for (const port of this.#ports) {
      const root = `${port.graph}\u0000${port.service}`;
      const folders = (port.filePath ?? "").split("/");
      folders.pop();
      const prefix = prefixes.get(root);
      if (prefix === undefined) {
        prefixes.set(root, folders);
        continue;
      }
      let n = 0;
      while (
        n < prefix.length && n < folders.length && prefix[n] === folders[n]
      ) n++;
      prefix.length = n;
    }
    this.#shared = new Map([...prefixes].map(([root, p]) => [root, p.length]));
    return this.#shared;
  }

  /** Whether any port belongs to the service `name` (it is in the scan). */
  locates(name: string): boolean {
    const key = name.toLowerCase();
    let found = this.#located.get(key);
    if (found === undefined) {
      found = this.#ports.some((port) => this.holds(name, port));
      this.#located.set(key, found);
    }
    return found;
  }
}
