// The zod schema of graphlens's graph document, schema version 1.
import { z } from "zod";
import { NODE_KINDS, RELATION_KINDS } from "./graph_kinds.ts";

const position = z.number({ error: "expected an integer" }).int({
  error: "expected an integer",
}).min(0, { error: "expected an integer >= 0" });

export const metadataSchema = z.record(
  z.string(),
  z.json({ error: "expected JSON" }),
  {
    error: "expected an object",
  },
);

export const nodeDocumentSchema = z.object({
  id: z.string({ error: "expected a string" }).min(1, {
    error: "expected a non-empty string",
  }),
  kind: z.enum(NODE_KINDS, {
    error: `expected one of ${NODE_KINDS.join(", ")}`,
  }),
  "qualified_name": z.string({ error: "expected a string" }),
  name: z.string({ error: "expected a string" }),
  "file_path": z.string({ error: "expected a string or null" }).nullable()
    .optional(),
  span: z.tuple([position, position, position, position], {
    error: "expected [start_line, start_col, end_line, end_col] or null",
  }).nullable().optional(),
  metadata: metadataSchema.optional(),
}, { error: "expected an object" });

export const relationDocumentSchema = z.object({
  "source_id": z.string({ error: "expected a string" }).min(1, {
    error: "expected a non-empty string",
  }),
  "target_id": z.string({ error: "expected a string" }).min(1, {
    error: "expected a non-empty string",
  }),
  kind: z.enum(RELATION_KINDS, {
    error: `expected one of ${RELATION_KINDS.join(", ")}`,
  }),
  metadata: metadataSchema.optional(),
}, { error: "expected an object" });

export const graphDocumentSchema = z.object({
  "schema_version": z.literal(1),
  metadata: metadataSchema.optional(),
  nodes: z.array(nodeDocumentSchema, { error: "expected an array" }),
  relations: z.array(relationDocumentSchema, { error: "expected an array" }),
}, { error: "expected an object" });
