// Micronaut's static resources: the `mapping` of each
// `micronaut.router.static-resources.<name>` of a module's settings
// (`/assets/**`), served with `GET` under the context path.
import type { SourceFile } from "../extractor.ts";
import type { ExtractedPort } from "../types.ts";
import { routePorts } from "../_port/http.ts";
import { moduleOwner } from "../_syntax/owner.ts";
import { addsPrefix, joinPaths, literal } from "../_value/mod.ts";
import {
  contextPrefix,
  isSpringSettings,
  type SpringSettings,
} from "../_spring/settings.ts";
import { rowsOf } from "./rows.ts";

const MAPPING = /^micronaut\.router\.static-resources\.[\w-]+\.mapping$/;

/** The static resource routes the settings files of a scan map. */
export function micronautStaticResources(
  files: readonly SourceFile[],
  settings: SpringSettings,
): ExtractedPort[] {
  const out: ExtractedPort[] = [];
  const seen = new Set<string>();
  for (const f of files) {
    if (!isSpringSettings(f.path) || !f.text.includes("static-resources")) {
      continue;
    }
    const context = contextPrefix(settings, f.path);
    const rowOf = rowsOf(f.text);
    for (const [module, values] of settings.modules()) {
      if (!f.path.startsWith(module)) continue;
      for (const [key, value] of values) {
        if (!MAPPING.test(key) || !value.startsWith("/")) continue;
        const enabled = values.get(key.replace(/mapping$/, "enabled"));
        if (enabled?.trim() === "false") continue;
        const at = f.text.indexOf(value);
        if (at === -1 || seen.has(`${module}\u0000${value}`)) continue;
        seen.add(`${module}\u0000${value}`);
        out.push(...routePorts({
          methods: ["GET"],
          path: joinPaths(context, literal(value.replace(/\/\*\*$/, "/*"))),
          prefixed: addsPrefix(context),
          node: { startPosition: { row: rowOf(at), column: 0 } },
          owner: moduleOwner(f.path),
          filePath: f.path,
          framework: "micronaut",
        }));
      }
    }
  }
  return out;
}
