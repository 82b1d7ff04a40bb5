import assert from "node:assert/strict";
import { phpExtractor } from "../../../src/extract/php/mod.ts";
import { summarize } from "../_fixtures.ts";

Deno.test("phpExtractor serves plain PHP pages that read the request at their path under the document root", async () => {
  const { ports } = await phpExtractor.extract([
    {
      path: "public/upload.php",
      text: `<?php\n$f = $_FILES['doc'];\n$u = filter_input(INPUT_GET, 'u');\n`,
    },
    {
      path: "public/admin/report.php",
      text: `<?php\n$key = $_SERVER['HTTP_X_KEY'];\n`,
    },
    {
      path: "public/either.php",
      text: `<?php\n$q = $_REQUEST['q'];\n`,
    },
    {
      path: "public/env.php",
      text: `<?php\n$debug = $_SERVER['APP_DEBUG'];\n`,
    },
    {
      path: "public/index.php",
      text:
        `<?php\n$app->get('/x', function () { return $_GET['a']; });\nfunction f() { return $_POST['b']; }\n`,
    },
    {
      path: "src/Internal.php",
      text: `<?php\n$secret = $_GET['secret'];\n`,
    },
  ]);
  assert.deepEqual(summarize(ports), [
    "public/admin/report.php:2 server GET /admin/report.php",
    "public/either.php:2 server GET /either.php",
    "public/either.php:2 server POST /either.php",
    "public/upload.php:2 server GET /upload.php",
    "public/upload.php:2 server POST /upload.php",
  ]);
});

Deno.test("phpExtractor serves pages from the scan root when there is no document root directory", async () => {
  const { ports } = await phpExtractor.extract([
    { path: "search.php", text: `<?\n  $q = $_GET['q'];\n?>` },
    {
      path: "lib/db.php",
      text: `<?php\nclass Db { function q() { return $_GET['x']; } }\n`,
    },
  ]);
  assert.deepEqual(summarize(ports), ["search.php:2 server GET /search.php"]);
});
