import assert from "node:assert/strict";
import { csharpExtractor } from "../../../src/extract/csharp/mod.ts";
import { summarize } from "../_fixtures.ts";

const ROUTES = `using System.Web.Mvc;
using System.Web.Routing;
public class RouteConfig {
  public static void RegisterRoutes(RouteCollection routes) {
    routes.MapRoute(
      name: "Hook",
      url: "hooks/receive/{tenant}",
      defaults: new { controller = "Hooks", action = "Receive", tenant = UrlParameter.Optional });
    routes.MapRoute(
      name: "Report",
      url: "reports/latest",
      defaults: new { controller = "Reports", action = "Latest" });
  }
}
`;

const REPORTS = `using System.Web.Mvc;
public class ReportsController : Controller {
  public ActionResult Latest() { return View(); }
  public ActionResult Archive() { return View(); }
}
`;

const PREFIXED = `using System.Web.Mvc;
[RoutePrefix("shop")]
public class CartController : Controller {
  [Route("items/{id}")]
  public ActionResult Item(int id) { return View(); }
  [HttpPost]
  public ActionResult Clear() { return View(); }
}
`;

Deno.test("csharpExtractor reads [RoutePrefix] on MVC 5 controllers and routes of one fixed action", async () => {
  const { ports } = await csharpExtractor.extract([
    { path: "App_Start/RouteConfig.cs", text: ROUTES },
    { path: "Controllers/ReportsController.cs", text: REPORTS },
    { path: "Controllers/CartController.cs", text: PREFIXED },
  ]);
  assert.deepEqual(summarize(ports), [
    // the Hooks controller is not in the scan: the registration is the port
    "App_Start/RouteConfig.cs:5 server ANY /hooks/receive",
    "App_Start/RouteConfig.cs:5 server ANY /hooks/receive/{}",
    // [RoutePrefix] prefixes the action's [Route]; Clear is reached by no route
    "Controllers/CartController.cs:4 server ANY /shop/items/{}",
    // Reports.Latest is reached through its route, Archive by none
    "Controllers/ReportsController.cs:3 server ANY /reports/latest",
  ]);
});

Deno.test("csharpExtractor assumes the MVC 5 template route only for classic controllers of a scan without routes", async () => {
  const shop = `using System.Web.Mvc;
public class ShopController : Controller {
  public ActionResult Details(int id) { return View(); }
  [HttpPost]
  public ActionResult Create(string name) { return View(); }
  [NonAction]
  public string Helper() { return ""; }
}
`;
  const core = `using Microsoft.AspNetCore.Mvc;
public class PagesController : Controller {
  public IActionResult Show() { return View(); }
}
`;
  const { ports } = await csharpExtractor.extract([
    { path: "ShopController.cs", text: shop },
    { path: "PagesController.cs", text: core },
  ]);
  assert.deepEqual(summarize(ports), [
    "ShopController.cs:3 server ANY /Shop/Details",
    "ShopController.cs:3 server ANY /Shop/Details/{}",
    "ShopController.cs:4 server POST /Shop/Create",
  ]);
  assert.ok(ports.every((p) => p.ref.confidence === 0.6));
  // With a registration in the scan, only the registered routes count.
  const routed = await csharpExtractor.extract([
    { path: "ShopController.cs", text: shop },
    { path: "RouteConfig.cs", text: ROUTES },
  ]);
  assert.deepEqual(
    summarize(routed.ports).filter((l) => l.startsWith("Shop")),
    [],
  );
});

Deno.test("csharpExtractor reads HttpMethods members, QUERY and [AcceptVerbs(Route = ...)]", async () => {
  const program = `var app = builder.Build();
app.MapMethods("/bulk", new[] { HttpMethods.Put, "PATCH" }, () => 1);
app.MapMethods("/find", new[] { HttpMethods.Query }, () => 1);
app.MapMethods("/odd", new[] { "FETCH" }, () => 1);
`;
  const controller = `using Microsoft.AspNetCore.Mvc;
[ApiController]
[Route("accounts")]
public class AccountsController : ControllerBase {
  [AcceptVerbs("PUT", "POST", Route = "move")]
  public IActionResult Move() => Ok();
  [AcceptVerbs("QUERY")]
  public IActionResult Find() => Ok();
  [HttpGet(Name = "ListAccounts")]
  public IActionResult List() => Ok();
}
`;
  const { ports } = await csharpExtractor.extract([
    { path: "Program.cs", text: program },
    { path: "AccountsController.cs", text: controller },
  ]);
  assert.deepEqual(summarize(ports), [
    "AccountsController.cs:5 server POST /accounts/move",
    "AccountsController.cs:5 server PUT /accounts/move",
    "AccountsController.cs:7 server QUERY /accounts",
    "AccountsController.cs:9 server GET /accounts",
    "Program.cs:2 server PATCH /bulk",
    "Program.cs:2 server PUT /bulk",
    "Program.cs:3 server QUERY /find",
  ]);
});
