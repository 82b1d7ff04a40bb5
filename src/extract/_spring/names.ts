// The names Spring's annotations and clients use, shared by the JVM
// languages: request mapping annotations, RestTemplate's methods and the
// fluent clients.
import { clientPath, joinPaths } from "../_value/path.ts";
import { literal, type Value } from "../_value/value.ts";

/** Spring MVC / WebFlux mapping annotations and their method (`ANY`: any). */
export const MAPPING_METHOD: Readonly<Record<string, string>> = {
  GetMapping: "GET",
  PostMapping: "POST",
  PutMapping: "PUT",
  DeleteMapping: "DELETE",
  PatchMapping: "PATCH",
  RequestMapping: "ANY",
};

/** RestTemplate's methods and their HTTP method (`""`: an argument says). */
export const REST_TEMPLATE_METHOD: Readonly<Record<string, string>> = {
  getForObject: "GET",
  getForEntity: "GET",
  postForObject: "POST",
  postForEntity: "POST",
  postForLocation: "POST",
  put: "PUT",
  delete: "DELETE",
  patchForObject: "PATCH",
  headForHeaders: "HEAD",
  optionsForAllow: "OPTIONS",
  exchange: "",
  execute: "",
};

/** Spring's fluent HTTP clients (`client.get().uri("/x")`). */
export const FLUENT_CLIENT_TYPES: ReadonlySet<string> = new Set([
  "WebClient",
  "RestClient",
]);

/** HTTP interface annotations (`@GetExchange`) and their method. */
export const EXCHANGE_METHOD: Readonly<Record<string, string>> = {
  GetExchange: "GET",
  PostExchange: "POST",
  PutExchange: "PUT",
  DeleteExchange: "DELETE",
  PatchExchange: "PATCH",
  HttpExchange: "ANY",
};

/** The HTTP method of a constant written `HttpMethod.POST`, `RequestMethod.GET`. */
export function methodConstant(text: string): string {
  return text.slice(text.lastIndexOf(".") + 1).trim().toUpperCase();
}

/**
 * The path a Feign client's calls start with: the path of its `url` (a
 * URL's host and unresolved base dropped) joined to its `path`.
 */
export function feignPrefix(
  url: Value | undefined,
  path: Value | undefined,
): Value {
  const urlPath = url ? clientPath(url)?.path : undefined;
  const base = urlPath === undefined || urlPath === "/"
    ? literal("")
    : literal(urlPath, true);
  return joinPaths(base, path ?? literal(""));
}
