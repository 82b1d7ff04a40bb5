// The GitHub Actions and GitLab CI examples of docs/service_map.md, run as
// written: the two repositories of tests/fixtures/map become git
// repositories (users with a main branch and two pull requests, web), the
// `run:` steps and `script:` lines run in bash with PORTCULLIS_SCAN set to
// this checkout's command, and the gate must fail (exit code 1) on the
// pull request that breaks web and pass on the compatible one. What only
// GitHub or GitLab can do (`uses:` steps, the pull request comment,
// cross-project artifacts) is stood in for: the published graph is put
// where the download would put it.
import assert from "node:assert/strict";
import { fileURLToPath } from "node:url";
import { parse } from "yaml";

const ROOT = fileURLToPath(new URL("../", import.meta.url));
const FIXTURES = `${ROOT}tests/fixtures/map`;
const CLI = `${ROOT}src/extract/cli.ts`;
const SCAN =
  `${Deno.execPath()} run --allow-read --allow-write --allow-env ${CLI}`;

interface Step {
  name?: string;
  uses?: string;
  run?: string;
  if?: string;
  with?: Record<string, string>;
}

/** The YAML blocks of the page, by the file their first comment names. */
async function examples(): Promise<Map<string, Record<string, unknown>>> {
  const page = await Deno.readTextFile(`${ROOT}docs/service_map.md`);
  const out = new Map<string, Record<string, unknown>>();
  for (
    const match of page.matchAll(/```yaml\n# ([^\s,]+)[^\n]*\n([\s\S]*?)```/g)
  ) {
    out.set(match[1]!, parse(match[2]!) as Record<string, unknown>);
  }
  return out;
}

async function sh(
  script: string,
  cwd: string,
  env: Record<string, string>,
): Promise<{ code: number; output: string }> {
  const result = await new Deno.Command("bash", {
    args: ["-eo", "pipefail", "-c", script],
    cwd,
    env: { ...env, PORTCULLIS_SCAN: SCAN, NO_COLOR: "1" },
    stdout: "piped",
    stderr: "piped",
  }).output();
  const decoder = new TextDecoder();
  return {
    code: result.code,
    output: decoder.decode(result.stdout) + decoder.decode(result.stderr),
  };
}

async function git(cwd: string, ...args: string[]): Promise<void> {
  const result = await new Deno.Command("git", {
    args: [
      "-c",
      "user.name=ci",
      "-c",
      "user.email=ci@example.invalid",
      ...args,
    ],
    cwd,
    stdout: "null",
    stderr: "piped",
  }).output();
  assert.ok(result.success, new TextDecoder().decode(result.stderr));
}

/**
 * The users repository as CI checks it out: an origin with main and the
 * pull request branch, cloned, the pull request checked out.
 */
async function usersCheckout(work: string, pr: string): Promise<string> {
  const seed = `${work}/seed`;
  await Deno.mkdir(seed, { recursive: true });
  await git(seed, "init", "-q", "-b", "main");
  await sh(`cp -r "${FIXTURES}/users/base/." .`, seed, {});
  await git(seed, "add", ".");
  await git(seed, "commit", "-q", "-m", "users");
  await git(seed, "checkout", "-q", "-b", "pr");
  await sh(`cp -r "${FIXTURES}/users/${pr}/." .`, seed, {});
  await git(seed, "commit", "-q", "-am", "the pull request");
  await git(work, "clone", "-q", "--bare", seed, `${work}/origin.git`);
  await git(work, "clone", "-q", `${work}/origin.git`, `${work}/users`);
  await git(`${work}/users`, "checkout", "-q", "pr");
  return `${work}/users`;
}

async function webCheckout(work: string): Promise<string> {
  await sh(`mkdir -p web && cp -r "${FIXTURES}/web/." web`, work, {});
  return `${work}/web`;
}

