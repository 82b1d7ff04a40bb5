// The pauses of a provider: they end on time, or all at once on close,
// leaving no timer behind (the test sanitizer fails on a leaked timer).
import assert from "node:assert/strict";
import { Sleeps } from "../../../src/guard/_reload/sleeps.ts";

Deno.test("Sleeps.sleep() resolves after its time", async () => {
  const sleeps = new Sleeps();
  const start = performance.now();
  await sleeps.sleep(20);
  assert.ok(performance.now() - start >= 15);
});

Deno.test("Sleeps.wakeAll() ends every pending sleep at once and clears its timer", async () => {
  const sleeps = new Sleeps();
  const start = performance.now();
  const pending = [sleeps.sleep(60_000), sleeps.sleep(120_000)];
  sleeps.wakeAll();
  await Promise.all(pending);
  assert.ok(performance.now() - start < 5_000);
  // Nothing is left to wake; a later sleep still runs its full time.
  sleeps.wakeAll();
  const later = performance.now();
  await sleeps.sleep(10);
  assert.ok(performance.now() - later >= 5);
});
