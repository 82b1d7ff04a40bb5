// WEBrick servers: `server.mount_proc "/x" do |req, res|` handlers and
// `server.mount "/x", Servlet` with the `do_GET`/`do_POST` methods of the
// servlet classes of the scan.
import type { Node } from "web-tree-sitter";
import type { SourceFile } from "../extractor.ts";
import { HTTP_METHODS } from "../_port/http.ts";
import { namedChildren, walk } from "../_syntax/tree.ts";
import { type RubyScan, withRubyTrees } from "./route_files.ts";
import { isTestPath, lastConstant, positional, RubyFile } from "./project.ts";

/** `ApiServlet` → its `do_GET`/`do_DELETE` methods, as HTTP methods. */
function servletMethods(root: Node, into: Map<string, string[]>): void {
  walk(root, (n) => {
    if (n.type !== "class") return;
    if (!n.childForFieldName("superclass")?.text.includes("HTTPServlet")) {
      return;
    }
    const name = n.childForFieldName("name")?.text ?? "";
    const body = n.childForFieldName("body");
    const verbs: string[] = [];
    for (const m of body ? namedChildren(body) : []) {
      const method = m.type === "method"
        ? m.childForFieldName("name")?.text
        : undefined;
      const verb = method?.startsWith("do_") ? method.slice(3) : undefined;
      if (verb && HTTP_METHODS.has(verb)) verbs.push(verb);
    }
    into.set(lastConstant(name), verbs);
  });
}

/**
 * The methods a `mount_proc` block answers: the strings it compares
 * `req.request_method` with (`case req.request_method when "GET"`, `if
 * req.request_method == "POST"`), or any method when it compares none.
 */
function handlerMethods(block: Node): string[] {
  const verbs = new Set<string>();
  const add = (node: Node | null | undefined) => {
    const text = node?.type === "string" ? node.text.slice(1, -1) : "";
    if (HTTP_METHODS.has(text)) verbs.add(text);
  };
  walk(block, (n) => {
    if (
      n.type === "case" &&
      n.childForFieldName("value")?.text.endsWith("request_method")
    ) {
      for (const when of namedChildren(n)) {
        if (when.type !== "when") continue;
        for (const pattern of when.childrenForFieldName("pattern")) {
          add(pattern?.namedChild(0) ?? pattern);
        }
      }
    } else if (
      n.type === "binary" && n.childForFieldName("operator")?.text === "=="
    ) {
      const left = n.childForFieldName("left");
      const right = n.childForFieldName("right");
      if (left?.text.endsWith("request_method")) add(right);
      else if (right?.text.endsWith("request_method")) add(left);
    }
  });
  return verbs.size > 0 ? [...verbs] : ["ANY"];
}

/**
 * WEBrick routes of a scan: a `mount_proc` answers the methods its block
 * compares the request method with (any method when none), a `mount` of a
 * servlet class of the scan the methods it defines (`do_GET`); other
 * servlets (`HTTPServlet::FileHandler`) are not read.
 */
export async function extractWebrick(scan: RubyScan): Promise<void> {
  const { files, constants, ports, diagnostics } = scan;
  const sources = files.filter((f) =>
    f.text.includes("WEBrick") && !isTestPath(f.path)
  );
  if (sources.length === 0) return;
  const servlets = new Map<string, string[]>();
  const parsed: Array<{ file: SourceFile; root: Node }> = [];
  await withRubyTrees(sources, diagnostics, (file, root) => {
    servletMethods(root, servlets);
    parsed.push({ file, root });
  }, () => {
    for (const { file, root } of parsed) {
      const c = new RubyFile(file, constants, ports);
      walk(root, (n) => {
        if (n.type !== "call" || !n.childForFieldName("receiver")) return;
        const method = n.childForFieldName("method")?.text;
        const [path, servlet] = positional(n);
        if (!path) return;
        let verbs: string[] | undefined;
        if (method === "mount_proc") {
          const block = n.childForFieldName("block");
          verbs = block ? handlerMethods(block) : ["ANY"];
        } else if (method === "mount" && servlet) {
          verbs = servlets.get(lastConstant(servlet.text));
        }
        if (!verbs || verbs.length === 0) return;
        c.emitServer(n, verbs, [c.evaluate(path)], "webrick", false);
      });
    }
    return Promise.resolve();
  });
}
