// End-to-end: the reference application over real HTTP, under Deno and Bun.
import assert from "node:assert/strict";
import { type Runtime, ServerProcess } from "./_server.ts";

const RUNTIMES: Runtime[] = ["deno", "bun"];

async function expectJson(
  response: Response,
  status: number,
  body?: unknown,
): Promise<unknown> {
  const text = await response.text();
  assert.equal(response.status, status, `status of ${response.url}: ${text}`);
  assert.match(
    response.headers.get("content-type") ?? "",
    /^application\/json(;|$)/,
  );
  const parsed = JSON.parse(text);
  if (body !== undefined) assert.deepEqual(parsed, body);
  return parsed;
}

for (const runtime of RUNTIMES) {
  Deno.test(`examples/server.ts under ${runtime} answers every route and status`, async (t) => {
    await using server = await ServerProcess.start(runtime);

    await t.step(
      "GET /me without credentials: 401 with WWW-Authenticate",
      async () => {
        const response = await server.fetch("/me");
        assert.equal(response.headers.get("www-authenticate"), "Bearer");
        await expectJson(response, 401, { detail: "Unauthorized" });
      },
    );
    await t.step(
      "GET /me with another scheme or no credential: 401",
      async () => {
        for (
          const authorization of ["Basic dmlld2VyOng=", "Bearer", "Token x"]
        ) {
          const response = await server.fetch("/me", {
            headers: { authorization },
          });
          await expectJson(response, 401, { detail: "Unauthorized" });
        }
      },
    );
    await t.step(
      "GET /me returns the user, credential as received",
      async () => {
        await expectJson(await server.fetch("/me", { role: "viewer" }), 200, {
          role: "viewer",
        });
        await expectJson(
          await server.fetch("/me", {
            headers: { authorization: "bearer a b" },
          }),
          200,
          { role: "a b" },
        );
      },
    );

    let seeded: { id: number; title: string }[] = [];
    await t.step(
      "GET /posts: read roles get the posts, others 403, anonymous 401",
      async () => {
        for (const role of ["viewer", "editor", "admin"]) {
          const posts = await expectJson(
            await server.fetch("/posts", { role }),
            200,
          );
          assert.ok(Array.isArray(posts));
          assert.ok(posts.length > 0);
          seeded = posts;
        }
        await expectJson(await server.fetch("/posts", { role: "guest" }), 403, {
          detail: "Forbidden",
        });
        await expectJson(await server.fetch("/posts", { role: "VIEWER" }), 403);
        await expectJson(await server.fetch("/posts"), 401);
      },
    );

    await t.step(
      "POST /posts: write roles create a post (201), viewer 403",
      async () => {
        const created = await expectJson(
          await server.fetch("/posts", {
            method: "POST",
            role: "editor",
            headers: { "content-type": "application/json" },
            body: JSON.stringify({ title: "Hello", body: "From the test" }),
          }),
          201,
        ) as Record<string, unknown>;
        assert.equal(created.title, "Hello");
        assert.equal(created.body, "From the test");
        assert.equal(created.author, "editor");
        assert.equal(typeof created.id, "number");
        const byAdmin = await expectJson(
          await server.fetch("/posts", {
            method: "POST",
            role: "admin",
            body: JSON.stringify({ title: "Second" }),
          }),
          201,
        ) as Record<string, unknown>;
        assert.equal(byAdmin.author, "admin");
        assert.notEqual(byAdmin.id, created.id);
        await expectJson(
          await server.fetch("/posts", {
            method: "POST",
            role: "viewer",
            body: JSON.stringify({ title: "Nope" }),
          }),
          403,
          { detail: "Forbidden" },
        );
        await expectJson(
          await server.fetch("/posts", { method: "POST", body: "{}" }),
          401,
        );
        const posts = await expectJson(
          await server.fetch("/posts", { role: "viewer" }),
          200,
        ) as { title: string }[];
        assert.deepEqual(
          posts.map((post) => post.title),
          [...seeded.map((post) => post.title), "Hello", "Second"],
        );
      },
    );

    await t.step("POST /posts with a bad body: 400", async () => {
      for (const body of ["{oops", "[]", '{"title":""}', '{"title":3}', ""]) {
        const response = await server.fetch("/posts", {
          method: "POST",
          role: "editor",
          body,
        });
        const error = await expectJson(response, 400) as { detail: string };
        assert.equal(typeof error.detail, "string");
      }
    });

    await t.step("known path, wrong method: 405 with Allow", async () => {
      const cases: [string, string, string][] = [
        ["DELETE", "/posts", "GET, POST"],
        ["PUT", "/posts", "GET, POST"],
        ["POST", "/me", "GET"],
      ];
      for (const [method, path, allow] of cases) {
        const response = await server.fetch(path, { method, role: "admin" });
        assert.equal(response.headers.get("allow"), allow);
        await expectJson(response, 405, { detail: "Method Not Allowed" });
      }
    });

    await t.step("unknown path: 404, with or without credentials", async () => {
      for (const path of ["/", "/nope", "/posts/1", "/posts/", "/me/x"]) {
        await expectJson(await server.fetch(path), 404, {
          detail: "Not Found",
        });
        await expectJson(await server.fetch(path, { role: "admin" }), 404);
      }
    });

    await t.step("SIGTERM: clean exit", async () => {
      const status = await server.stop("SIGTERM");
      assert.equal(status.code, 0, server.lines.join("\n"));
      assert.ok(server.lines.includes("Received SIGTERM, shutting down"));
      assert.deepEqual(
        server.lines.filter((line) => line.startsWith("[stderr]")),
        [],
      );
    });
  });

  Deno.test(`examples/server.ts under ${runtime} exits cleanly on SIGINT`, async () => {
    await using server = await ServerProcess.start(runtime);
    await expectJson(await server.fetch("/me", { role: "viewer" }), 200);
    const status = await server.stop("SIGINT");
    assert.equal(status.code, 0, server.lines.join("\n"));
    assert.ok(server.lines.includes("Received SIGINT, shutting down"));
  });

  Deno.test(`examples/server.ts under ${runtime} refuses to start without a valid policy`, async (t) => {
    const cases: [string, Record<string, string>, RegExp][] = [
      ["missing model", { MODEL_PATH: "/nonexistent/model.conf" }, /model/i],
      ["missing policy", { POLICY_PATH: "/nonexistent/policy.csv" }, /policy/i],
      ["bad port", { PORT: "http" }, /PORT/],
    ];
    // A port another process holds: the message names it and PORT=.
    using held = Deno.listen({ hostname: "127.0.0.1", port: 0 });
    const port = (held.addr as Deno.NetAddr).port;
    cases.push([
      "port taken",
      { PORT: String(port) },
      new RegExp(`port ${port} is already in use.*PORT=`),
    ]);
    for (const [name, env, message] of cases) {
      await t.step(name, async () => {
        await assert.rejects(
          async () => {
            await using _server = await ServerProcess.start(runtime, env);
          },
          (error: Error) => {
            assert.match(error.message, /exited before printing/);
            assert.match(error.message, /\(exit code 1\)$/);
            assert.match(error.message, message);
            return true;
          },
        );
      });
    }
  });
}
