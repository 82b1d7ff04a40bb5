// Runs the Python, Go, gRPC and Temporal extractors over a generated tree of
// dense Python or Go files (about 40 ports a file) and prints files/s, MB/s
// and the peak resident set of the process:
//
//   deno run -A benches/extract_lang_bench.ts <python|go> [files] [src]
//
// `src` is a directory holding `extract/` (default: this checkout's `src/`),
// so an older copy of the extractors can be measured the same way. The tree
// is written to a temporary directory, read back, and removed. Run one
// configuration per process: the peak RSS then belongs to that run alone.
import process from "node:process";
import type {
  LanguageExtractor,
  SourceFile,
} from "../src/extract/extractor.ts";

const language = Deno.args[0] === "go" ? "go" : "python";
const count = Number(Deno.args[1] ?? 1000);
const src = new URL(
  Deno.args[2] ? `file://${Deno.realPathSync(Deno.args[2])}/` : "../src/",
  import.meta.url,
);

/**
 * An extractor of `src`: from its folder's `mod.ts`, or from the flat
 * `extract/<name>.ts` of copies older than the folder-per-language layout.
 */
async function load(name: string, symbol: string): Promise<LanguageExtractor> {
  const folder = new URL(`extract/${name}/mod.ts`, src);
  const flat = new URL(`extract/${name}.ts`, src);
  let exists = true;
  try {
    Deno.statSync(folder);
  } catch {
    exists = false;
  }
  const module = await import((exists ? folder : flat).href);
  return module[symbol] as LanguageExtractor;
}

// Blocks of ports per file: about 2.9 KB and 20 HTTP ports a Python file,
// 2.4 KB and 20 HTTP ports a Go file, plus gRPC and Temporal calls.
const BLOCKS = 5;

/** One dense FastAPI/requests/gRPC/Temporal module. */
function pythonFile(i: number): [string, string] {
  const pkg = `svc${i % 20}`;
  let text = `import requests
import httpx
from fastapi import APIRouter
from temporalio import activity, workflow
import orders_pb2_grpc
from ${pkg}.settings import PREFIX

BASE = "http://orders:8080"
router${i} = APIRouter(prefix=PREFIX + "/m${i}")
client = httpx.Client(base_url=BASE)

`;
  for (let k = 0; k < BLOCKS; k++) {
    text += `@router${i}.get("/items${k}/{item_id}")
async def get_item${k}(item_id: str):
    return {"id": item_id}


@router${i}.post("/items${k}")
def create_item${k}(body: dict):
    return body


def call${k}(order_id):
    requests.get(f"{BASE}/orders/{order_id}/lines${k}")
    client.post("/orders/" + order_id + "/notes${k}", json={})
    stub = orders_pb2_grpc.OrdersStub(channel)
    return stub.GetOrder(order_id)


@activity.defn(name="charge${i}_${k}")
async def charge${k}(order_id: str) -> None:
    await workflow.execute_activity("refund${i}_${k}", order_id)

`;
  }
  return [`${pkg}/mod${i}.py`, text];
}

/** One dense gin/net-http/gRPC/Temporal Go file. */
function goFile(i: number): [string, string] {
  const pkg = `svc${i % 20}`;
  let text = `package ${pkg}

import (
\t"context"
\t"net/http"

\t"github.com/gin-gonic/gin"
\tpb "example.com/shop/gen/orders"
\t"go.temporal.io/sdk/workflow"
)

const prefix${i} = "/m${i}"

func Routes${i}(r *gin.Engine, conn any) {
\tapi := r.Group("/api" + prefix${i})
`;
  for (let k = 0; k < BLOCKS; k++) {
    text += `\tapi.GET("/items${k}/:id", getItem)
\tapi.POST("/items${k}", createItem)
\thttp.HandleFunc("GET /health${i}/${k}", health)
`;
  }
  text += "}\n\n";
  for (let k = 0; k < BLOCKS; k++) {
    text += `func Call${i}_${k}(ctx context.Context, conn any, id string) {
\thttp.Get("http://orders/orders/" + id + "/lines${k}")
\tc := pb.NewOrdersClient(conn)
\tc.GetOrder(ctx, nil)
\t_ = workflow.ExecuteActivity(ctx, "charge${i}_${k}", id)
}

`;
  }
  return [`${pkg}/file${i}.go`, text];
}

