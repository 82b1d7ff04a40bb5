import assert from "node:assert/strict";
import { parseAllDocuments } from "yaml";
import type { Entity } from "@backstage/catalog-model";
import { backstageEntities, backstageYaml } from "../../src/map/backstage.ts";
import { serviceMap } from "../../src/map/service_map.ts";
import {
  hasRawControl,
  HOSTILE,
  hostileGraph,
  polyglotGraph,
} from "./_graphs.ts";
import { checkBackstageEntity } from "./_validators.ts";

Deno.test("backstageEntities() of the polyglot fixture pass Backstage's validators", async () => {
  const entities = backstageEntities(serviceMap(await polyglotGraph()), {
    owner: "group:default/team-shop",
    system: "shop",
  });
  for (const entity of entities) {
    await checkBackstageEntity(entity as unknown as Entity);
  }
  const web = entities.find((e) =>
    e.kind === "Component" && e.metadata.name === "web"
  );
  assert.deepEqual(web?.spec.consumesApis, ["users-api-http"]);
  const users = entities.find((e) => e.metadata.name === "users-api");
  assert.deepEqual(users?.spec.providesApis, ["users-api-http"]);
  assert.equal(users?.spec.system, "shop");
  const api = entities.find((e) => e.metadata.name === "users-api-http");
  assert.equal(api?.kind, "API");
  assert.equal(api?.spec.type, "openapi");
  const definition = JSON.parse(api?.spec.definition as string);
  assert.equal(definition.openapi, "3.1.0");
  // every API a component names exists
  const names = new Set(entities.map((e) => e.metadata.name));
  for (const entity of entities) {
    for (
      const ref of [
        ...(entity.spec.providesApis ?? []),
        ...(entity.spec.consumesApis ?? []),
      ]
    ) {
      assert.ok(names.has(ref), ref);
    }
  }
  // the validators do reject what Backstage refuses
  await assert.rejects(() =>
    checkBackstageEntity({
      ...(web as unknown as Entity),
      metadata: { name: "no spaces allowed" },
    })
  );
});

Deno.test("backstageEntities() gives hostile service names valid, unique names and keeps them in an annotation", async () => {
  const entities = backstageEntities(serviceMap(hostileGraph()));
  const components = entities.filter((e) => e.kind === "Component");
  assert.equal(components.length, HOSTILE.length);
  const names = entities.map((e) => e.metadata.name);
  assert.equal(new Set(names).size, names.length);
  for (const entity of entities) {
    assert.match(
      entity.metadata.name,
      /^([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9]$/,
    );
    assert.ok(entity.metadata.name.length <= 63);
    await checkBackstageEntity(entity as unknown as Entity);
  }
  assert.deepEqual(
    components.map((e) => e.metadata.annotations["portcullis/service"]).sort(),
    [...HOSTILE].sort(),
  );
});

Deno.test("backstageYaml() reads back as the same entities, whatever the names hold", async () => {
  const entities = backstageEntities(serviceMap(hostileGraph()));
  const yaml = backstageYaml(entities);
  assert.ok(!hasRawControl(yaml));
  const documents = parseAllDocuments(yaml);
  assert.equal(documents.length, entities.length);
  for (const document of documents) assert.deepEqual(document.errors, []);
  // a lone surrogate is written as a \u escape and read back as it was
  const back = documents.map((d) => d.toJS());
  assert.deepEqual(
    back.map((e) => e.metadata.annotations["portcullis/service"]),
    entities.map((e) => e.metadata.annotations["portcullis/service"]),
  );
  assert.deepEqual(back, JSON.parse(JSON.stringify(entities)));
  const polyglot = backstageEntities(serviceMap(await polyglotGraph()));
  assert.deepEqual(
    parseAllDocuments(backstageYaml(polyglot)).map((d) => d.toJS()),
    JSON.parse(JSON.stringify(polyglot)),
  );
});
