import assert from "node:assert/strict";
import { scan } from "../../src/extract/scan.ts";
import { buildReport } from "../../src/extract/report.ts";
import { makeTree, route } from "./_temp_tree.ts";

const EDGE_YML = `spring:
  application:
    name: edge
  cloud:
    gateway:
      routes:
        - id: shop
          uri: lb://shop-service
          predicates:
            - Path=/api/shop/**
          filters:
            - StripPrefix=2
`;

function controller(pkg: string, path: string): string {
  return `package ${pkg};
import org.springframework.web.bind.annotation.*;
@RestController
class ItemController {
  @GetMapping("${path}")
  String item(@PathVariable String id) { return id; }
}
`;
}

/** Each link of a scan as `consumer file -> provider file (via)`. */
async function links(root: string): Promise<string[]> {
  const result = await scan([root]);
  const report = buildReport(result.graph);
  return report.links.map((link) =>
    `${link.consumer.filePath} ${link.consumer.key} -> ${link.provider.filePath} ${link.provider.key}`
  ).sort();
}

Deno.test("scan() links a call through a Spring Cloud Gateway route to the target service only", async () => {
  const root = await makeTree({
    "edge/src/main/resources/application.yml": EDGE_YML,
    "edge/src/main/resources/static/app.js":
      `fetch("/api/shop/items/" + id);\n`,
    "store-shop-service/src/main/java/shop/ItemController.java": controller(
      "shop",
      "/items/{id}",
    ),
    // the same route in another service: never reached through the gateway
    "store-stock-service/src/main/java/stock/ItemController.java": controller(
      "stock",
      "/items/{id}",
    ),
  });
  assert.deepEqual(await links(root), [
    "edge/src/main/resources/static/app.js GET /api/shop/items/{} -> store-shop-service/src/main/java/shop/ItemController.java GET /items/{}",
  ]);
});

Deno.test("scan() links a gateway call to every provider when the target is in no folder", async () => {
  const root = await makeTree({
    "edge/src/main/resources/application.yml": EDGE_YML,
    "edge/web/app.js": `fetch("/api/shop/items/7/" + x);\n`,
    "a/server.ts": route("/items/:id/:part"),
    "b/server.ts": route("/items/:id/:part"),
  });
  assert.deepEqual(await links(root), [
    "edge/web/app.js GET /api/shop/items/{}/{} -> a/server.ts GET /items/{}/{}",
    "edge/web/app.js GET /api/shop/items/{}/{} -> b/server.ts GET /items/{}/{}",
  ]);
});

Deno.test("scan() links calls through an nginx proxy to the service its environment names", async () => {
  const root = await makeTree({
    "front/site.conf.template": `server {
  location /api/basket/ { proxy_pass http://\${BASKET}:8080/; }
}
`,
    "front/Dockerfile": "FROM nginx\nENV BASKET=basket\n",
    "front/js/app.js": `fetch("/api/basket/items/" + id);
fetch("/api/basket/items/" + id + "/gift", { method: "PUT" });
`,
    "basket/server.ts": `import express from "express";
const app = express();
app.get("/items/:id", (q, s) => s.end());
app.put("/items/:id/:kind", (q, s) => s.end());
`,
    // a same-path route of a service the proxy does not forward to
    "wishlist/server.ts": route("/items/:id"),
  });
  assert.deepEqual(await links(root), [
    "front/js/app.js GET /api/basket/items/{} -> basket/server.ts GET /items/{}",
    "front/js/app.js PUT /api/basket/items/{}/gift -> basket/server.ts PUT /items/{}/{}",
  ]);
});

Deno.test("scan() links calls through Istio, Kong and Traefik routes to the services they name", async () => {
  const root = await makeTree({
    "deploy/virtual-service.yaml": `apiVersion: networking.istio.io/v1beta1
kind: VirtualService
metadata:
  name: edge
spec:
  http:
    - match: [{ uri: { prefix: /api/basket/ } }]
      rewrite: { uri: / }
      route: [{ destination: { host: basket.shop.svc.cluster.local } }]
`,
    "deploy/kong.yml": `_format_version: "3.0"
services:
  - name: wishes
    url: http://wishlist:8080
    routes: [{ name: w, paths: [/api/wishes] }]
`,
    "docker-compose.yml": `services:
  basket:
    build: ./basket
  wishlist:
    build: ./wishlist
  reviews:
    build: ./reviews
    labels:
      - "traefik.http.routers.r.rule=PathPrefix(\`/api/reviews\`)"
      - "traefik.http.routers.r.middlewares=s"
      - "traefik.http.middlewares.s.stripprefix.prefixes=/api"
`,
    "front/js/app.js": `fetch("/api/basket/items/" + id);
fetch("/api/wishes/items/" + id);
fetch("/api/reviews/" + id);
`,
    "basket/server.ts": route("/items/:id"),
    "wishlist/server.ts": route("/items/:id"),
    "reviews/server.ts": route("/reviews/:id"),
  });
  assert.deepEqual(await links(root), [
    "front/js/app.js GET /api/basket/items/{} -> basket/server.ts GET /items/{}",
    "front/js/app.js GET /api/reviews/{} -> reviews/server.ts GET /reviews/{}",
    "front/js/app.js GET /api/wishes/items/{} -> wishlist/server.ts GET /items/{}",
  ]);
});
