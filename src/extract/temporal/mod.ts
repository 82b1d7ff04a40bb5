// Temporal activities: definitions (servers) and calls (clients) in Python,
// Go, TypeScript/JavaScript, Java and .NET, keyed by the activity name the
// SDK registers (an explicit name, else the SDK's default for the function
// or method). Each language's rules live in its folder (`<lang>/temporal.ts`).
import type {
  ExtractResult,
  LanguageExtractor,
  SourceFile,
} from "../extractor.ts";
import type { TemporalOut } from "../_port/temporal.ts";
import { pythonTemporal } from "../python/mod.ts";
import { goTemporal } from "../go/mod.ts";
import { jsTemporal } from "../javascript/mod.ts";
import { javaTemporal } from "../java/mod.ts";
import { dotnetTemporal } from "../csharp/mod.ts";

/**
 * Finds Temporal activity definitions (servers) and activity calls from
 * workflows (clients) in Python, Go, TypeScript/JavaScript, Java and C#
 * files (see `java/temporal.ts` and `csharp/temporal.ts` for the Java and .NET
 * SDK rules).
 *
 * @example Usage
 * ```ts
 * import { temporalExtractor } from "@portcullis/portcullis/extract";
 * import assert from "node:assert/strict";
 *
 * const { ports } = await temporalExtractor.extract([{
 *   path: "activities.py",
 *   text: 'from temporalio import activity\n\n@activity.defn(name="charge")\nasync def charge_card(order_id: str) -> None:\n    pass\n',
 * }]);
 * assert.equal(ports[0]?.ref.key, "charge");
 * ```
 */
export const temporalExtractor: LanguageExtractor = {
  name: "temporal",
  accepts(path: string): boolean {
    if (path.endsWith(".pb.go") || path.endsWith(".d.ts")) return false;
    return /\.(py|go|[cm]?[jt]sx?|java|cs)$/.test(path);
  },
  extract: extractTemporal,
};

/** A language's Temporal reader: its files, and the SDK name they mention. */
interface TemporalLanguage {
  files: RegExp;
  sdk: string;
  read: (files: SourceFile[], out: TemporalOut) => Promise<void>;
}

/** The languages read, in this order. */
const LANGUAGES: readonly TemporalLanguage[] = [
  { files: /\.py$/, sdk: "temporalio", read: pythonTemporal },
  { files: /\.go$/, sdk: "go.temporal.io/sdk", read: goTemporal },
  { files: /\.[cm]?[jt]sx?$/, sdk: "@temporalio/", read: jsTemporal },
  { files: /\.java$/, sdk: "io.temporal.", read: javaTemporal },
  { files: /\.cs$/, sdk: "Temporalio", read: dotnetTemporal },
];

async function extractTemporal(
  files: readonly SourceFile[],
): Promise<ExtractResult> {
  const out: TemporalOut = { ports: [], diagnostics: [] };
  for (const language of LANGUAGES) {
    const mine = files.filter((f) => language.files.test(f.path));
    if (mine.some((f) => f.text.includes(language.sdk))) {
      await language.read(mine, out);
    }
  }
  return out;
}
