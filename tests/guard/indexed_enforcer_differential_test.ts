// Differential test: IndexedEnforcer against casbin 5.51.1 itself, over
// random models whose matcher is a conjunction of equalities, random CSV
// policies and random requests (strings, objects, null, numbers...).
import assert from "node:assert/strict";
import fc from "fast-check";
import {
  type Enforcer as CasbinEnforcer,
  newEnforcer,
  newModelFromString,
  StringAdapter,
} from "casbin";
import { IndexedEnforcer } from "../../src/guard/indexed_enforcer.ts";
import {
  casbinEnforce,
  casbinEnforceSync,
  compiledOf,
  settle,
} from "./_index_reference.ts";

const EFFECTS = [
  "some(where (p.eft == allow))",
  "!some(where (p.eft == deny))",
  "some(where (p.eft == allow)) && !some(where (p.eft == deny))",
];

interface TermSpec {
  r: number;
  path: readonly string[];
  computed: boolean;
  p: number;
  strict: boolean;
  flip: boolean;
}

interface Case {
  rNames: string[];
  pNames: string[];
  terms: TermSpec[];
  nested: boolean;
  effect: string;
  extra: string;
  rows: { cells: string[]; quote: boolean[]; spaces: string }[];
  requests: unknown[][];
  role: { term: TermSpec; at: number } | null;
  links: [string, string][];
}

const CELLS = ["a", "b", "", "1", "a,b", 'q"r', " a", "allow", "deny"];
const cell = fc.constantFrom(...CELLS);

// Request values: the strings of the policy, and everything `==` treats
// differently: objects with and without the attribute, null, numbers...
const requestValue: fc.Arbitrary<unknown> = fc.oneof(
  { weight: 6, arbitrary: cell },
  {
    weight: 4,
    arbitrary: cell.map((role) => ({ role, a: { b: role } })),
  },
  {
    weight: 3,
    arbitrary: fc.constantFrom<unknown>(
      {},
      { role: undefined },
      { role: null },
      { role: 1 },
      { a: null },
      undefined,
      null,
      1,
      0,
      true,
      ["a"],
      new String("a"),
    ),
  },
);

const caseArb: fc.Arbitrary<Case> = fc.record({
  rNames: fc.uniqueArray(fc.constantFrom("sub", "obj", "act", "dom"), {
    minLength: 1,
    maxLength: 4,
  }),
  pNames: fc.uniqueArray(fc.constantFrom("sub", "obj", "act", "dom", "eft"), {
    minLength: 1,
    maxLength: 5,
  }),
  terms: fc.array(
    fc.record({
      r: fc.nat(),
      path: fc.constantFrom<readonly string[]>([], [], ["role"], ["a", "b"]),
      computed: fc.boolean(),
      p: fc.nat(),
      strict: fc.constantFrom(false, false, false, true),
      flip: fc.boolean(),
    }),
    { minLength: 1, maxLength: 4 },
  ),
  nested: fc.boolean(),
  effect: fc.oneof(
    { weight: 9, arbitrary: fc.constantFrom(...EFFECTS) },
    { weight: 1, arbitrary: fc.constant("priority(p.eft) || deny") },
  ),
  // Now and then a matcher outside the indexed shape.
  extra: fc.oneof(
    { weight: 12, arbitrary: fc.constant("") },
    {
      weight: 1,
      arbitrary: fc.constantFrom(
        ' && r.SUB == "a"',
        " || r.SUB == p.PX",
        " && keyMatch(r.SUB, p.PX)",
        " && r.SUB != p.PX",
      ),
    },
  ),
  rows: fc.array(
    fc.record({
      cells: fc.array(cell, { minLength: 0, maxLength: 6 }),
      quote: fc.array(fc.boolean(), { minLength: 6, maxLength: 6 }),
      spaces: fc.constantFrom(",", ", ", " , ", ",  "),
    }),
    { minLength: 0, maxLength: 14 },
  ),
  requests: fc.array(fc.array(requestValue, { minLength: 0, maxLength: 5 }), {
    minLength: 1,
    maxLength: 8,
  }),
  // A g(r.x, p.y) term, and role links (a user may have roles, which may
  // have roles...).
  role: fc.option(
    fc.record({
      term: fc.record({
        r: fc.nat(),
        path: fc.constantFrom<readonly string[]>([], [], ["role"]),
        computed: fc.constant(false),
        p: fc.nat(),
        strict: fc.constant(false),
        flip: fc.constant(false),
      }),
      at: fc.nat(),
    }),
    { freq: 2 },
  ),
  links: fc.array(fc.tuple(cell, cell), { maxLength: 8 }),
});

