import assert from "node:assert/strict";
import { javaExtractor } from "../../../src/extract/java/mod.ts";
import { portSummary } from "../_fixtures.ts";

const J = "src/main/java/";

function resource(pkg: string, name: string, path: string): string {
  return `package ${pkg};
import jakarta.ws.rs.*;
@Path("${path}")
public class ${name} {
  @GET
  public String get() { return ""; }
}`;
}

function application(
  pkg: string,
  name: string,
  path?: string,
  body = "",
): string {
  return `package ${pkg};
import jakarta.ws.rs.ApplicationPath;
import jakarta.ws.rs.core.Application;
${path === undefined ? "" : `@ApplicationPath("${path}")`}
public class ${name} extends Application {${body}}`;
}

Deno.test("javaExtractor puts each JAX-RS resource under its own application's path", async () => {
  const { ports } = await javaExtractor.extract([
    {
      path: `${J}com/shop/ShopApp.java`,
      text: application("com.shop", "ShopApp", "/shop"),
    },
    {
      path: `${J}com/shop/api/Orders.java`,
      text: resource("com.shop.api", "Orders", "/orders"),
    },
    {
      path: `${J}com/admin/AdminApp.java`,
      text: application("com.admin", "AdminApp", "/admin"),
    },
    {
      path: `${J}com/admin/Users.java`,
      text: resource("com.admin", "Users", "/users"),
    },
  ]);
  assert.deepEqual(portSummary(ports), [
    `${J}com/admin/Users.java:5 server GET /admin/users 0.95`,
    `${J}com/shop/api/Orders.java:5 server GET /shop/orders 0.95`,
  ]);
});

Deno.test("javaExtractor takes an application's resources from getClasses()", async () => {
  const listing = `
  @Override
  public java.util.Set<Class<?>> getClasses() { return java.util.Set.of(Reports.class); }
`;
  const { ports } = await javaExtractor.extract([
    {
      path: `${J}com/a/ReportsApp.java`,
      text: application("com.a", "ReportsApp", "/reports-api", listing),
    },
    {
      path: `${J}com/a/MainApp.java`,
      text: application("com.a", "MainApp", "/main"),
    },
    {
      path: `${J}com/z/Reports.java`,
      text: resource("com.z", "Reports", "/reports"),
    },
    {
      path: `${J}com/a/Health.java`,
      text: resource("com.a", "Health", "/health"),
    },
  ]);
  assert.deepEqual(portSummary(ports), [
    `${J}com/a/Health.java:5 server GET /main/health 0.95`,
    `${J}com/z/Reports.java:5 server GET /reports-api/reports 0.95`,
  ]);
});

Deno.test("javaExtractor lets a web.xml servlet mapping override @ApplicationPath", async () => {
  const webXml = `<?xml version="1.0" encoding="UTF-8"?>
<web-app>
  <servlet>
    <servlet-name>api</servlet-name>
    <servlet-class>com.shop.ShopApp</servlet-class>
  </servlet>
  <servlet-mapping>
    <servlet-name>api</servlet-name>
    <url-pattern>/services/*</url-pattern>
  </servlet-mapping>
  <servlet>
    <servlet-name>jersey</servlet-name>
    <servlet-class>org.glassfish.jersey.servlet.ServletContainer</servlet-class>
    <init-param>
      <param-name>jersey.config.server.provider.packages</param-name>
      <param-value>com.legacy</param-value>
    </init-param>
  </servlet>
  <servlet-mapping>
    <servlet-name>jersey</servlet-name>
    <url-pattern>/legacy/*</url-pattern>
  </servlet-mapping>
</web-app>`;
  const { ports } = await javaExtractor.extract([
    { path: "src/main/webapp/WEB-INF/web.xml", text: webXml },
    {
      path: `${J}com/shop/ShopApp.java`,
      text: application("com.shop", "ShopApp", "/rest"),
    },
    {
      path: `${J}com/shop/Orders.java`,
      text: resource("com.shop", "Orders", "/orders"),
    },
    {
      path: `${J}com/legacy/Ping.java`,
      text: resource("com.legacy.api", "Ping", "/ping"),
    },
  ]);
  assert.deepEqual(portSummary(ports), [
    `${J}com/legacy/Ping.java:5 server GET /legacy/ping 0.95`,
    `${J}com/shop/Orders.java:5 server GET /services/orders 0.95`,
  ]);
});

Deno.test("javaExtractor reads Quarkus's root path and REST path", async () => {
  const settings = "quarkus.http.root-path=/platform\nquarkus.rest.path=/rs\n";
  const { ports } = await javaExtractor.extract([
    { path: "src/main/resources/application.properties", text: settings },
    {
      path: `${J}org/acme/Greeting.java`,
      text: resource("org.acme", "Greeting", "/hello"),
    },
  ]);
  assert.deepEqual(portSummary(ports), [
    `${J}org/acme/Greeting.java:5 server GET /platform/rs/hello 0.95`,
  ]);
});

Deno.test("javaExtractor survives a malformed web.xml", async () => {
  for (const text of ["<web-app><servlet>", "<<<", "", "<web-app/>"]) {
    const { ports } = await javaExtractor.extract([
      { path: "WEB-INF/web.xml", text },
      { path: "A.java", text: resource("a", "A", "/a") },
    ]);
    assert.deepEqual(portSummary(ports), ["A.java:5 server GET /a 1"]);
  }
});
