// deno bench benches/boundary_http_path_bench.ts
import {
  httpBoundaryKey,
  normalizeHttpPath,
} from "../src/boundary/http_path.ts";

const inputs: [string, string][] = [
  ["plain", "/api/v1/users"],
  ["express params", "/api/v1/users/:userId/posts/:postId"],
  ["fastapi braces", "/api/v1/users/{user_id}/posts/{post_id:int}"],
  ["flask angles", "/api/v1/users/<int:user_id>/posts/<post_id>"],
  ["url with query", "https://api.example.com/v1/users/42/posts?limit=10#top"],
  ["template", "{}/api/v1/users/{}/posts/{}"],
  ["messy", "  //host//a/./b/../users//42/  "],
];

for (const [name, input] of inputs) {
  Deno.bench({
    name: `normalizeHttpPath ${name}`,
    group: "normalizeHttpPath",
    baseline: name === "plain",
    fn(): void {
      normalizeHttpPath(input);
    },
  });
}

const long = "/seg".repeat(250_000) + "/:id"; // 1 MB
Deno.bench({
  name: "normalizeHttpPath 1 MB path",
  group: "normalizeHttpPath large",
  n: 20,
  warmup: 2,
  fn(): void {
    normalizeHttpPath(long);
  },
});
const hostile = "/" + ":a(".repeat(350_000); // 1 MB of unclosed groups
Deno.bench({
  name: "normalizeHttpPath 1 MB hostile",
  group: "normalizeHttpPath large",
  n: 20,
  warmup: 2,
  fn(): void {
    normalizeHttpPath(hostile);
  },
});

Deno.bench({
  name: "httpBoundaryKey GET fastapi",
  fn(): void {
    httpBoundaryKey("get", "/api/v1/users/{user_id}");
  },
});
