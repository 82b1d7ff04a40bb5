// The guard of a route across files: a handler imported from another file
// of the project (`import { listPosts } from "./posts.ts"`) brings the
// guard that file wraps it in, through further imports too.
import type { GuardFacts, JsFacts } from "./facts.ts";
import type { JsProject } from "./project.ts";
import { mergeGuards } from "./guarded.ts";

const MAX_HOPS = 8;

/** The guard with every imported handler it refers to resolved. */
export function resolveGuard(
  project: JsProject,
  file: JsFacts,
  guard: GuardFacts,
  depth = 0,
): GuardFacts {
  if (guard.refs.length === 0 || depth > MAX_HOPS) {
    return { ...guard, refs: [] };
  }
  const found: GuardFacts[] = [{ ...guard, refs: [] }];
  for (const ref of guard.refs) {
    const module = project.module(file.path, ref.source);
    const local = module?.exports.get(ref.name);
    if (!module || local === undefined) continue;
    const own = module.guards.get(local.replace(/^fn:/, ""));
    if (own) found.push(resolveGuard(project, module, own, depth + 1));
  }
  return mergeGuards(found);
}
