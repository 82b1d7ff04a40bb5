import assert from "node:assert/strict";
import { serviceAffinity } from "../../src/boundary/_service_affinity.ts";
import type { PortRecord } from "../../src/boundary/port_records.ts";

function port(
  role: "client" | "server",
  key: string,
  filePath: string,
): PortRecord {
  return {
    graph: "",
    boundaryId: `b:${key}`,
    mechanism: "http",
    key,
    role,
    ownerId: `${filePath}#${role === "server" ? key : "calls"}`,
    owner: filePath,
    service: "repo",
    confidence: 1,
    filePath,
  };
}

/** The service of a port: its first folder. */
const firstFolder = (p: PortRecord): string => p.filePath!.split("/")[0]!;

Deno.test("serviceAffinity() keeps the service that serves most of a file's calls", () => {
  const ports = [
    port("server", "GET /login", "site/pages.py"),
    port("server", "GET /home", "site/pages.py"),
    port("server", "POST /cart", "site/pages.py"),
    port("server", "GET /login", "accounts/api.py"),
    port("client", "GET /login", "load/test.py"),
    port("client", "GET /home", "load/test.py"),
    port("client", "POST /cart", "load/test.py"),
  ];
  const accept = serviceAffinity(ports, firstFolder);
  const caller = "load/test.py#calls";
  assert.ok(accept(caller, "site/pages.py#GET /login", "b:GET /login"));
  assert.ok(!accept(caller, "accounts/api.py#GET /login", "b:GET /login"));
  // other boundaries and other callers are left alone
  assert.ok(
    accept("other#calls", "accounts/api.py#GET /login", "b:GET /login"),
  );
});

Deno.test("serviceAffinity() keeps every service when none serves more", () => {
  const ports = [
    port("server", "GET /balance/{}", "reader/api.java"),
    port("server", "GET /balance/{}", "monolith/api.java"),
    port("client", "GET /balance/{}", "writer/client.java"),
  ];
  const accept = serviceAffinity(ports, firstFolder);
  const caller = "writer/client.java#calls";
  assert.ok(
    accept(caller, "reader/api.java#GET /balance/{}", "b:GET /balance/{}"),
  );
  assert.ok(
    accept(caller, "monolith/api.java#GET /balance/{}", "b:GET /balance/{}"),
  );
});
