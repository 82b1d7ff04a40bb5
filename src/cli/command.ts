// The contract every `portcullis` command implements. A command is found by
// its words (`["policy", "test"]`); adding one (`["audit"]`) is one more
// entry in the table of run_portcullis.ts.

/** Where a command writes, and how it reaches files. */
export interface CliIo {
  /** Writes to standard output. */
  stdout(text: string): void;
  /** Writes to standard error. */
  stderr(text: string): void;
  /** Writes a file (`--junit`). */
  writeFile(path: string, text: string): Promise<void>;
}

/** One command of the `portcullis` program. */
export interface Command {
  /** The words that name it: `["policy", "test"]`. */
  readonly words: readonly string[];
  /** Its arguments, for the overview: `"<cases.yaml>"`. */
  readonly synopsis: string;
  /** One line for the overview. */
  readonly summary: string;
  /** Its full help. */
  readonly usage: string;
  /**
   * Runs it with the arguments after its words; resolves to the exit
   * code: 0 success, 1 a check failed, 2 bad arguments or input.
   */
  run(args: readonly string[], io: CliIo): Promise<number>;
}

/** A usage error: the command prints it with its usage and exits 2. */
export class UsageError extends Error {
  constructor(message: string) {
    super(message);
    this.name = "UsageError";
  }
}

/**
 * `--help` was given: the program prints the command's usage and exits 0
 * (thrown by the parsing of the arguments, before the command runs).
 */
export class HelpRequested extends Error {
  constructor() {
    super("help requested");
    this.name = "HelpRequested";
  }
}
