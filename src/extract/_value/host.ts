// The host a client call's URL names, as a template the deployment's
// environment can fill: `users:8080` written in the URL, or `${NAME}` when
// an environment variable gives the host (`http://${USERS_ADDR}/x`) or the
// whole base URL (`os.environ["USERS_URI"] + "/x"`).
import type { Value } from "./value.ts";

/** `${NAME}`, `getenv("NAME")`, `environ["NAME"]`, `process.env.NAME`... */
const ENV_NAME: readonly RegExp[] = [
  /^\$\{([A-Za-z_][A-Za-z0-9_.-]*)(?::[^}]*)?\}$/,
  /(?:getenv|Getenv|GetEnvironmentVariable|environ\.get|env\.get|ENV\.fetch|LookupEnv|env)\(\s*["']([A-Za-z_][A-Za-z0-9_]*)["']/,
  /(?:environ|ENV|env)\[\s*["']([A-Za-z_][A-Za-z0-9_]*)["']\s*\]/,
  /(?:process\.env|import\.meta\.env|Deno\.env)\.([A-Za-z_][A-Za-z0-9_]*)/,
  /^([A-Z][A-Z0-9_]*)$/,
];

/** The variable an environment read names, from its source text. */
export function envName(text: string): string | undefined {
  const trimmed = text.trim();
  for (const pattern of ENV_NAME) {
    const match = pattern.exec(trimmed);
    if (match) return match[1];
  }
  return undefined;
}

/**
 * The host of a URL value: the literal host after `scheme://`, or
 * `${NAME}` for an environment variable that gives the host or the whole
 * base URL; `undefined` when neither can be told (a relative URL, a host
 * partly unknown).
 */
export function hostTemplate(url: Value): string | undefined {
  const [lead, next] = url.parts;
  if (lead === undefined) return undefined;
  if (typeof lead !== "string") {
    const name = lead.hole === "env" ? envName(lead.text) : undefined;
    return name === undefined ? undefined : `\${${name}}`;
  }
  const origin = /^[a-zA-Z][a-zA-Z0-9+.-]*:\/\/([^/?#]*)/.exec(lead);
  if (!origin) return undefined;
  const host = origin[1]!;
  if (host !== "") {
    // a host cut short by an unknown part (`http://users-` + x) is no host
    const whole = origin[0].length < lead.length || next === undefined;
    return whole ? host.replace(/^[^@]*@/, "") : undefined;
  }
  if (lead.length !== origin[0].length || next === undefined) return undefined;
  if (typeof next === "string" || next.hole !== "env") return undefined;
  const name = envName(next.text);
  return name === undefined ? undefined : `\${${name}}`;
}

/**
 * The environment variable a URL's base comes from as a whole
 * (`os.environ["USERS_URI"] + "/x"`, `` `${process.env.API_URL}/x` ``):
 * its value may carry a path the call's key lacks. `undefined` otherwise.
 */
export function baseVariable(url: Value): string | undefined {
  const lead = url.parts[0];
  if (lead === undefined || typeof lead === "string" || lead.hole !== "env") {
    return undefined;
  }
  return envName(lead.text);
}

/**
 * `extra` with the details a client URL gives its port: `host` (its
 * {@linkcode hostTemplate}) and `base_env` (its {@linkcode baseVariable}),
 * each read from the URL, else from the client's base URL `base`; `extra`
 * itself when there is neither.
 */
export function withHostDetails<E extends Record<string, string> | undefined>(
  extra: E,
  url: Value,
  base?: Value,
): E | Record<string, string> {
  const host = hostTemplate(url) ?? (base && hostTemplate(base));
  const env = baseVariable(url) ?? (base && baseVariable(base));
  if (host === undefined && env === undefined) return extra;
  return {
    ...extra,
    ...(host === undefined ? {} : { host }),
    ...(env === undefined ? {} : { "base_env": env }),
  };
}
