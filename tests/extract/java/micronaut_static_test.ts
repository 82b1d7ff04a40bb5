import assert from "node:assert/strict";
import { javaExtractor } from "../../../src/extract/java/mod.ts";
import { portSummary } from "../_fixtures.ts";

Deno.test("javaExtractor reads Micronaut's static resource mappings", async () => {
  const properties = `micronaut.server.context-path=/app
micronaut.router.static-resources.web.mapping=/web/**
micronaut.router.static-resources.web.paths=classpath:web
micronaut.router.static-resources.off.mapping=/off/**
micronaut.router.static-resources.off.enabled=false
other.static-resources.x.mapping=/not-micronaut/**
`;
  const yaml = `micronaut:
  router:
    static-resources:
      docs:
        mapping: /docs/**
        paths: classpath:docs
`;
  const { ports } = await javaExtractor.extract([
    { path: "a/src/main/resources/application.properties", text: properties },
    { path: "b/src/main/resources/application.yml", text: yaml },
  ]);
  assert.deepEqual(portSummary(ports), [
    "a/src/main/resources/application.properties:2 server GET /app/web/{} 0.95",
    "b/src/main/resources/application.yml:5 server GET /docs/{} 1",
  ]);
});
