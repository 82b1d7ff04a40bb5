import assert from "node:assert/strict";
import { newModelFromString } from "casbin";
import { checkMatchers } from "../../../src/guard/_policy/matcher.ts";

function model(matcher: string, extra = ""): ReturnType<
  typeof newModelFromString
> {
  return newModelFromString(`
[request_definition]
r = sub, obj, act
[policy_definition]
p = sub, obj, act
${extra}
[policy_effect]
e = some(where (p.eft == allow))
[matchers]
m = ${matcher}
`);
}

Deno.test("checkMatchers() accepts sound matchers", () => {
  for (
    const matcher of [
      "r.sub.role == p.sub && r.obj == p.obj && r.act == p.act",
      'keyMatch2(r.obj, p.obj) && regexMatch(r.act, "^(GET)$")',
      "r.sub == p.sub || r.sub == 'root'",
      "r.sub.name.startsWith(p.sub) && r.obj in ['a', 'b']",
      "eval(p.sub) && r.act == p.act",
      "r.obj in ('a', 'b') && r.act == p.act",
    ]
  ) {
    assert.equal(checkMatchers(model(matcher)), undefined, matcher);
  }
  assert.equal(
    checkMatchers(
      model("g(r.sub, p.sub) && r.obj == p.obj", "[role_definition]\ng = _, _"),
    ),
    undefined,
  );
});

Deno.test("checkMatchers() names the first problem", () => {
  assert.equal(
    checkMatchers(model("r.sub == p.sub && nosuch(r.obj)")),
    'matcher "m" calls unknown function "nosuch"',
  );
  assert.equal(
    checkMatchers(model("r.sub == p.subject")),
    'matcher "m" uses unknown name "p.subject"',
  );
  assert.equal(
    checkMatchers(model("g(r.sub, p.sub)")),
    'matcher "m" calls unknown function "g"',
  );
  assert.match(
    checkMatchers(model("r.sub == (p.sub")) ?? "",
    /^matcher "m" does not parse/,
  );
});

Deno.test("checkMatchers() accepts the custom functions it is given", () => {
  const m = model("isOwner(r.sub, r.obj) && r.act == p.act");
  assert.equal(
    checkMatchers(m),
    'matcher "m" calls unknown function "isOwner"',
  );
  assert.equal(checkMatchers(m, ["isOwner"]), undefined);
});
