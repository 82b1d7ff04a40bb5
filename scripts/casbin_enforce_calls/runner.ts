// Runs one of node-casbin's jest test files under Deno, against casbin
// 5.51.1 (see casbin_shim.ts), with just enough of jest's API for those
// files, and writes the decisions it made to a JSON file. See record.ts.
//
//   deno run -A --no-check --import-map=<map> runner.ts <test file> <out>
// deno-lint-ignore-file no-explicit-any
import { isDeepStrictEqual } from "node:util";
import { writeFileSync } from "node:fs";
import { recording } from "./casbin_shim.ts";

type Fn = () => unknown;
interface Block {
  name: string;
  beforeEach: Fn[];
  afterEach: Fn[];
  beforeAll: Fn[];
  afterAll: Fn[];
  items: (Block | { test: string; fn: Fn })[];
}

const root: Block = {
  name: "",
  beforeEach: [],
  afterEach: [],
  beforeAll: [],
  afterAll: [],
  items: [],
};
let current = root;
let failures = 0;
let checks = 0;

function check(ok: boolean, what: string): void {
  checks++;
  if (!ok) {
    failures++;
    // deno-lint-ignore no-console
    console.error(`  expectation failed in "${recording.test}": ${what}`);
  }
}

function matchers(actual: any, negate: boolean): Record<string, Fn> {
  const is = (ok: boolean, what: string): void => check(ok !== negate, what);
  return {
    toBe: ((e: unknown) => is(Object.is(actual, e), `toBe ${String(e)}`)) as Fn,
    toEqual: ((e: unknown) =>
      is(
        isDeepStrictEqual(actual, e) ||
          JSON.stringify(actual) === JSON.stringify(e),
        "toEqual",
      )) as Fn,
    toStrictEqual:
      ((e: unknown) => is(isDeepStrictEqual(actual, e), "toStrictEqual")) as Fn,
    toBeUndefined: (() => is(actual === undefined, "toBeUndefined")) as Fn,
    toBeGreaterThan: ((n: number) => is(actual > n, "toBeGreaterThan")) as Fn,
    toThrow: (() => {
      let threw = false;
      try {
        actual();
      } catch {
        threw = true;
      }
      is(threw, "toThrow");
    }) as Fn,
    toHaveBeenCalled: (() => is(actual.mock.calls.length > 0, "called")) as Fn,
    toHaveBeenCalledTimes:
      ((n: number) => is(actual.mock.calls.length === n, "calledTimes")) as Fn,
    toHaveBeenCalledWith:
      (() => is(actual.mock.calls.length > 0, "calledWith")) as Fn,
  };
}

function settled(actual: unknown, rejects: boolean): Record<string, Fn> {
  const out: Record<string, Fn> = {};
  for (const name of Object.keys(matchers(undefined, false))) {
    out[name] = ((...args: unknown[]) =>
      Promise.resolve(actual).then(
        (value) => {
          if (rejects) check(false, `rejects (resolved ${String(value)})`);
          else (matchers(value, false)[name] as any)(...args);
        },
        (error) => {
          if (!rejects) check(false, `resolves (rejected: ${error})`);
          else if (name !== "toThrow") {
            (matchers(error, false)[name] as any)(...args);
          } else check(true, "rejects");
        },
      )) as Fn;
  }
  return out;
}

function mockFn(impl: (...args: unknown[]) => unknown = () => undefined): any {
  let implementation = impl;
  const mock = (...args: unknown[]): unknown => {
    mock.mock.calls.push(args);
    return implementation(...args);
  };
  mock.mock = { calls: [] as unknown[][] };
  mock.mockImplementation = (f: typeof impl) => (implementation = f, mock);
  mock.mockReturnValue = (v: unknown) => (implementation = () => v, mock);
  mock.mockResolvedValue = (
    v: unknown,
  ) => (implementation = () => Promise.resolve(v), mock);
  mock.mockClear = () => (mock.mock.calls = [], mock);
  return mock;
}

const globals = globalThis as any;
globals.describe = (name: string, fn: Fn): void => {
  const block: Block = {
    name,
    beforeEach: [],
    afterEach: [],
    beforeAll: [],
    afterAll: [],
    items: [],
  };
  current.items.push(block);
  const parent = current;
  current = block;
  fn();
  current = parent;
};
globals.test = globals.it = (name: string, fn: Fn): void => {
  current.items.push({ test: name, fn });
};
globals.beforeEach = (fn: Fn) => current.beforeEach.push(fn);
globals.afterEach = (fn: Fn) => current.afterEach.push(fn);
globals.beforeAll = (fn: Fn) => current.beforeAll.push(fn);
globals.afterAll = (fn: Fn) => current.afterAll.push(fn);
globals.expect = (actual: unknown) => ({
  ...matchers(actual, false),
  not: matchers(actual, true),
  resolves: settled(actual, false),
  rejects: settled(actual, true),
});
globals.jest = { fn: mockFn };

async function run(block: Block, path: string[], each: Block[]): Promise<void> {
  for (const fn of block.beforeAll) await fn();
  const chain = [...each, block];
  for (const item of block.items) {
    if ("items" in item) {
      await run(item, [...path, item.name], chain);
      continue;
    }
    recording.test = [...path, item.test].filter(Boolean).join(" > ");
    try {
      for (const b of chain) for (const fn of b.beforeEach) await fn();
      // A test that takes jest's `done` callback ends when it calls it.
      if (item.fn.length > 0) {
        await new Promise<void>((done) =>
          (item.fn as (d: Fn) => void)(done as Fn)
        );
      } else {
        await item.fn();
      }
      for (const b of chain.toReversed()) {
        for (const fn of b.afterEach) await fn();
      }
    } catch (error) {
      check(false, `threw ${error instanceof Error ? error.message : error}`);
    }
  }
  for (const fn of block.afterAll) await fn();
}

const [file, out] = Deno.args;
await import(new URL(file!, `file://${Deno.cwd()}/`).href);
await run(root, [], []);
writeFileSync(
  out!,
  JSON.stringify({ calls: recording.calls, checks, failures }),
);
