/**
 * The C++ extractor: HTTP server routes of Crow, Drogon, cpp-httplib and
 * Oat++, read from the text with comments blanked (route macros are not
 * C++ a grammar can parse).
 *
 * @module
 */
import type {
  ExtractDiagnostic,
  ExtractResult,
  LanguageExtractor,
  SourceFile,
} from "../extractor.ts";
import type { ExtractedPort } from "../types.ts";
import { CppFile } from "./project.ts";
import { blankComments } from "./text.ts";
import { crowRoutes } from "./crow.ts";
import { drogonRoutes } from "./drogon.ts";
import { httplibRoutes } from "./httplib.ts";
import { oatppRoutes } from "./oatpp.ts";

/** C++ sources and headers. */
const CPP_FILE = /\.(?:cpp|cc|cxx|c\+\+|hpp|hh|hxx|h|ipp|inl)$/i;

/** The most characters of one file read (larger files are skipped). */
const MAX_FILE_CHARS = 2_000_000;

export { cppGrpc } from "./grpc.ts";

/**
 * Extracts HTTP server routes from C++ files.
 *
 * Crow: `CROW_ROUTE(app, "/user/<int>")` (GET, or the verbs of a following
 * `.methods("POST"_method, crow::HTTPMethod::Put)`), `app.route_dynamic`,
 * and `CROW_BP_ROUTE(bp, "/x")` under the prefixes of `crow::Blueprint
 * bp("api")` nested by `register_blueprint`. Drogon:
 * `app().registerHandler("/x/{id}", h, {Get, Post})` (no methods: `ANY`),
 * `PATH_ADD`, `METHOD_ADD` under the controller's `/<namespaces>/<Class>`
 * path, `ADD_METHOD_TO` and `ADD_METHOD_VIA_REGEX`. cpp-httplib:
 * `svr.Get("/users/:id", h)` on a variable declared `httplib::Server`.
 * Oat++: `ENDPOINT("GET", "users/{id}", name, ...)` and `ENDPOINT_ASYNC`.
 * Paths are literals (also `"a" "b"` and raw strings); a route whose path is
 * not one is skipped. Confidence 1 (0.8 for a route of a blueprint declared
 * in another file: its prefix is unknown).
 *
 * @example Usage
 * ```ts
 * import { cppExtractor } from "@portcullis/portcullis/extract";
 * import assert from "node:assert/strict";
 *
 * const text = `httplib::Server svr;
 * svr.Get("/users/:id", handler);`;
 * const { ports } = await cppExtractor.extract([{ path: "main.cpp", text }]);
 * assert.equal(ports[0]?.ref.key, "GET /users/{}");
 * ```
 */
export const cppExtractor: LanguageExtractor = {
  name: "cpp",
  accepts(path: string): boolean {
    return CPP_FILE.test(path);
  },
  extract(files: readonly SourceFile[]): Promise<ExtractResult> {
    const diagnostics: ExtractDiagnostic[] = [];
    const ports: ExtractedPort[] = [];
    for (const file of files) {
      if (file.text.length > MAX_FILE_CHARS) {
        diagnostics.push({
          filePath: file.path,
          severity: "error",
          message: `Cannot read: file over ${MAX_FILE_CHARS} characters`,
        });
        continue;
      }
      const f = new CppFile(file, blankComments(file.text), ports);
      crowRoutes(f);
      drogonRoutes(f);
      httplibRoutes(f);
      oatppRoutes(f);
    }
    return Promise.resolve({ ports, diagnostics });
  },
};
