import assert from "node:assert/strict";
import { sha256 } from "@noble/hashes/sha2.js";
import { renderReport } from "../../src/extract/render_report.ts";
import { HOSTILE, hostileGraph } from "../map/_graphs.ts";

function hash(text: string): string {
  let binary = "";
  for (const byte of sha256(new TextEncoder().encode(text))) {
    binary += String.fromCharCode(byte);
  }
  return `'sha256-${btoa(binary)}'`;
}

Deno.test("renderReport() html allows only its own script and style, by hash, and loads nothing", () => {
  const html = renderReport(hostileGraph(), { format: "html" });
  const policy = /<meta http-equiv="Content-Security-Policy" content="([^"]+)">/
    .exec(html)?.[1];
  assert.ok(policy);
  assert.match(policy, /^default-src 'none'; /);
  const script = /<script>([\s\S]*)<\/script>\n<\/body>/.exec(html)![1]!;
  const style = /<style>([\s\S]*?)<\/style>/.exec(html)![1]!;
  assert.ok(policy.includes(`script-src ${hash(script)}`));
  assert.ok(policy.includes(`style-src ${hash(style)}`));
  // nothing to fetch: no URL attribute, no @import, no inline handler
  assert.ok(!/\s(src|href|action)=/.test(html));
  assert.ok(!/@import|url\(/.test(html));
  assert.ok(!/\son[a-z]+=/.test(html));
});

Deno.test("renderReport() html embeds the JSON report as data no markup can break out of", () => {
  const graph = hostileGraph();
  const html = renderReport(graph, { format: "html" });
  const data =
    /<script type="application\/json" id="report-data">([\s\S]*?)<\/script>/
      .exec(html)![1]!;
  assert.ok(!data.includes("<"));
  assert.deepEqual(
    JSON.parse(data),
    JSON.parse(renderReport(graph, { format: "json" })),
  );
  // the only </script> closings are the page's own two
  assert.equal(html.split("</script>").length, 3);
  for (const name of HOSTILE) {
    assert.ok(!html.includes(`>${name}<`), name);
  }
});

Deno.test("renderReport() html fits maxBytes by embedding fewer entries", () => {
  const graph = hostileGraph();
  const full = renderReport(graph, { format: "html" });
  const cut = renderReport(graph, {
    format: "html",
    maxBytes: full.length - 2000,
  });
  assert.ok(cut.length < full.length);
  assert.match(cut, /"shortened"/);
});
