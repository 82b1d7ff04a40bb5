// Dapr over plain HTTP, from any language and client library: a call to
// the sidecar's `/v1.0/publish/<pubsub>/<topic>` publishes to the topic (a
// queue producer, linked to the topic's subscribers), and one to
// `/v1.0/invoke/<app-id>/method/<path>` calls `<path>` of the app
// `<app-id>` (an HTTP call of that path, whose host is the app).
import { httpBoundaryKey } from "../boundary/http_path.ts";
import type { ExtractedPort } from "./types.ts";

const SIDECAR = /^\/v1\.0\/(publish|invoke)\/([^/]+)\/(.+)$/;

/** The port a call to the Dapr sidecar stands for; other ports as they are. */
export function daprHttpPort(port: ExtractedPort): ExtractedPort {
  const ref = port.ref;
  if (ref.mechanism !== "http" || ref.role !== "client") return port;
  const space = ref.key.indexOf(" ");
  const method = ref.key.slice(0, space);
  const match = SIDECAR.exec(ref.key.slice(space + 1));
  if (!match) return port;
  const [, kind, target, rest] = match as unknown as [
    string,
    string,
    string,
    string,
  ];
  if (kind === "publish") {
    // one topic segment; an unknown one names no topic
    if (rest.includes("/") || rest === "{}" || target === "{}") return port;
    return {
      ...port,
      ref: {
        ...ref,
        mechanism: "queue",
        key: rest,
        detail: {
          topic: rest,
          system: "dapr",
          library: "http",
          operation: "publish",
          pubsub: target,
          framework: String(ref.detail["framework"] ?? ""),
        },
      },
    };
  }
  if (!rest.startsWith("method/")) return port;
  const path = "/" + rest.slice("method/".length);
  let key: string;
  try {
    key = httpBoundaryKey(method, path);
  } catch {
    return port;
  }
  const detail: Record<string, string> = {
    ...ref.detail,
    path,
    dapr: "invoke",
  };
  if (target !== "{}") detail["host"] = target;
  else delete detail["host"];
  return { ...port, ref: { ...ref, key, detail } };
}
