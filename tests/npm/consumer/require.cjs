// A CommonJS consumer: require() of every entry point of the three packages
// (Node 20.19+, 22.12+ and Bun load the ESM bundles with require()).
const assert = require("node:assert/strict");

const runtime = typeof Bun === "undefined" ? `node ${process.version}` : `bun ${Bun.version}`;
const entries = {
  portcullis: "PermissionGuard",
  "portcullis/guard": "PermissionGuard",
  "portcullis/node": "serve",
  "portcullis/hono": "honoGuard",
  "portcullis/express": "expressGuard",
  "portcullis-boundary": "BoundaryGraph",
  "portcullis-boundary/map": "renderDiff",
  "portcullis-boundary/map/store": "OrgStore",
  "portcullis-scan": "scan",
};
const only = process.argv[2];
for (const [specifier, name] of Object.entries(entries)) {
  if (only === "core" && !specifier.startsWith("portcullis/") && specifier !== "portcullis") continue;
  assert.equal(typeof require(specifier)[name], "function", `${specifier} exports ${name}`);
}
console.log(`${runtime}: require() loads ${only === "core" ? "every entry point of portcullis" : "every entry point"}`);
