// PHP extractor: the routes of Laravel, Slim, Symfony, Lumen, CodeIgniter,
// CakePHP, ThinkPHP, Yii, Laminas/Mezzio, Hyperf, Phalcon, WordPress,
// Drupal, Mautic, Magento and plain PHP pages, and Guzzle / Laravel `Http`
// / curl client calls.
import type {
  ExtractDiagnostic,
  ExtractResult,
  LanguageExtractor,
  SourceFile,
} from "../extractor.ts";
import { settleConstants, type Value } from "../_value/mod.ts";
import { twoPasses } from "../_syntax/passes.ts";
import { collectConstants, PhpFile } from "./project.ts";
import { isRoutesYaml, type RoutePrefix, routesYaml } from "./routes_yaml.ts";
import { isMagentoXml, magentoXml } from "./magento.ts";
import { documentRoots } from "./page.ts";
import type { ExtractedPort } from "../types.ts";

/**
 * Extracts PHP routes and HTTP client calls.
 *
 * Laravel: `Route::get/post/put/patch/delete/options/any('/x', ...)`,
 * `Route::match([...], ...)`, `Route::resource`/`apiResource` (the seven or
 * five RESTful routes, `->only([...])`/`->except([...])`), prefixes from
 * `Route::prefix('api')->group(...)` and `Route::group(['prefix' => ...],
 * ...)`, and the `/api` prefix of `routes/api.php`. Slim (files that `use
 * Slim\...`): `$app->get(...)`, `$app->map([...], ...)` and `$app->group`
 * prefixes, on apps made by `AppFactory::create()` and group proxies.
 * Symfony (files that use the `Route` attribute): class `#[Route]` prefix +
 * method `#[Route('/x', methods: ['GET'])]`, and routing YAML. Lumen,
 * CodeIgniter 4, CakePHP, ThinkPHP, Yii 2, Laminas and Mezzio, Hyperf,
 * Phalcon, WordPress REST routes, Drupal `*.routing.yml`, Mautic and
 * Magento configs, and plain scripts that read `$_GET`/`$_POST` (served at
 * their path under the document root); see `docs/extraction.md`. Routes a
 * PHPUnit test case declares are skipped. Clients: Guzzle (`new
 * Client(['base_uri' => ...])`, typed parameters and properties;
 * `get/post/...`, `request('POST', $url)`, `*Async`) resolving relative
 * URIs against `base_uri`, and Laravel's `Http::get(...)` /
 * `Http::baseUrl(...)->post(...)`.
 *
 * @example Usage
 * ```ts
 * import { phpExtractor } from "@portcullis/portcullis/extract";
 * import assert from "node:assert/strict";
 *
 * const text = `<?php
 * Route::prefix('v1')->group(function () {
 *     Route::get('/users/{id}', [UserController::class, 'show']);
 * });`;
 * const { ports } = await phpExtractor.extract([{ path: "routes/web.php", text }]);
 * assert.equal(ports[0]?.ref.key, "GET /v1/users/{}");
 * ```
 */
export const phpExtractor: LanguageExtractor = {
  name: "php",
  accepts(path: string): boolean {
    return path.endsWith(".php") || isRoutesYaml(path) || isMagentoXml(path);
  },
  async extract(files: readonly SourceFile[]): Promise<ExtractResult> {
    const constants = new Map<string, Value>();
    const prefixes: RoutePrefix[] = [];
    const configured: ExtractedPort[] = [];
    const problems: ExtractDiagnostic[] = [];
    for (const file of files) {
      if (isRoutesYaml(file.path)) {
        routesYaml(file, configured, prefixes, problems);
      } else if (isMagentoXml(file.path)) {
        magentoXml(file, configured, prefixes);
      }
    }
    const roots = documentRoots(files.map((f) => f.path));
    const result = await twoPasses(
      files.filter((f) => f.path.endsWith(".php")),
      "php",
      (file) => file.text.includes("const "),
      (root) => collectConstants(root, constants),
      (file, root, ports, trees) => {
        const php = new PhpFile(file, constants, ports, prefixes, trees);
        php.documentRoots = roots;
        php.run(root);
      },
      () => settleConstants(constants),
    );
    result.ports.push(...configured);
    result.diagnostics.push(...problems);
    return result;
  },
};
