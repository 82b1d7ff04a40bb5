// The `portcullis` program: finds the command named by the first words of
// the arguments, runs it, and turns its errors into messages and exit codes.
import { EnforcerLoadError } from "../guard/cached_file_enforcer_provider.ts";
import { PolicyTestError } from "../policy/mod.ts";
import type { CliIo, Command } from "./command.ts";
import { HelpRequested, UsageError } from "./command.ts";
import { auditCommand } from "./audit_command.ts";
import { policyExplainCommand } from "./policy_explain_command.ts";
import { policyTestCommand } from "./policy_test_command.ts";

/** Every command, in the order `--help` lists them. */
export const COMMANDS: readonly Command[] = [
  policyTestCommand,
  policyExplainCommand,
  auditCommand,
];

function overview(commands: readonly Command[]): string {
  const entries = commands.map((command) =>
    `  ${command.words.join(" ")} ${command.synopsis}\n      ${command.summary}`
  );
  return `Usage: portcullis <command> [options]

Commands:
${entries.join("\n")}

Run "portcullis <command> --help" for a command's options.
`;
}

/** The command whose words start `args`, the longest match first. */
function find(
  commands: readonly Command[],
  args: readonly string[],
): Command | undefined {
  return [...commands]
    .sort((a, b) => b.words.length - a.words.length)
    .find((command) => command.words.every((word, i) => args[i] === word));
}

/**
 * Runs `portcullis` with its arguments (without the program name).
 * Resolves to the exit code: 0 success, 1 a check failed, 2 bad arguments
 * or input.
 */
export async function runPortcullis(
  args: readonly string[],
  io: CliIo,
  commands: readonly Command[] = COMMANDS,
): Promise<number> {
  if (args.length === 0 || args[0] === "--help" || args[0] === "-h") {
    (args.length === 0 ? io.stderr : io.stdout)(overview(commands));
    return args.length === 0 ? 2 : 0;
  }
  const command = find(commands, args);
  if (command === undefined) {
    io.stderr(
      `portcullis: unknown command "${args.join(" ")}"\n\n${
        overview(commands)
      }`,
    );
    return 2;
  }
  try {
    return await command.run(args.slice(command.words.length), io);
  } catch (error) {
    if (error instanceof HelpRequested) {
      io.stdout(command.usage);
      return 0;
    }
    if (error instanceof UsageError) {
      io.stderr(`portcullis: ${error.message}\n\n${command.usage}`);
      return 2;
    }
    if (
      error instanceof PolicyTestError ||
      error instanceof EnforcerLoadError ||
      // the scanner's, by name: on npm it is an optional peer package
      (error instanceof Error && error.name === "ScanError")
    ) {
      io.stderr(`portcullis: ${error.message}\n`);
      return 2;
    }
    throw error;
  }
}
