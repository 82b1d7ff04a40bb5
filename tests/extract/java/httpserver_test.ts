import assert from "node:assert/strict";
import { javaExtractor } from "../../../src/extract/java/mod.ts";
import { portSummary } from "../_fixtures.ts";

Deno.test("javaExtractor reads the JDK server's contexts and the methods their handlers tell apart", async () => {
  const text = `import com.sun.net.httpserver.*;
import java.net.InetSocketAddress;
public class Server {
  static final String ADMIN = "/admin";
  public static void main(String[] args) throws Exception {
    HttpServer server = HttpServer.create(new InetSocketAddress(8080), 0);
    server.createContext("/", exchange -> exchange.sendResponseHeaders(200, -1));
    server.createContext("/notes", exchange -> {
      if ("POST".equals(exchange.getRequestMethod())) save(exchange);
      else if (exchange.getRequestMethod().equalsIgnoreCase("delete")) drop(exchange);
    });
    server.createContext(ADMIN, new AdminHandler());
    server.createContext("/feed", Server::feed);
    server.createContext("/hooks", new HttpHandler() {
      public void handle(HttpExchange exchange) {
        String kind = exchange.getRequestHeaders().getFirst("X-Kind");
        switch (kind) { case "PUT": break; default: break; }
      }
    });
    java.util.Map<String, Object> registry = new java.util.HashMap<>();
    registry.put("/not-a-context", null);
  }
  static void feed(HttpExchange exchange) {
    switch (exchange.getRequestMethod()) {
      case "GET" -> render(exchange);
      case "HEAD" -> exchange.sendResponseHeaders(200, -1);
      default -> exchange.sendResponseHeaders(405, -1);
    }
  }
  static class AdminHandler implements HttpHandler {
    public void handle(HttpExchange exchange) {
      String method = exchange.getRequestMethod();
      if (method.equals("PATCH")) patch(exchange);
    }
  }
}`;
  const { ports } = await javaExtractor.extract([{
    path: "Server.java",
    text,
  }]);
  assert.deepEqual(portSummary(ports), [
    "Server.java:12 server PATCH /admin 0.95",
    "Server.java:13 server GET /feed 1",
    "Server.java:13 server HEAD /feed 1",
    "Server.java:14 server ANY /hooks 1",
    "Server.java:7 server ANY / 1",
    "Server.java:8 server DELETE /notes 1",
    "Server.java:8 server POST /notes 1",
  ]);
});