function renderCell(value: string, quote: boolean): string {
  const needs = value === "" || /[,"]|^\s|\s$/.test(value);
  return needs || quote ? `"${value.replaceAll('"', '""')}"` : value;
}

function render(c: Case): { model: string; policy: string; size: number } {
  const rTokens = c.rNames;
  const pTokens = c.pNames;
  const terms = c.terms.map((t) => {
    const r = rTokens[t.r % rTokens.length]!;
    const path = t.path.map((name) => t.computed ? `["${name}"]` : `.${name}`)
      .join("");
    const p = pTokens[t.p % pTokens.length]!;
    const left = `r.${r}${path}`;
    const right = `p.${p}`;
    const op = t.strict ? "===" : "==";
    return t.flip ? `${right} ${op} ${left}` : `${left} ${op} ${right}`;
  });
  if (c.role !== null) {
    const t = c.role.term;
    const r = rTokens[t.r % rTokens.length]!;
    const path = t.path.map((name) => `.${name}`).join("");
    const p = pTokens[t.p % pTokens.length]!;
    terms.splice(c.role.at % (terms.length + 1), 0, `g(r.${r}${path}, p.${p})`);
  }
  let matcher = terms[0]!;
  if (terms.length > 1) {
    const rest = terms.slice(1).join(" && ");
    matcher = c.nested ? `${matcher} && (${rest})` : `${matcher} && ${rest}`;
  }
  matcher += c.extra.replaceAll("SUB", rTokens[0]!).replaceAll(
    "PX",
    pTokens[0]!,
  );
  const model = `[request_definition]
r = ${rTokens.join(", ")}

[policy_definition]
p = ${pTokens.join(", ")}

${c.role !== null || c.links.length > 0 ? "[role_definition]\ng = _, _\n" : ""}
[policy_effect]
e = ${c.effect}

[matchers]
m = ${matcher}
`;
  const policy = c.rows.map((row) => {
    // Mostly the right number of fields; sometimes one too few or too many.
    const size = pTokens.length + (row.cells.length === 5 ? 1 : 0) -
      (row.cells.length === 1 && row.quote[0] && row.quote[1] ? 1 : 0);
    const cells = Array.from(
      { length: size },
      (_, i) =>
        renderCell(
          row.cells[i % Math.max(1, row.cells.length)] ?? "a",
          row.quote[i % 6]!,
        ),
    );
    return ["p", ...cells].join(row.spaces);
  }).concat(
    c.links.map(([user, role]) =>
      ["g", renderCell(user, false), renderCell(role, false)].join(", ")
    ),
  ).join("\n");
  return { model, policy, size: rTokens.length };
}

/**
 * Reshapes each request value the way the matcher reads it; returns false
 * when a value is read both as a string and as an object.
 */
function shape(request: unknown[], c: Case): boolean {
  let clean = true;
  for (let i = 0; i < request.length; i++) {
    const raw = request[i];
    const text = typeof raw === "string"
      ? raw
      : typeof (raw as { role?: unknown })?.role === "string"
      ? (raw as { role: string }).role
      : "a";
    const all = c.role === null ? c.terms : [...c.terms, c.role.term];
    const attributes = all.some((t) =>
      t.r % c.rNames.length === i && t.path.length > 0
    );
    // keyMatch(r.<first>, ...) of the extra terms reads a string.
    const plain = all.some((t) =>
      t.r % c.rNames.length === i && t.path.length === 0
    ) || (i === 0 && c.extra.includes("keyMatch"));
    if (attributes && plain) clean = false;
    request[i] = attributes ? { role: text, a: { b: text } } : text;
  }
  return clean;
}

async function build(model: string, policy: string): Promise<CasbinEnforcer> {
  const m = newModelFromString(model);
  return policy === ""
    ? await newEnforcer(m)
    : await newEnforcer(m, new StringAdapter(policy));
}

Deno.test("IndexedEnforcer.enforce() answers as casbin enforce() and enforceSync() do, for random equality models, policies and requests", async () => {
  let models = 0;
  let indexed = 0;
  let decisions = 0;
  let errors = 0;
  let allowed = 0;
  let toCasbin = 0;
  let shapedDecisions = 0;
  let shapedToCasbin = 0;
  let withRoles = 0;
  let compiledModels = 0;
  let compiledWithRoles = 0;
  // The reference calls casbin's prototype methods directly.
  const enforce = casbinEnforce;
  const enforceSync = casbinEnforceSync;
  await fc.assert(
    fc.asyncProperty(caseArb, async (c) => {
      const { model, policy, size } = render(c);
      const casbin = await build(model, policy);
      const ours = IndexedEnforcer.from(casbin);
      const oursSync = IndexedEnforcer.from(casbin, {
        fallback: "enforceSync",
      });
      const cached = await IndexedEnforcer.build(casbin, { cache: true });
      // The worker's form of the index: compiled, then copied the way a
      // message copies it; casbin (the reference) decides what it cannot.
      const compiled = compiledOf(casbin);
      if (compiled !== undefined) {
        compiledModels++;
        if (c.role !== null) compiledWithRoles++;
      }
      // Count the decisions that reach casbin through the indexed enforcers.
      casbin.enforce = (...rvals: unknown[]) => {
        toCasbin++;
        return enforce.apply(casbin, rvals);
      };
      casbin.enforceSync = (...rvals: unknown[]) => {
        toCasbin++;
        return enforceSync.apply(casbin, rvals);
      };
      models++;
      if (ours.indexed) indexed++;
      if (ours.indexed && c.role !== null) withRoles++;
      for (const [n, raw] of c.requests.entries()) {
        // Mostly requests of the right size; every other one is shaped the
        // way the matcher reads it (a string, or an object with the
        // attributes), the others are anything.
        const request = raw.length === 0
          ? raw
          : Array.from({ length: size }, (_, i) => raw[i % raw.length]);
        const shaped = n % 2 === 0 && raw.length !== 0 && shape(request, c);
        const calls = toCasbin;
        const expected = await settle(() => enforce.apply(casbin, request));
        const expectedSync = await settle(() =>
          enforceSync.apply(casbin, request)
        );
        const context = `model:\n${model}\npolicy:\n${policy}\nrequest: ${
          Deno.inspect(request)
        }`;
        assert.deepEqual(
          await settle(() => ours.enforce(...request)),
          expected,
          context,
        );
        assert.deepEqual(
          await settle(() => oursSync.enforce(...request)),
          expectedSync,
          context,
        );
        if (compiled !== undefined) {
          assert.deepEqual(
            await settle(() => compiled.enforce(...request)),
            expected,
            `compiled index\n${context}`,
          );
        }
        // Twice: the second answer may come from the cache.
        assert.deepEqual(
          await settle(() => cached.enforce(...request)),
          expected,
          context,
        );
        assert.deepEqual(
          await settle(() => cached.enforce(...request)),
          expected,
          context,
        );
        decisions++;
        if (ours.indexed && shaped) {
          shapedDecisions++;
          shapedToCasbin += toCasbin - calls;
        }
        if ("error" in expected) errors++;
        else if (expected.value === true) allowed++;
      }
    }),
    { numRuns: 1000 },
  );
  // The comparison must exercise the index, casbin's errors and both
  // outcomes; otherwise it proves nothing.
  assert.ok(indexed > models / 2, `only ${indexed} of ${models} indexed`);
  assert.ok(errors > 0, "no request made casbin throw");
  assert.ok(withRoles > models / 10, `only ${withRoles} indexed with g()`);
  // Every indexed model compiles to the flat index, role terms included.
  assert.equal(compiledModels, indexed);
  assert.equal(compiledWithRoles, withRoles);
  // The index answers every request shaped the way the matcher reads it.
  assert.ok(shapedDecisions > 500, `only ${shapedDecisions} shaped requests`);
  assert.ok(
    shapedToCasbin === 0,
    `casbin decided ${shapedToCasbin} of ${shapedDecisions * 4}`,
  );
  assert.ok(
    allowed > decisions / 10,
    `only ${allowed} of ${decisions} allowed`,
  );
  assert.ok(
    allowed < decisions - decisions / 10,
    "almost every request allowed",
  );
});
