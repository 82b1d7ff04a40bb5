// One Rust file of a scan: the route and client readers of every framework
// the file uses, test code left out.
import { type Node, walk } from "../_syntax/tree.ts";
import { clientCall, freeClientCall } from "./clients.ts";
import { methodCall } from "./nodes.ts";
import type { MethodSite, RustFile, RustScan } from "./project.ts";
import { CLIENT_VERBS } from "./project.ts";
import { rocketAttribute } from "./rocket_routes.ts";
import { actixAttribute, actixResourceOrClient, routeCall } from "./routes.ts";
import { AXUM_MOUNTS, axumMount } from "./axum.ts";
import { isTestItem, isTestPath } from "./test_code.ts";
import { utoipaRoutes } from "./utoipa.ts";
import { rwfRoutes, usesRwf } from "./rwf.ts";
import { tideRoute, usesTide } from "./tide.ts";
import { gothamRoute, usesGotham } from "./gotham.ts";
import { salvoRoute, usesSalvo } from "./salvo.ts";
import { usesWarp, warpRoute } from "./warp.ts";
import { poemAt, poemOpenApi, usesPoem } from "./poem.ts";
import { locoAdd, usesLoco } from "./loco.ts";

/** `.route(path, ..)` and aide's `.api_route(path, ..)`. */
const ROUTE_METHODS = new Set(["route", "api_route", "api_route_with"]);

/** A framework's reader of method calls, for the files that use its crate. */
interface CallReader {
  uses(f: RustFile): boolean;
  read(c: RustScan, f: RustFile, site: MethodSite): void;
}

/** The framework readers every method call is handed to, in this order. */
const CALL_READERS: readonly CallReader[] = [
  { uses: usesTide, read: tideRoute },
  { uses: usesGotham, read: gothamRoute },
  { uses: usesSalvo, read: salvoRoute },
  { uses: usesWarp, read: warpRoute },
  { uses: usesPoem, read: poemAt },
  { uses: usesLoco, read: locoAdd },
];

/** Reads the routes and client calls of one file into the scan's ports. */
export function scanFile(c: RustScan, f: RustFile): void {
  if (isTestPath(f.file.path)) return;
  if (usesRwf(f)) rwfRoutes(c, f);
  const readers = CALL_READERS.filter((reader) => reader.uses(f));
  if (usesPoem(f)) poemOpenApi(c, f);
  const visit = (node: Node): boolean | void => {
    if (isTestItem(node)) return false;
    if (node.type === "call_expression") {
      const m = methodCall(node);
      if (m) {
        for (const reader of readers) reader.read(c, f, { call: node, ...m });
      }
      if (m && ROUTE_METHODS.has(m.name)) routeCall(c, f, node);
      else if (m?.name === "routes") utoipaRoutes(c, f, node);
      else if (m && f.axum && AXUM_MOUNTS.has(m.name)) {
        axumMount(c, f, { call: node, ...m });
      } else if (m?.name === "to" || CLIENT_VERBS.has(m?.name ?? "")) {
        actixResourceOrClient(c, f, node, m!.name, m!.receiver);
      } else if (m?.name === "request") clientCall(c, f, node, m.receiver);
      else freeClientCall(c, f, node);
    } else if (node.type === "attribute_item") {
      actixAttribute(c, f, node);
      rocketAttribute(c, f, node);
    }
  };
  for (const tree of [f.tree, ...f.macros]) walk(tree.rootNode, visit);
}
