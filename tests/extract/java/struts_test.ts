import assert from "node:assert/strict";
import { javaExtractor } from "../../../src/extract/java/mod.ts";
import { portSummary } from "../_fixtures.ts";

async function ports(
  files: Array<{ path: string; text: string }>,
): Promise<string[]> {
  const { ports } = await javaExtractor.extract(files);
  return portSummary(ports);
}

const CONFIG = `<?xml version="1.0" encoding="UTF-8"?>
<struts>
  <constant name="struts.convention.action.suffix" value="Controller"/>
  <constant name="struts.convention.default.parent.package" value="rest-default"/>
  <!-- <action name="commented"/> -->
  <package name="shop" namespace="/shop" extends="struts-default">
    <action name="cart" class="com.acme.CartHandler" method="view">
      <result>/cart.jsp</result>
    </action>
    <action name="item_*" class="com.acme.ItemHandler" method="{1}"/>
  </package>
  <package name="root" extends="struts-default">
    <action name="home"/>
  </package>
</struts>`;

const ACTIONS = [
  {
    path: "src/main/java/com/acme/actions/billing/InvoiceListAction.java",
    text: `package com.acme.actions.billing;
import com.opensymphony.xwork2.ActionSupport;
public class InvoiceListAction extends ActionSupport {
  public String execute() { return SUCCESS; }
}`,
  },
  {
    path: "src/main/java/com/acme/actions/billing/Helper.java",
    text: `package com.acme.actions.billing;
import com.opensymphony.xwork2.ActionSupport;
public class Helper { public String execute() { return "x"; } }`,
  },
  {
    path: "src/main/java/com/acme/actions/billing/BaseAction.java",
    text: `package com.acme.actions.billing;
import com.opensymphony.xwork2.ActionSupport;
public abstract class BaseAction extends ActionSupport {
  public String execute() { return SUCCESS; }
}`,
  },
  {
    path: "src/main/java/com/acme/web/package-info.java",
    text: `@Namespace("/ops")
package com.acme.web;
import org.apache.struts2.convention.annotation.Namespace;`,
  },
  {
    path: "src/main/java/com/acme/web/JobsAction.java",
    text: `package com.acme.web;
import com.opensymphony.xwork2.ActionSupport;
import org.apache.struts2.convention.annotation.*;
public class JobsAction extends ActionSupport {
  @Actions({@Action("jobs/run"), @Action("/cron/tick")})
  public String run() { return SUCCESS; }
}`,
  },
  {
    path: "src/main/java/com/acme/actions/api/TicketsController.java",
    text: `package com.acme.actions.api;
import com.opensymphony.xwork2.ActionSupport;
public class TicketsController extends ActionSupport {
  public String index() { return "index"; }
  public String show() { return "show"; }
  public String destroy() { return "destroy"; }
  public String close() { return "close"; }
  private String helper() { return ""; }
}`,
  },
];

Deno.test("javaExtractor reads struts.xml actions and Convention plugin actions", async () => {
  assert.deepEqual(
    await ports([
      { path: "src/main/resources/struts.xml", text: CONFIG },
      ...ACTIONS,
    ]),
    [
      "src/main/java/com/acme/actions/api/TicketsController.java:4 server GET /api/tickets 0.95",
      "src/main/java/com/acme/actions/api/TicketsController.java:5 server GET /api/tickets/{} 0.95",
      "src/main/java/com/acme/actions/api/TicketsController.java:6 server DELETE /api/tickets/{} 0.95",
      "src/main/java/com/acme/actions/api/TicketsController.java:7 server GET /api/tickets/{}/close 0.95",
      "src/main/java/com/acme/actions/billing/InvoiceListAction.java:3 server ANY /billing/invoice-list 0.95",
      "src/main/java/com/acme/web/JobsAction.java:5 server ANY /cron/tick 1",
      "src/main/java/com/acme/web/JobsAction.java:5 server ANY /ops/jobs/run 0.95",
      "src/main/resources/struts.xml:10 server ANY /shop/item_* 0.95",
      "src/main/resources/struts.xml:13 server ANY /home 1",
      "src/main/resources/struts.xml:7 server ANY /shop/cart 0.95",
    ],
  );
});

Deno.test("javaExtractor maps no Struts class without the Convention plugin", async () => {
  const config = CONFIG.replace(/<constant[^>]*>/g, "");
  const got = await ports([
    { path: "src/main/resources/struts.xml", text: config },
    { path: "src/main/resources/not-config.xml", text: "<beans/>" },
    ACTIONS[0]!,
  ]);
  assert.deepEqual(got, [
    "src/main/resources/struts.xml:10 server ANY /shop/item_* 0.95",
    "src/main/resources/struts.xml:13 server ANY /home 1",
    "src/main/resources/struts.xml:7 server ANY /shop/cart 0.95",
  ]);
});

Deno.test("javaExtractor reads a large struts.xml in bounded time", async () => {
  const action = '<action name="a"/>\n';
  const text = `<struts><package namespace="/n">\n${
    action.repeat(50_000)
  }</package></struts>`;
  const started = performance.now();
  const { ports } = await javaExtractor.extract([
    { path: "struts.xml", text },
  ]);
  assert.equal(ports.length, 2_000);
  assert.equal(ports.at(-1)?.ref.line, 2_001);
  assert.ok(performance.now() - started < 5_000);
});
