import assert from "node:assert/strict";
import { PyProject } from "../../../src/extract/python/project.ts";

Deno.test("PyProject.findModule: exact names, unique dotted suffixes, never an ambiguous or external one", async () => {
  const project = await PyProject.load([
    { path: "app/api/routes.py", text: "" },
    { path: "app/settings.py", text: "" },
    { path: "tools/settings.py", text: "" },
    { path: "app/requests.py", text: "" },
    { path: "app/orders/__init__.py", text: "" },
    { path: "routes.py", text: "" },
  ], []);
  const name = (module: { name: string } | undefined): string | undefined =>
    module?.name;
  // an exact name wins over a suffix match
  assert.equal(name(project.findModule("routes")), "routes");
  // a unique suffix at a dot boundary
  assert.equal(name(project.findModule("api.routes")), "app.api.routes");
  assert.equal(name(project.findModule("orders")), "app.orders");
  // two modules end with it: no guess
  assert.equal(project.findModule("settings"), undefined);
  // not at a dot boundary
  assert.equal(project.findModule("i.routes"), undefined);
  // a library the extractors know is never a project module
  assert.equal(project.findModule("requests"), undefined);
  assert.equal(project.findModule("nothing.here"), undefined);
});
