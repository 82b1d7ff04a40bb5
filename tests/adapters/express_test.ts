import { expressCases } from "./_express_cases.ts";

for (const { name, run } of expressCases) Deno.test(name, run);
