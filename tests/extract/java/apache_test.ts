import assert from "node:assert/strict";
import { javaExtractor } from "../../../src/extract/java/mod.ts";

Deno.test("javaExtractor reads Apache HttpClient request objects as client ports", async () => {
  const { ports } = await javaExtractor.extract([{
    path: "src/main/java/shop/CartClient.java",
    text: `package shop;
import org.apache.http.client.methods.HttpGet;
import org.apache.http.client.methods.HttpPost;
public class CartClient {
    private static final String CART = "http://cart:8080";
    public void add(String id) throws Exception {
        HttpPost post = new HttpPost(CART + "/cart/" + id + "/items");
        HttpGet get = new HttpGet("http://cart:8080/cart/" + id);
        StringBuilder notARequest = new StringBuilder("/nope");
    }
}
`,
  }]);
  assert.deepEqual(
    ports.map((p) =>
      `${p.ref.role} ${p.ref.key} ${p.ref.line} ${p.ref.detail["framework"]}`
    ),
    [
      "client POST /cart/{}/items 7 apache-httpclient",
      "client GET /cart/{} 8 apache-httpclient",
    ],
  );
});

Deno.test("javaExtractor leaves HttpGet alone without an Apache HttpClient import", async () => {
  const { ports } = await javaExtractor.extract([{
    path: "src/main/java/shop/Other.java",
    text: `package shop;
public class Other {
    void go() { Object get = new HttpGet("/x"); }
}
`,
  }]);
  assert.deepEqual(ports, []);
});
