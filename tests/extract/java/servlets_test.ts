import assert from "node:assert/strict";
import { javaExtractor } from "../../../src/extract/java/mod.ts";
import { portSummary } from "../_fixtures.ts";

const WEB_XML = `<web-app>
  <!-- <servlet-mapping><servlet-name>old</servlet-name><url-pattern>/old</url-pattern></servlet-mapping> -->
  <servlet>
    <servlet-name>export</servlet-name>
    <servlet-class>com.acme.ExportServlet</servlet-class>
  </servlet>
  <servlet-mapping>
    <servlet-name>export</servlet-name>
    <url-pattern>/export/*</url-pattern>
    <url-pattern>*.csv</url-pattern>
  </servlet-mapping>
  <servlet>
    <servlet-name>help</servlet-name>
    <jsp-file>/WEB-INF/pages/help.jsp</jsp-file>
  </servlet>
  <servlet-mapping>
    <servlet-name>help</servlet-name>
    <url-pattern>/help</url-pattern>
  </servlet-mapping>
</web-app>`;

const SERVLETS = `package com.acme;
import jakarta.servlet.annotation.*;
import jakarta.servlet.http.*;
@WebServlet(name = "orders", urlPatterns = {"/orders", "/orders/*"},
  initParams = {@WebInitParam(name = "mode", value = "/not-a-pattern")})
class OrderServlet extends HttpServlet {
  protected void doGet(HttpServletRequest req, HttpServletResponse resp) {}
  protected void doDelete(HttpServletRequest req, HttpServletResponse resp) {}
  private void doGetHelper() {}
}
class ExportServlet extends HttpServlet {
  protected void service(HttpServletRequest req, HttpServletResponse resp) {}
}
@WebServlet("/plain")
class NotAServlet {
  void doGet() {}
}`;

Deno.test("javaExtractor reads servlets, web.xml mappings and JSP pages", async () => {
  const { ports } = await javaExtractor.extract([
    { path: "src/main/webapp/WEB-INF/web.xml", text: WEB_XML },
    { path: "src/main/java/com/acme/Servlets.java", text: SERVLETS },
    { path: "src/main/webapp/account/profile.jsp", text: "<%= 1 %>" },
    { path: "src/main/webapp/WEB-INF/pages/help.jsp", text: "<p>help</p>" },
    { path: "index.jsp", text: "<p>home</p>" },
  ]);
  assert.deepEqual(portSummary(ports), [
    "index.jsp:1 server GET /index.jsp 1",
    "src/main/java/com/acme/Servlets.java:11 server ANY /export/{} 1",
    "src/main/java/com/acme/Servlets.java:4 server DELETE /orders 1",
    "src/main/java/com/acme/Servlets.java:4 server DELETE /orders/{} 1",
    "src/main/java/com/acme/Servlets.java:4 server GET /orders 1",
    "src/main/java/com/acme/Servlets.java:4 server GET /orders/{} 1",
    "src/main/webapp/WEB-INF/web.xml:18 server GET /help 1",
    "src/main/webapp/account/profile.jsp:1 server GET /account/profile.jsp 1",
  ]);
});

Deno.test("javaExtractor reads hostile web.xml and struts.xml files in bounded time", async () => {
  const started = performance.now();
  const { ports } = await javaExtractor.extract([
    { path: "WEB-INF/web.xml", text: "<servlet>".repeat(100_000) },
    { path: "struts.xml", text: "<struts>" + "<action".repeat(100_000) },
  ]);
  assert.deepEqual(ports, []);
  assert.ok(performance.now() - started < 5_000);
});
