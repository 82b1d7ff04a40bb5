// The reload scheduler on a source and builds the test controls step by
// step: no files, no clocks, no sleeps.
import assert from "node:assert/strict";
import {
  type Built,
  Reloader,
  type ReloadSource,
  type SwapEvent,
} from "../../../src/guard/_reload/reloader.ts";
import { EnforcerLoadError } from "../../../src/guard/_policy/error.ts";

/** A "disk" holding one string, read by the reloader. */
class Disk implements ReloadSource<string> {
  content = "A";
  reads = 0;
  failing: EnforcerLoadError | undefined;
  /** Called by the reloader before each swap (a late-event check). */
  onDetect: () => void = () => {};

  read(): Promise<string> {
    this.reads++;
    if (this.failing !== undefined) return Promise.reject(this.failing);
    return Promise.resolve(this.content);
  }
  sameContent(a: string, b: string): boolean {
    return a === b;
  }
  failureKey(error: EnforcerLoadError): string {
    return error.code;
  }
  detect(): void {
    this.onDetect();
  }
}

/** Builds that finish when the test says so. */
class Builds {
  readonly started: string[] = [];
  readonly #gates = new Map<string, PromiseWithResolvers<void>>();
  /** Contents whose build fails. */
  readonly broken = new Set<string>();
  #auto = false;

  build = async (snapshot: string): Promise<Built<string>> => {
    this.started.push(snapshot);
    if (!this.#auto) await this.#gate(snapshot).promise;
    if (this.broken.has(snapshot)) {
      throw new EnforcerLoadError("POLICY_INVALID", `broken ${snapshot}`);
    }
    return { enforcer: snapshot, rules: 1, loadedIn: "main" };
  };

  finish(snapshot: string): void {
    this.#gate(snapshot).resolve();
  }

  auto(): void {
    this.#auto = true;
    for (const gate of this.#gates.values()) gate.resolve();
  }

  #gate(snapshot: string): PromiseWithResolvers<void> {
    let gate = this.#gates.get(snapshot);
    if (gate === undefined) {
      gate = Promise.withResolvers<void>();
      this.#gates.set(snapshot, gate);
    }
    return gate;
  }
}

/** Lets every pending promise chain run. */
async function settle(): Promise<void> {
  for (let i = 0; i < 20; i++) await Promise.resolve();
  await new Promise((resolve) => setTimeout(resolve, 0));
}

function setup(): {
  disk: Disk;
  builds: Builds;
  swaps: string[];
  errors: EnforcerLoadError[];
  reloader: Reloader<string, string>;
} {
  const disk = new Disk();
  const builds = new Builds();
  const swaps: string[] = [];
  const errors: EnforcerLoadError[] = [];
  const reloader = new Reloader<string, string>(
    {
      source: disk,
      build: builds.build,
      debounceMs: 0,
      onSwap: (event: SwapEvent<string>) => swaps.push(event.snapshot),
      onError: (error) => errors.push(error),
      isClosed: () => false,
      sleep: () => Promise.resolve(),
    },
    "A",
    { enforcer: "A", rules: 1, loadedIn: "main" },
  );
  return { disk, builds, swaps, errors, reloader };
}

Deno.test("Reloader never swaps in a build whose read a newer change replaced", async () => {
  const { disk, builds, swaps, reloader } = setup();
  disk.content = "prefix";
  reloader.changed();
  await settle();
  assert.deepEqual(builds.started, ["prefix"]);
  // The writer finishes while the prefix is being built.
  disk.content = "final";
  reloader.changed();
  builds.finish("prefix");
  await settle();
  builds.finish("final");
  await reloader.done;
  assert.deepEqual(swaps, ["final"]);
  assert.equal(reloader.current, "final");
});

Deno.test("Reloader discards a build when detect() finds a change whose event has not arrived", async () => {
  const { disk, builds, swaps, reloader } = setup();
  disk.content = "prefix";
  reloader.changed();
  await settle();
  // The write completes, but no change signal comes in: only detect()
  // (an fstat in the file provider) can see it, just before the swap.
  disk.content = "final";
  disk.onDetect = () => {
    if (disk.content !== reloader.current) {
      disk.onDetect = () => {};
      reloader.changed();
    }
  };
  builds.finish("prefix");
  await settle();
  builds.finish("final");
  await reloader.done;
  assert.deepEqual(swaps, ["final"]);
});

Deno.test("Reloader swaps a discarded build without rebuilding when the content turns out the same", async () => {
  const { disk, builds, swaps, reloader } = setup();
  disk.content = "B";
  reloader.changed();
  await settle();
  reloader.changed(); // a late event of the same write
  builds.finish("B");
  await reloader.done;
  assert.deepEqual(swaps, ["B"]);
  assert.deepEqual(builds.started, ["B"]);
});

Deno.test("Reloader answers a waiting request only after a round that read after its change", async () => {
  const { disk, builds, reloader } = setup();
  disk.content = "prefix";
  reloader.changed();
  const first = reloader.waitForCurrent();
  await settle();
  disk.content = "final";
  reloader.changed();
  const second = reloader.waitForCurrent();
  let answered: string | undefined;
  void Promise.resolve(second).then((value) => answered = value);
  builds.finish("prefix");
  await settle();
  assert.equal(answered, undefined, "answered before the final read");
  builds.finish("final");
  assert.equal(await second, "final");
  assert.equal(await first, "final");
});

Deno.test("Reloader stops making requests wait when the source keeps changing", async () => {
  const { disk, builds, reloader } = setup();
  let version = 0;
  // Every build sees a newer change: nothing is ever swapped in.
  disk.onDetect = () => {
    disk.content = `v${++version}`;
    reloader.changed();
  };
  builds.auto();
  disk.content = "v0";
  reloader.changed();
  const waiting = reloader.waitForCurrent();
  assert.equal(await waiting, "A");
  assert.ok(version >= 8, String(version));
  disk.onDetect = () => {};
  await reloader.done;
  assert.equal(reloader.current, disk.content);
});

Deno.test("Reloader keeps the last good enforcer on a failed build and reports each content once", async () => {
  const { disk, builds, errors, swaps, reloader } = setup();
  builds.auto();
  builds.broken.add("broken");
  disk.content = "broken";
  reloader.changed();
  await reloader.done;
  reloader.changed(); // a touch: same bytes
  await reloader.done;
  assert.equal(reloader.current, "A");
  assert.equal(errors.length, 1);
  assert.deepEqual(builds.started, ["broken"]);
  disk.content = "C";
  reloader.changed();
  await reloader.done;
  assert.deepEqual(swaps, ["C"]);
});

Deno.test("Reloader reports a failed read once until the source reads again", async () => {
  const { disk, errors, reloader } = setup();
  disk.failing = new EnforcerLoadError("NOT_FOUND", "gone");
  reloader.changed();
  await reloader.done;
  reloader.changed();
  await reloader.done;
  assert.equal(errors.length, 1);
  assert.equal(reloader.current, "A");
  disk.failing = undefined;
  reloader.changed();
  await reloader.done;
  disk.failing = new EnforcerLoadError("NOT_FOUND", "gone again");
  reloader.changed();
  await reloader.done;
  assert.equal(errors.length, 2);
});
