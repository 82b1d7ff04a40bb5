// A call whose base URL is an environment variable as a whole
// (`os.environ["USERS_URI"] + "/users/" + id`) has a key without the
// base's path; when the deployment files set the variable
// (`USERS_URI=http://users:8080/api`), the path joins the key
// (`GET /api/users/{}`), composed.
import { httpBoundaryKey } from "../boundary/http_path.ts";
import type { DeployEnvironment } from "./deploy/mod.ts";
import type { ExtractedPort } from "./types.ts";
import { CONFIDENCE } from "./_value/mod.ts";

/** Rewrites the keys of client ports whose base URL `env` gives. */
export function withEnvironmentBases(
  ports: readonly ExtractedPort[],
  env: DeployEnvironment | undefined,
): readonly ExtractedPort[] {
  if (env === undefined) return ports;
  return ports.map((port) => rebased(port, env) ?? port);
}

function rebased(
  port: ExtractedPort,
  env: DeployEnvironment,
): ExtractedPort | undefined {
  const ref = port.ref;
  const name = ref.detail["base_env"];
  if (ref.mechanism !== "http" || ref.role !== "client" || !name) {
    return undefined;
  }
  const value = env.valueFor(name, port.filePath);
  if (value === undefined) return undefined;
  const origin = /^(?:[a-z][a-z0-9+.-]*:)?\/\/[^/?#]*/i.exec(value);
  const base = (origin ? value.slice(origin[0].length) : value)
    .replace(/[?#].*$/, "").replace(/\/+$/, "");
  if (!base.startsWith("/") || base.includes("$")) return undefined;
  const space = ref.key.indexOf(" ");
  const path = base + ref.key.slice(space + 1);
  let key: string;
  try {
    key = httpBoundaryKey(ref.key.slice(0, space), path);
  } catch {
    return undefined;
  }
  return {
    ...port,
    ref: {
      ...ref,
      key,
      confidence: Math.min(
        Math.max(ref.confidence, CONFIDENCE.composed),
        ref.key.includes("{}") ? CONFIDENCE.partial : CONFIDENCE.composed,
      ),
      detail: { ...ref.detail, path, base: value },
    },
  };
}
