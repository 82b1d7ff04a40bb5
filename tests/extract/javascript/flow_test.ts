import assert from "node:assert/strict";
import { javascriptExtractor } from "../../../src/extract/javascript/mod.ts";
import { portSummary as summary } from "../_fixtures.ts";

Deno.test("javascriptExtractor gives a route registrar's prefix parameter the value each caller passes", async () => {
  const { ports } = await javascriptExtractor.extract([
    {
      path: "src/app.js",
      text: [
        'const express = require("express");',
        'const { registerRoutes } = require("./routes");',
        "const app = express();",
        'registerRoutes(app, "/api/v1");',
      ].join("\n"),
    },
    {
      path: "src/routes.js",
      text: [
        'const usersRouter = require("./users");',
        "function registerRoutes(app, prefix) {",
        "  app.use(`${prefix}/users`, usersRouter);",
        '  app.get(prefix + "/health", (req, res) => res.send("ok"));',
        "}",
        "module.exports = { registerRoutes };",
      ].join("\n"),
    },
    {
      path: "src/users.js",
      text: [
        'const router = require("express").Router();',
        'router.get("/:id", (req, res) => res.json({}));',
        "module.exports = router;",
      ].join("\n"),
    },
  ]);
  assert.deepEqual(summary(ports), [
    "src/routes.js:4 server GET /api/v1/health 0.95",
    "src/users.js:2 server GET /api/v1/users/{} 0.95",
  ]);
});

Deno.test("javascriptExtractor follows a client wrapper's path parameter to the calls in other files", async () => {
  const { ports } = await javascriptExtractor.extract([
    {
      path: "src/api.ts",
      text: [
        'import axios from "axios";',
        'const BASE = "http://orders-svc";',
        "export async function post(path: string, body: unknown) {",
        "  return axios.post(BASE + path, body);",
        "}",
      ].join("\n"),
    },
    {
      path: "src/orders.ts",
      text: [
        'import { post } from "./api";',
        'export const place = (o: unknown) => post("/orders", o);',
        "export const cancel = (id: string) => post(`/orders/${id}/cancel`, {});",
      ].join("\n"),
    },
  ]);
  assert.deepEqual(summary(ports), [
    "src/orders.ts:2 client POST /orders 0.95",
    "src/orders.ts:3 client POST /orders/{}/cancel 0.8",
  ]);
});

Deno.test("javascriptExtractor mounts the router a function of another file returns under an imported enum", async () => {
  const { ports } = await javascriptExtractor.extract([
    {
      path: "src/paths.ts",
      text: 'export enum Paths { Api = "/api", Users = "/users" }\n',
    },
    {
      path: "src/app.ts",
      text: [
        'import express from "express";',
        'import { Paths } from "./paths";',
        'import { usersRouter } from "./users";',
        "const app = express();",
        "app.use(Paths.Api, usersRouter());",
      ].join("\n"),
    },
    {
      path: "src/users.ts",
      text: [
        'import { Router } from "express";',
        'import { Paths } from "./paths";',
        "export function usersRouter() {",
        "  const router = Router();",
        "  router.get(`${Paths.Users}/:id`, (req, res) => res.json({}));",
        "  return router;",
        "}",
      ].join("\n"),
    },
  ]);
  assert.deepEqual(summary(ports), [
    "src/users.ts:5 server GET /api/users/{} 0.95",
  ]);
});
