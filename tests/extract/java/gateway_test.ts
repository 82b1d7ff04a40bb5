import assert from "node:assert/strict";
import { javaExtractor } from "../../../src/extract/java/mod.ts";
import type { GatewayRoute } from "../../../src/extract/_port/gateway.ts";

function lines(routes: readonly GatewayRoute[] | undefined): string[] {
  return (routes ?? []).map((r) =>
    `${r.gateway} ${r.filePath}:${r.line} ${r.method} ${r.path} -> ${r.target} strip=${r.stripPrefix}${
      r.rewrite ? ` rewrite=${r.rewrite.pattern}=>${r.rewrite.replacement}` : ""
    }`
  ).sort();
}

const YAML = `spring:
  application:
    name: api-gateway
  cloud:
    gateway:
      routes:
        - id: vets-service
          uri: lb://vets-service
          predicates:
            - Path=/api/vet/**
          filters:
            - StripPrefix=2
        - id: visits
          uri: http://visits:8080
          predicates:
            - name: Path
              args:
                patterns: /api/visit/**
            - Method=GET,POST
          filters:
            - RewritePath=/api/visit/(?<segment>.*), /$\\{segment}
---
spring:
  config:
    activate:
      on-profile: docker
  cloud:
    gateway:
      routes:
        - id: docker-only
          uri: lb://elsewhere
          predicates:
            - Path=/docker/**
`;

Deno.test("javaExtractor reads Spring Cloud Gateway routes of application.yml", async () => {
  const result = await javaExtractor.extract([
    { path: "gateway/src/main/resources/application.yml", text: YAML },
    {
      path: "gateway/src/main/resources/application-dev.yml",
      text: YAML.replaceAll("/api/", "/dev/"),
    },
  ]);
  const file = "gateway/src/main/resources/application.yml";
  assert.deepEqual(lines(result.gateways), [
    `api-gateway ${file}:13 GET /api/visit/** -> visits strip=0 rewrite=/api/visit/(?<segment>.*)=>/$<segment>`,
    `api-gateway ${file}:13 POST /api/visit/** -> visits strip=0 rewrite=/api/visit/(?<segment>.*)=>/$<segment>`,
    `api-gateway ${file}:7 ANY /api/vet/** -> vets-service strip=2`,
  ]);
  assert.deepEqual(result.ports, []);
});

Deno.test("javaExtractor reads gateway routes declared with RouteLocatorBuilder", async () => {
  const text = `package com.acme.gateway;
import org.springframework.cloud.gateway.route.RouteLocator;
import org.springframework.cloud.gateway.route.builder.RouteLocatorBuilder;
public class Routes {
  static final String CUSTOMERS = "/api/customer/**";
  public RouteLocator routes(RouteLocatorBuilder builder) {
    return builder.routes()
      .route("customers", r -> r.path(CUSTOMERS)
        .filters(f -> f.stripPrefix(2))
        .uri("lb://customers-service"))
      .route(r -> r.path("/legacy/**").and().method(HttpMethod.DELETE)
        .filters(f -> f.rewritePath("/legacy/(?<rest>.*)", "/v1/\${rest}"))
        .uri("http://legacy:9000"))
      .build();
  }
}`;
  const result = await javaExtractor.extract([
    { path: "edge/src/main/java/com/acme/gateway/Routes.java", text },
  ]);
  const file = "edge/src/main/java/com/acme/gateway/Routes.java";
  assert.deepEqual(lines(result.gateways), [
    `edge ${file}:11 DELETE /legacy/** -> legacy strip=0 rewrite=/legacy/(?<rest>.*)=>/v1/$<rest>`,
    `edge ${file}:8 ANY /api/customer/** -> customers-service strip=2`,
  ]);
});

Deno.test("javaExtractor reads no gateway routes from look-alikes", async () => {
  const result = await javaExtractor.extract([
    {
      path: "app/src/main/resources/application.yml",
      text:
        "gateway:\n  routes:\n    - Path=/x/**\nspring:\n  cloud:\n    gateway: 3\n",
    },
    {
      path: "A.java",
      text: "class A { void f(Router r) { r.route(x -> x); } }",
    },
  ]);
  assert.equal(result.gateways, undefined);
});
