import assert from "node:assert/strict";
import { deployExtractor } from "../../../src/extract/deploy/mod.ts";
import type { GatewayRoute } from "../../../src/extract/_port/gateway.ts";
import { forwardedPath } from "../../../src/extract/_port/gateway.ts";

function lines(routes: readonly GatewayRoute[] | undefined): string[] {
  return (routes ?? []).map((r) =>
    `${r.gateway} ${r.filePath}:${r.line} ${r.path} -> ${r.target}${
      r.rewrite ? ` ${r.rewrite.pattern}=>${r.rewrite.replacement}` : ""
    }`
  );
}

const NGINX = `# the shop's edge
upstream accounts_pool {
  server accounts:9000;
}
server {
  listen 80;
  location / { root /srv/www; }
  location /api/orders/ {
    proxy_pass http://\${ORDERS_HOST}:8080/;
  }
  location /api/accounts/ { proxy_pass http://accounts_pool/v2/; }
  location /legacy/ {
    rewrite ^/legacy/(.*)$ /old/$1 break;
    proxy_pass http://legacy:80;
  }
  location = /status { proxy_pass http://monitor:80/health; }
  location ~ \\.php$ { proxy_pass http://php:9000; }
  location /same/ { proxy_pass "http://keeper:80"; }
}
`;

Deno.test("deployExtractor reads nginx locations as gateway routes, hosts from Dockerfile ENV", async () => {
  const result = await deployExtractor.extract([
    { path: "edge/nginx.conf.template", text: NGINX },
    {
      path: "edge/Dockerfile",
      text: "FROM nginx\nENV ORDERS_HOST=orders \\\n    OTHER=x\n",
    },
  ]);
  assert.deepEqual(result.diagnostics, []);
  assert.deepEqual(result.ports, []);
  assert.deepEqual(lines(result.gateways), [
    "edge edge/nginx.conf.template:8 /api/orders/** -> orders:8080 ^/api/orders/=>/",
    "edge edge/nginx.conf.template:11 /api/accounts/** -> accounts:9000 ^/api/accounts/=>/v2/",
    "edge edge/nginx.conf.template:12 /legacy/** -> legacy:80 ^/legacy/(.*)$=>/old/$1",
    "edge edge/nginx.conf.template:16 /status -> monitor:80 ^/status$=>/health",
    "edge edge/nginx.conf.template:18 /same/** -> keeper:80",
  ]);
  const [orders, accounts, legacy, status, same] = result.gateways!;
  assert.equal(forwardedPath(orders!, "/api/orders/7/items"), "/7/items");
  assert.equal(forwardedPath(accounts!, "/api/accounts/me"), "/v2/me");
  assert.equal(forwardedPath(legacy!, "/legacy/a/b"), "/old/a/b");
  assert.equal(forwardedPath(status!, "/status"), "/health");
  assert.equal(forwardedPath(same!, "/same/x"), "/same/x");
});

Deno.test("deployExtractor keeps a host it cannot resolve as written", async () => {
  const result = await deployExtractor.extract([
    {
      path: "nginx.conf",
      text: "server { location /a/ { proxy_pass http://${NOWHERE}:80/; } }",
    },
    // two deployments that disagree: no value is taken
    { path: "one/Dockerfile", text: "ENV NOWHERE=first\n" },
    { path: "two/Dockerfile", text: "ENV NOWHERE=second\n" },
  ]);
  assert.deepEqual(lines(result.gateways), [
    "nginx nginx.conf:1 /a/** -> ${NOWHERE}:80 ^/a/=>/",
  ]);
});

const COMPOSE = `services:
  storefront:
    build:
      context: ./apps/storefront
    environment:
      CATALOG_HOST: catalog
  catalog:
    build: apps/catalog-svc
    environment:
      - PORT=8080
  cache:
    image: redis
`;

Deno.test("deployExtractor reads compose build folders and environment", async () => {
  const result = await deployExtractor.extract([
    {
      path: "deploy/docker-compose.yml",
      text: COMPOSE.replaceAll("./apps", "../apps").replace(
        "build: apps",
        "build: ../apps",
      ),
    },
    {
      path: "apps/storefront/proxy.conf",
      text: "location /catalog/ { proxy_pass http://$CATALOG_HOST/; }",
    },
  ]);
  assert.deepEqual(result.serviceFolders, [
    { service: "storefront", directory: "apps/storefront" },
    { service: "catalog", directory: "apps/catalog-svc" },
  ]);
  assert.deepEqual(lines(result.gateways), [
    "storefront apps/storefront/proxy.conf:1 /catalog/** -> catalog ^/catalog/=>/",
  ]);
});

