// `portcullis policy test <cases.yaml>`: runs policy test cases, prints a
// report, optionally writes JUnit XML, and fails below a coverage floor.
import {
  formatPolicyTestReport,
  readPolicyTests,
  runPolicyTests,
  toJUnitXml,
} from "../policy/mod.ts";
import { type CliIo, type Command, UsageError } from "./command.ts";
import { parseCommandArgs } from "./_parse_args.ts";

/** The `policy test` command. */
export const policyTestCommand: Command = {
  words: ["policy", "test"],
  synopsis: "<cases.yaml>",
  summary: "run policy test cases (exit 1 on a failure)",
  usage: `Usage: portcullis policy test <cases.yaml> [options]

Runs the policy test cases of a YAML (or JSON) file against its model and
policy files, with the decision path the guard uses, and prints a report.

Options:
  --junit <file>        also write the results as JUnit XML
  --coverage            report the rules and role links no case exercised
  --min-coverage <n>    fail when fewer than n% of the rules took part in a
                        decision (implies --coverage)
  --verbose             list the passed cases too
  --json                print the report as JSON instead of text
  -h, --help            show this help

Exit codes: 0 every case passed (and coverage is at least --min-coverage),
1 a case failed or coverage is too low, 2 bad arguments, an unreadable cases
file, or a model or policy that does not load.
`,
  run,
};

async function run(args: readonly string[], io: CliIo): Promise<number> {
  const { values, positionals } = parseCommandArgs(args, {
    junit: { type: "string" },
    coverage: { type: "boolean" },
    "min-coverage": { type: "string" },
    verbose: { type: "boolean" },
    json: { type: "boolean" },
  });
  if (positionals.length !== 1) {
    throw new UsageError("expected one cases file");
  }
  let minCoverage: number | undefined;
  if (values["min-coverage"] !== undefined) {
    minCoverage = Number(values["min-coverage"]);
    if (
      values["min-coverage"] === "" || !Number.isFinite(minCoverage) ||
      minCoverage < 0 || minCoverage > 100
    ) {
      throw new UsageError(
        `--min-coverage must be a number from 0 to 100, got "${
          values["min-coverage"]
        }"`,
      );
    }
  }
  const suite = await readPolicyTests(positionals[0]!);
  const report = await runPolicyTests(suite, {
    coverage: values.coverage === true || minCoverage !== undefined,
  });
  if (values.json === true) {
    io.stdout(`${JSON.stringify(report, null, 2)}\n`);
  } else {
    io.stdout(
      formatPolicyTestReport(report, { verbose: values.verbose === true }),
    );
  }
  if (typeof values.junit === "string") {
    await io.writeFile(values.junit, toJUnitXml(report));
  }
  const coverage = report.coverage;
  if (
    minCoverage !== undefined && coverage !== undefined &&
    coverage.percent < minCoverage
  ) {
    io.stderr(
      `portcullis: coverage ${
        coverage.percent.toFixed(1)
      }% is below --min-coverage ${minCoverage}%\n`,
    );
    return 1;
  }
  return report.failed === 0 ? 0 : 1;
}
