// `portcullis policy explain --model m.conf --policy p.csv <sub> <args...>`:
// why a request is allowed or denied.
import { resolve } from "node:path";
import { explain, formatExplanation } from "../policy/mod.ts";
import { openPolicy } from "../policy/_open_policy.ts";
import { subjectValue } from "../policy/_subject.ts";
import { type CliIo, type Command, UsageError } from "./command.ts";
import { parseCommandArgs, requestValue } from "./_parse_args.ts";

/** The `policy explain` command. */
export const policyExplainCommand: Command = {
  words: ["policy", "explain"],
  synopsis: "--model <m.conf> --policy <p.csv> <sub> [args...]",
  summary: "explain why a request is allowed or denied",
  usage:
    `Usage: portcullis policy explain --model <m.conf> --policy <p.csv> <sub> [args...]

Explains the decision of one request: the rule that decided it, the allow and
deny rules that matched and the role links they went through, and for a
denial the nearest rules with what was false for them.

The subject and the arguments are strings; a value that starts with { or [
is read as JSON (an ABAC object). A string subject is mapped as the model
reads r.sub: the string itself when the matcher uses r.sub whole, and
{ "role": "<sub>" } when it reads one attribute of it (r.sub.role).

Options:
  --model <file>    the casbin model (.conf)
  --policy <file>   the casbin policy (.csv)
  --json            print the explanation as JSON
  -h, --help        show this help

Exit codes: 0 explained, 1 the explanation disagrees with the guard's
enforcer (never expected), 2 bad arguments or files that do not load.
`,
  run,
};

async function run(args: readonly string[], io: CliIo): Promise<number> {
  const { values, positionals } = parseCommandArgs(args, {
    model: { type: "string" },
    policy: { type: "string" },
    json: { type: "boolean" },
  });
  if (typeof values.model !== "string" || typeof values.policy !== "string") {
    throw new UsageError("--model and --policy are required");
  }
  if (positionals.length === 0) throw new UsageError("expected a subject");
  const [subject, ...rest] = positionals.map(requestValue);
  await using opened = await openPolicy(
    resolve(values.model),
    resolve(values.policy),
    undefined,
  );
  const request = [subjectValue(opened.casbin.getModel(), subject), ...rest];
  const explanation = await explain(opened.enforcer, ...request);
  if (values.json === true) {
    io.stdout(`${JSON.stringify(explanation, null, 2)}\n`);
  } else {
    io.stdout(`${formatExplanation(explanation)}\n`);
  }
  let decided: unknown;
  try {
    decided = await opened.enforcer.enforce(...request);
  } catch (error) {
    decided = error;
  }
  if (decided !== explanation.allowed) {
    io.stderr(
      `portcullis: the guard's enforcer decided ${
        decided === true
          ? "allow"
          : decided === false
          ? "deny"
          : "with an error"
      }, unlike this explanation\n`,
    );
    return 1;
  }
  return 0;
}
