// What the SARIF logs of the diff and of the policy audit share: paths as
// URI references and the tool's driver with its rules. No imports, so any
// package can copy it.

/** The repository URL SARIF names the tools by. */
const INFORMATION_URI = "https://github.com/portcullis/portcullis";

/** A SARIF rule: its id, name, description and default level. */
export interface SarifRule {
  readonly id: string;
  readonly name: string;
  readonly text: string;
  readonly level: "error" | "warning" | "note";
}

/** The `tool` of a run: the driver named `name`, with its rules. */
export function sarifTool(
  name: string,
  rules: readonly SarifRule[],
): Record<string, unknown> {
  return {
    driver: {
      name,
      informationUri: INFORMATION_URI,
      rules: rules.map((rule) => ({
        id: rule.id,
        name: rule.name,
        shortDescription: { text: rule.text },
        defaultConfiguration: { level: rule.level },
      })),
    },
  };
}

const LONE_SURROGATE =
  /[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/g;

/** A relative path as a URI reference (percent-encoded, never throwing). */
export function uriOf(path: string): string {
  return encodeURI(path.replace(LONE_SURROGATE, "\ufffd"))
    .replaceAll("#", "%23").replaceAll("?", "%3F");
}
