// The policy states of the multi-instance test: state n (0..1023) grants
// `post, read` to the roles b0..b9 of the set bits of n and to c0..c9 of the
// set bits of a hash of n. Every change n-1 -> n is one transaction, and an
// answer that mixed two states (a torn read, a half-applied change) decodes
// to bits whose hash does not match, or to a state newer than any commit.

/** The model of every instance. */
export const INSTANCE_MODEL = `[request_definition]
r = sub, obj, act

[policy_definition]
p = sub, obj, act

[policy_effect]
e = some(where (p.eft == allow))

[matchers]
m = r.obj == p.obj && r.sub.role == p.sub && r.act == p.act
`;

const BITS = 10;

/** The roles an instance decides, in answer order. */
export const BIT_ROLES: readonly string[] = [
  ...Array.from({ length: BITS }, (_, i) => `b${i}`),
  ...Array.from({ length: BITS }, (_, i) => `c${i}`),
];

/** The largest state. */
export const MAX_STATE = (1 << BITS) - 1;

function check(n: number): number {
  return (Math.imul(n + 1, 0x9e3779b1) >>> (32 - BITS)) & MAX_STATE;
}

/** The rules of state `n` (a constant rule keeps it non-empty). */
export function rulesOf(n: number): string[][] {
  const rules = [["p", "base", "post", "read"]];
  const c = check(n);
  for (let i = 0; i < BITS; i++) {
    if (n & (1 << i)) rules.push(["p", `b${i}`, "post", "read"]);
  }
  for (let i = 0; i < BITS; i++) {
    if (c & (1 << i)) rules.push(["p", `c${i}`, "post", "read"]);
  }
  return rules;
}

/** The state an answer of `/decide` shows, or undefined for a torn one. */
export function decode(bits: string): number | undefined {
  if (bits.length !== 2 * BITS || /[^01]/.test(bits)) return undefined;
  let n = 0;
  let c = 0;
  for (let i = 0; i < BITS; i++) {
    if (bits[i] === "1") n |= 1 << i;
    if (bits[BITS + i] === "1") c |= 1 << i;
  }
  return check(n) === c ? n : undefined;
}
