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

Deno.test("csharpExtractor routes Web API 2 controllers by MapHttpRoute and the action's method", async () => {
  const config = `using System.Web.Http;
public static class WebApiConfig {
  public static void Register(HttpConfiguration config) {
    config.MapHttpAttributeRoutes();
    config.Routes.MapHttpRoute(
      name: "DefaultApi",
      routeTemplate: "api/{controller}/{id}",
      defaults: new { id = RouteParameter.Optional });
  }
}
public class RouteConfig {
  public static void RegisterRoutes(RouteCollection routes) {
    routes.MapRoute(name: "Default", url: "{controller}/{action}");
  }
}
`;
  const api = `using System.Web.Http;
public class ProductsController : ApiController {
  public IEnumerable<Product> GetAll() => null;
  public Product GetProduct(int id) => null;
  [HttpPut]
  public void Replace(int id, Product p) { }
  public void Archive(int id) { }
}
`;
  const mvc = `using System.Web.Mvc;
public class PagesController : Controller {
  public ActionResult About() => View();
}
`;
  const { ports } = await csharpExtractor.extract([
    { path: "App_Start/WebApiConfig.cs", text: config },
    { path: "Controllers/ProductsController.cs", text: api },
    { path: "Controllers/PagesController.cs", text: mvc },
  ]);
  assert.deepEqual(summarize(ports), [
    "Controllers/PagesController.cs:3 server ANY /Pages/About",
    "Controllers/ProductsController.cs:3 server GET /api/Products",
    "Controllers/ProductsController.cs:4 server GET /api/Products",
    "Controllers/ProductsController.cs:4 server GET /api/Products/{}",
    "Controllers/ProductsController.cs:5 server PUT /api/Products",
    "Controllers/ProductsController.cs:5 server PUT /api/Products/{}",
    "Controllers/ProductsController.cs:7 server POST /api/Products",
    "Controllers/ProductsController.cs:7 server POST /api/Products/{}",
  ]);
});
