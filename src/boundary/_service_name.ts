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
