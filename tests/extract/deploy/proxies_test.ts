import assert from "node:assert/strict";
import { deployExtractor } from "../../../src/extract/deploy/mod.ts";
import {
  forwardedPath,
  type GatewayRoute,
} from "../../../src/extract/_port/gateway.ts";

function lines(routes: readonly GatewayRoute[] | undefined): string[] {
  return (routes ?? []).map((r) =>
    `${r.framework} ${r.gateway} :${r.line} ${r.method} ${r.path} -> ${r.target}`
  );
}

async function routesOf(path: string, text: string): Promise<GatewayRoute[]> {
  const result = await deployExtractor.extract([{ path, text }]);
  assert.deepEqual(result.diagnostics, []);
  assert.deepEqual(result.ports, []);
  return result.gateways ?? [];
}

Deno.test("deployExtractor reads Istio VirtualService routes with their rewrites", async () => {
  const routes = await routesOf(
    "mesh/routes.yaml",
    `apiVersion: networking.istio.io/v1beta1
kind: VirtualService
metadata:
  name: shop
spec:
  hosts: ["*"]
  http:
    - match:
        - uri:
            prefix: /api/users
          method:
            exact: GET
        - uri:
            exact: /api/me
      rewrite:
        uri: /
      route:
        - destination:
            host: users.shop.svc.cluster.local
            port:
              number: 8080
    - match:
        - uri:
            regex: "^/v[0-9]+/.*"
      route:
        - destination:
            host: versioned
    - route:
        - destination:
            host: web
`,
  );
  assert.deepEqual(lines(routes), [
    "istio shop :9 GET /api/users/** -> users",
    "istio shop :13 ANY /api/me -> users",
    "istio shop :28 ANY /** -> web",
  ]);
  const [users, me, web] = routes;
  assert.equal(forwardedPath(users!, "/api/users/7"), "/7");
  assert.equal(forwardedPath(users!, "/api/users"), "/");
  assert.equal(forwardedPath(me!, "/api/me"), "/");
  assert.equal(forwardedPath(me!, "/api/me/x"), undefined);
  assert.equal(forwardedPath(web!, "/about"), "/about");
});

Deno.test("deployExtractor reads Gateway API HTTPRoutes with URLRewrite filters", async () => {
  const routes = await routesOf(
    "k8s/httproute.yaml",
    `apiVersion: gateway.networking.k8s.io/v1
kind: HTTPRoute
metadata:
  name: edge
spec:
  parentRefs: [{ name: public }]
  rules:
    - matches:
        - path: { type: PathPrefix, value: /orders }
          method: POST
      filters:
        - type: URLRewrite
          urlRewrite:
            path: { type: ReplacePrefixMatch, replacePrefixMatch: /v2/orders }
      backendRefs:
        - name: orders
          port: 80
    - matches:
        - path: { type: RegularExpression, value: "/x.*" }
      backendRefs: [{ name: ignored }]
    - matches:
        - path: { type: Exact, value: /health }
      backendRefs: [{ name: status }]
`,
  );
  assert.deepEqual(lines(routes), [
    "gateway-api edge :9 POST /orders/** -> orders",
    "gateway-api edge :22 ANY /health -> status",
  ]);
  assert.equal(forwardedPath(routes[0]!, "/orders/5"), "/v2/orders/5");
});

Deno.test("deployExtractor reads Envoy routes to the hosts of their clusters", async () => {
  const routes = await routesOf(
    "envoy/envoy.yaml",
    `static_resources:
  listeners:
    - name: main
      address:
        socket_address: { address: 0.0.0.0, port_value: 8080 }
      filter_chains:
        - filters:
            - name: envoy.filters.network.http_connection_manager
              typed_config:
                route_config:
                  virtual_hosts:
                    - name: all
                      domains: ["*"]
                      routes:
                        - match: { prefix: "/api/cart/" }
                          route: { cluster: cart_cluster, prefix_rewrite: "/" }
                        - match: { path: "/ping" }
                          route: { cluster: 10.0.0.5 }
                        - match: { safe_regex: { regex: "/x.*" } }
                          route: { cluster: cart_cluster }
                        - match: { prefix: "/" }
                          route: { cluster: web }
  clusters:
    - name: cart_cluster
      load_assignment:
        cluster_name: cart_cluster
        endpoints:
          - lb_endpoints:
              - endpoint:
                  address:
                    socket_address: { address: cart, port_value: 7070 }
    - name: web
      load_assignment:
        endpoints:
          - lb_endpoints:
              - endpoint:
                  address:
                    socket_address: { address: 127.0.0.1, port_value: 3000 }
`,
  );
  assert.deepEqual(lines(routes), [
    "envoy envoy :15 ANY /api/cart/** -> cart",
    "envoy envoy :17 ANY /ping -> 10.0.0.5",
    "envoy envoy :21 ANY /** -> web",
  ]);
  assert.equal(forwardedPath(routes[0]!, "/api/cart/items"), "/items");
  assert.equal(forwardedPath(routes[2]!, "/index.html"), "/index.html");
});

