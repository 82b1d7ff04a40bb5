import assert from "node:assert/strict";
import type { SourceFile } from "../../../src/extract/extractor.ts";
import { serverLines } from "./_servers.ts";

const APP: SourceFile = {
  path: "src/app.js",
  text: [
    "const { feathers } = require('@feathersjs/feathers');",
    "const express = require('@feathersjs/express');",
    "const { Notes } = require('./notes.class');",
    "const Memory = require('feathers-memory');",
    "const app = express(feathers());",
    "app.use('/notes', new Notes());",
    "app.use('tags', { async find() {}, async create() {}, helper() {} });",
    "app.use('/cache', new Memory(), { methods: ['get', 'remove'] });",
  ].join("\n"),
};

const NOTES: SourceFile = {
  path: "src/notes.class.js",
  text:
    "exports.Notes = class Notes {\n  async find() {}\n  async patch(id, data) {}\n  toString() {}\n};\n",
};

Deno.test("javascriptExtractor reads Feathers services as REST routes by the methods they define", async () => {
  assert.deepEqual(await serverLines([APP, NOTES]), [
    "server DELETE /cache/{} src/app.js:8",
    "server GET /cache/{} src/app.js:8",
    "server GET /notes src/app.js:6",
    "server GET /tags src/app.js:7",
    "server PATCH /notes/{} src/app.js:6",
    "server POST /tags src/app.js:7",
  ]);
});

Deno.test("javascriptExtractor reads no Feathers services in a project without Feathers", async () => {
  const express: SourceFile = {
    path: "src/app.js",
    text: [
      "const express = require('express');",
      "const app = express();",
      "app.use('/cache', new Cache());",
      "class Cache { find() {} }",
    ].join("\n"),
  };
  assert.deepEqual(await serverLines([express]), []);
});
