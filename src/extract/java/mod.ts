// Java extractor: Spring MVC / WebFlux controllers (class `@RequestMapping`
// prefix + method mappings), JAX-RS / Jakarta REST resources, Feign and
// MicroProfile REST clients, and HTTP clients (RestTemplate, WebClient /
// RestClient, java.net.http.HttpRequest).
import type {
  ExtractResult,
  LanguageExtractor,
  SourceFile,
} from "../extractor.ts";
import type { Value } from "../_value/mod.ts";
import type { Node } from "web-tree-sitter";
import { twoPasses } from "../_syntax/passes.ts";
import {
  collectConstants,
  collectImplementers,
  JavaFile,
  javaString,
} from "./project.ts";
import { JaxRsIndex } from "./jaxrs.ts";
import { isWebXml } from "./jaxrs_apps.ts";
import { declaresGatewayRoutes, javaGatewayRoutes } from "./gateway.ts";
import { gatewayName, springGatewayRoutes } from "../_spring/gateway.ts";
import { isSpringSettings, SpringSettings } from "../_spring/settings.ts";
import { settleConstants } from "../_value/mod.ts";
import { collectComposed, type ComposedMapping } from "./composed.ts";
import { ArmeriaIndex, usesArmeria } from "./armeria.ts";
import { isPlayRoutes, playRoutes } from "./play_routes.ts";
import { HelidonIndex, usesHelidonSe } from "./helidon.ts";
import { micronautStaticResources } from "./micronaut_static.ts";
import { DropwizardSettings, isDropwizardConfig } from "./dropwizard.ts";
import { isJsp, jspPages, readServletMappings } from "./servlets.ts";
import {
  collectWicketResources,
  usesWicket,
  type WicketMapping,
} from "./wicket.ts";
import {
  isStrutsXml,
  StrutsIndex,
  strutsXmlRoutes,
  usesStruts,
} from "./struts.ts";

export { collectConstants, JavaFile } from "./project.ts";
export {
  annotationElement,
  annotationName,
  annotationsOf,
  elements,
} from "./annotations.ts";
export { javaGrpc } from "./grpc.ts";
export { javaTemporal } from "./temporal.ts";
export { javaQueuePorts } from "./queue.ts";

/**
 * Extracts Spring server routes and Java HTTP client calls.
 *
 * Servers: method mappings `@GetMapping` ... `@RequestMapping(method =
 * ...)` (no method: `ANY`) of classes, with the class `@RequestMapping`
 * prefix; mapped interfaces (OpenAPI-generated `UsersApi`) count when a
 * `@RestController` of the scan implements them; functional endpoints
 * (`route(GET("/x"), h)`, builder `.GET("/x", h)`, `path`/`nest` prefixes)
 * in files that import Spring's `function.server` packages. Feign clients and
 * Spring HTTP interfaces (`@GetExchange`) are clients. JAX-RS / Jakarta
 * REST: `@GET`/`@POST`... methods of `@Path` classes (`javax.ws.rs` or
 * `jakarta.ws.rs`), joined to the method `@Path`, prefixed by the
 * `@ApplicationPath` of an `Application` subclass and composed through
 * sub-resource locators; `@Path` interfaces count as servers when a class of
 * the scan implements them and as clients when annotated
 * `@RegisterRestClient` or used as a proxy (`build(X.class)`,
 * `@RestClient X`). Clients:
 * RestTemplate (`getForObject`, `postForEntity`, `exchange(url,
 * HttpMethod.X, ...)`), WebClient/RestClient (`.get().uri("/x")`,
 * `.method(HttpMethod.POST).uri(...)`), and
 * `HttpRequest.newBuilder(URI.create(url))...POST(...)`, only on receivers
 * declared with those types. Also servers of Armeria, Play (`conf/routes`),
 * Struts 2 (`struts.xml`, Convention and REST plugins), Wicket, servlets
 * and JSP pages, the JDK's `HttpServer`, Helidon SE, Dropwizard, Javalin,
 * Spark, Vert.x Web, Micronaut and Quarkus routes (see
 * `docs/extraction.md`).
 *
 * @example Usage
 * ```ts
 * import { javaExtractor } from "@portcullis/portcullis/extract";
 * import assert from "node:assert/strict";
 *
 * const text = `@RestController
 * @RequestMapping("/users")
 * class UserController {
 *   @GetMapping("/{id}") User get(@PathVariable String id) { return null; }
 * }`;
 * const { ports } = await javaExtractor.extract([{ path: "UserController.java", text }]);
 * assert.equal(ports[0]?.ref.key, "GET /users/{}");
 * assert.equal(ports[0]?.ref.line, 4);
 * ```
 */
