// The `policy-db` command's logic: move a casbin policy.csv into the rule
// table and back. `cli.ts` runs it as a program. node: modules only, so it
// runs in Deno, Node and Bun.
import { parseArgs } from "node:util";
import { readFile, writeFile } from "node:fs/promises";
import { PolicyDatabase } from "./policy_database.ts";
import { exportPolicyCsv, importPolicyCsv } from "./policy_csv.ts";
import { messageOf } from "../../_postgres/_sql.ts";

/** Where the command reads and writes. */
export interface PolicyCliIo {
  readonly stdout: (text: string) => void;
  readonly stderr: (text: string) => void;
  /** The environment (for POLICY_DATABASE_URL). */
  readonly env: Readonly<Record<string, string | undefined>>;
}

const USAGE = `Usage: policy-db <command> [options]

Moves a casbin policy file into a PostgreSQL (or PGlite) casbin_rule table
and back. Every application instance on the table reloads once, when the
import commits.

Commands:
  import <policy.csv>      make the table hold exactly the file's rules
                           (with --add: add the missing ones, keep the rest)
  export [<policy.csv>]    write the table as a policy file (stdout if none)

Options:
  --database <url>         postgres://..., pglite:<dir> (default: the
                           POLICY_DATABASE_URL environment variable)
  --table <name>           the rules table (default: casbin_rule)
  --add                    import: add rules instead of replacing them
  -h, --help               show this help

Exit codes: 0 ok, 1 the import or export failed, 2 bad arguments.
`;

/**
 * Runs the command with `args` (without the program name); resolves to its
 * exit code.
 */
export async function runPolicyCli(
  args: readonly string[],
  io: PolicyCliIo,
): Promise<number> {
  let parsed;
  try {
    parsed = parseArgs({
      args: [...args],
      allowPositionals: true,
      options: {
        database: { type: "string" },
        table: { type: "string" },
        add: { type: "boolean", default: false },
        help: { type: "boolean", short: "h", default: false },
      },
    });
  } catch (error) {
    io.stderr(`${messageOf(error)}\n\n${USAGE}`);
    return 2;
  }
  const { values, positionals } = parsed;
  if (values.help) {
    io.stdout(USAGE);
    return 0;
  }
  const [command, file, ...extra] = positionals;
  const url = values.database ?? io.env.POLICY_DATABASE_URL;
  const usage = (problem: string): number => {
    io.stderr(`${problem}\n\n${USAGE}`);
    return 2;
  };
  if (command !== "import" && command !== "export") {
    return usage(`Unknown command "${command ?? ""}"`);
  }
  if (extra.length > 0) return usage(`Unexpected argument "${extra[0]}"`);
  if (command === "import" && file === undefined) {
    return usage("import needs a policy file");
  }
  if (values.add && command !== "import") {
    return usage("--add applies to import only");
  }
  if (url === undefined || url === "") {
    return usage("No database: pass --database or set POLICY_DATABASE_URL");
  }
  try {
    const database = await PolicyDatabase.open(url, {
      ...(values.table === undefined ? {} : { table: values.table }),
    });
    try {
      if (command === "import") {
        const text = await readFile(file!, "utf8");
        const result = await importPolicyCsv(database, text, {
          mode: values.add ? "add" : "replace",
        });
        io.stderr(
          `${
            result.changed ? "Imported" : "Unchanged:"
          } ${result.rules} rules from ${file} into ${database.table} (revision ${result.revision})\n`,
        );
      } else {
        const text = await exportPolicyCsv(database);
        if (file === undefined) io.stdout(text);
        else {
          await writeFile(file, text);
          io.stderr(
            `Exported ${
              text.split("\n").length - 1
            } rules from ${database.table} to ${file}\n`,
          );
        }
      }
    } finally {
      await database.close();
    }
  } catch (error) {
    io.stderr(`Cannot ${command} policy: ${messageOf(error)}\n`);
    return 1;
  }
  return 0;
}