const PROTO = `syntax = "proto3";
package shop.v1;
service Orders { rpc GetOrder (OrderRequest) returns (Order); }
message OrderRequest { string id = 1; }
message Order { string id = 1; }
`;

function peakRssMiB(): number {
  // VmHWM: the peak resident set of this process
  const status = Deno.readTextFileSync("/proc/self/status");
  const match = /VmHWM:\s+(\d+) kB/.exec(status);
  return match
    ? Number(match[1]) / 1024
    : process.resourceUsage().maxRSS / 1024;
}

const root = await Deno.makeTempDir({ prefix: "portcullis-extract-bench-" });
try {
  const make = language === "go" ? goFile : pythonFile;
  for (let d = 0; d < 20; d++) await Deno.mkdir(`${root}/svc${d}`);
  const paths: string[] = [];
  for (let i = 0; i < count; i++) {
    const [path, text] = make(i);
    await Deno.writeTextFile(`${root}/${path}`, text);
    paths.push(path);
  }
  if (language === "python") {
    for (let d = 0; d < 20; d++) {
      const path = `svc${d}/settings.py`;
      await Deno.writeTextFile(`${root}/${path}`, `PREFIX = "/svc${d}"\n`);
      paths.push(path);
    }
  }
  await Deno.writeTextFile(`${root}/orders.proto`, PROTO);
  paths.push("orders.proto");
  const files: SourceFile[] = [];
  let bytes = 0;
  for (const path of paths) {
    const text = await Deno.readTextFile(`${root}/${path}`);
    files.push({ path, text });
    if (!path.endsWith(".proto")) {
      bytes += new TextEncoder().encode(text).length;
    }
  }
  const sourceFiles = files.filter((f) => !f.path.endsWith(".proto")).length;
  const extractors = [
    await load(language, language === "go" ? "goExtractor" : "pythonExtractor"),
    await load("grpc", "grpcExtractor"),
    await load("temporal", "temporalExtractor"),
  ];
  const rssBefore = peakRssMiB();
  const rows: Record<string, unknown>[] = [];
  let total = 0;
  let cpuTotal = 0;
  for (const extractor of extractors) {
    const mine = files.filter((f) => extractor.accepts(f.path));
    const cpuBefore = process.cpuUsage();
    const started = performance.now();
    const { ports, diagnostics } = await extractor.extract(mine);
    const seconds = (performance.now() - started) / 1000;
    const used = process.cpuUsage(cpuBefore);
    const cpu = (used.user + used.system) / 1e6;
    total += seconds;
    cpuTotal += cpu;
    rows.push({
      extractor: extractor.name,
      ports: ports.length,
      diagnostics: diagnostics.length,
      seconds: Number(seconds.toFixed(2)),
      cpuSeconds: Number(cpu.toFixed(2)),
      filesPerCpuSecond: Math.round(sourceFiles / cpu),
    });
  }
  // deno-lint-ignore no-console
  console.log(JSON.stringify({
    language,
    files: sourceFiles,
    megabytes: Number((bytes / 1e6).toFixed(2)),
    rows,
    totalSeconds: Number(total.toFixed(2)),
    filesPerSecond: Math.round(sourceFiles / total),
    megabytesPerSecond: Number((bytes / 1e6 / total).toFixed(2)),
    cpuSeconds: Number(cpuTotal.toFixed(2)),
    filesPerCpuSecond: Math.round(sourceFiles / cpuTotal),
    megabytesPerCpuSecond: Number((bytes / 1e6 / cpuTotal).toFixed(2)),
    peakRssMiBBeforeExtract: Math.round(rssBefore),
    peakRssMiB: Math.round(peakRssMiB()),
  }));
} finally {
  await Deno.remove(root, { recursive: true });
}
