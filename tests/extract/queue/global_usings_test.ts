import assert from "node:assert/strict";
import { queueExtractor } from "../../../src/extract/queue/mod.ts";

Deno.test("queueExtractor reads Dapr ports of C# files that take Dapr from a global using", async () => {
  const { ports, diagnostics } = await queueExtractor.extract([
    {
      path: "Billing/GlobalUsings.cs",
      text: "global using Dapr;\nglobal using Dapr.Client;\n",
    },
    {
      path: "Billing/Controllers/InvoiceController.cs",
      text: `public class InvoiceController : ControllerBase
{
    [Topic("pubsub", "invoices.due")]
    [HttpPost("due")]
    public async Task<ActionResult> Due(Invoice invoice, [FromServices] DaprClient dapr)
    {
        await dapr.PublishEventAsync("pubsub", "invoices.sent", invoice);
        return Ok();
    }
}
`,
    },
    {
      // outside the folder of the global usings: no Dapr in scope
      path: "Other/Controllers/X.cs",
      text: `public class X
{
    [Topic("pubsub", "elsewhere")]
    public void Y() {}
}
`,
    },
  ]);
  assert.deepEqual(diagnostics, []);
  assert.deepEqual(
    ports.map((p) => `${p.filePath}:${p.ref.line} ${p.ref.role} ${p.ref.key}`)
      .sort(),
    [
      "Billing/Controllers/InvoiceController.cs:3 server invoices.due",
      "Billing/Controllers/InvoiceController.cs:7 client invoices.sent",
    ],
  );
});
