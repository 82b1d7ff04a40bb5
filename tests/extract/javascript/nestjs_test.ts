import assert from "node:assert/strict";
import type { SourceFile } from "../../../src/extract/extractor.ts";
import { serverLines } from "./_servers.ts";

const CONTROLLERS: SourceFile = {
  path: "src/orders.controller.ts",
  text: [
    "import { Controller, Get, Post, Sse, Version, VERSION_NEUTRAL } from '@nestjs/common';",
    "@Controller({ path: 'orders', version: ['1', '2'] })",
    "export class OrdersController {",
    "  @Get() list() {}",
    "  @Version('3')",
    "  @Post(['bulk', 'import']) load() {}",
    "}",
    "@Controller({ path: 'status', version: VERSION_NEUTRAL })",
    "export class StatusController {",
    "  @Sse('feed') feed() {}",
    "}",
    "@Controller(['public', 'internal'])",
    "class PingController {",
    "  @Get('ping') ping() {}",
    "}",
  ].join("\n"),
};

function bootstrap(calls: string): SourceFile {
  return {
    path: "src/main.ts",
    text: [
      "import { NestFactory } from '@nestjs/core';",
      "import { RequestMethod, VersioningType } from '@nestjs/common';",
      "async function bootstrap() {",
      "  const app = await NestFactory.create(AppModule);",
      calls,
      "}",
    ].join("\n"),
  };
}

Deno.test("javascriptExtractor applies NestJS URI versions, VERSION_NEUTRAL, @Version and global prefix exclusions", async () => {
  const main = bootstrap([
    "  app.setGlobalPrefix('api', { exclude: ['public/ping', { path: 'status/feed', method: RequestMethod.GET }] });",
    "  app.enableVersioning({ type: VersioningType.URI, prefix: 'ver' });",
  ].join("\n"));
  assert.deepEqual(await serverLines([CONTROLLERS, main]), [
    "server GET /api/internal/ping src/orders.controller.ts:14",
    "server GET /api/ver1/orders src/orders.controller.ts:4",
    "server GET /api/ver2/orders src/orders.controller.ts:4",
    "server GET /public/ping src/orders.controller.ts:14",
    "server GET /status/feed src/orders.controller.ts:10",
    "server POST /api/ver3/orders/bulk src/orders.controller.ts:6",
    "server POST /api/ver3/orders/import src/orders.controller.ts:6",
  ]);
});

Deno.test("javascriptExtractor ignores NestJS versions when the bootstrap does not enable URI versioning", async () => {
  for (
    const calls of [
      "",
      "  app.enableVersioning({ type: VersioningType.HEADER, header: 'X-V' });",
    ]
  ) {
    assert.deepEqual(await serverLines([CONTROLLERS, bootstrap(calls)]), [
      "server GET /internal/ping src/orders.controller.ts:14",
      "server GET /orders src/orders.controller.ts:4",
      "server GET /public/ping src/orders.controller.ts:14",
      "server GET /status/feed src/orders.controller.ts:10",
      "server POST /orders/bulk src/orders.controller.ts:6",
      "server POST /orders/import src/orders.controller.ts:6",
    ]);
  }
});

Deno.test("javascriptExtractor applies NestJS URI versions when the bootstrap is not in the project, and defaultVersion", async () => {
  assert.deepEqual(await serverLines([CONTROLLERS]), [
    "server GET /internal/ping src/orders.controller.ts:14",
    "server GET /public/ping src/orders.controller.ts:14",
    "server GET /status/feed src/orders.controller.ts:10",
    "server GET /v1/orders src/orders.controller.ts:4",
    "server GET /v2/orders src/orders.controller.ts:4",
    "server POST /v3/orders/bulk src/orders.controller.ts:6",
    "server POST /v3/orders/import src/orders.controller.ts:6",
  ]);
  const main = bootstrap("  app.enableVersioning({ defaultVersion: '9' });");
  const lines = await serverLines([CONTROLLERS, main]);
  assert.ok(
    lines.includes("server GET /v9/public/ping src/orders.controller.ts:14"),
  );
  assert.ok(
    lines.includes("server GET /status/feed src/orders.controller.ts:10"),
  );
});
