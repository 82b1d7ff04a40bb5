// The HTML report in a real headless Chromium: it renders the polyglot
// fixture, its filters, search, collapse and details work, it loads
// nothing, and it logs no error (a Content-Security-Policy violation
// would be one).
import assert from "node:assert/strict";
import { fileURLToPath } from "node:url";
import type { Page } from "puppeteer-core";
import { renderReport } from "../../src/extract/render_report.ts";
import { scan } from "../../src/extract/scan.ts";
import { hostileGraph } from "../map/_graphs.ts";
import { chromiumPath, launch } from "./_chromium.ts";

const POLYGLOT = fileURLToPath(
  new URL("../fixtures/extract/polyglot", import.meta.url),
);
// The polyglot fixture's services, and a web client whose call nothing
// serves (its root is labelled web~2).
const ROOTS = [
  ...[
    "inventory-java",
    "notifier-node",
    "ordering-go",
    "payments-py",
    "users-api",
    "web",
  ].map((s) => `${POLYGLOT}/${s}`),
  fileURLToPath(new URL("../fixtures/map/web", import.meta.url)),
];
const SERVICES = [
  "inventory-java",
  "notifier-node",
  "ordering-go",
  "payments-py",
  "users-api",
  "web",
  "web~2",
];

const chromium = chromiumPath();
if ("skip" in chromium) {
  // deno-lint-ignore no-console
  console.warn(
    `Skipping the browser tests of the HTML report: ${chromium.skip}`,
  );
}

/** What the page did that it must not: errors, and requests for anything. */
interface Trouble {
  errors: string[];
  requests: string[];
}

async function open(page: Page, html: string): Promise<Trouble> {
  const trouble: Trouble = { errors: [], requests: [] };
  page.on("console", (message) => {
    if (message.type() === "error" || message.type() === "warn") {
      trouble.errors.push(message.text());
    }
  });
  page.on("pageerror", (error) => trouble.errors.push(String(error)));
  const file = await Deno.makeTempFile({ suffix: ".html" });
  await Deno.writeTextFile(file, html);
  page.on("request", (request) => {
    if (request.url() !== `file://${file}`) {
      trouble.requests.push(request.url());
    }
  });
  await page.setViewport({ width: 1400, height: 900 });
  await page.goto(`file://${file}`);
  await page.waitForSelector("body[data-ready=true]", { timeout: 10_000 });
  await Deno.remove(file);
  return trouble;
}

/**
 * Evaluates an expression in the page. Written as text: the tests are
 * type-checked without the DOM's types, which the page has.
 */
async function js<T>(page: Page, expression: string): Promise<T> {
  return await page.evaluate(expression) as T;
}

/** Sets an input's value as a person typing would, then lets it react. */
async function setValue(page: Page, id: string, value: string): Promise<void> {
  await js(
    page,
    `(() => { const input = document.getElementById(${
      JSON.stringify(id)
    }); input.value = ${
      JSON.stringify(value)
    }; input.dispatchEvent(new Event("input")); })()`,
  );
}

/** The services shown, and the edges drawn by mechanism colour. */
async function shown(
  page: Page,
): Promise<{ services: string[]; edges: Record<string, number> }> {
  return await js(
    page,
    `(() => {
      const services = [...document.querySelectorAll(".svc:not(.hidden)")].map((s) => s.dataset.service);
      const edges = {};
      for (const path of document.querySelectorAll("#edges path")) {
        const stroke = path.getAttribute("stroke");
        edges[stroke] = (edges[stroke] ?? 0) + 1;
      }
      return { services, edges };
    })()`,
  );
}

function total(edges: Record<string, number>): number {
  return Object.values(edges).reduce((a, b) => a + b, 0);
}