/** Runs the GitHub workflows; the exit code of the first failing step. */
async function github(
  pr: string,
): Promise<{ code: number; output: string; temp: string }> {
  const workflows = await examples();
  const publish = workflows.get(".github/workflows/boundary-graph.yml")!;
  const gate = workflows.get(".github/workflows/boundary-gate.yml")!;
  const work = await Deno.makeTempDir({ prefix: "portcullis-gha-" });
  const temp = `${work}/runner-temp`;
  await Deno.mkdir(temp);
  // web publishes its graph
  const web = await webCheckout(work);
  const steps = (job: Record<string, unknown>): Step[] =>
    (Object.values(job["jobs"] as Record<string, { steps: Step[] }>)[0]!).steps;
  for (const step of steps(publish)) {
    if (step.run === undefined) continue;
    const result = await sh(step.run, web, {
      RUNNER_TEMP: temp,
      GITHUB_REPOSITORY: "shop/web",
    });
    assert.equal(result.code, 0, result.output);
  }
  // users gates its pull request
  const users = await usersCheckout(work, pr);
  const env = {
    RUNNER_TEMP: temp,
    GITHUB_BASE_REF: "main",
    GITHUB_REPOSITORY: "shop/users",
  };
  let output = "";
  for (const step of steps(gate)) {
    if (step.uses?.startsWith("dawidd6/action-download-artifact")) {
      const path = step.with!["path"]!.replace("${{ runner.temp }}", temp);
      await Deno.mkdir(path, { recursive: true });
      await Deno.copyFile(`${web}/graph.json`, `${path}/graph.json`);
      continue;
    }
    if (step.run === undefined || step.if !== undefined) continue;
    const result = await sh(step.run, users, env);
    output += result.output;
    if (result.code !== 0) return { code: result.code, output, temp };
  }
  return { code: 0, output, temp };
}

/** Runs the GitLab jobs; the gate job's exit code. */
async function gitlab(
  pr: string,
): Promise<{ code: number; output: string; dir: string }> {
  const pipeline = (await examples()).get(".gitlab-ci.yml")!;
  const variables = pipeline["variables"] as Record<string, string>;
  assert.match(
    variables["PORTCULLIS_SCAN"]!,
    /^npx --yes --package portcullis-scan@/,
  );
  const job = (name: string): string =>
    (pipeline[name] as { script: string[] }).script.join("\n");
  const work = await Deno.makeTempDir({ prefix: "portcullis-gitlab-" });
  const web = await webCheckout(work);
  const published = await sh(job("boundary-graph"), web, {
    CI_PROJECT_NAME: "web",
  });
  assert.equal(published.code, 0, published.output);
  const users = await usersCheckout(work, pr);
  // needs: artifacts: true puts web's artifacts in the job's directory
  await sh(`mkdir -p graphs && cp "${web}/graphs/web.json" graphs/`, users, {});
  const result = await sh(job("boundary-gate"), users, {
    CI_MERGE_REQUEST_TARGET_BRANCH_NAME: "main",
    CI_PROJECT_DIR: users,
    CI_PROJECT_NAME: "users",
  });
  return { ...result, dir: users };
}

Deno.test("the GitHub Actions example fails the gate on the pull request that breaks web", async () => {
  const breaking = await github("breaking");
  assert.equal(breaking.code, 1, breaking.output);
  assert.match(
    breaking.output,
    /Gate failed: 1 breaking provider change; 1 consumer lost its provider/,
  );
  const comment = await Deno.readTextFile(`${breaking.temp}/gate.md`);
  assert.match(
    comment,
    /`web` `services\/web\/src\/api\.ts:4:26` \(`loadUser`\)/,
  );
  const sarif = JSON.parse(
    await Deno.readTextFile(`${breaking.temp}/gate.sarif`),
  );
  assert.equal(
    sarif.runs[0].results[0].locations[0].physicalLocation.artifactLocation.uri,
    "services/users/app.py",
  );
  const compatible = await github("compatible");
  assert.equal(compatible.code, 0, compatible.output);
});

Deno.test("the GitLab CI example fails the gate on the pull request that breaks web", async () => {
  const breaking = await gitlab("breaking");
  assert.equal(breaking.code, 1, breaking.output);
  assert.match(
    breaking.output,
    /used by web services\/web\/src\/api\.ts:4:26 {2}loadUser/,
  );
  assert.match(
    await Deno.readTextFile(`${breaking.dir}/gate.md`),
    /Boundary gate failed/,
  );
  const compatible = await gitlab("compatible");
  assert.equal(compatible.code, 0, compatible.output);
});
