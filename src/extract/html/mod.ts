// HTML pages and server-side templates: the requests their forms submit.
import type {
  ExtractResult,
  LanguageExtractor,
  SourceFile,
} from "../extractor.ts";
import { formPorts } from "./forms.ts";

const TEMPLATE_FILES =
  /\.(?:html?|jinja2?|j2|njk|twig|hbs|handlebars|mustache|ejs|erb|gohtml|tmpl|cshtml|jsp)$/i;

/**
 * Finds the client ports of HTML forms (`<form method action>` and a submit
 * button's `formaction`) in HTML pages and server-side templates (Jinja,
 * Twig, ERB, EJS, Handlebars, Go templates, Razor, JSP).
 *
 * @example
 * ```ts
 * import { htmlExtractor } from "@portcullis/portcullis/extract";
 * import assert from "node:assert/strict";
 *
 * const result = await htmlExtractor.extract([
 *   { path: "templates/login.html", text: '<form method="post" action="/login"></form>' },
 * ]);
 * assert.equal(result.ports[0]?.ref.key, "POST /login");
 * ```
 */
export const htmlExtractor: LanguageExtractor = {
  name: "html",
  accepts(path: string): boolean {
    return TEMPLATE_FILES.test(path);
  },
  extract(files: readonly SourceFile[]): Promise<ExtractResult> {
    const ports = files.filter((file) => /<form\b/i.test(file.text))
      .flatMap((file) => formPorts(file.path, file.text));
    return Promise.resolve({ ports, diagnostics: [] });
  },
};
