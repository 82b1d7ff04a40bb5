// deno bench benches/boundary_id_bench.ts
import { createHash } from "node:crypto";
import { makeBoundaryId } from "../src/boundary/id.ts";

const key = "GET /api/v1/users/{}/posts/{}";

Deno.bench({
  name: "makeBoundaryId (pure JS SHA-256, sync)",
  group: "id",
  baseline: true,
  fn(): void {
    makeBoundaryId("http", key);
  },
});

// For reference only: node:crypto is not available in browsers.
Deno.bench({
  name: "node:crypto createHash (reference)",
  group: "id",
  fn(): void {
    createHash("sha256").update(`boundary::http::${key}`).digest("hex")
      .slice(0, 16);
  },
});
