// Spring Boot settings of a scan root: `application*.properties` and
// `application*.yml` files, by module (the directory above
// `src/main/resources`), for `${key:default}` placeholders in mappings and
// client URLs and the servlet context path every route of the module is
// served under. The default profile is read: the base files and the
// profiles they activate themselves (`spring.profiles.active`); other
// profiles' files (`application-dev.yml`) and documents
// (`spring.config.activate.on-profile`) are not.
import { isMap, isScalar, parseAllDocuments, type YAMLMap } from "yaml";
import type { SourceFile } from "../extractor.ts";
import { concat, hole, literal, type Value } from "../_value/value.ts";

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
  "quarkus.http.root-path",
  "micronaut.server.context-path",
];

/** Quarkus's path of the JAX-RS resources no application class serves. */
const REST_PATH = [
  "quarkus.rest.path",
  "quarkus.resteasy-reactive.path",
  "quarkus.resteasy.path",
];

/** Keys that activate a document for a profile (not the default one). */
const PROFILE_KEYS = ["spring.config.activate.on-profile", "spring.profiles"];

/** One document of a settings file and the profiles it is for. */
interface ReadDocument {
  /** Empty for the default profile's documents. */
  profiles: string[];
  values: Map<string, string>;
}

/** Most settings read from one file (a bound on hostile input). */
const MAX_SETTINGS = 10_000;

/** The settings of each module of a scan root. */
export class SpringSettings {
  readonly #modules = new Map<string, Map<string, string>>();

  /**
   * Reads the settings of the default profile: the base files, then the
   * files and documents of the profiles they activate
   * (`spring.profiles.active`), which override them. Other profiles are not
   * read.
   */
  constructor(files: readonly SourceFile[]) {
    const read = new Map<string, ReadDocument[]>();
    for (const file of files) {
      if (!isSpringSettings(file.path)) continue;
      const module = moduleOf(file.path);
      let list = read.get(module);
      if (!list) read.set(module, list = []);
      const named = /-([\w.-]+)\.(properties|ya?ml)$/.exec(file.path)?.[1];
      const documents = file.path.endsWith(".properties")
        ? properties(file.text)
        : yaml(file.text);
      for (const values of documents) {
        const on = PROFILE_KEYS.map((k) => values.get(k)).find((v) =>
          v !== undefined
        );
        const profiles = on === undefined
          ? named === undefined ? [] : [named]
          : on.split(/[,|&]/).map((p) => p.trim()).filter(Boolean);
        list.push({ profiles, values });
      }
    }
    for (const [module, documents] of read) {
      const values = new Map<string, string>();
      for (const d of documents) {
        if (d.profiles.length > 0) continue;
        for (const [key, value] of d.values) values.set(key, value);
      }
      const active = (values.get("spring.profiles.active") ?? "").split(",")
        .map((p) => p.trim()).filter(Boolean);
      for (const d of documents) {
        if (!d.profiles.some((p) => active.includes(p))) continue;
        for (const [key, value] of d.values) values.set(key, value);
      }
      this.#modules.set(module, values);
    }
  }

