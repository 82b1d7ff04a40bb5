import assert from "node:assert/strict";
import { envName, hostTemplate } from "../../../src/extract/_value/host.ts";
import { concat, hole, literal } from "../../../src/extract/_value/value.ts";

Deno.test("envName reads the variable of the usual environment reads", () => {
  assert.equal(envName("${BALANCES_ADDR}"), "BALANCES_ADDR");
  assert.equal(envName("${api.host:localhost}"), "api.host");
  assert.equal(envName('os.environ.get("USERS_URI")'), "USERS_URI");
  assert.equal(envName("os.environ['USERS_URI']"), "USERS_URI");
  assert.equal(envName('os.getenv("X_HOST", "x")'), "X_HOST");
  assert.equal(envName('os.Getenv("CART_ADDR")'), "CART_ADDR");
  assert.equal(envName('System.getenv("CART_ADDR")'), "CART_ADDR");
  assert.equal(envName("process.env.API_URL"), "API_URL");
  assert.equal(envName("ENV['API_URL']"), "API_URL");
  assert.equal(envName("config.url"), undefined);
});

Deno.test("hostTemplate tells the host a URL names, or the variable that does", () => {
  const id = hole("id");
  assert.equal(
    hostTemplate(concat([literal("http://users:8080/users/"), id])),
    "users:8080",
  );
  assert.equal(
    hostTemplate(literal("https://user:pw@api.example.com")),
    "api.example.com",
  );
  assert.equal(
    hostTemplate(
      concat([
        literal("http://"),
        hole("process.env.BALANCES_ADDR", "env"),
        literal("/balances/"),
        id,
      ]),
    ),
    "${BALANCES_ADDR}",
  );
  assert.equal(
    hostTemplate(
      concat([hole('os.environ["USERS_URI"]', "env"), literal("/x")]),
    ),
    "${USERS_URI}",
  );
  // a relative URL, a host partly unknown, a host from a parameter
  assert.equal(hostTemplate(literal("/users")), undefined);
  assert.equal(
    hostTemplate(concat([literal("http://users-"), hole("region")])),
    undefined,
  );
  assert.equal(
    hostTemplate(
      concat([literal("http://"), hole("host", "parameter"), literal("/x")]),
    ),
    undefined,
  );
});
