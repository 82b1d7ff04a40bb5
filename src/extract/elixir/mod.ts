// Elixir extractor: Phoenix and Plug router routes. No tree-sitter grammar
// for Elixir ships with the package, so this is a small single-pass
// tokenizer (no regular expressions on the input, linear time) plus a
// do/end block tracker. See the limits in the extractor's documentation.
import type {
  ExtractDiagnostic,
  ExtractResult,
  LanguageExtractor,
  SourceFile,
} from "../extractor.ts";
import { endpointPlugs, resolvePorts } from "./project.ts";
import { MAX_BLOCK_DEPTH, type ModuleInfo, RouterScan } from "./router.ts";
import { type Token, tokenizeElixir } from "./tokenizer.ts";
import { pubsubPorts } from "./pubsub.ts";
import { parseFailure } from "../_syntax/passes.ts";
import type { ExtractedPort } from "../types.ts";

/**
 * Extracts Phoenix router routes from Elixir files that `use` a router
 * (`use Phoenix.Router` or `use MyAppWeb, :router`), and `Plug.Router`
 * routes (`get "/x" do`, `match "/x", via: [...]`, `query`, `forward "/x",
 * to: Plug`; a module a server's `plug:` names, e.g. `{Bandit, plug: R}`,
 * is served at the root). ExUnit scripts (`*_test.exs`) are not read.
 *
 * Understood: `scope "/api", MyAppWeb do ... end` (nested, prefixes
 * composed; `scope path: "/x"`), `get/post/put/patch/delete/options/head
 * "/x", Controller, :action`, `match :*` (`ANY`), `live "/x", Live` (GET),
 * `resources "/posts", C` (the eight Phoenix routes; `only:`/`except:`,
 * `singleton: true`, nested blocks under `/posts/:post_id`), and module
 * attributes holding a literal path (`@api "/api"`, `scope @api do`),
 * `do:` one-liners (`scope "/x", X, do: get "/y", C, :a`), `live_dashboard`
 * pages, and router macros (`defmacro` with `quote`) read where they are
 * called, `unquote(x)` bound from `x = Keyword.get(opts, :k, default)`.
 *
 * `forward "/admin", AdminRouter` (in a router module; the scope alias and
 * `alias` directives apply to the plug): when the plug is a router module
 * of the scan, its routes are reported under the forward path and the
 * enclosing scopes (confidence at most 0.95, `detail.forward` and
 * `detail.mountedAt`), once per forward that mounts it, and not at the
 * root, unless an endpoint of the scan (`use Phoenix.Endpoint`) also plugs
 * it directly (`plug AppWeb.AdminRouter`), in which case it is reported at
 * the root too. Any other plug (`forward "/graphql", Absinthe.Plug, opts`)
 * gives two ports at confidence 0.6 with `detail.plug`: `ANY <path>` and
 * `ANY <path>/*path` (key `ANY /graphql/{}`). Forwards inside a development-only block (`if
 * Mix.env() ...`, `if Application.compile_env(_, :dev_routes)`), such as
 * mailbox previews, are not reported.
 *
 * Limits: there is no Elixir parser; a single-pass tokenizer follows
 * `do`/`end` and `fn`/`end` nesting line by line. Paths computed at compile
 * time (function calls, string concatenation, macros that generate routes)
 * are not followed. Client calls are not extracted. Phoenix.PubSub
 * `broadcast`/`subscribe` calls (and an endpoint's) are queue ports keyed
 * by the topic.
 *
 * @example Usage
 * ```ts
 * import { elixirExtractor } from "@portcullis/portcullis/extract";
 * import assert from "node:assert/strict";
 *
 * const text = `defmodule AppWeb.Router do
 *   use Phoenix.Router
 *   scope "/api", AppWeb do
 *     get "/users/:id", UserController, :show
 *   end
 * end`;
 * const { ports } = await elixirExtractor.extract([{ path: "lib/app_web/router.ex", text }]);
 * assert.equal(ports[0]?.ref.key, "GET /api/users/{}");
 * assert.equal(ports[0]?.ref.line, 4);
 * ```
 */
export const elixirExtractor: LanguageExtractor = {
  name: "elixir",
  accepts(path: string): boolean {
    return path.endsWith(".ex") || path.endsWith(".exs");
  },
  extract(files: readonly SourceFile[]): Promise<ExtractResult> {
    const diagnostics: ExtractDiagnostic[] = [];
    const modules = new Map<string, ModuleInfo>();
    const plugged = new Set<string>();
    const topics: ExtractedPort[] = [];
    for (const file of files) {
      // ExUnit test scripts run only under `mix test`: not the application
      if (file.path.endsWith("_test.exs")) continue;
      // tokenized once for the readers below (a failure is not kept)
      let read: Token[] | undefined;
      const tokensOf = () => read ??= tokenizeElixir(file.text);
      if (/PubSub|Endpoint\.(?:broadcast|subscribe)/.test(file.text)) {
        try {
          topics.push(
            ...pubsubPorts(tokensOf(), file.path, file.text),
          );
        } catch (error) {
          diagnostics.push(parseFailure(file.path, error));
        }
      }
      const router = file.text.includes("Phoenix.Router") ||
        file.text.includes(":router") || file.text.includes("Plug.Router");
      const endpoint = file.text.includes("Phoenix.Endpoint") ||
        file.text.includes(":endpoint") || file.text.includes("plug:");
      if (!router && !endpoint) continue;
      try {
        const tokens = tokensOf();
        if (endpoint) endpointPlugs(tokens, plugged);
        if (!router) continue;
        // each file's modules are merged in only once the file is read
        const own = new Map<string, ModuleInfo>();
        const scan = new RouterScan(file, own);
        scan.run(tokens);
        if (scan.skippedDeep) {
          diagnostics.push({
            filePath: file.path,
            severity: "warning",
            message:
              `Cannot read every route: some are nested in more than ${MAX_BLOCK_DEPTH} blocks and were skipped`,
          });
        }
        for (const [name, info] of own) {
          const known = modules.get(name);
          if (!known) modules.set(name, info);
          else {
            known.router ||= info.router;
            known.plug ||= info.plug;
            known.routes.push(...info.routes);
            known.forwards.push(...info.forwards);
          }
        }
      } catch (error) {
        diagnostics.push({
          filePath: file.path,
          severity: "error",
          message: `Cannot extract ports: ${
            error instanceof Error ? error.message : String(error)
          }`,
        });
      }
    }
    return Promise.resolve({
      ports: [...resolvePorts(modules, plugged), ...topics],
      diagnostics,
    });
  },
};
export { tokenizeElixir } from "./tokenizer.ts";