  /** Whether the root has any settings file. */
  get empty(): boolean {
    return this.#modules.size === 0;
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

  /** The settings of the module of each settings file, by its path. */
  *modules(): Iterable<[string, ReadonlyMap<string, string>]> {
    yield* this.#modules;
  }

  /** The context path the routes of the file at `path` are served under. */
  contextPath(path: string): string {
    for (const key of CONTEXT_PATH) {
      const value = this.get(path, key);
      if (value && value !== "/") return value;
    }
    return "";
  }

  /** The path JAX-RS resources without an application class are under. */
  restPath(path: string): string {
    for (const key of REST_PATH) {
      const value = this.get(path, key);
      if (value && value !== "/") return value;
    }
    return "";
  }

  /**
   * A literal with its `${key:default}` placeholders resolved as the file at
   * `path` sees them: a setting, else the default; a placeholder with
   * neither is an `env` hole (set by the deployment).
   */
  resolve(path: string, text: string): Value {
    return resolvePlaceholders(text, (key) => this.get(path, key));
  }
}

/**
 * Resolves the `${key:default}` placeholders of a text with `lookup`, else
 * their default; a placeholder with neither is an `env` hole. A setting
 * that holds placeholders itself is resolved a few levels deep.
 */
export function resolvePlaceholders(
  text: string,
  lookup: (key: string) => string | undefined,
  depth = 0,
): Value {
  if (!text.includes("${")) return literal(text);
  const parts: Value[] = [];
  let start = 0;
  for (const p of placeholders(text)) {
    parts.push(literal(text.slice(start, p.start)));
    const key = p.key.trim();
    const found = lookup(key) ?? p.fallback;
    if (found === undefined || (found.includes("${") && depth >= 4)) {
      parts.push(hole(text.slice(p.start, p.end), "env"));
    } else if (found.includes("${")) {
      // a setting, or a default (`${a:${b:/x}}`), that holds placeholders
      const inner = resolvePlaceholders(found, lookup, depth + 1);
      parts.push({ ...inner, composed: true });
    } else parts.push(literal(found, true));
    start = p.end;
  }
  parts.push(literal(text.slice(start)));
  return concat(parts);
}

interface Placeholder {
  start: number;
  end: number;
  key: string;
  fallback: string | undefined;
}

/** The outermost `${key:default}` of a text (a default may nest more). */
function placeholders(text: string): Placeholder[] {
  const out: Placeholder[] = [];
  let at = text.indexOf("${");
  while (at !== -1) {
    let depth = 0;
    let colon = -1;
    let end = -1;
    for (let i = at + 2; i < text.length; i++) {
      if (text.startsWith("${", i)) {
        depth++;
        i++;
      } else if (text[i] === "}") {
        if (depth === 0) {
          end = i;
          break;
        }
        depth--;
      } else if (text[i] === ":" && depth === 0 && colon === -1) colon = i;
    }
    if (end === -1) break;
    out.push({
      start: at,
      end: end + 1,
      key: text.slice(at + 2, colon === -1 ? end : colon),
      fallback: colon === -1 ? undefined : text.slice(colon + 1, end),
    });
    at = text.indexOf("${", end + 1);
  }
  return out;
}

/** The module of a settings file: the directory above `src/main/resources`. */
function moduleOf(path: string): string {
  const at = path.lastIndexOf("src/main/resources/");
  if (at !== -1) return path.slice(0, at);
  const slash = path.lastIndexOf("/");
  const dir = slash === -1 ? "" : path.slice(0, slash + 1);
  return dir.endsWith("resources/") ? dir.slice(0, -"resources/".length) : dir;
}

/** The documents of a `.properties` file (`#---` separates them). */
function properties(text: string): Array<Map<string, string>> {
  const out: Array<Map<string, string>> = [new Map()];
  let count = 0;
  for (const raw of text.split("\n")) {
    const line = raw.trim();
    if (line === "#---" || line === "!---") {
      out.push(new Map());
      continue;
    }
    if (line === "" || line.startsWith("#") || line.startsWith("!")) continue;
    const match = /^([^=:\s]+)\s*[=:]\s*(.*)$/.exec(line);
    if (!match || ++count > MAX_SETTINGS) continue;
    out[out.length - 1]!.set(match[1]!, match[2]!.trim());
  }
  return out;
}

/** The documents of a YAML file, flattened to dotted keys. */
function yaml(text: string): Array<Map<string, string>> {
  const out: Array<Map<string, string>> = [];
  let count = 0;
  const visit = (
    map: YAMLMap,
    prefix: string,
    depth: number,
    into: Map<string, string>,
  ): void => {
    if (depth > 8) return;
    for (const item of map.items) {
      const key = isScalar(item.key) ? String(item.key.value) : undefined;
      if (key === undefined) continue;
      const name = prefix ? `${prefix}.${key}` : key;
      if (isMap(item.value)) visit(item.value, name, depth + 1, into);
      else if (
        isScalar(item.value) && item.value.value !== null &&
        ++count <= MAX_SETTINGS
      ) {
        into.set(name, String(item.value.value));
      }
    }
  };
  let documents;
  try {
    documents = parseAllDocuments(text);
  } catch {
    return out;
  }
  if (!Array.isArray(documents)) return out;
  for (const doc of documents) {
    if (doc.errors.length > 0 || !isMap(doc.contents)) continue;
    const values = new Map<string, string>();
    visit(doc.contents, "", 0, values);
    out.push(values);
  }
  return out;
}

/**
 * The servlet context path the routes of the file at `path` are served
 * under, as the first segment of their paths (composed: it comes from the
 * settings); empty without settings.
 */
export function contextPrefix(
  settings: SpringSettings | undefined,
  path: string,
): Value {
  const context = settings?.contextPath(path) ?? "";
  return literal(context, context !== "");
}
