// Spring Boot settings of a scan root: `application*.properties` and
// `application*.yml` files, by module (the directory above
// `src/main/resources`), for `${key:default}` placeholders in mappings and
// the servlet context path every route of the module is served under.
import { isMap, isScalar, parseDocument, type YAMLMap } from "yaml";
import type { SourceFile } from "../extractor.ts";

/** Whether a path is a Spring Boot settings file. */
export function isSpringSettings(path: string): boolean {
  return /(^|\/)(application|bootstrap)(-[\w.-]+)?\.(properties|ya?ml)$/.test(
    path,
  );
}

const CONTEXT_PATH = [
  "server.servlet.context-path",
  "server.context-path",
  "spring.webflux.base-path",
];

/** The settings of each module of a scan root. */
export class SpringSettings {
  readonly #modules = new Map<string, Map<string, string>>();

  /** Reads every settings file (a profile's file does not override). */
  constructor(files: readonly SourceFile[]) {
    for (const file of files) {
      if (!isSpringSettings(file.path)) continue;
      const module = moduleOf(file.path);
      let values = this.#modules.get(module);
      if (!values) this.#modules.set(module, values = new Map());
      const profile = /-[\w.-]+\.(properties|ya?ml)$/.test(file.path);
      const read = file.path.endsWith(".properties")
        ? properties(file.text)
        : yaml(file.text);
      for (const [key, value] of read) {
        if (!profile || !values.has(key)) values.set(key, value);
      }
    }
  }

  /** The value of a key as the file at `path` sees it. */
  get(path: string, key: string): string | undefined {
    let best: string | undefined;
    for (const module of this.#modules.keys()) {
      if (!path.startsWith(module)) continue;
      if (best === undefined || module.length > best.length) best = module;
    }
    return best === undefined ? undefined : this.#modules.get(best)?.get(key);
  }

  /** The context path the routes of the file at `path` are served under. */
  contextPath(path: string): string {
    for (const key of CONTEXT_PATH) {
      const value = this.get(path, key);
      if (value && value !== "/") return value;
    }
    return "";
  }
}

/** The module of a settings file: the directory above `src/main/resources`. */
function moduleOf(path: string): string {
  const at = path.lastIndexOf("src/main/resources/");
  if (at !== -1) return path.slice(0, at);
  const slash = path.lastIndexOf("/");
  const dir = slash === -1 ? "" : path.slice(0, slash + 1);
  return dir.endsWith("resources/") ? dir.slice(0, -"resources/".length) : dir;
}

function properties(text: string): Array<[string, string]> {
  const out: Array<[string, string]> = [];
  for (const raw of text.split("\n")) {
    const line = raw.trim();
    if (line === "" || line.startsWith("#") || line.startsWith("!")) continue;
    const match = /^([^=:\s]+)\s*[=:]\s*(.*)$/.exec(line);
    if (match) out.push([match[1]!, match[2]!.trim()]);
  }
  return out;
}

function yaml(text: string): Array<[string, string]> {
  const doc = parseDocument(text);
  const out: Array<[string, string]> = [];
  const visit = (map: YAMLMap, prefix: string, depth: number): void => {
    if (depth > 8) return;
    for (const item of map.items) {
      const key = isScalar(item.key) ? String(item.key.value) : undefined;
      if (key === undefined) continue;
      const name = prefix ? `${prefix}.${key}` : key;
      if (isMap(item.value)) visit(item.value, name, depth + 1);
      else if (isScalar(item.value) && item.value.value !== null) {
        out.push([name, String(item.value.value)]);
      }
    }
  };
  if (doc.errors.length === 0 && isMap(doc.contents)) {
    visit(doc.contents, "", 0);
  }
  return out;
}
