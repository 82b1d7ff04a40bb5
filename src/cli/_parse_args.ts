// Argument parsing shared by the commands: node:util's parseArgs (Deno,
// Node and Bun all have it), with its errors turned into usage errors.
import { parseArgs, type ParseArgsConfig } from "node:util";
import { HelpRequested, UsageError } from "./command.ts";

type Options = NonNullable<ParseArgsConfig["options"]>;

/** Parsed flags and positionals. */
export interface ParsedArgs {
  readonly values: Readonly<Record<string, string | boolean | undefined>>;
  readonly positionals: readonly string[];
}

/**
 * Parses `args` with these options; `--help` is always known, and throws
 * {@linkcode HelpRequested} once the arguments parse.
 */
export function parseCommandArgs(
  args: readonly string[],
  options: Options,
): ParsedArgs {
  let parsed;
  try {
    parsed = parseArgs({
      args: [...args],
      options: { ...options, help: { type: "boolean", short: "h" } },
      allowPositionals: true,
      strict: true,
    });
  } catch (error) {
    throw new UsageError(
      error instanceof Error ? error.message : String(error),
    );
  }
  if (parsed.values.help === true) throw new HelpRequested();
  return {
    values: parsed.values as Record<string, string | boolean | undefined>,
    positionals: parsed.positionals,
  };
}

/** A request value from the command line: JSON for `{...}` and `[...]`. */
export function requestValue(text: string): unknown {
  const first = text.trimStart()[0];
  if (first !== "{" && first !== "[") return text;
  try {
    return JSON.parse(text);
  } catch (error) {
    throw new UsageError(
      `Cannot read the request value ${JSON.stringify(text)}: ${
        error instanceof Error ? error.message : String(error)
      }`,
    );
  }
}
