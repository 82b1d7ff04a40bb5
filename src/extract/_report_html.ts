// The HTML report: one self-contained file that loads nothing (its
// Content-Security-Policy allows only its own style sheet and script, by
// their SHA-256), with the same data as the JSON report embedded as JSON.
// Nothing from the scanned code is written as markup: the script sets it
// with textContent.
import { sha256 } from "@noble/hashes/sha2.js";
import type { ScanReport } from "./report.ts";
import { HTML_SCRIPT } from "./_report_html_script.ts";
import { HTML_STYLE } from "./_report_html_style.ts";

const encoder = new TextEncoder();

/** The CSP source of an inline block: `'sha256-<base64>'`. */
function hashSource(text: string): string {
  const digest = sha256(encoder.encode(text));
  let binary = "";
  for (const byte of digest) binary += String.fromCharCode(byte);
  return `'sha256-${btoa(binary)}'`;
}

/**
 * JSON text safe inside `<script type="application/json">`: no `<` (so
 * no `</script>` and no `<!--`), and no line or paragraph separator.
 */
function scriptJson(json: string): string {
  return json.replaceAll("<", "\\u003c").replaceAll("\u2028", "\\u2028")
    .replaceAll("\u2029", "\\u2029");
}

const POLICY = [
  "default-src 'none'",
  `script-src ${hashSource(HTML_SCRIPT)}`,
  `style-src ${hashSource(HTML_STYLE)}`,
  "img-src 'none'",
  "connect-src 'none'",
  "base-uri 'none'",
  "form-action 'none'",
].join("; ");

/**
 * The report as an HTML page. `json` is the JSON report (as
 * `renderReport` writes it), embedded as the page's data.
 */
export function renderHtml(report: ScanReport, json: string): string {
  const c = report.counts;
  return `<!DOCTYPE html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta http-equiv="Content-Security-Policy" content="${POLICY}">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="generator" content="portcullis-scan">
<title>Service map: ${c.ports} ports, ${c.links} links</title>
<style>${HTML_STYLE}</style>
</head>
<body>
<header>
<h1>Service map</h1>
<span>${c.ports} ports, ${c.links} links, ${report.unmatchedConsumers.length} unmatched consumers</span>
<label>Search <input id="search" type="search" placeholder="service, function, key, file"></label>
<span id="mechanisms"></span>
<label>Confidence at least <input id="min-confidence" type="range" min="0" max="1" step="0.05" value="0"></label>
<label><input id="unmatched-only" type="checkbox"> Unmatched only</label>
<button id="collapse-all" type="button">One box per service</button>
<button id="expand-all" type="button">Expand all</button>
<button id="show-json" type="button">JSON</button>
<span id="summary"></span>
</header>
<div id="layout">
<div id="canvas"><div id="map"><svg id="edges" xmlns="http://www.w3.org/2000/svg"></svg></div></div>
<aside id="details"><h2>Details</h2><p class="muted">Click a link or a function to see its ports with file and line.</p></aside>
</div>
<script type="application/json" id="report-data">${scriptJson(json)}</script>
<script>${HTML_SCRIPT}</script>
</body>
</html>
`;
}
