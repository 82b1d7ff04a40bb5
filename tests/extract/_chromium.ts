// Debian's Chromium driven by puppeteer-core (never a browser of its own),
// for the browser tests of the HTML report. scripts/setup_chromium.sh
// installs it; .ci/run sets PORTCULLIS_CHROMIUM_UNAVAILABLE when it cannot,
// and only then may the tests be skipped. PORTCULLIS_CHROMIUM names another
// executable.
import puppeteer, { type Browser } from "puppeteer-core";

const DEFAULT = "/usr/bin/chromium";

function exists(path: string): boolean {
  try {
    return Deno.statSync(path).isFile;
  } catch {
    return false;
  }
}

/**
 * The Chromium to run, or why the browser tests are skipped. Throws on CI
 * when Chromium is missing and was not found impossible to install.
 */
export function chromiumPath(): { path: string } | { skip: string } {
  const path = Deno.env.get("PORTCULLIS_CHROMIUM") ?? DEFAULT;
  if (exists(path)) return { path };
  const unavailable = Deno.env.get("PORTCULLIS_CHROMIUM_UNAVAILABLE");
  if (unavailable !== undefined) {
    return { skip: `Chromium cannot be installed here: ${unavailable}` };
  }
  if (Deno.env.get("CI") === "true") {
    throw new Error(
      `Chromium is missing at ${path}: .ci/run installs it with scripts/setup_chromium.sh`,
    );
  }
  return {
    skip:
      `Chromium is missing at ${path}: run bash scripts/setup_chromium.sh (as root) to run the browser tests`,
  };
}

/** A headless Chromium with the flags this machine needs, and a fresh profile. */
export async function launch(path: string): Promise<{
  browser: Browser;
  close: () => Promise<void>;
}> {
  const profile = await Deno.makeTempDir({ prefix: "portcullis-chromium-" });
  const browser = await puppeteer.launch({
    executablePath: path,
    headless: true,
    pipe: true,
    args: [
      "--headless",
      "--no-sandbox",
      "--disable-gpu",
      "--disable-quic",
      "--no-first-run",
      "--disable-background-networking",
      "--disable-component-update",
      "--disable-sync",
      `--user-data-dir=${profile}`,
    ],
  });
  return {
    browser,
    close: async () => {
      await browser.close();
      await Deno.remove(profile, { recursive: true });
    },
  };
}
