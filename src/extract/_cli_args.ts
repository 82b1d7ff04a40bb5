// How every command of portcullis-scan reads its arguments and answers
// --help or a usage error.
import { displayText } from "../boundary/_display_text.ts";
import type { ScanCliIo } from "./scan_cli.ts";

/** A usage error: exit code 2 and the command's usage. */
export class UsageError extends Error {
  constructor(message: string) {
    super(message);
    this.name = "UsageError";
  }
}

/**
 * Walks command-line arguments: each `--name value`, `--name=value` or flag
 * goes to `option`, which returns false for a name it does not know (an
 * unknown `-x` is then a usage error); other arguments, and all after
 * `--`, go to `positional`.
 */
export function walkArgs(
  args: readonly string[],
  option: (name: string, value: () => string) => boolean,
  positional: (arg: string) => void,
): void {
  for (let i = 0; i < args.length; i++) {
    const arg = args[i]!;
    if (arg === "--") {
      for (const rest of args.slice(i + 1)) positional(rest);
      return;
    }
    const eq = arg.startsWith("--") ? arg.indexOf("=") : -1;
    const name = eq === -1 ? arg : arg.slice(0, eq);
    const value = (): string => {
      if (eq !== -1) return arg.slice(eq + 1);
      const next = args[++i];
      if (next === undefined) {
        throw new UsageError(`Cannot parse arguments: ${name} needs a value`);
      }
      return next;
    };
    if (option(name, value)) continue;
    if (arg.startsWith("-") && arg !== "-") {
      throw new UsageError(
        `Cannot parse arguments: unknown option "${displayText(arg, 100)}"`,
      );
    }
    positional(arg);
  }
}

/** The fields of `T` that take any text: what a `--name <text>` sets. */
type TextField<T> = {
  [K in keyof T]-?: string extends T[K] ? K : never;
}[keyof T];

/**
 * How a command reads one option: the field of its arguments that the
 * option's text sets, or a reader (which takes `value()` only if the option
 * has one).
 */
export type Flag<T> = TextField<T> | ((parsed: T, value: () => string) => void);

/** The fields of `T` that hold a list of texts: where arguments go. */
type ListField<T> = {
  [K in keyof T]-?: T[K] extends string[] ? K : never;
}[keyof T];

/**
 * Walks a command's arguments (see {@linkcode walkArgs}) into `parsed`:
 * `-h` and `--help` set `help`, the options of `flags` are read as they
 * say, and `more` reads the others (false for a name it does not know
 * either); the other arguments go to the list `positional` names.
 */
export function readArgs<T extends { help: boolean }>(
  args: readonly string[],
  parsed: T,
  flags: Readonly<Record<string, Flag<T>>>,
  positional: ListField<T>,
  more: (name: string, value: () => string, parsed: T) => boolean = () => false,
): T {
  walkArgs(args, (name, value) => {
    if (name === "-h" || name === "--help") return parsed.help = true;
    const flag = Object.hasOwn(flags, name) ? flags[name]! : undefined;
    if (flag === undefined) return more(name, value, parsed);
    if (typeof flag === "function") flag(parsed, value);
    else parsed[flag] = value() as T[TextField<T>];
    return true;
  }, (arg) => (parsed[positional] as string[]).push(arg));
  return parsed;
}

/**
 * Parses a command's arguments and runs it: a usage error (of the
 * arguments, or one the command finds in them) prints the message and
 * where the usage is (exit code 2), `--help` the usage (0).
 */
export async function withUsage<T extends { help: boolean }>(
  args: readonly string[],
  io: ScanCliIo,
  usage: string,
  parse: (args: readonly string[]) => T,
  run: (options: T, io: ScanCliIo) => Promise<number>,
): Promise<number> {
  try {
    const options = parse(args);
    if (!options.help) return await run(options, io);
    io.stdout(usage);
    return 0;
  } catch (error) {
    if (!(error instanceof UsageError)) throw error;
    io.stderr(usageError(error.message, usage));
    return 2;
  }
}

/**
 * An argument error as the commands print it: the message, and where the
 * options are explained (not the whole usage).
 */
export function usageError(message: string, usage: string): string {
  const command = usage.match(/^Usage: (portcullis-scan(?: diff| export)?)/)
    ?.[1] ?? "portcullis-scan";
  return `${message}\nTry "${command} --help".\n`;
}

/**
 * The value of `--min-confidence`: a number from 0 to 1.
 *
 * @throws {UsageError} When the text is no such number.
 */
export function readMinConfidence(raw: string): number {
  return readNumber("--min-confidence", raw, 0, 1);
}

/**
 * The value of option `name`: a number from `min` to `max`.
 *
 * @throws {UsageError} When the text is no such number.
 */
export function readNumber(
  name: string,
  raw: string,
  min: number,
  max: number,
): number {
  const value = Number(raw);
  if (raw.trim() === "" || !(value >= min && value <= max)) {
    throw new UsageError(
      `Cannot parse arguments: ${name} must be a number from ${min} to ${max}, got "${
        displayText(raw, 100)
      }"`,
    );
  }
  return value;
}
