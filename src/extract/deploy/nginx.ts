// nginx reverse proxies: a `location` with `proxy_pass` forwards the
// requests under its prefix to another service, as a gateway route. With a
// URI in `proxy_pass` (`http://user:8080/`) the matched prefix is replaced
// by it (`/api/user/login` -> `/login`); without one the path goes on as it
// is, or as a `rewrite ... break` in the location makes it. Regular
// expression locations are left out (what they forward cannot be told).
import type { GatewayRoute } from "../_port/gateway.ts";
import { folderOf } from "./environment.ts";
import { prefixRoute, splitUrl } from "./prefix_route.ts";

/** Whether a path is an nginx configuration file by its name. */
export function isNginxFile(path: string): boolean {
  const name = path.slice(path.lastIndexOf("/") + 1).toLowerCase();
  return /\.conf(?:\.(?:template|tmpl|j2|erb))?$/.test(name) ||
    /^nginx[^/]*\.(?:template|tmpl)$/.test(name);
}

/** One directive or block header: its words and where it starts. */
interface Statement {
  words: string[];
  line: number;
  /** The statements of its block, when it opens one. */
  block?: Statement[];
}

/** Block nesting deeper than this is not read (a bound on hostile input). */
const MAX_DEPTH = 32;

/** Parses nginx syntax into statements (comments and quotes honoured). */
function parse(text: string): Statement[] {
  const top: Statement[] = [];
  const stack: Statement[][] = [top];
  let words: string[] = [];
  let word = "";
  let line = 1;
  let start = 1;
  const endWord = (): void => {
    if (word !== "") {
      if (words.length === 0) start = line;
      words.push(word);
      word = "";
    }
  };
  for (let i = 0; i < text.length; i++) {
    const c = text[i]!;
    if (c === "\n") line++;
    if (c === "#" && word === "") {
      while (i < text.length && text[i] !== "\n") i++;
      line++;
      continue;
    }
    if (c === '"' || c === "'") {
      const end = text.indexOf(c, i + 1);
      const stop = end === -1 ? text.length : end;
      const quoted = text.slice(i + 1, stop);
      line += quoted.split("\n").length - 1;
      word += quoted;
      i = stop;
      continue;
    }
    if (/\s/.test(c)) {
      endWord();
      continue;
    }
    if (c === "{" && word.endsWith("$")) {
      // `${name}`: a variable, not a block
      const end = text.indexOf("}", i);
      const stop = end === -1 ? text.length : end;
      word += text.slice(i, stop + 1);
      i = stop;
      continue;
    }
    if (c === ";" || c === "{" || c === "}") {
      endWord();
      const current = stack[stack.length - 1]!;
      if (c === ";") {
        if (words.length > 0) current.push({ words, line: start });
      } else if (c === "{") {
        const block: Statement[] = [];
        current.push({ words, line: start, block });
        if (stack.length < MAX_DEPTH) stack.push(block);
        else stack.push([]);
      } else if (stack.length > 1) stack.pop();
      words = [];
      continue;
    }
    word += c;
  }
  return top;
}

/** The routes of one nginx file (targets as written: `${HOST}` kept). */
export function nginxRoutes(path: string, text: string): GatewayRoute[] {
  if (!text.includes("proxy_pass")) return [];
  const folder = folderOf(path);
  const gateway = folder === ""
    ? "nginx"
    : folder.slice(folder.lastIndexOf("/") + 1);
  const out: GatewayRoute[] = [];
  const upstreams = new Map<string, string>();
  const visit = (statements: readonly Statement[]): void => {
    for (const s of statements) {
      if (s.words[0] === "upstream" && s.words[1] && s.block) {
        const server = s.block.find((b) => b.words[0] === "server");
        if (server?.words[1]) upstreams.set(s.words[1], server.words[1]);
      }
    }
    for (const s of statements) {
      if (s.words[0] === "location" && s.block) location(s);
      else if (s.block) visit(s.block);
    }
  };
  const location = (s: Statement): void => {
    const args = s.words.slice(1);
    const modifier = args.length > 1 ? args[0] : undefined;
    const prefix = args[args.length - 1];
    if (
      !prefix?.startsWith("/") || (modifier && !["=", "^~"].includes(modifier))
    ) {
      return;
    }
    const block = s.block!;
    const pass = block.find((b) => b.words[0] === "proxy_pass");
    const route = pass?.words[1]
      ? proxyRoute(pass.words[1], prefix, modifier === "=", upstreams, {
        gateway,
        filePath: path,
        line: s.line,
      })
      : undefined;
    if (route) {
      const rewrite = block.find((b) =>
        b.words[0] === "rewrite" && b.words.length >= 3 &&
        ["break", "last"].includes(b.words[3] ?? "break")
      );
      if (rewrite && route.rewrite === undefined) {
        route.rewrite = {
          pattern: rewrite.words[1]!,
          replacement: rewrite.words[2]!,
        };
      }
      out.push(route);
    }
    visit(block.filter((b) => b.words[0] === "location"));
  };
  visit(parse(text));
  return out;
}

/** The route a `proxy_pass` URL gives a location. */
function proxyRoute(
  url: string,
  prefix: string,
  exact: boolean,
  upstreams: ReadonlyMap<string, string>,
  at: { gateway: string; filePath: string; line: number },
): GatewayRoute | undefined {
  const parts = splitUrl(url);
  if (!parts) return undefined;
  // a URI built from nginx variables (`$request_uri`) cannot be told
  if (parts.path.includes("$")) return undefined;
  return prefixRoute({
    ...at,
    prefix,
    exact,
    target: upstreams.get(parts.host) ?? parts.host,
    uri: url,
    // with a URI the matched prefix is replaced by it
    ...(parts.path === "" ? {} : { replacement: parts.path }),
    framework: "nginx",
  });
}
