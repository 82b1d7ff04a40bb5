// The screenshot of the HTML report in docs/service_map.md: the test
// fixtures of every language, scanned, rendered as HTML, opened in
// headless Chromium with one box per service. Needs Chromium
// (bash scripts/setup_chromium.sh).
//
//   deno run -A scripts/map_screenshot.ts
import { fileURLToPath } from "node:url";
import { renderReport } from "../src/extract/render_report.ts";
import { scan } from "../src/extract/scan.ts";
import { launch } from "../tests/extract/_chromium.ts";

const fixtures = fileURLToPath(
  new URL("../tests/fixtures/extract", import.meta.url),
);
const roots = [...Deno.readDirSync(fixtures)].filter((e) => e.isDirectory)
  .map((e) => `${fixtures}/${e.name}`).sort();
const html = renderReport((await scan(roots)).graph, { format: "html" });
const file = await Deno.makeTempFile({ suffix: ".html" });
await Deno.writeTextFile(file, html);
const { browser, close } = await launch(
  Deno.env.get("PORTCULLIS_CHROMIUM") ?? "/usr/bin/chromium",
);
try {
  const page = await browser.newPage();
  await page.setViewport({ width: 1500, height: 1000 });
  await page.goto(`file://${file}`);
  await page.waitForSelector("body[data-ready=true]");
  await page.click("#collapse-all");
  await page.evaluate(
    `document.querySelector("#edges path").dispatchEvent(new MouseEvent("click"))`,
  );
  const out = fileURLToPath(
    new URL("../docs/service_map.png", import.meta.url),
  );
  await page.screenshot({ path: out });
  // deno-lint-ignore no-console
  console.log(`wrote ${out}`);
} finally {
  await close();
  await Deno.remove(file);
}
