// Phoenix.PubSub topics: `Phoenix.PubSub.broadcast(App.PubSub, "orders",
// msg)` (also `broadcast!`, `local_broadcast`, `broadcast_from(ps, self(),
// topic, msg)`, and through `alias Phoenix.PubSub`) publishes to the topic;
// `Phoenix.PubSub.subscribe(App.PubSub, "orders")` consumes it. An
// endpoint's `App.Endpoint.broadcast("room:lobby", event, payload)` /
// `subscribe("room:lobby")` too. A topic built with `#{}` keeps its
// literal parts.
import type { ExtractedPort, PortOwner } from "../types.ts";
import { CONFIDENCE } from "../_value/mod.ts";
import type { Token } from "./tokenizer.ts";

/** Arguments read per call at most (a bound on hostile input). */
const MAX_ARGS = 8;

/** A publish or subscribe call: where its topic is among the arguments. */
interface TopicCall {
  topic: number;
  role: "client" | "server";
}

/** The `Phoenix.PubSub` calls, by function. */
const PUBSUB: Readonly<Record<string, TopicCall>> = {
  broadcast: { topic: 1, role: "client" },
  "broadcast!": { topic: 1, role: "client" },
  "local_broadcast": { topic: 1, role: "client" },
  "broadcast_from": { topic: 2, role: "client" },
  "broadcast_from!": { topic: 2, role: "client" },
  subscribe: { topic: 1, role: "server" },
};

/** The same calls on an endpoint: the topic comes first. */
const ENDPOINT: Readonly<Record<string, TopicCall>> = {
  broadcast: { topic: 0, role: "client" },
  "broadcast!": { topic: 0, role: "client" },
  "broadcast_from": { topic: 1, role: "client" },
  subscribe: { topic: 0, role: "server" },
};

/** The queue ports of the PubSub calls among a file's tokens. */
export function pubsubPorts(
  tokens: readonly Token[],
  filePath: string,
  text: string,
): ExtractedPort[] {
  const out: ExtractedPort[] = [];
  const aliased = /alias\s+Phoenix\.PubSub\b/.test(text);
  let owner: PortOwner = {
    kind: "module",
    name: filePath,
    qualifiedName: filePath,
    filePath,
  };
  for (let i = 0; i < tokens.length; i++) {
    const t = tokens[i]!;
    if (t.type !== "word") continue;
    if (t.text === "defmodule" && tokens[i + 1]?.type === "word") {
      const name = tokens[i + 1]!.text;
      owner = {
        kind: "class",
        name,
        qualifiedName: `${filePath}::${name}`,
        filePath,
      };
      continue;
    }
    const dot = t.text.lastIndexOf(".");
    if (dot === -1) continue;
    const receiver = t.text.slice(0, dot);
    const fn = t.text.slice(dot + 1);
    const rule = receiver === "Phoenix.PubSub" ||
        (aliased && receiver === "PubSub")
      ? PUBSUB[fn]
      : receiver.endsWith("Endpoint")
      ? ENDPOINT[fn]
      : undefined;
    if (!rule || tokens[i + 1]?.text !== "(") continue;
    const args = argumentsAt(tokens, i + 2);
    const topic = args[rule.topic];
    if (topic?.length !== 1 || topic[0]!.type !== "string") continue;
    const token = topic[0]!;
    const key = token.interpolated
      ? token.text.replace(/#\{[^}]*\}/g, "{}")
      : token.text;
    if (key === "" || key.startsWith("{}")) continue;
    out.push({
      ref: {
        mechanism: "queue",
        role: rule.role,
        key,
        line: t.line,
        col: t.col,
        confidence: token.interpolated
          ? CONFIDENCE.partial
          : CONFIDENCE.literal,
        detail: {
          topic: key,
          system: "phoenix-pubsub",
          library: "phoenix_pubsub",
          operation: fn,
        },
      },
      owner,
      filePath,
    });
  }
  return out;
}

/** The tokens of each argument of a call whose `(` is just before `start`. */
function argumentsAt(tokens: readonly Token[], start: number): Token[][] {
  const args: Token[][] = [[]];
  let depth = 0;
  for (let i = start; i < tokens.length && args.length <= MAX_ARGS; i++) {
    const t = tokens[i]!;
    if (t.type === "punct" && "([{".includes(t.text)) depth++;
    else if (t.type === "punct" && ")]}".includes(t.text)) {
      if (depth === 0) break;
      depth--;
    } else if (t.type === "punct" && t.text === "," && depth === 0) {
      args.push([]);
      continue;
    } else if (t.type === "newline") continue;
    args[args.length - 1]!.push(t);
  }
  return args;
}
