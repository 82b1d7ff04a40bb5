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

Deno.test("serviceAffinity() keeps a call in its own service when that serves it", () => {
  const ports = [
    port("server", "GET /upper", "proxy/main.go"),
    port("server", "GET /upper", "copy/main.go"),
    port("client", "GET /upper", "proxy/proxying.go"),
    // a handler that forwards its own path elsewhere: itself does not count
    port("server", "GET /login", "edge/handlers.go"),
    port("server", "GET /login", "users/api.go"),
  ];
  const forwarder: PortRecord = {
    ...port("client", "GET /login", "edge/handlers.go"),
    ownerId: "edge/handlers.go#GET /login",
  };
  const accept = serviceAffinity([...ports, forwarder], firstFolder);
  const caller = "proxy/proxying.go#calls";
  assert.ok(accept(caller, "proxy/main.go#GET /upper", "b:GET /upper"));
  assert.ok(!accept(caller, "copy/main.go#GET /upper", "b:GET /upper"));
  assert.ok(
    accept(forwarder.ownerId, "users/api.go#GET /login", "b:GET /login"),
  );
});

Deno.test("serviceAffinity() lets the majority of a file's calls win over its own service", () => {
  const ports = [
    port("server", "GET /login", "web/pages.py"),
    port("server", "GET /login", "users/api.py"),
    port("server", "POST /users", "users/api.py"),
    port("client", "GET /login", "web/calls.py"),
    port("client", "POST /users", "web/calls.py"),
  ];
  const accept = serviceAffinity(ports, firstFolder);
  const caller = "web/calls.py#calls";
  assert.ok(accept(caller, "users/api.py#GET /login", "b:GET /login"));
  assert.ok(!accept(caller, "web/pages.py#GET /login", "b:GET /login"));
});
