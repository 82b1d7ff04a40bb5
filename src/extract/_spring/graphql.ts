// Spring for GraphQL: the controller methods that resolve queries,
// mutations and fields (`@QueryMapping`, `@MutationMapping`,
// `@SchemaMapping`, `@BatchMapping`) are reached through the one HTTP
// endpoint, `POST /graphql` (`spring.graphql.http.path`, or the older
// `spring.graphql.path`), under the context path.
import type { ExtractedPort, PortOwner } from "../types.ts";
import { type Positioned, routePorts } from "../_port/http.ts";
import { joinPaths, literal } from "../_value/mod.ts";
import { contextPrefix, type SpringSettings } from "./settings.ts";

/** The annotations of methods that resolve GraphQL operations or fields. */
export const GRAPHQL_MAPPINGS: ReadonlySet<string> = new Set([
  "QueryMapping",
  "MutationMapping",
  "SchemaMapping",
  "BatchMapping",
]);

/** Where a resolver is: its annotation, owner and file. */
export interface GraphqlResolver {
  node: Positioned;
  owner: PortOwner;
  filePath: string;
}

/** The GraphQL endpoint port of one resolver method. */
export function graphqlPorts(
  settings: SpringSettings | undefined,
  at: GraphqlResolver,
): ExtractedPort[] {
  const path = settings?.get(at.filePath, "spring.graphql.http.path") ??
    settings?.get(at.filePath, "spring.graphql.path") ?? "/graphql";
  return routePorts({
    methods: ["POST"],
    path: joinPaths(contextPrefix(settings, at.filePath), literal(path)),
    prefixed: false,
    node: at.node,
    owner: at.owner,
    filePath: at.filePath,
    framework: "spring-graphql",
  });
}
