// One Rust file of a scan: the route and client readers of every framework
// the file uses, test code left out.
import { type Node, walk } from "../_syntax/tree.ts";
import { clientCall, freeClientCall } from "./clients.ts";
import { methodCall } from "./nodes.ts";
import { CLIENT_VERBS, type RustFile, type RustScan } from "./project.ts";
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

/** Reads the routes and client calls of one file into the scan's ports. */
export function scanFile(c: RustScan, f: RustFile): void {
  if (isTestPath(f.file.path)) return;
  if (usesRwf(f)) rwfRoutes(c, f);
  const tide = usesTide(f);
  const gotham = usesGotham(f);
  const salvo = usesSalvo(f);
  const warp = usesWarp(f);
  const poem = usesPoem(f);
  const loco = usesLoco(f);
  if (poem) poemOpenApi(c, f);
  const visit = (node: Node): boolean | void => {
    if (isTestItem(node)) return false;
    if (node.type === "call_expression") {
      const m = methodCall(node);
      if (m && tide) tideRoute(c, f, { call: node, ...m });
      if (m && gotham) gothamRoute(c, f, { call: node, ...m });
      if (m && salvo) salvoRoute(c, f, node, m.name);
      if (m && warp) warpRoute(c, f, { call: node, ...m });
      if (m?.name === "at" && poem) poemAt(c, f, node);
      if (m?.name === "add" && loco) locoAdd(c, f, node);
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
