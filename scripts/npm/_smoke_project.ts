// Helpers of scripts/smoke_npm.ts: commands, packing, consumer projects and
// what an install weighs.
import { join } from "node:path";

/** Runs a command in `cwd`; throws with its output when it fails. */
export async function run(
  command: string,
  args: string[],
  cwd: string,
  env: Record<string, string> = {},
): Promise<string> {
  const output = await new Deno.Command(command, {
    args,
    cwd,
    stdout: "piped",
    stderr: "piped",
    env: { NO_COLOR: "1", ...env },
  }).output();
  const text = new TextDecoder().decode(output.stdout) +
    new TextDecoder().decode(output.stderr);
  if (!output.success) {
    throw new Error(
      `Cannot run ${command} ${
        args.join(" ")
      } in ${cwd} (exit ${output.code}):\n${text}`,
    );
  }
  return text;
}

/** A packed npm package. */
export interface Tarball {
  name: string;
  path: string;
  /** Bytes of the .tgz, and of its files unpacked. */
  size: number;
  unpackedSize: number;
}

/** `npm pack`s each package folder into `work`. */
export async function pack(dirs: string[], work: string): Promise<Tarball[]> {
  const output = await run(
    "npm",
    ["pack", ...dirs, "--json", "--pack-destination", work, "--loglevel=error"],
    work,
  );
  const packed = JSON.parse(output.slice(output.indexOf("["))) as {
    name: string;
    filename: string;
    size: number;
    unpackedSize: number;
  }[];
  return packed.map((entry) => ({
    name: entry.name,
    path: join(work, entry.filename),
    size: entry.size,
    unpackedSize: entry.unpackedSize,
  }));
}

const NPM_INSTALL = ["install", "--no-audit", "--no-fund", "--loglevel=error"];

/**
 * A fresh consumer project in `work`/`name`, with the files of `source`
 * and the given tarballs installed as its dependencies.
 */
export async function project(
  work: string,
  name: string,
  source: string,
  tarballs: Tarball[],
): Promise<string> {
  const dir = join(work, name);
  await Deno.mkdir(dir);
  for await (const entry of Deno.readDir(source)) {
    await Deno.copyFile(join(source, entry.name), join(dir, entry.name));
  }
  await Deno.writeTextFile(
    join(dir, "package.json"),
    JSON.stringify({ name: `consumer-${name}`, private: true, type: "module" }),
  );
  await run("npm", [...NPM_INSTALL, ...tarballs.map((t) => t.path)], dir);
  return dir;
}

/** Installs development packages (exact versions) into a project. */
export async function installDev(
  dir: string,
  packages: string[],
): Promise<void> {
  await run("npm", [...NPM_INSTALL, "--save-dev", ...packages], dir);
}

/** What node_modules of `dir` holds: bytes of its files, and packages. */
export async function footprint(
  dir: string,
): Promise<{ bytes: number; packages: number }> {
  const du = await run("du", ["-sb", "node_modules"], dir);
  const listed = await run("npm", ["ls", "--all", "--parseable"], dir);
  return {
    bytes: Number(du.split(/\s/)[0]),
    // The first line is the project itself.
    packages: new Set(listed.trim().split("\n").slice(1)).size,
  };
}

/** Bytes as megabytes (10^6), one decimal. */
export function mb(bytes: number): string {
  return `${(bytes / 1e6).toFixed(1)} MB`;
}
