// C# extractor: ASP.NET Core minimal APIs (`MapGet`, `MapGroup` prefixes),
// attribute-routed controllers (`[Route("api/[controller]")]` +
// `[HttpGet("{id}")]`), conventionally routed controllers
// (`MapControllerRoute`, `MapRoute`) and HttpClient calls.
import type {
  ExtractDiagnostic,
  ExtractResult,
  LanguageExtractor,
  SourceFile,
} from "../extractor.ts";
import type { ExtractedPort } from "../types.ts";
import type { Value } from "../_value/mod.ts";
import { eachFile, syntaxWarning } from "../_syntax/passes.ts";
import { parseSource } from "../_syntax/parser.ts";
import { collectConstants, CSharpFile } from "./project.ts";
import { CSharpIndex } from "./index.ts";
import { conventionalRoutes } from "./controllers.ts";
import {
  assumedDefaultRoute,
  type ConventionalRoute,
  routesFor,
} from "./conventional.ts";
import { settleConstants } from "../_value/mod.ts";
import { firstBranches } from "./preprocessor.ts";

/** A file of classic ASP.NET MVC (`System.Web.Mvc`) controllers. */
const CLASSIC_MVC = /^\s*using\s+System\.Web\.Mvc\s*;/m;

export { collectConstants } from "./project.ts";
export { csharpGrpc } from "./grpc.ts";
export { dotnetTemporal } from "./temporal.ts";
export { csharpQueuePorts, globalUsings, globalUsingsOf } from "./queue.ts";

/**
 * Extracts ASP.NET Core routes and HttpClient calls from C# files.
 *
 * Servers: minimal APIs (`app.MapGet("/x", ...)`, `MapPost`, `MapMethods`,
 * `Map` (`ANY`)) with `MapGroup("/api")` prefixes followed through
 * variables and chains; controllers (a `...Controller` class, `[ApiController]`
 * or a class `[Route]`) with `[controller]`/`[action]` tokens replaced and
 * `[HttpGet("{id}")]`/`[Route]` actions (`~/` or `/` templates ignore the
 * class prefix; a class `[Route]`/`[ApiController]` is inherited from base
 * controllers of the scan). An action is attribute-routed when its class has
 * a `[Route]` or it has its own template; the other public actions (not
 * `[NonAction]`, not static) of a controller without `[ApiController]` follow
 * the conventional routes registered in the scan (those of its own project,
 * the folder of the registering file, when it has any): `MapControllerRoute`,
 * `MapDefaultControllerRoute`, `MapAreaControllerRoute` (controllers of that
 * `[Area]` only), `UseMvcWithDefaultRoute` and `MapRoute`/`MapAreaRoute` on
 * an MVC route builder (`UseMvc(routes => ...)`, `RouteCollection`), and
 * Web API 2 `config.Routes.MapHttpRoute` for `: ApiController` classes (an
 * action answers the method its name starts with, else POST). Each
 * URL form of each route that reaches the action is a port (confidence
 * 0.95): the full form and the shorter ones where trailing segments are
 * optional or at their defaults (`HomeController.Index` on
 * `{controller=Home}/{action=Index}/{id?}` is `/Home/Index`, `/Home` and
 * `/`); an optional `{id?}` segment only when the action has an `id`
 * parameter; the method from `[HttpPost]`/`[AcceptVerbs]`, else `ANY`;
 * `[ActionName]` renames an action and an `Async` suffix is dropped. Without
 * such a registration these actions give no ports, except those of classic
 * MVC files (`using System.Web.Mvc`): the MVC 5 template's default route,
 * at 0.6. A `MapRoute` for one fixed action of a controller the scan lacks
 * is a port (`ANY`) at the registration. `[RoutePrefix]` prefixes an
 * action's own template; `MapMethods` and `[AcceptVerbs]` take
 * `HttpMethods.Put` and `QUERY`. Carter modules prefix their routes with
 * their `: base("/x")` path; FastEndpoints endpoint classes give the routes
 * of their `Configure()` (`Get("/x")`, `Verbs(...)` + `Routes(...)`) under
 * the global `Endpoints.RoutePrefix` and their `Group<T>()` prefix; ServiceStack request DTOs'
 * `[Route("/x", "GET,POST")]` and `Routes.Add<T>("/x")`; the path literals
 * an `HttpListener` handler compares `request.Url.AbsolutePath` with (the
 * method from its `request.HttpMethod` tests). Clients: `HttpClient`
 * receivers (declared type, `new
 * HttpClient()`, `IHttpClientFactory.CreateClient()`) calling `GetAsync`,
 * `PostAsJsonAsync`, `GetFromJsonAsync`..., and every `new
 * HttpRequestMessage(HttpMethod.X, url)`.
 *
 * @example Usage
 * ```ts
 * import { csharpExtractor } from "@portcullis/portcullis/extract";
 * import assert from "node:assert/strict";
 *
 * const text = `var api = app.MapGroup("/api");
 * api.MapGet("/orders/{id}", (int id) => id);`;
 * const { ports } = await csharpExtractor.extract([{ path: "Program.cs", text }]);
 * assert.equal(ports[0]?.ref.key, "GET /api/orders/{}");
 * assert.equal(ports[0]?.ref.confidence, 0.95);
 * ```
 */
export const csharpExtractor: LanguageExtractor = {
  name: "csharp",
  accepts(path: string): boolean {
    return path.endsWith(".cs");
  },
  async extract(sources: readonly SourceFile[]): Promise<ExtractResult> {
    // read as one build compiles it: the first branch of each `#if`
    const files = sources.map((f) => ({ ...f, text: firstBranches(f.text) }));
    const diagnostics: ExtractDiagnostic[] = [];
    const ports: ExtractedPort[] = [];
    const constants = new Map<string, Value>();
    await eachFile(files, diagnostics, async (file) => {
      if (!/\bconst\b|\breadonly\b/.test(file.text)) return;
      const tree = await parseSource("c-sharp", file.text);
      try {
        collectConstants(tree.rootNode, constants);
      } finally {
        tree.delete();
      }
    });
    settleConstants(constants);
    // Trees stay alive until the end: extension methods that map routes
    // take their group prefixes from call sites in other files, wrappers
    // their URLs.
    const index = new CSharpIndex();
    try {
      await eachFile(files, diagnostics, async (file) => {
        const tree = await parseSource("c-sharp", file.text);
        index.add(file, tree);
        syntaxWarning(tree.rootNode, file.path, diagnostics);
      });
      const kept = index.trees.map((t) => ({ ...t, path: t.file.path }));
      const conventional: ConventionalRoute[] = [];
      await eachFile(kept, [], (t) => {
        if (/\bMap\w*Route\b|UseMvcWithDefaultRoute/.test(t.file.text)) {
          conventional.push(
            ...conventionalRoutes(
              new CSharpFile(t.file, constants, ports, index),
              t.tree.rootNode,
            ),
          );
        }
        return Promise.resolve();
      });
      // Classic MVC controllers of a scan without a registration: the
      // project template's default route (a guess, weak).
      const assumed = conventional.length === 0 ? [assumedDefaultRoute()] : [];
      await eachFile(kept, [], (t) => {
        const routes = conventional.length > 0
          ? routesFor(conventional, t.file.path)
          : CLASSIC_MVC.test(t.file.text)
          ? assumed
          : [];
        new CSharpFile(t.file, constants, ports, index, routes)
          .run(t.tree.rootNode);
        return Promise.resolve();
      });
    } finally {
      index.delete();
    }
    return { ports, diagnostics };
  },
};
