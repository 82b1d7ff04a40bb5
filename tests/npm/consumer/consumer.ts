// Type-checked by scripts/smoke_npm.ts with tsc (skipLibCheck: false) under
// node16, nodenext and bundler resolution, against the published
// declarations of every entry point.
import {
  bearerUserProvider,
  HttpError,
  PermissionGuard,
  type User,
} from "portcullis";
import { type GuardWrapper, JwtUserProvider } from "portcullis/guard";
import { type NodeServer, serve, toRequest, writeResponse } from "portcullis/node";
import { honoGuard } from "portcullis/hono";
import { expressGuard } from "portcullis/express";
import {
  BoundaryGraph,
  confidenceOf,
  linkGraph,
  type MergeResult,
  normalizeHttpPath,
} from "portcullis-boundary";
import {
  type BoundaryDiff,
  diffGraphs,
} from "portcullis-boundary";
import { type ExportFile, exportGraph, gateDiff, renderDiff } from "portcullis-boundary/map";
import { OrgStore, type OrgLink } from "portcullis-boundary/map/store";
import { type ScanResult, javascriptExtractor, runCli, scan } from "portcullis-scan";
import { Hono } from "hono";
import express from "express";
import {
  PolicyDatabase,
  type PolicyReloadEvent,
  PostgresEnforcerProvider,
} from "portcullis/guard/postgres";

const guard: PermissionGuard = new PermissionGuard({
  userProvider: bearerUserProvider,
  enforcerProvider: () => ({ enforce: (user: User) => user.role === "admin" }),
});
const read: GuardWrapper = guard.requirePermission("post", "read");
const handler: (request: Request) => Response | Promise<Response> = read(() =>
  new Response("ok")
);
const error: HttpError = new HttpError(404, "Not Found");
const jwt: typeof JwtUserProvider.create = JwtUserProvider.create;

// The adapters.
const running: Promise<NodeServer> = serve(handler, { port: 0 });
const convert: typeof toRequest = toRequest;
const write: typeof writeResponse = writeResponse;
const app = new Hono().get("/posts", honoGuard(guard)(read), (c) =>
  c.json({ role: c.get("user").role }));
const expressApp = express();
expressApp.get("/posts", expressGuard(guard)(read), (_req, res) => {
  res.json(res.locals["user"]);
});

// The boundary core and the scanner, sharing one BoundaryGraph type.
const path: string = normalizeHttpPath("/users/:id");
const graph = new BoundaryGraph();
const linked: number = linkGraph(graph, {}).relationsAdded;
const confidence: number = confidenceOf(0.5);
const scanned: Promise<ScanResult> = scan(["."]);
const merged: Promise<MergeResult> = scanned.then((result) =>
  graph.merge(result.graph)
);
const extractor: string = javascriptExtractor.name;

const openProvider = async (url: string): Promise<PostgresEnforcerProvider> =>
  await PostgresEnforcerProvider.open({
    database: await PolicyDatabase.open(url),
    modelPath: "model.conf",
    onReload: (event: PolicyReloadEvent) => void event.revision,
  });
// The map: a diff, its gate and report, an export, the command.
const diff: BoundaryDiff = diffGraphs(graph, graph, { name: "shop" });
const exitCode: 0 | 1 | 3 = gateDiff(diff, "breaking").exitCode;
const comment: string = renderDiff(diff, { format: "markdown" });
const files: ExportFile[] = exportGraph(graph, { format: "cyclonedx" });
const command: Promise<number> = runCli(["diff", "--help"]);
// The organisation store.
const orgLinks: Promise<OrgLink[]> = OrgStore.open("pglite:memory").then(
  async (store) => {
    await store.publish("shop", graph, { commit: "abc" });
    return await store.links({ repo: "shop" });
  },
);

export {
  app,
  command,
  comment,
  confidence,
  convert,
  error,
  exitCode,
  expressApp,
  extractor,
  files,
  jwt,
  linked,
  merged,
  orgLinks,
  openProvider,
  path,
  running,
  write,
};
