import { nodeCases } from "./_node_cases.ts";

for (const { name, run } of nodeCases) Deno.test(name, run);
