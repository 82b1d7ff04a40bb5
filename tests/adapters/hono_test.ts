import { honoCases } from "./_hono_cases.ts";

for (const { name, run } of honoCases) Deno.test(name, run);
