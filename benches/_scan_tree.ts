// Generates a synthetic polyglot source tree for the scan benchmarks:
// TypeScript servers and clients, FastAPI routers, Go net/http handlers,
// Spring controllers and plain modules without ports, about 2.5 KB a file.

/** Writes `count` files under `root` and returns their total size in bytes. */
export async function generateTree(
  root: string,
  count: number,
): Promise<number> {
  let bytes = 0;
  const encoder = new TextEncoder();
  const pending: Promise<void>[] = [];
  for (let i = 0; i < count; i++) {
    const dir = `${root}/svc${i % 20}/pkg${Math.floor(i / 20) % 25}`;
    if (i < 500) await Deno.mkdir(dir, { recursive: true });
    const [name, text] = fileFor(i);
    const data = encoder.encode(text);
    bytes += data.length;
    pending.push(Deno.writeFile(`${dir}/${name}`, data));
    if (pending.length >= 64) await Promise.all(pending.splice(0));
  }
  await Promise.all(pending);
  return bytes;
}

function filler(i: number, lines: number, comment: string): string {
  let out = "";
  for (let k = 0; k < lines; k++) {
    out +=
      `${comment} helper ${i}.${k}: keeps the file near a realistic size\n`;
  }
  return out;
}

function fileFor(i: number): [string, string] {
  switch (i % 10) {
    case 0:
    case 1:
      return [`routes${i}.ts`, tsServer(i)];
    case 2:
    case 3:
      return [`client${i}.ts`, tsClient(i)];
    case 4:
    case 5:
      return [`api${i}.py`, pyRouter(i)];
    case 6:
    case 7:
      return [`handlers${i}.go`, goServer(i)];
    case 8:
      return [`Controller${i}.java`, javaController(i)];
    default:
      return [`util${i}.ts`, tsPlain(i)];
  }
}

function tsServer(i: number): string {
  return `import express from "express";

const PREFIX = "/svc${i}";
const router = express.Router();

router.get(PREFIX + "/items", (req, res) => res.json([]));
router.get(\`\${PREFIX}/items/:id\`, (req, res) => res.json({ id: req.params.id }));
router.post(PREFIX + "/items", (req, res) => res.status(201).end());
router.delete(PREFIX + "/items/:id", (req, res) => res.status(204).end());

export function describe(value: number): string {
  return value > 10 ? "large" : "small";
}
${filler(i, 30, "//")}
export default router;
`;
}

function tsClient(i: number): string {
  const target = i - 2;
  return `const BASE = process.env.API ?? "http://localhost:8080";

export async function listItems() {
  const res = await fetch(\`\${BASE}/svc${target}/items\`);
  return await res.json();
}

export async function removeItem(id: string) {
  return await fetch(\`\${BASE}/svc${target}/items/\${id}\`, { method: "DELETE" });
}
${filler(i, 34, "//")}`;
}

function pyRouter(i: number): string {
  return `from fastapi import APIRouter

router = APIRouter(prefix="/py${i}")


@router.get("/orders")
def list_orders():
    return []


@router.post("/orders/{order_id}")
def update_order(order_id: str):
    return {"id": order_id}


def total(values):
    return sum(values)
${filler(i, 32, "#")}`;
}

function goServer(i: number): string {
  return `package pkg${i}

import (
\t"net/http"
)

func Register(mux *http.ServeMux) {
\tmux.HandleFunc("GET /go${i}/users/{id}", getUser)
\tmux.HandleFunc("POST /go${i}/users", createUser)
}

func getUser(w http.ResponseWriter, r *http.Request) {
\tw.WriteHeader(http.StatusOK)
}

func createUser(w http.ResponseWriter, r *http.Request) {
\tw.WriteHeader(http.StatusCreated)
}
${filler(i, 30, "//")}`;
}

function javaController(i: number): string {
  return `package com.example.svc${i};

import org.springframework.web.bind.annotation.*;

@RestController
@RequestMapping("/java${i}")
public class Controller${i} {
  @GetMapping("/accounts/{id}")
  public String account(@PathVariable String id) {
    return id;
  }

  @PostMapping("/accounts")
  public String create() {
    return "ok";
  }
}
${filler(i, 32, "//")}`;
}

function tsPlain(i: number): string {
  return `export interface Point${i} {
  x: number;
  y: number;
}

export function distance(a: Point${i}, b: Point${i}): number {
  return Math.hypot(a.x - b.x, a.y - b.y);
}

const cache = new Map<string, number>();
export function remember(key: string, value: number): void {
  cache.set(key, value);
  console.log("GET /not-a-route", key);
}
${filler(i, 34, "//")}`;
}
