// Type-checked with tsc against the published declarations.
import {
  bearerUserProvider,
  HttpError,
  PermissionGuard,
  type User,
} from "portcullis/guard";
import { BoundaryGraph, linkGraph, normalizeHttpPath } from "portcullis/boundary";
import {
  PolicyDatabase,
  type PolicyReloadEvent,
  PostgresEnforcerProvider,
} from "portcullis/guard/postgres";

const guard: PermissionGuard = new PermissionGuard({
  userProvider: bearerUserProvider,
  enforcerProvider: () => ({ enforce: (user: User) => user.role === "admin" }),
});
const handler: (request: Request) => Response | Promise<Response> = guard
  .requirePermission("post", "read")(() => new Response("ok"));
const error: HttpError = new HttpError(404, "Not Found");
const path: string = normalizeHttpPath("/users/:id");
const graph = new BoundaryGraph();
const linked: number = linkGraph(graph, {}).relationsAdded;
const openProvider = async (url: string): Promise<PostgresEnforcerProvider> =>
  await PostgresEnforcerProvider.open({
    database: await PolicyDatabase.open(url),
    modelPath: "model.conf",
    onReload: (event: PolicyReloadEvent) => void event.revision,
  });
export { error, handler, linked, openProvider, path };
