// The environment variables deployment files give services (Dockerfile
// `ENV`, dotenv files, docker-compose `environment:`, Kubernetes `env:` and
// ConfigMaps),
// each with the folder it applies to, and `${NAME}` expansion with them:
// the nearest folder that sets a name wins; a name set only elsewhere is
// taken when every file that sets it agrees.

import type { EnvironmentSetting } from "../extractor.ts";

/** One variable a deployment file sets. */
export type EnvSetting = EnvironmentSetting;

/** At most this many settings are kept (a bound on hostile input). */
const MAX_SETTINGS = 20_000;

/** Variables set by deployment files, by name. */
export class DeployEnvironment {
  #byName = new Map<string, EnvSetting[]>();
  #count = 0;

  /** Every setting recorded, in the order they came. */
  settings(): EnvSetting[] {
    return [...this.#byName.values()].flat();
  }

  /** Records a setting (settings over the bound are dropped). */
  add(setting: EnvSetting): void {
    if (this.#count >= MAX_SETTINGS || setting.name === "") return;
    this.#count++;
    const list = this.#byName.get(setting.name);
    if (list === undefined) this.#byName.set(setting.name, [setting]);
    else list.push(setting);
  }

  /**
   * The value of `name` for a file at `filePath`: from the nearest scope
   * holding the file, else the one value the settings without a scope
   * agree on (or, with none, every setting), else `undefined`.
   */
  valueFor(name: string, filePath: string): string | undefined {
    const settings = this.#byName.get(name);
    if (settings === undefined) return undefined;
    let best: EnvSetting | undefined;
    for (const setting of settings) {
      const scope = setting.scope;
      if (scope === undefined) continue;
      if (scope !== "" && !filePath.startsWith(scope + "/")) continue;
      if (best === undefined || scope.length > best.scope!.length) {
        best = setting;
      }
    }
    if (best !== undefined) return best.value;
    // settings no folder holds (a manifest's) speak for every file; else
    // the settings of other folders, when they all agree
    const general = settings.filter((s) => s.scope === undefined);
    const pool = general.length > 0 ? general : settings;
    const values = new Set(pool.map((s) => s.value));
    return values.size === 1 ? pool[0]!.value : undefined;
  }

  /**
   * `text` with every `${NAME}`, `${NAME:-default}` and `$NAME` replaced
   * by its value for `filePath` (a default when the name has none);
   * `undefined` when a name stays unknown.
   */
  expand(text: string, filePath: string): string | undefined {
    let unknown = false;
    const out = text.replace(
      /\$\{([A-Za-z_][A-Za-z0-9_]*)(?::?-([^}]*))?\}|\$([A-Za-z_][A-Za-z0-9_]*)/g,
      (
        _whole,
        braced: string | undefined,
        fallback: string | undefined,
        bare: string | undefined,
      ) => {
        const value = this.valueFor(braced ?? bare!, filePath) ?? fallback;
        if (value === undefined) unknown = true;
        return value ?? "";
      },
    );
    return unknown ? undefined : out;
  }
}

/** The folder of a file path (`""` at the top). */
export function folderOf(path: string): string {
  const slash = path.lastIndexOf("/");
  return slash === -1 ? "" : path.slice(0, slash);
}

/**
 * The `ENV` settings of a Dockerfile (`ENV A=1 B=2`, with `\` line
 * continuations, and the old `ENV A 1`), scoped to its folder.
 */
export function dockerfileEnv(path: string, text: string): EnvSetting[] {
  const out: EnvSetting[] = [];
  const scope = folderOf(path);
  const joined = text.replace(/\\\r?\n/g, " ");
  for (const line of joined.split(/\r?\n/)) {
    const match = /^\s*ENV\s+(.*)$/i.exec(line);
    if (!match) continue;
    const body = match[1]!.trim();
    const pairs = [...body.matchAll(
      /([A-Za-z_][A-Za-z0-9_]*)=("(?:[^"\\]|\\.)*"|'[^']*'|\S*)/g,
    )];
    if (pairs.length === 0) {
      const old = /^([A-Za-z_][A-Za-z0-9_]*)\s+(.+)$/.exec(body);
      if (old) out.push({ name: old[1]!, value: unquote(old[2]!), scope });
      continue;
    }
    for (const pair of pairs) {
      out.push({ name: pair[1]!, value: unquote(pair[2]!), scope });
    }
  }
  return out;
}

/** Whether a path is a dotenv file (`.env`, `.env.production`...). */
export function isDotenvFile(path: string): boolean {
  const name = path.slice(path.lastIndexOf("/") + 1);
  return name === ".env" ||
    (name.startsWith(".env.") &&
      !/\.(?:example|sample|template|dist)$/.test(name));
}

/**
 * The settings of a dotenv file (`NAME=value`, `export NAME=value`,
 * quoted values, `#` comments), scoped to its folder.
 */
export function dotenvSettings(path: string, text: string): EnvSetting[] {
  const out: EnvSetting[] = [];
  const scope = folderOf(path);
  for (const line of text.split(/\r?\n/)) {
    const match = /^\s*(?:export\s+)?([A-Za-z_][A-Za-z0-9_]*)\s*=\s*(.*)$/.exec(
      line,
    );
    if (!match) continue;
    const raw = match[2]!.trim();
    const quoted = /^(["'])(.*?)\1/.exec(raw);
    const value = quoted ? quoted[2]! : raw.replace(/\s+#.*$/, "");
    out.push({ name: match[1]!, value, scope });
  }
  return out;
}

function unquote(text: string): string {
  const t = text.trim();
  if (t.length >= 2 && (t[0] === '"' || t[0] === "'") && t.endsWith(t[0])) {
    return t.slice(1, -1);
  }
  return t;
}