Deno.test("deployExtractor reads Kong declarative routes, strip_path and service paths", async () => {
  const routes = await routesOf(
    "kong/kong.yml",
    `_format_version: "3.0"
services:
  - name: accounts
    url: http://accounts:9000/v1
    routes:
      - name: accounts-api
        paths: [/accounts]
        methods: [GET, POST]
      - name: raw
        paths: ["~/acc[0-9]+"]
  - name: search
    host: search.default.svc
    routes:
      - name: keep
        paths: [/search]
        strip_path: false
routes:
  - name: legacy
    service: accounts
    paths: [/old-accounts]
`,
  );
  assert.deepEqual(lines(routes), [
    "kong kong :7 GET /accounts/** -> accounts",
    "kong kong :7 POST /accounts/** -> accounts",
    "kong kong :15 ANY /search/** -> search",
    "kong kong :20 ANY /old-accounts/** -> accounts",
  ]);
  assert.equal(forwardedPath(routes[0]!, "/accounts/me"), "/v1/me");
  assert.equal(forwardedPath(routes[2]!, "/search/q"), "/search/q");
  assert.equal(forwardedPath(routes[3]!, "/old-accounts/1"), "/v1/1");
});

Deno.test("deployExtractor reads Traefik routers from a file and from compose labels", async () => {
  const file = await routesOf(
    "traefik/dynamic.yml",
    `http:
  routers:
    api:
      rule: "Host(\`shop.example\`) && PathPrefix(\`/api/catalog\`)"
      service: catalog
      middlewares: [strip-api]
    regex:
      rule: "PathRegexp(\`^/v[0-9]+\`)"
      service: catalog
  middlewares:
    strip-api:
      stripPrefix:
        prefixes: [/api]
  services:
    catalog:
      loadBalancer:
        servers:
          - url: http://catalog:8000
`,
  );
  assert.deepEqual(lines(file), [
    "traefik traefik :3 ANY /api/catalog/** -> catalog",
  ]);
  assert.equal(forwardedPath(file[0]!, "/api/catalog/items"), "/catalog/items");

  const result = await deployExtractor.extract([{
    path: "docker-compose.yml",
    text: `services:
  billing:
    build: ./billing
    labels:
      - "traefik.enable=true"
      - "traefik.http.routers.billing.rule=PathPrefix(\`/billing\`) && Method(\`POST\`)"
      - "traefik.http.routers.billing.middlewares=billing-strip@docker"
      - "traefik.http.middlewares.billing-strip.stripprefix.prefixes=/billing"
  web:
    image: nginx
    labels:
      traefik.http.routers.web.rule: Path(\`/\`)
`,
  }]);
  assert.deepEqual(lines(result.gateways), [
    "traefik traefik :6 POST /billing/** -> billing",
    "traefik traefik :12 ANY / -> web",
  ]);
  assert.equal(forwardedPath(result.gateways![0]!, "/billing/pay"), "/pay");
});

Deno.test("deployExtractor reads no routes from YAML that only looks like a proxy's", async () => {
  const routes = await routesOf(
    "config/app.yml",
    `# an application's own settings that use the same words
http:
  routers: none
  rule: any
services:
  - name: x
static_resources: []
`,
  );
  assert.deepEqual(routes, []);
});

Deno.test("deployExtractor gives a Traefik route the line of its router, not of a service of the same name", async () => {
  const routes = await routesOf(
    "traefik/dynamic.yml",
    `http:
  services:
    api:
      loadBalancer:
        servers:
          - url: http://catalog:8000
  routers:
    api:
      rule: "PathPrefix(\`/api\`)"
      service: api
`,
  );
  assert.deepEqual(lines(routes), [
    "traefik traefik :8 ANY /api/** -> catalog",
  ]);
});
