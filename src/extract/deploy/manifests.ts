// Build manifests (package.json, pom.xml, go.mod, a Dockerfile...): the
// folder holding one is a unit that is built and deployed on its own, so
// the routes under it belong to one service, named like its folder.
import type { ServiceFolder } from "../extractor.ts";
import { folderOf } from "./environment.ts";

const MANIFESTS: ReadonlySet<string> = new Set([
  "package.json",
  "pom.xml",
  "build.gradle",
  "build.gradle.kts",
  "go.mod",
  "requirements.txt",
  "pyproject.toml",
  "setup.py",
  "pipfile",
  "composer.json",
  "gemfile",
  "cargo.toml",
  "mix.exs",
  "dockerfile",
]);

/** Whether a path is a build manifest (or a Dockerfile) by its name. */
export function isManifest(path: string): boolean {
  const name = path.slice(path.lastIndexOf("/") + 1).toLowerCase();
  return MANIFESTS.has(name) || name.endsWith(".csproj") ||
    name.endsWith(".fsproj");
}

/**
 * The service folder a manifest marks, named like the folder; none for a
 * manifest at the top (the whole scan is no one service).
 */
export function manifestFolder(path: string): ServiceFolder | undefined {
  const directory = folderOf(path);
  if (directory === "") return undefined;
  return {
    service: directory.slice(directory.lastIndexOf("/") + 1),
    directory,
  };
}