export const javaExtractor: LanguageExtractor = {
  name: "java",
  accepts(path: string): boolean {
    return path.endsWith(".java") || isSpringSettings(path) ||
      isWebXml(path) || isPlayRoutes(path) || isStrutsXml(path) ||
      isJsp(path) || isDropwizardConfig(path);
  },
  async extract(files: readonly SourceFile[]): Promise<ExtractResult> {
    const settings = new SpringSettings(files);
    const jaxrs = new JaxRsIndex();
    jaxrs.settings = settings;
    const dropwizard = new DropwizardSettings(files);
    jaxrs.dropwizard = dropwizard;
    for (const file of files) {
      if (isWebXml(file.path)) jaxrs.apps.readWebXml(file.path, file.text);
    }
    const gateways = springGatewayRoutes(files);
    const struts = new StrutsIndex();
    struts.readConfig(files);
    const configured = [
      ...playRoutes(files),
      ...strutsXmlRoutes(files),
      ...jspPages(files),
      ...micronautStaticResources(files, settings),
    ];
    const servlets = readServletMappings(files, configured);
    let strutsFile = false;
    const wicket = new Map<string, WicketMapping[]>();
    let wicketFile = false;
    const helidon = new HelidonIndex();
    let helidonFile = false;
    files = files.filter((f) => f.path.endsWith(".java"));
    const constants = new Map<string, Value>();
    const implementers = new Map<string, string | null>();
    const extenders = new Map<string, Array<string | null>>();
    const composed = new Map<string, ComposedMapping>();
    const armeria = new ArmeriaIndex();
    let armeriaFile = false;
    // Whether the file the first pass is reading may hold JAX-RS code.
    let jaxrsFile = false;
    let path = "";
    let implementsSomething = false;
    const result = await twoPasses(
      files,
      "java",
      (file) => {
        jaxrsFile = JaxRsIndex.mentions(file.text);
        path = file.path;
        implementsSomething = /\bimplements\b/.test(file.text);
        armeriaFile = usesArmeria(file.text);
        strutsFile = usesStruts(file.text);
        wicketFile = usesWicket(file.text);
        helidonFile = usesHelidonSe(file.text);
        return jaxrsFile || armeriaFile || strutsFile || wicketFile ||
          helidonFile ||
          /\bfinal\b|\binterface\b|\bimplements\b|\bextends\b/.test(file.text);
      },
      (root) => {
        collectConstants(root, constants);
        collectImplementers(root, implementers, extenders);
        collectComposed(root, composed);
        if (strutsFile) struts.collect(root);
        if (wicketFile) collectWicketResources(root, wicket);
        if (helidonFile) helidon.collect(root, literalText);
        if (armeriaFile) {
          armeria.collect(
            root,
            (n) => n.type === "string_literal" ? javaString(n) : undefined,
          );
        }
        if (jaxrsFile) jaxrs.collect(root, path);
        else if (implementsSomething) jaxrs.collectImplementers(root, path);
      },
      (file, root, ports, trees) => {
        const java = new JavaFile(
          file,
          constants,
          ports,
          implementers,
          jaxrs,
          settings,
          trees,
        );
        java.extenders = extenders;
        java.composed = composed;
        java.armeria = armeria;
        java.struts = struts;
        java.wicketResources = wicket;
        java.servlets = servlets;
        java.helidon = helidon;
        java.dropwizard = dropwizard;
        java.run(root);
        if (declaresGatewayRoutes(file.text)) {
          const name = gatewayName(settings, file.path);
          gateways.push(...javaGatewayRoutes(java, root, name));
        }
      },
      () => settleConstants(constants),
    );
    const all = configured.length > 0
      ? { ...result, ports: [...result.ports, ...configured] }
      : result;
    return gateways.length > 0 ? { ...all, gateways } : all;
  },
};

/** A string literal's text (the first pass reads no constants). */
function literalText(node: Node): string | undefined {
  return node.type === "string_literal" ? javaString(node) : undefined;
}
