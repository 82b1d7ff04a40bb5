import assert from "node:assert/strict";
import { phpExtractor } from "../../../src/extract/php/mod.ts";

Deno.test("phpExtractor reads curl requests, GET unless the function sets a method", async () => {
  const { ports } = await phpExtractor.extract([{
    path: "src/Service/Stock.php",
    text: `<?php
class StockService
{
    private $base;
    public function __construct(string $base) { $this->base = $base; }

    public function check(string $sku): bool
    {
        $url = sprintf('%s/items/%s', $this->base, $sku);
        $curl = curl_init($url);
        curl_setopt_array($curl, [CURLOPT_RETURNTRANSFER => true]);
        return curl_exec($curl) !== false;
    }

    public function reserve(string $sku): void
    {
        $ch = curl_init();
        curl_setopt($ch, CURLOPT_URL, 'http://stock/reservations/' . $sku);
        curl_setopt($ch, CURLOPT_CUSTOMREQUEST, 'PUT');
        curl_exec($ch);
    }

    public function order(): void
    {
        $ch = curl_init('http://orders/orders');
        curl_setopt($ch, CURLOPT_POST, true);
        curl_exec($ch);
    }
}
`,
  }]);
  assert.deepEqual(
    ports.map((p) =>
      `${p.ref.role} ${p.ref.key} ${p.ref.line} ${p.ref.detail["framework"]}`
    ),
    [
      "client GET /items/{} 10 curl",
      "client PUT /reservations/{} 18 curl",
      "client POST /orders 25 curl",
    ],
  );
});
