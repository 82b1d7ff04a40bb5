// Retraces how a role check held: the chain of `g` rules from a name to a
// role, found breadth-first through casbin's role manager (so patterns and
// domain hierarchies count as casbin counts them), each step matched to the
// rule that makes it.
import type { RoleManager } from "casbin";
import type { PolicyRule, RoleLink } from "./explanation.ts";

// casbin's default role manager follows at most 10 levels.
const MAX_DEPTH = 10;
// Names expanded per search, so that a huge role graph cannot stall it.
const MAX_EXPANSIONS = 10_000;

/** The rule that links `from` to `to`, preferring an exact one. */
function ruleFor(
  rules: readonly PolicyRule[],
  from: string,
  to: string,
  domain: string | undefined,
): PolicyRule | undefined {
  const exact = (rule: PolicyRule): boolean =>
    rule.values[0] === from && rule.values[1] === to;
  return rules.find((rule) =>
    exact(rule) && (domain === undefined || rule.values[2] === domain)
  ) ?? rules.find(exact) ?? rules.find((rule) => rule.values[1] === to);
}

/**
 * The links from `from` to `role`: empty when they are the same name,
 * `undefined` when no path is found within casbin's depth.
 */
export async function rolePath(
  manager: RoleManager | undefined,
  rules: readonly PolicyRule[],
  from: string,
  role: string,
  domain: string | undefined,
): Promise<RoleLink[] | undefined> {
  if (from === role) return [];
  if (manager === undefined) return undefined;
  const domainArgs = domain === undefined ? [] : [domain];
  const previous = new Map<string, string>([[from, from]]);
  let level = [from];
  let expansions = 0;
  for (let depth = 0; depth < MAX_DEPTH && level.length > 0; depth++) {
    const next: string[] = [];
    for (const name of level) {
      if (++expansions > MAX_EXPANSIONS) return undefined;
      let roles: string[];
      try {
        roles = await manager.getRoles(name, ...domainArgs);
      } catch {
        return undefined;
      }
      for (const held of roles) {
        if (previous.has(held)) continue;
        previous.set(held, name);
        if (held === role) return linksTo(previous, rules, role, domain);
        next.push(held);
      }
    }
    level = next;
  }
  return undefined;
}

function linksTo(
  previous: ReadonlyMap<string, string>,
  rules: readonly PolicyRule[],
  role: string,
  domain: string | undefined,
): RoleLink[] {
  const links: RoleLink[] = [];
  let to = role;
  let from = previous.get(to)!;
  for (;;) {
    links.push({ from, to, domain, rule: ruleFor(rules, from, to, domain) });
    if (previous.get(from) === from) break;
    to = from;
    from = previous.get(to)!;
  }
  return links.reverse();
}
