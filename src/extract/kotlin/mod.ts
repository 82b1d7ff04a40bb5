// Kotlin extractor: Spring controllers, Feign clients, HTTP interfaces and
// the router DSL; Ktor routing; HTTP clients (WebClient, RestClient,
// RestTemplate, Ktor HttpClient, Retrofit); Kafka and RabbitMQ producers
// and consumers.
import type { Node } from "web-tree-sitter";
import type {
  ExtractResult,
  LanguageExtractor,
  SourceFile,
} from "../extractor.ts";
import { settleConstants, type Value } from "../_value/mod.ts";
import { twoPasses } from "../_syntax/passes.ts";
import { walk } from "../_syntax/tree.ts";
import { isSpringSettings, SpringSettings } from "../_spring/settings.ts";
import { collectConstants, KtFile, type KtRoot } from "./project.ts";
import { annotationsOf, ownAnnotations } from "./nodes.ts";
import { collectImplementers, controller, routerRoute } from "./spring.ts";
import { ktorRoute, usesKtorRouting } from "./ktor.ts";
import { http4kRoute, usesHttp4k } from "./http4k.ts";
import { clientCall, retrofitInterface } from "./clients.ts";
import {
  kotlinQueueEmitter,
  listenerPorts,
  queueCall,
  usesQueues,
} from "./queue.ts";

/** Whether a path is a Kotlin source file. */
function isKotlin(path: string): boolean {
  return path.endsWith(".kt") || path.endsWith(".kts");
}

/**
 * Extracts the ports of Kotlin code.
 *
 * Servers: Spring controllers (`@RestController` classes, the class
 * `@RequestMapping` prefix joined to `@GetMapping`... of their functions,
 * `${key:default}` placeholders and the servlet context path from the
 * module's `application.yml`/`.properties`), mapped interfaces a controller
 * implements, the router DSL (`coRouter { "/api".nest { GET("/x", h) } }`),
 * and Ktor routing (`routing { route("/api") { get("/x") { } } }`, with
 * `Route.` extension functions under their callers' prefixes). Clients:
 * Feign and Spring HTTP interfaces, WebClient / RestClient
 * (`.get().uri("/x")`, with the builder's `baseUrl`), RestTemplate, Ktor's
 * `HttpClient` (`client.get("/x")`, `defaultRequest { url(...) }`) and
 * Retrofit interfaces. Queues: `@KafkaListener`, `@RabbitListener`,
 * `KafkaTemplate.send`, `RabbitTemplate.convertAndSend`, Kafka
 * `subscribe(listOf("orders"))` and `ProducerRecord("orders", ...)`.
 *
 * @example Usage
 * ```ts
 * import { kotlinExtractor } from "@portcullis/portcullis/extract";
 * import assert from "node:assert/strict";
 *
 * const text = `import io.ktor.server.routing.*
 *
 * fun Application.module() {
 *     routing {
 *         route("/api") {
 *             get("/users/{id}") { call.respondText("user") }
 *         }
 *     }
 * }`;
 * const { ports } = await kotlinExtractor.extract([{ path: "App.kt", text }]);
 * assert.equal(ports[0]?.ref.key, "GET /api/users/{}");
 * ```
 */
export const kotlinExtractor: LanguageExtractor = {
  name: "kotlin",
  accepts(path: string): boolean {
    return isKotlin(path) || isSpringSettings(path);
  },
  async extract(files: readonly SourceFile[]): Promise<ExtractResult> {
    const sources = files.filter((f) => isKotlin(f.path));
    if (sources.length === 0) return { ports: [], diagnostics: [] };
    const root: KtRoot = {
      constants: new Map<string, Value>(),
      settings: new SpringSettings(files),
      implementers: new Map(),
    };
    let path = "";
    return await twoPasses(
      sources,
      "kotlin",
      (file) => {
        path = file.path;
        return /\bval\b|Controller/.test(file.text);
      },
      (tree) => {
        collectConstants(tree, root.constants, path);
        collectImplementers(tree, root.implementers);
      },
      (file, tree, ports, kept) => {
        const c = new KtFile(file, root, ports, kept);
        c.setRoot(tree);
        readFile(c, tree);
      },
      () => settleConstants(root.constants),
    );
  },
};

/** Finds the ports of one Kotlin file. */
function readFile(c: KtFile, tree: Node): void {
  const text = c.file.text;
  const ktor = usesKtorRouting(text);
  const http4k = usesHttp4k(text);
  const router = /\b(co)?[rR]outer\s*\{/.test(text);
  const queues = usesQueues(text) ? kotlinQueueEmitter(c) : undefined;
  const retrofit = text.includes("retrofit2");
  walk(tree, (node) => {
    switch (node.type) {
      case "class_declaration":
        controller(c, node);
        if (retrofit) retrofitInterface(c, node);
        if (queues) listenerPorts(queues, annotationsOf(node));
        break;
      case "function_declaration":
        if (queues) listenerPorts(queues, ownAnnotations(node));
        break;
      case "call_expression":
        // the inner call of `f(x) { }` is read with the outer one
        if (
          node.parent?.type === "call_expression" &&
          node.parent.namedChild(0)?.id === node.id &&
          node.parent.namedChildren.some((n) => n?.type === "annotated_lambda")
        ) break;
        clientCall(c, node);
        if (ktor) ktorRoute(c, node);
        if (router) routerRoute(c, node);
        if (queues) queueCall(c, queues, node);
        break;
      case "infix_expression":
        if (http4k) http4kRoute(c, node);
        break;
    }
  });
}

export { KtFile } from "./project.ts";
