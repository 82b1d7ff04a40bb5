// The ports of a Spring request mapping (`@GetMapping`, `@RequestMapping`,
// `@GetExchange`...), as Java and Kotlin controllers and HTTP interfaces
// declare them.
import type { ExtractedPort, PortOwner } from "../types.ts";
import { type Positioned, routePorts } from "../_port/http.ts";
import { addsPrefix, joinPaths } from "../_value/path.ts";
import { literal, type Value } from "../_value/value.ts";
import { contextPrefix, type SpringSettings } from "./settings.ts";

/** Options of {@linkcode mappingPorts}. */
export interface SpringMapping {
  /** `server` for a controller, `client` for an HTTP interface. */
  role: "server" | "client";
  methods: readonly string[];
  /** The class-level prefixes (`@RequestMapping` on the class). */
  prefixes: readonly Value[];
  /** The paths the method's annotation names. */
  paths: readonly Value[];
  /** The settings of the scan root (the servlet context path). */
  settings: SpringSettings | undefined;
  node: Positioned;
  owner: PortOwner;
  filePath: string;
  framework: string;
}

/**
 * The ports of a mapping: each path under each class prefix, a served one
 * under the context path of its module.
 */
export function mappingPorts(init: SpringMapping): ExtractedPort[] {
  const context = init.role === "server"
    ? contextPrefix(init.settings, init.filePath)
    : literal("");
  const out: ExtractedPort[] = [];
  for (const prefix of init.prefixes) {
    for (const path of init.paths) {
      out.push(...routePorts({
        role: init.role,
        methods: init.methods,
        path: joinPaths(context, prefix, path),
        prefixed: addsPrefix(prefix),
        node: init.node,
        owner: init.owner,
        filePath: init.filePath,
        framework: init.framework,
      }));
    }
  }
  return out;
}
