import assert from "node:assert/strict";
import { javaExtractor } from "../../../src/extract/java/mod.ts";
import { portSummary } from "../_fixtures.ts";

Deno.test("javaExtractor maps classes and methods through composed annotations", async () => {
  const annotations = `package com.acme.web;
import org.springframework.web.bind.annotation.*;
@RequestMapping("/admin")
public @interface AdminApi {}
@GetMapping("/health")
@interface HealthGet {}
@RequestMapping(method = RequestMethod.PATCH)
@interface Patch {
  @AliasFor(annotation = RequestMapping.class)
  String value() default "";
}
@Retention(RetentionPolicy.RUNTIME)
@interface Audited {}`;
  const controller = `package com.acme.web;
import org.springframework.web.bind.annotation.*;
@RestController
@AdminApi
class AdminController {
  @HealthGet
  String health() { return ""; }
  @Patch("/users/{id}")
  void rename() {}
  @Patch
  void touch() {}
  @Audited
  void helper() {}
}`;
  const { ports } = await javaExtractor.extract([
    { path: "Annotations.java", text: annotations },
    { path: "AdminController.java", text: controller },
  ]);
  assert.deepEqual(portSummary(ports), [
    "AdminController.java:10 server PATCH /admin 0.95",
    "AdminController.java:6 server GET /admin/health 0.95",
    "AdminController.java:8 server PATCH /admin/users/{} 0.95",
  ]);
});
