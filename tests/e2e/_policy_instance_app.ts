// One application instance of the multi-instance test, run under Deno or
// Bun: a PostgresEnforcerProvider on POLICY_DATABASE_URL, and
// `GET /decide`, which decides every bit role of the encoding in
// _policy_instances.ts on one enforcer and answers the decisions as a
// string of 0s and 1s.
import process from "node:process";
import { PostgresEnforcerProvider } from "../../src/guard/postgres/mod.ts";
import { BIT_ROLES, INSTANCE_MODEL } from "./_policy_encoding.ts";

const url = process.env.POLICY_DATABASE_URL;
if (!url) throw new Error("POLICY_DATABASE_URL is not set");
let errors = 0;
const provider = await PostgresEnforcerProvider.open({
  database: url,
  model: INSTANCE_MODEL,
  pollIntervalMs: 1000,
  onError: (error) => {
    errors++;
    // deno-lint-ignore no-console
    console.error(`policy error: ${error.message}`);
  },
});

async function handle(request: Request): Promise<Response> {
  const path = new URL(request.url).pathname;
  if (path !== "/decide") return new Response("not found", { status: 404 });
  const enforcer = await provider.getEnforcer();
  let bits = "";
  for (const role of BIT_ROLES) {
    bits += await enforcer.enforce({ role }, "post", "read") ? "1" : "0";
  }
  return new Response(bits, {
    headers: { "x-errors": String(errors) },
  });
}

type Serve = (options: {
  port: number;
  hostname: string;
  fetch: typeof handle;
}) => { port: number };
const bun = (globalThis as { Bun?: { serve: Serve } }).Bun;
let port: number;
if (bun !== undefined) {
  port = bun.serve({ port: 0, hostname: "127.0.0.1", fetch: handle }).port;
} else {
  port = await new Promise<number>((resolve) => {
    Deno.serve({
      port: 0,
      hostname: "127.0.0.1",
      onListen: (address) => resolve(address.port),
    }, handle);
  });
}
// deno-lint-ignore no-console
console.log(`Listening on http://127.0.0.1:${port}/`);
