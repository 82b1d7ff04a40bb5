// The validators the exports are checked with, all from npm and used by
// tests only: CycloneDX's own JSON schema validator, Backstage's entity
// validators, an OpenAPI 3.1 schema validator, and the SARIF 2.1.0 schema
// (a draft-04 schema shipped by @microsoft/jest-sarif) under ajv.
import * as CDX from "@cyclonedx/cyclonedx-library";
import {
  apiEntityV1alpha1Validator,
  componentEntityV1alpha1Validator,
  type Entity,
  FieldFormatEntityPolicy,
  SchemaValidEntityPolicy,
} from "@backstage/catalog-model";
import { Validator } from "@seriousme/openapi-schema-validator";
import AjvDraft04 from "ajv-draft-04";
import addFormats from "ajv-formats";

/** Problems CycloneDX 1.6's schema finds in the JSON text, or null. */
export async function cyclonedxProblems(json: string): Promise<unknown> {
  const validator = new CDX.Validation.JsonStrictValidator(
    CDX.Spec.Version.v1dot6,
  );
  return await validator.validate(json);
}

/**
 * Checks an entity as Backstage's catalog does on ingestion: the envelope
 * and field formats, then its kind's schema. Throws on a problem.
 */
export async function checkBackstageEntity(entity: Entity): Promise<void> {
  const envelope = await new SchemaValidEntityPolicy().enforce(entity);
  const formatted = await new FieldFormatEntityPolicy().enforce(envelope!);
  const validator = entity.kind === "API"
    ? apiEntityV1alpha1Validator
    : componentEntityV1alpha1Validator;
  if (!(await validator.check(formatted!))) {
    throw new Error(`not a ${entity.kind}: ${entity.metadata.name}`);
  }
}

/** An OpenAPI document's validation by its JSON schema. */
export async function openApiProblems(
  document: unknown,
): Promise<{ valid: boolean; errors?: unknown }> {
  return await new Validator().validate(document as Record<string, unknown>);
}

let sarifSchema: Promise<object> | undefined;

/** Problems the SARIF 2.1.0 schema finds, or null. */
export async function sarifProblems(log: unknown): Promise<unknown> {
  sarifSchema ??= Deno.readTextFile(
    new URL(
      "./schemas/sarif-2.1.0-rtm.5.json",
      import.meta.resolve("@microsoft/jest-sarif"),
    ),
  ).then((text) => JSON.parse(text));
  // the schema has a pattern that is invalid under the u flag
  const ajv = new AjvDraft04.default({
    strict: false,
    allErrors: true,
    unicodeRegExp: false,
  });
  addFormats.default(ajv);
  const validate = ajv.compile(await sarifSchema);
  return validate(log) ? null : validate.errors;
}

/** The syntax errors Neo4j's Cypher parser finds in a script. */
export async function cypherErrors(script: string): Promise<string[]> {
  const { lintCypherQuery } = await import("@neo4j-cypher/language-support");
  const result = lintCypherQuery(script, {});
  return result.diagnostics.filter((d) => d.severity === 1).map((d) =>
    `${d.range.start.line + 1}:${d.range.start.character + 1} ${d.message}`
  );
}
