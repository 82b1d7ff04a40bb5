import assert from "node:assert/strict";
import { NODE_KINDS, RELATION_KINDS } from "../../src/boundary/graph_kinds.ts";

Deno.test("NODE_KINDS covers graphlens's node kinds", () => {
  for (
    const kind of [
      "project",
      "module",
      "file",
      "class",
      "function",
      "method",
      "parameter",
      "import",
      "dependency",
      "external_symbol",
      "variable",
      "attribute",
      "type_alias",
      "boundary",
    ]
  ) {
    assert.ok((NODE_KINDS as readonly string[]).includes(kind), kind);
  }
  assert.equal(new Set(NODE_KINDS).size, NODE_KINDS.length);
});

Deno.test("RELATION_KINDS covers graphlens's relation kinds", () => {
  for (
    const kind of [
      "contains",
      "declares",
      "imports",
      "calls",
      "references",
      "depends_on",
      "resolves_to",
      "inherits_from",
      "has_type",
      "exposes",
      "consumes",
      "communicates_with",
    ]
  ) {
    assert.ok((RELATION_KINDS as readonly string[]).includes(kind), kind);
  }
  assert.equal(new Set(RELATION_KINDS).size, RELATION_KINDS.length);
});
