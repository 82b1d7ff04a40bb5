// The script of the HTML report: it reads the report's JSON from the page
// (a <script type="application/json"> block), lays the services out in
// columns from callers to callees, draws the links as SVG paths, and wires
// the filters, the search and the details panel. Text from the report is
// only ever set with textContent, never parsed as HTML; no handler is
// inline and nothing is evaluated, so the page's Content-Security-Policy
// allows this one script by its hash and nothing else. Plain ES2020, no
// template literals (this is one).

/** The report's JavaScript. */
export const HTML_SCRIPT = `
(function () {
  "use strict";
  var report = JSON.parse(document.getElementById("report-data").textContent);
  var $ = function (id) { return document.getElementById(id); };
  var SVG = "http://www.w3.org/2000/svg";
  var COLORS = { http: "var(--http)", grpc: "var(--grpc)", queue: "var(--queue)", temporal: "var(--temporal)" };

  function el(tag, className, text) {
    var node = document.createElement(tag);
    if (className) node.className = className;
    if (text !== undefined) node.textContent = text;
    return node;
  }
  function serviceOf(port) { return port.root === "" ? "(no root)" : port.root; }
  function shortOwner(port) {
    var at = port.owner.lastIndexOf("::");
    return at === -1 ? "(module) " + port.owner : port.owner.slice(at + 2);
  }
  function where(port) {
    var text = (port.root ? port.root + "/" : "") + (port.filePath || "?");
    if (port.line !== undefined) text += ":" + port.line + (port.col !== undefined ? ":" + port.col : "");
    return text;
  }
  function round(n) { return String(Math.round(n * 1000) / 1000); }

  // 1. The model: services, code elements (nodes) and links.
  var nodes = new Map();
  var services = new Map();
  function nodeOf(port) {
    var node = nodes.get(port.ownerId);
    if (!node) {
      var name = serviceOf(port);
      node = { id: "n" + nodes.size, owner: port.owner, label: shortOwner(port), service: name, unmatched: [], links: [], element: null };
      nodes.set(port.ownerId, node);
      var service = services.get(name);
      if (!service) {
        service = { name: name, nodes: [], collapsed: false, element: null, head: null, rank: 0 };
        services.set(name, service);
      }
      service.nodes.push(node);
    }
    return node;
  }
  var links = report.links.map(function (link, i) {
    var entry = { index: i, link: link, from: nodeOf(link.consumer), to: nodeOf(link.provider) };
    entry.from.links.push(entry);
    entry.to.links.push(entry);
    return entry;
  });
  report.unmatchedConsumers.forEach(function (port) { nodeOf(port).unmatched.push(port); });
  var mechanisms = Array.from(new Set(links.map(function (l) { return l.link.mechanism; })
    .concat(report.unmatchedConsumers.map(function (p) { return p.mechanism; })))).sort();

  // 2. Columns: a service sits right of the services that call it, but a
  // call that closes a cycle is not followed (a depth-first walk in name
  // order drops the edges back to a service on its path).
  var order = Array.from(services.values()).sort(function (a, b) { return a.name < b.name ? -1 : a.name > b.name ? 1 : 0; });
  var callees = new Map();
  order.forEach(function (s) { callees.set(s, new Set()); });
  links.forEach(function (l) {
    var from = services.get(l.from.service);
    var to = services.get(l.to.service);
    if (from !== to) callees.get(from).add(to);
  });
  var state = new Map();
  var forward = [];
  function walk(start) {
    var stack = [[start, Array.from(callees.get(start)).sort(function (a, b) { return a.name < b.name ? -1 : 1; }), 0]];
    state.set(start, 1);
    while (stack.length > 0) {
      var top = stack[stack.length - 1];
      if (top[2] >= top[1].length) { state.set(top[0], 2); stack.pop(); continue; }
      var next = top[1][top[2]++];
      if (state.get(next) === 1) continue;
      forward.push([top[0], next]);
      if (!state.has(next)) {
        state.set(next, 1);
        stack.push([next, Array.from(callees.get(next)).sort(function (a, b) { return a.name < b.name ? -1 : 1; }), 0]);
      }
    }
  }
  order.forEach(function (s) { if (!state.has(s)) walk(s); });
  for (var pass = 0; pass < order.length; pass++) {
    var moved = false;
    forward.forEach(function (edge) {
      if (edge[1].rank < edge[0].rank + 1) { edge[1].rank = edge[0].rank + 1; moved = true; }
    });
    if (!moved) break;
  }

  // At most five columns, in the same order: a deep chain of calls would
  // push the map off the screen.
  var deepest = Math.max.apply(null, order.map(function (s) { return s.rank; }));
  if (deepest > 4) order.forEach(function (s) { s.rank = Math.round(s.rank * 4 / deepest); });

  // 3. The page.
  var map = $("map");
  var columns = [];
  order.forEach(function (service) {
    while (columns.length <= service.rank) { var col = el("div", "col"); columns.push(col); map.appendChild(col); }
    var box = el("section", "svc");
    box.dataset.service = service.name;
    var head = el("button", "svc-head");
    head.type = "button";
    head.setAttribute("aria-expanded", "true");
    head.appendChild(el("span", "svc-name", service.name));
    head.appendChild(el("span", "count", String(service.nodes.length)));
    head.addEventListener("click", function () { setCollapsed(service, !service.collapsed); draw(); });
    var list = el("ul", "nodes");
    service.nodes.forEach(function (node) {
      var item = el("li", "node");
      item.dataset.node = node.id;
      item.appendChild(el("span", "node-name", node.label));
      item.title = node.owner;
      if (node.unmatched.length > 0) item.appendChild(el("span", "badge", String(node.unmatched.length)));
      item.addEventListener("click", function () { showNode(node); });
      node.element = item;
      list.appendChild(item);
    });
    box.appendChild(head);
    box.appendChild(list);
    service.element = box;
    service.head = head;
    columns[service.rank].appendChild(box);
  });
  function setCollapsed(service, collapsed) {
    service.collapsed = collapsed;
    service.element.classList.toggle("collapsed", collapsed);
    service.head.setAttribute("aria-expanded", String(!collapsed));
  }

  // 4. Filters.
  var filters = $("mechanisms");
  mechanisms.forEach(function (m) {
    var label = el("label");
    var box = document.createElement("input");
    box.type = "checkbox";
    box.checked = true;
    box.dataset.mechanism = m;
    box.addEventListener("change", draw);
    var swatch = el("span", "swatch");
    swatch.style.background = COLORS[m] || "var(--other)";
    label.appendChild(box);
    label.appendChild(swatch);
    label.appendChild(document.createTextNode(m));
    filters.appendChild(label);
  });
  ["search", "min-confidence", "unmatched-only"].forEach(function (id) { $(id).addEventListener("input", draw); });
  $("collapse-all").addEventListener("click", function () { services.forEach(function (s) { setCollapsed(s, true); }); draw(); });
  $("expand-all").addEventListener("click", function () { services.forEach(function (s) { setCollapsed(s, false); }); draw(); });
  $("show-json").addEventListener("click", function () {
    var details = clearDetails("The report as JSON");
    details.appendChild(el("pre", "", JSON.stringify(report, null, 2)));
  });
  function enabled() {
    var on = new Set();
    filters.querySelectorAll("input").forEach(function (box) { if (box.checked) on.add(box.dataset.mechanism); });
    return on;
  }
  function matches(node, text) {
    if (text === "") return true;
    var hay = [node.service, node.owner];
    node.links.forEach(function (l) { hay.push(l.link.key, where(l.link.consumer), where(l.link.provider)); });
    node.unmatched.forEach(function (p) { hay.push(p.key, where(p)); });
    return hay.join("\\n").toLowerCase().indexOf(text) !== -1;
  }

  // 5. Drawing: an edge per pair of visible ends, through the SVG overlay.
  var svg = $("edges");
  function anchor(node) {
    var service = services.get(node.service);
    return service.collapsed ? service.head : node.element;
  }
  function draw() {
    var on = enabled();
    var floor = Number($("min-confidence").value);
    var text = $("search").value.trim().toLowerCase();
    var unmatchedOnly = $("unmatched-only").checked;
    var visible = new Set();
    nodes.forEach(function (node) {
      var live = node.links.some(function (l) { return on.has(l.link.mechanism) && l.link.confidence >= floor; }) ||
        node.unmatched.some(function (p) { return on.has(p.mechanism); });
      if (unmatchedOnly) live = node.unmatched.some(function (p) { return on.has(p.mechanism); });
      var shown = live && (matches(node, text) || node.service.toLowerCase().indexOf(text) !== -1);
      node.element.classList.toggle("hidden", !shown);
      node.element.classList.toggle("match", text !== "" && shown);
      if (shown) visible.add(node);
    });
    services.forEach(function (service) {
      var any = service.nodes.some(function (n) { return visible.has(n); });
      service.element.classList.toggle("hidden", !any);
      service.head.querySelector(".count").textContent = String(service.nodes.filter(function (n) { return visible.has(n); }).length);
    });
    while (svg.firstChild) svg.removeChild(svg.firstChild);
    var box = map.getBoundingClientRect();
    svg.setAttribute("width", String(map.scrollWidth));
    svg.setAttribute("height", String(map.scrollHeight));
    var groups = new Map();
    if (!unmatchedOnly) {
      links.forEach(function (l) {
        if (!on.has(l.link.mechanism) || l.link.confidence < floor) return;
        if (!visible.has(l.from) || !visible.has(l.to)) return;
        var a = anchor(l.from);
        var b = anchor(l.to);
        if (a === b) return;
        var id = l.from.id + ">" + l.to.id;
        if (services.get(l.from.service).collapsed || services.get(l.to.service).collapsed) {
          id = (services.get(l.from.service).collapsed ? l.from.service : l.from.id) + ">" + (services.get(l.to.service).collapsed ? l.to.service : l.to.id);
        }
        var group = groups.get(id);
        if (!group) { group = { a: a, b: b, links: [] }; groups.set(id, group); }
        group.links.push(l);
      });
    }
    var count = 0;
    groups.forEach(function (group) {
      var ra = group.a.getBoundingClientRect();
      var rb = group.b.getBoundingClientRect();
      var y1 = ra.top + ra.height / 2 - box.top;
      var y2 = rb.top + rb.height / 2 - box.top;
      var d;
      if (Math.abs(ra.left - rb.left) < 1) {
        // the same column: a loop out of the right side
        var x = Math.max(ra.right, rb.right) - box.left;
        var out = 30 + Math.min(60, Math.abs(y2 - y1) / 4);
        d = "M" + x + "," + y1 + " C" + (x + out) + "," + y1 + " " + (x + out) + "," + y2 + " " + x + "," + y2;
      } else {
        var x1 = ra.right - box.left, x2 = rb.left - box.left;
        if (rb.left < ra.left) { x1 = ra.left - box.left; x2 = rb.right - box.left; }
        var bend = Math.max(40, Math.abs(x2 - x1) / 2) * (x2 >= x1 ? 1 : -1);
        d = "M" + x1 + "," + y1 + " C" + (x1 + bend) + "," + y1 + " " + (x2 - bend) + "," + y2 + " " + x2 + "," + y2;
      }
      var path = document.createElementNS(SVG, "path");
      path.setAttribute("d", d);
      var mechanism = group.links[0].link.mechanism;
      path.setAttribute("stroke", COLORS[mechanism] || "var(--other)");
      path.setAttribute("stroke-width", String(Math.min(8, 1.5 + Math.log2(group.links.length))));
      path.setAttribute("class", "link");
      path.dataset.links = String(group.links.length);
      var title = document.createElementNS(SVG, "title");
      title.textContent = group.links.length + " link(s): " + group.links.map(function (l) { return l.link.key; }).slice(0, 5).join(", ");
      path.appendChild(title);
      path.addEventListener("click", function () { showLinks(group.links, path); });
      svg.appendChild(path);
      count++;
    });
    $("summary").textContent = visible.size + " of " + nodes.size + " code elements, " + count + " edges drawn";
  }

  // 6. Details: the ports of a link or of a code element, with file:line.
  function clearDetails(title) {
    var details = $("details");
    while (details.firstChild) details.removeChild(details.firstChild);
    details.appendChild(el("h2", "", title));
    svg.querySelectorAll(".selected").forEach(function (p) { p.classList.remove("selected"); });
    document.querySelectorAll(".node.selected").forEach(function (n) { n.classList.remove("selected"); });
    return details;
  }
  function portLine(label, port) {
    var line = el("div", "port");
    line.appendChild(el("span", "muted", label + " "));
    line.appendChild(el("span", "where", where(port)));
    line.appendChild(document.createTextNode(" " + shortOwner(port)));
    var needs = port.detail && (port.detail.permission || (port.detail.auth === "required" ? "a user" : ""));
    if (needs) line.appendChild(el("span", "muted", " requires " + needs));
    return line;
  }
  function linkItem(l) {
    var item = el("li", "link-detail");
    item.appendChild(el("div", "key", l.link.mechanism + " " + l.link.key));
    item.appendChild(el("div", "muted", "confidence " + round(l.link.confidence)));
    item.appendChild(portLine("consumer", l.link.consumer));
    item.appendChild(portLine("provider", l.link.provider));
    return item;
  }
  function showLinks(list, path) {
    var details = clearDetails(list.length + (list.length === 1 ? " link" : " links"));
    path.classList.add("selected");
    var ol = el("ol");
    list.forEach(function (l) { ol.appendChild(linkItem(l)); });
    details.appendChild(ol);
  }
  function showNode(node) {
    var details = clearDetails(node.owner);
    node.element.classList.add("selected");
    details.appendChild(el("div", "muted", node.service));
    if (node.unmatched.length > 0) {
      details.appendChild(el("h2", "", "Unmatched calls (" + node.unmatched.length + ")"));
      var miss = el("ol");
      node.unmatched.forEach(function (p) {
        var item = el("li", "unmatched-detail");
        item.appendChild(el("div", "key", p.mechanism + " " + p.key));
        item.appendChild(portLine("at", p));
        miss.appendChild(item);
      });
      details.appendChild(miss);
    }
    details.appendChild(el("h2", "", "Links (" + node.links.length + ")"));
    var ol = el("ol");
    node.links.forEach(function (l) { ol.appendChild(linkItem(l)); });
    details.appendChild(ol);
  }

  window.addEventListener("resize", draw);
  draw();
  document.body.dataset.ready = "true";
})();
`;