const KUBE = `apiVersion: v1
kind: ConfigMap
metadata:
  name: addresses
data:
  BILLING_ADDR: "billing:8080"
---
apiVersion: apps/v1
kind: Deployment
metadata:
  name: web
spec:
  template:
    spec:
      containers:
        - name: web
          env:
            - name: SEARCH_HOST
              value: search
            - name: SECRET
              valueFrom:
                secretKeyRef: { name: s, key: k }
---
apiVersion: networking.k8s.io/v1
kind: Ingress
metadata:
  name: public
spec:
  rules:
    - http:
        paths:
          - path: /billing
            pathType: Prefix
            backend:
              service:
                name: billing
                port: { number: 8080 }
---
apiVersion: networking.k8s.io/v1
kind: Ingress
metadata:
  name: rewritten
  annotations:
    nginx.ingress.kubernetes.io/rewrite-target: /$2
spec:
  rules:
    - http:
        paths:
          - path: /search(/|$)(.*)
            pathType: ImplementationSpecific
            backend:
              service:
                name: search
                port: { number: 80 }
`;

Deno.test("deployExtractor reads Kubernetes Ingress routes and environment", async () => {
  const result = await deployExtractor.extract([
    { path: "k8s/all.yaml", text: KUBE },
    {
      path: "web/site.conf",
      text: "location /s/ { proxy_pass http://${SEARCH_HOST}/; }\n" +
        "location /b/ { proxy_pass http://${BILLING_ADDR}/; }",
    },
  ]);
  assert.deepEqual(lines(result.gateways), [
    "public k8s/all.yaml:32 /billing/** -> billing",
    "rewritten k8s/all.yaml:49 /search/** -> search ^/search(/|$)(.*)=>/$2",
    "web web/site.conf:1 /s/** -> search ^/s/=>/",
    "web web/site.conf:2 /b/** -> billing:8080 ^/b/=>/",
  ]);
  const rewritten = result.gateways!.find((r) => r.gateway === "rewritten")!;
  assert.equal(forwardedPath(rewritten, "/search/q/1"), "/q/1");
});

Deno.test("deployExtractor skips Helm templates and YAML that is no manifest", async () => {
  const result = await deployExtractor.extract([
    {
      path: "chart/templates/ingress.yaml",
      text:
        "apiVersion: v1\nkind: Ingress\nmetadata:\n  name: {{ .Release.Name }}\n",
    },
    { path: "openapi.yaml", text: "openapi: 3.0.0\npaths: {}\n" },
  ]);
  assert.deepEqual(result, { ports: [], diagnostics: [] });
});

Deno.test("deployExtractor names the folders of build manifests as service folders", async () => {
  const result = await deployExtractor.extract([
    { path: "package.json", text: "{}" },
    { path: "services/cart/package.json", text: "{}" },
    { path: "services/users/pom.xml", text: "<project/>" },
    { path: "services/web/Dockerfile", text: "FROM nginx\n" },
  ]);
  assert.deepEqual(result.serviceFolders, [
    { service: "cart", directory: "services/cart" },
    { service: "users", directory: "services/users" },
    { service: "web", directory: "services/web" },
  ]);
});

Deno.test("deployExtractor fills a proxy's host from the dotenv file of its folder", async () => {
  const result = await deployExtractor.extract([
    {
      path: "edge/nginx.conf",
      text: "server { location /api/ { proxy_pass http://${API_HOST}:80/; } }",
    },
    {
      path: "edge/.env",
      text: '# local settings\nexport API_HOST="orders" # the API\nEMPTY=\n',
    },
    // an example file documents settings, it sets none
    { path: "edge/.env.example", text: "API_HOST=example\n" },
    { path: "other/.env", text: "API_HOST=elsewhere\n" },
  ]);
  assert.deepEqual(result.diagnostics, []);
  assert.equal(deployExtractor.accepts("edge/.env.example"), false);
  assert.equal(deployExtractor.accepts("edge/.env.production"), true);
  assert.deepEqual(lines(result.gateways), [
    "edge edge/nginx.conf:1 /api/** -> orders:80 ^/api/=>/",
  ]);
});
