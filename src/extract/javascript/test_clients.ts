// Load-test and end-to-end clients: they document the API a system really
// serves and link to its routes. k6 (`import http from "k6/http"`:
// `http.get(url)`, `http.del(url)`, `http.request("POST", url)`), Cypress
// (`cy.request(url)`, `cy.request("POST", url)`,
// `cy.request({ method, url })`) and Playwright's API testing (`request`
// and `page.request` in a file that imports `@playwright/test`:
// `request.get(url)`, `request.fetch(url, { method })`).
import type { Node } from "../_syntax/tree.ts";
import type { Collector } from "./collect.ts";
import {
  CLIENT_METHODS,
  methodLiteral,
  methodOption,
  pairValue,
} from "./nodes.ts";
import type { MemberCall } from "./nodes.ts";
import { unwrap, valueOf } from "./values.ts";
import { client } from "./client_calls.ts";

/** The test client a receiver is, if any. */
function frameworkOf(c: Collector, object: Node): string | undefined {
  const v = unwrap(object);
  if (v.type === "identifier") {
    const binding = c.facts.imports.get(v.text);
    if (binding?.source === "k6/http") return "k6";
    if (!binding && v.text === "cy") return "cypress";
    if (!binding && v.text === "request" && usesPlaywright(c)) {
      return "playwright";
    }
    return undefined;
  }
  // `page.request.get(url)`
  if (
    v.type === "member_expression" &&
    v.childForFieldName("property")?.text === "request" && usesPlaywright(c)
  ) return "playwright";
  return undefined;
}

function usesPlaywright(c: Collector): boolean {
  for (const binding of c.facts.imports.values()) {
    if (binding.source === "@playwright/test") return true;
  }
  return false;
}

/** Records a k6, Cypress or Playwright request; `false` when it is none. */
export function testClientCall(c: Collector, call: MemberCall): boolean {
  const { node, object, method, args } = call;
  const framework = frameworkOf(c, object);
  if (framework === undefined) return false;
  const [first, second] = args;
  if (!first) return true;
  if (framework === "cypress") {
    if (method !== "request") return false;
    const v = unwrap(first);
    const verb = methodLiteral(first);
    if (v.type === "object") {
      const url = pairValue(v, "url");
      if (url) {
        client(c, node, methodOption(v), valueOf(url), framework, undefined);
      }
    } else if (second && verb) {
      client(c, node, verb, valueOf(second), framework, undefined);
    } else client(c, node, "GET", valueOf(first), framework, undefined);
    return true;
  }
  if (framework === "k6" && method === "request") {
    const httpMethod = methodLiteral(first);
    if (httpMethod && second) {
      client(c, node, httpMethod, valueOf(second), framework, undefined);
    }
    return true;
  }
  if (framework === "playwright" && method === "fetch") {
    client(
      c,
      node,
      second ? methodOption(second) : "GET",
      valueOf(first),
      framework,
      undefined,
    );
    return true;
  }
  const httpMethod = method === "del" && framework === "k6"
    ? "DELETE"
    : CLIENT_METHODS[method];
  if (httpMethod) {
    client(c, node, httpMethod, valueOf(first), framework, undefined);
  }
  return httpMethod !== undefined;
}
