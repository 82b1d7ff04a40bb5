import assert from "node:assert/strict";
import { newEnforcer, newModelFromString } from "casbin";
import { subjectValue } from "../../src/policy/_subject.ts";
import { examplePath } from "../fixtures/casbin_examples.ts";
import { MODEL } from "../fixtures/guard/casbin.ts";

function modelWith(matcher: string): ReturnType<typeof newModelFromString> {
  return newModelFromString(MODEL.replace(/^m = .*$/m, `m = ${matcher}`));
}

Deno.test("subjectValue() keeps a string when the matcher uses r.sub whole", () => {
  assert.equal(
    subjectValue(modelWith("r.sub == p.sub && r.obj == p.obj"), "alice"),
    "alice",
  );
});

Deno.test("subjectValue() makes { role } of a string when the matcher reads r.sub.role", () => {
  assert.deepEqual(subjectValue(newModelFromString(MODEL), "editor"), {
    role: "editor",
  });
  assert.deepEqual(
    subjectValue(modelWith("r.sub.name == p.sub || r.obj == p.obj"), "ana"),
    { name: "ana" },
  );
});

Deno.test("subjectValue() passes an object subject as it is", () => {
  const subject = { role: "editor", org: "acme" };
  assert.equal(subjectValue(newModelFromString(MODEL), subject), subject);
});

Deno.test("subjectValue() refuses a string the model reads two ways", () => {
  assert.throws(
    () =>
      subjectValue(
        modelWith("r.sub.role == p.sub && r.sub.org == p.obj"),
        "editor",
      ),
    {
      name: "PolicyTestError",
      code: "SUBJECT_AMBIGUOUS",
      message:
        'Cannot map the subject "editor": the matcher reads r.sub.org and r.sub.role; give the subject as an object',
    },
  );
  assert.throws(
    () => subjectValue(modelWith("g(r.sub, p.sub) && r.sub.org == p.obj"), "x"),
    { message: /reads r\.sub itself and r\.sub\.org/ },
  );
});

Deno.test("subjectValue() reads the attributes of rules evaluated with eval()", async () => {
  const enforcer = await newEnforcer(
    examplePath("abac_rule_model.conf"),
    examplePath("abac_rule_policy.csv"),
  );
  assert.deepEqual(subjectValue(enforcer.getModel(), "30"), { Age: "30" });
});
