// HTTP calls of a JavaScript/TypeScript project: fetch/axios/ky calls (with
// the base URL of the instance they go through, across files) and calls of
// client helpers, functions that pass a parameter into a call's URL.
import type { ExtractDiagnostic } from "../extractor.ts";
import type { ExtractedPort } from "../types.ts";
import {
  clientPath,
  composed,
  concat,
  CONFIDENCE,
  isEmpty,
  type PathResult,
  type Value,
  withHostDetails,
} from "../_value/mod.ts";
import type { ClientRec, HelperCall, JsFacts, Site } from "./facts.ts";
import type { JsProject } from "./project.ts";
import { jsPort } from "./emit.ts";

/** The client ports of a project's calls. */
export class Clients {
  readonly #project: JsProject;
  readonly #diagnostics: ExtractDiagnostic[];

  constructor(project: JsProject, diagnostics: ExtractDiagnostic[]) {
    this.#project = project;
    this.#diagnostics = diagnostics;
  }

  /** Adds the port of a direct call. */
  clientPort(file: JsFacts, client: ClientRec, out: ExtractedPort[]): void {
    const url = this.#project.resolve(file, client.url);
    let framework = client.framework;
    let base: Value | undefined;
    if (client.via) {
      const instance = this.#project.instance(file, client.via);
      if (instance) {
        framework = instance.framework;
        base = this.#project.resolve(instance.file, instance.base);
      } else if (!client.viaOptional) return; // not an HTTP client after all
    }
    this.#emit(file, client, url, base, client.method, framework, {}, out);
  }

  /** Adds the port of a call of a client helper: `api("/users")`. */
  helperPorts(file: JsFacts, call: HelperCall, out: ExtractedPort[]): void {
    const callee = this.#project.callee(file, call.callee);
    if (!callee) return;
    const { file: module, name } = callee;
    const helper = module.helpers.get(name);
    if (!helper) return;
    const arg = call.args[helper.param];
    if (!arg) return;
    const url = composed(concat([
      this.#project.resolve(module, helper.before),
      this.#project.resolve(file, arg),
      this.#project.resolve(module, helper.after),
    ]));
    let method = helper.method;
    if (helper.methodParam !== undefined) {
      const option = call.argMethods[helper.methodParam];
      method = helper.methodParam >= call.args.length
        ? "GET"
        : option === null
        ? undefined
        : option;
    }
    let framework = helper.framework;
    let base: Value | undefined;
    if (helper.via) {
      const instance = this.#project.instance(module, helper.via);
      if (!instance) return;
      framework = instance.framework;
      base = this.#project.resolve(instance.file, instance.base);
    }
    this.#emit(file, call, url, base, method, framework, { helper: name }, out);
  }

  #emit(
    file: JsFacts,
    site: Site,
    url: Value,
    base: Value | undefined,
    method: string | undefined,
    framework: string,
    extra: Record<string, string>,
    out: ExtractedPort[],
  ): void {
    const path = clientPath(url, base) ?? pageRelative(url, base);
    if (!path) return;
    const port = jsPort(file.path, site, {
      role: "client",
      method: method ?? "ANY",
      path: path.path,
      confidence: method === undefined ? CONFIDENCE.weak : path.confidence,
      framework,
      // the host of an absolute URL, else of the client's base URL
      extra: withHostDetails(extra, url, base),
    }, this.#diagnostics);
    if (port) out.push(port);
  }
}

/**
 * A URL relative to the page (`api/vets`, no base): in a browser it
 * resolves against the page's address, taken to be the site's root, so
 * the path is `/api/vets`, with the confidence of a composed value at
 * most. Only a URL that starts with a plain path segment (not `./`, `../`,
 * a template or a scheme) and names no file (no dot) is read so.
 */
function pageRelative(
  url: Value,
  base: Value | undefined,
): PathResult | undefined {
  if (base !== undefined && !isEmpty(base)) return undefined;
  const lead = url.parts[0];
  if (typeof lead !== "string" || !/^[A-Za-z0-9_-]+(?:\/|$)/.test(lead)) {
    return undefined;
  }
  // a file (`list.html`, `data/x.json`) is more likely an asset than an API
  if (lead.split(/[?#]/)[0]!.includes(".")) return undefined;
  const path = clientPath({
    parts: ["/" + lead, ...url.parts.slice(1)],
    composed: url.composed,
  });
  if (path === undefined) return undefined;
  return {
    ...path,
    confidence: Math.min(path.confidence, CONFIDENCE.composed),
  };
}
