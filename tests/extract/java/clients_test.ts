import assert from "node:assert/strict";
import { javaExtractor } from "../../../src/extract/java/mod.ts";
import { portSummary } from "../_fixtures.ts";

const J = "ledger/src/main/java/com/acme/";

const CLIENT = `package com.acme;

import org.springframework.beans.factory.annotation.Value;
import org.springframework.web.client.RestTemplate;
import org.springframework.web.reactive.function.client.WebClient;

public class LedgerClient {
  private final String balancesUri;
  @Value("\${contacts.url:http://contacts:8080}/contacts")
  private String contactsUri;
  private final RestTemplate restTemplate;
  private final WebClient.Builder builder;
  private final WebClient users;
  private final RestTemplate billing;

  public LedgerClient(
      @Value("http://\${BALANCES_ADDR}/balances") String balancesUri,
      RestTemplate restTemplate,
      WebClient.Builder builder,
      RestTemplateBuilder templates) {
    this.balancesUri = balancesUri;
    this.restTemplate = restTemplate;
    this.builder = builder;
    this.users = builder.baseUrl("http://users:8080/api").build();
    this.billing = templates.rootUri("http://billing/v1").build();
  }

  Integer balance(String account) {
    return restTemplate.getForObject(balancesUri + "/" + account, Integer.class);
  }

  String contact(String user) {
    return restTemplate.getForObject(contactsUri + "/" + user, String.class);
  }

  Object owner(int id) {
    return builder.build().get().uri("http://customers-service/owners/{id}", id).retrieve();
  }

  Object user(int id) {
    return users.get().uri("/users/{id}", id).retrieve();
  }

  Object invoice(String id) {
    return billing.getForObject("/invoices/" + id, String.class);
  }
}`;

const FEIGN = `package com.acme;

import org.springframework.cloud.openfeign.FeignClient;
import org.springframework.web.bind.annotation.GetMapping;

@FeignClient(name = "inventory", url = "\${inventory.url:http://inventory:8080/api}", path = "/stock")
public interface InventoryClient {
  @GetMapping("/{sku}")
  Stock stock(String sku);
}`;

const SETTINGS = `contacts:
  url: http://contacts-svc/v2
`;

Deno.test("javaExtractor gives clients the base URLs of @Value, builders and Feign", async () => {
  const { ports } = await javaExtractor.extract([
    { path: `${J}LedgerClient.java`, text: CLIENT },
    { path: `${J}InventoryClient.java`, text: FEIGN },
    { path: "ledger/src/main/resources/application.yml", text: SETTINGS },
  ]);
  assert.deepEqual(portSummary(ports), [
    `${J}InventoryClient.java:8 client GET /api/stock/{} 0.95`,
    `${J}LedgerClient.java:29 client GET /balances/{} 0.8`,
    `${J}LedgerClient.java:33 client GET /v2/contacts/{} 0.8`,
    `${J}LedgerClient.java:37 client GET /owners/{} 1`,
    `${J}LedgerClient.java:41 client GET /api/users/{} 0.95`,
    `${J}LedgerClient.java:45 client GET /v1/invoices/{} 0.8`,
  ]);
});

Deno.test("javaExtractor puts an abstract base's handler methods under each controller extending it", async () => {
  const base = `package com.acme;
public abstract class CrudController<T> {
  @GetMapping("/list")
  public String list() { return ""; }
  @DeleteMapping("/{id}")
  public void delete(String id) {}
}`;
  const reports = `package com.acme;
@RestController
@RequestMapping("/reports")
public class ReportController extends CrudController<Report> {}`;
  const users = `package com.acme;
@RestController
@RequestMapping("/users")
public class UserController extends CrudController<User> {}`;
  const { ports } = await javaExtractor.extract([
    { path: "CrudController.java", text: base },
    { path: "ReportController.java", text: reports },
    { path: "UserController.java", text: users },
  ]);
  assert.deepEqual(portSummary(ports), [
    "CrudController.java:3 server GET /reports/list 0.95",
    "CrudController.java:3 server GET /users/list 0.95",
    "CrudController.java:5 server DELETE /reports/{} 0.95",
    "CrudController.java:5 server DELETE /users/{} 0.95",
  ]);
  // on its own, an abstract base serves nothing
  const alone = await javaExtractor.extract([
    { path: "CrudController.java", text: base },
  ]);
  assert.deepEqual(alone.ports, []);
});