Deno.test({
  name:
    "the HTML report renders in Chromium, filters, searches, collapses and shows ports with file:line",
  ignore: "skip" in chromium,
  async fn(t): Promise<void> {
    const result = await scan(ROOTS);
    const html = renderReport(result.graph, { format: "html" });
    const { browser, close } = await launch(
      (chromium as { path: string }).path,
    );
    try {
      const page = await browser.newPage();
      const trouble = await open(page, html);

      await t.step("renders every service and the links", async () => {
        const view = await shown(page);
        assert.deepEqual(view.services.sort(), [...SERVICES].sort());
        assert.ok((view.edges["var(--http)"] ?? 0) > 0);
        assert.ok((view.edges["var(--grpc)"] ?? 0) > 0);
        assert.match(
          await js<string>(
            page,
            `document.getElementById("summary").textContent`,
          ),
          /^\d+ of \d+ code elements, \d+ edges drawn$/,
        );
      });

      await t.step("a mechanism filter hides its links", async () => {
        await page.click('input[data-mechanism="http"]');
        const view = await shown(page);
        assert.equal(view.edges["var(--http)"], undefined);
        assert.ok((view.edges["var(--grpc)"] ?? 0) > 0);
        await page.click('input[data-mechanism="http"]');
        assert.ok(((await shown(page)).edges["var(--http)"] ?? 0) > 0);
      });

      await t.step("the confidence floor hides weaker links", async () => {
        const before = total((await shown(page)).edges);
        await setValue(page, "min-confidence", "0.95");
        const after = total((await shown(page)).edges);
        assert.ok(after < before, `${after} < ${before}`);
        await setValue(page, "min-confidence", "0");
        assert.equal(total((await shown(page)).edges), before);
      });

      await t.step("unmatched only shows the callers of nothing", async () => {
        await page.click("#unmatched-only");
        const badges = await js<boolean[]>(
          page,
          `[...document.querySelectorAll(".node:not(.hidden)")].map((n) => n.querySelector(".badge") !== null)`,
        );
        assert.ok(badges.length > 0);
        assert.ok(badges.every(Boolean));
        assert.deepEqual((await shown(page)).edges, {});
        await page.click("#unmatched-only");
      });

      await t.step("search keeps what matches", async () => {
        await page.type("#search", "payments");
        const view = await shown(page);
        assert.ok(view.services.includes("payments-py"));
        assert.ok(!view.services.includes("users-api"));
        await setValue(page, "search", "");
        assert.equal((await shown(page)).services.length, SERVICES.length);
      });

      await t.step(
        "clicking a link shows its ports with file:line",
        async () => {
          await js(
            page,
            `document.querySelector("#edges path").dispatchEvent(new MouseEvent("click"))`,
          );
          const places = await js<string[]>(
            page,
            `[...document.querySelectorAll("#details .where")].map((w) => w.textContent)`,
          );
          assert.ok(places.length >= 2);
          for (const where of places) {
            assert.match(where, /^[\w.~-]+\/[^:]+:\d+:\d+$/);
          }
          assert.match(
            await js<string>(
              page,
              `document.getElementById("details").textContent`,
            ),
            /consumer .*provider /s,
          );
        },
      );

      await t.step(
        "clicking a function shows its links and unmatched calls",
        async () => {
          const badge = await page.$(".node .badge");
          assert.ok(badge);
          await badge.click();
          assert.match(
            await js<string>(
              page,
              `document.getElementById("details").textContent`,
            ),
            /Unmatched calls \(\d+\)/,
          );
        },
      );

      await t.step("one box per service, then back", async () => {
        const before = total((await shown(page)).edges);
        await page.click("#collapse-all");
        assert.equal(
          await js<number>(
            page,
            `document.querySelectorAll(".svc.collapsed").length`,
          ),
          SERVICES.length,
        );
        assert.equal(
          await js<number>(
            page,
            `[...document.querySelectorAll(".node")].filter((n) => n.getBoundingClientRect().height > 0).length`,
          ),
          0,
        );
        const after = total((await shown(page)).edges);
        assert.ok(after > 0 && after <= before, `${after} <= ${before}`);
        await page.click("#expand-all");
        assert.equal(
          await js<number>(
            page,
            `document.querySelectorAll(".svc.collapsed").length`,
          ),
          0,
        );
      });

      await t.step("the page loaded nothing and logged no error", () => {
        assert.deepEqual(trouble.requests, []);
        assert.deepEqual(trouble.errors, []);
      });
    } finally {
      await close();
    }
  },
});

Deno.test({
  name:
    "the HTML report shows hostile names as text: no markup, no script runs",
  ignore: "skip" in chromium,
  async fn(): Promise<void> {
    const html = renderReport(hostileGraph(), { format: "html" });
    const { browser, close } = await launch(
      (chromium as { path: string }).path,
    );
    try {
      const page = await browser.newPage();
      const trouble = await open(page, html);
      const result = await js<{
        injected: number;
        scripts: number;
        names: string[];
        pwned: boolean;
      }>(
        page,
        `({
          injected: document.querySelectorAll("b, img, a, iframe").length,
          scripts: document.querySelectorAll("script").length,
          names: [...document.querySelectorAll(".svc-name")].map((e) => e.textContent),
          pwned: globalThis.alerted === true,
        })`,
      );
      assert.equal(result.injected, 0);
      assert.equal(result.scripts, 2);
      assert.ok(result.names.includes("</script><script>alert(1)</script>"));
      assert.ok(
        result.names.includes(
          "@here [link](javascript:alert(1)) ![img](x) <b>bold</b>",
        ),
      );
      assert.equal(result.pwned, false);
      assert.deepEqual(trouble.requests, []);
      assert.deepEqual(trouble.errors, []);
    } finally {
      await close();
    }
  },
});
