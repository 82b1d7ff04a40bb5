// deno-lint-ignore-file no-console -- casbin logs an invalid ipMatch pattern before it throws; the test silences it
// The compiled ipMatch against casbin 5.51.1's own on random addresses and
// patterns: IPv4 and IPv6, CIDRs of every prefix length (and beyond), mixed
// families, and text that is no address.
import assert from "node:assert/strict";
import fc from "fast-check";
import { Util } from "casbin";
import {
  compileIpPattern,
  requestAddress,
} from "../../../src/guard/_index/ip_match.ts";

const byte = fc.oneof(
  fc.integer({ min: 0, max: 255 }).map(String),
  fc.constantFrom("0", "10", "192", "168", "255", "256", "01", "007", ""),
);
const v4 = fc.tuple(byte, byte, byte, byte).map((b) => b.join("."));
const v6 = fc.constantFrom(
  "::1",
  "::",
  "2001:db8::1",
  "2001:db8:0:0:0:0:0:1",
  "::ffff:192.168.1.5",
  "::ffff:10.0.0.1",
  "fe80::1%eth0",
  "2001:db8::",
  "1:2:3:4:5:6:7:8",
  "1::2::3",
);
const junk = fc.constantFrom(
  "",
  "abc",
  "1.2.3",
  "1.2.3.4.5",
  " 1.2.3.4",
  "a:b",
);
const address = fc.oneof(
  { weight: 6, arbitrary: v4 },
  { weight: 2, arbitrary: v6 },
  { weight: 1, arbitrary: junk },
);
const bits = fc.oneof(
  fc.integer({ min: 0, max: 32 }).map(String),
  fc.constantFrom("33", "64", "128", "024", "", "x", "-1", " 8", "8a"),
);
const pattern = fc.oneof(
  { weight: 3, arbitrary: address },
  {
    weight: 6,
    arbitrary: fc.tuple(address, bits).map(([a, b]) => `${a}/${b}`),
  },
  { weight: 1, arbitrary: fc.constantFrom("1.2.3.4/8/8", "/", "1.2.3.4/") },
);

function casbin(ip: string, p: string): { value: boolean } | { error: true } {
  // casbin logs an invalid second argument before it throws.
  const log = console.log;
  console.log = () => {};
  try {
    return { value: Util.ipMatchFunc(ip, p) };
  } catch {
    return { error: true };
  } finally {
    console.log = log;
  }
}

Deno.test("compiled ipMatch answers as casbin's, and is refused where casbin throws", () => {
  let compared = 0;
  let matched = 0;
  let fast = 0;
  fc.assert(
    fc.property(
      pattern,
      fc.array(address, { minLength: 1, maxLength: 6 }),
      (p, ips) => {
        const compiled = compileIpPattern(p);
        for (const ip of ips) {
          const address = requestAddress(ip);
          const expected = casbin(ip, p);
          if (address === undefined) {
            // Not an address: casbin throws, whatever the pattern.
            assert.deepEqual(expected, { error: true }, `${ip} ${p}`);
            continue;
          }
          if (typeof compiled === "string") {
            assert.deepEqual(expected, { error: true }, `${ip} ${p}`);
            continue;
          }
          assert.deepEqual(
            { value: compiled(ip, address) },
            expected,
            `ipMatch(${JSON.stringify(ip)}, ${JSON.stringify(p)})`,
          );
          compared++;
          if ("value" in expected && expected.value) matched++;
          if (address !== -1) fast++;
        }
      },
    ),
    { numRuns: 10_000 },
  );
  assert.ok(compared > 5_000, `only ${compared} comparisons`);
  assert.ok(matched > 500, `only ${matched} matches`);
  assert.ok(fast > compared / 2, `only ${fast} IPv4 requests`);
});

Deno.test("ipMatch answers IPv4 CIDRs at their edges as casbin does", () => {
  const cases: [string, string][] = [
    ["192.168.2.123", "192.168.2.0/24"],
    ["192.168.3.1", "192.168.2.0/24"],
    ["10.255.255.255", "10.0.0.0/8"],
    ["11.0.0.0", "10.0.0.0/8"],
    ["1.2.3.4", "0.0.0.0/0"],
    ["1.2.3.4", "1.2.3.4/32"],
    ["1.2.3.5", "1.2.3.4/32"],
    ["1.2.3.4", "1.2.3.4"],
    ["::ffff:10.0.0.1", "10.0.0.0/8"],
    ["10.0.0.1", "::ffff:10.0.0.0/104"],
  ];
  for (const [ip, p] of cases) {
    const compiled = compileIpPattern(p);
    assert.equal(typeof compiled, "function", p);
    const address = requestAddress(ip)!;
    assert.equal(
      (compiled as (t: string, a: number) => boolean)(ip, address),
      Util.ipMatchFunc(ip, p),
      `${ip} ${p}`,
    );
  }
});
