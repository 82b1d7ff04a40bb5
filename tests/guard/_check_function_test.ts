// The check of function arguments shared by PermissionGuard and
// AccessSubject.
import assert from "node:assert/strict";
import {
  optionalFunction,
  requireFunction,
} from "../../src/guard/_check_function.ts";

Deno.test("requireFunction() accepts a function and names the argument of anything else", () => {
  requireFunction("guard handler", "handler", () => {});
  requireFunction("guard handler", "handler", async () => {});
  for (const value of [undefined, null, "f", 1, {}, []]) {
    assert.throws(() => requireFunction("guard handler", "handler", value), {
      name: "TypeError",
      message: "Cannot guard handler: handler must be a function",
    });
  }
});

Deno.test("optionalFunction() accepts undefined and a function, and refuses null and other values", () => {
  optionalFunction("create AccessSubject", "options.selector", undefined);
  optionalFunction("create AccessSubject", "options.selector", () => 1);
  for (const value of [null, false, "f", 0, {}]) {
    assert.throws(
      () => optionalFunction("create AccessSubject", "options.selector", value),
      {
        name: "TypeError",
        message:
          "Cannot create AccessSubject: options.selector must be a function",
      },
    );
  }
});
