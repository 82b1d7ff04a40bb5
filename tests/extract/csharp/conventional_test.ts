import assert from "node:assert/strict";
import { csharpExtractor } from "../../../src/extract/csharp/mod.ts";
import { summarize } from "../_fixtures.ts";

const program = (prefix: string) =>
  `var app = WebApplication.CreateBuilder(args).Build();
app.MapControllerRoute(name: "default", pattern: "${prefix}/{controller}/{action}");
`;

const controller = (name: string) =>
  `using Microsoft.AspNetCore.Mvc;
public class ${name}Controller : Controller {
  public IActionResult Show() => View();
}
`;

Deno.test("csharpExtractor applies a project's conventional routes to its own controllers only", async () => {
  const { ports } = await csharpExtractor.extract([
    { path: "Billing/Program.cs", text: program("billing") },
    {
      path: "Billing/Controllers/InvoiceController.cs",
      text: controller("Invoice"),
    },
    { path: "Shipping/Program.cs", text: program("shipping") },
    {
      path: "Shipping/Controllers/ParcelController.cs",
      text: controller("Parcel"),
    },
    // a controller under no registering project: every route of the scan
    { path: "Shared/AuditController.cs", text: controller("Audit") },
  ]);
  assert.deepEqual(summarize(ports), [
    "Billing/Controllers/InvoiceController.cs:3 server ANY /billing/Invoice/Show",
    "Shared/AuditController.cs:3 server ANY /billing/Audit/Show",
    "Shared/AuditController.cs:3 server ANY /shipping/Audit/Show",
    "Shipping/Controllers/ParcelController.cs:3 server ANY /shipping/Parcel/Show",
  ]);
});
