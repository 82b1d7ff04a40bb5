// RabbitMQ through a project's own wrapper configured by functional options:
// `publisher.Configure(publisher.ExchangeName("orders"))`, where
// `func ExchangeName(name string) Option { return func(p *publisher) {
// p.exchangeName = name } }` sets a field that a method of the wrapper
// passes as the exchange of `ch.PublishWithContext` (a client) or of
// `ch.QueueBind` (a server). The port is at the option call, keyed by the
// exchange it names (the README's convention for RabbitMQ).
import {
  findAll,
  namedChildren,
  ownerOf,
  positionOf,
} from "../_syntax/compact_tree.ts";
import { CONFIDENCE, exactText } from "../_value/mod.ts";
import type { ExtractedPort } from "../types.ts";
import type { GoProject } from "./project.ts";
import { normalizeImport, parametersOf } from "./declarations.ts";
import { argumentsOf } from "./routers.ts";

const AMQP = ["github.com/streadway/amqp", "github.com/rabbitmq/amqp091-go"];
// channel methods that take an exchange: argument index and role
const EXCHANGE_ARGS: ReadonlyMap<string, [number, "server" | "client"]> =
  new Map([
    ["Publish", [0, "client"]],
    ["PublishWithContext", [1, "client"]],
    ["PublishWithDeferredConfirm", [0, "client"]],
    ["PublishWithDeferredConfirmWithContext", [1, "client"]],
    ["QueueBind", [2, "server"]],
  ]);
const ASSIGNMENTS: ReadonlySet<string> = new Set(["assignment_statement"]);
const LITERALS: ReadonlySet<string> = new Set(["func_literal"]);

interface OptionSetter {
  role: "server" | "client";
  /** The index of the parameter that names the exchange. */
  index: number;
}

/** The queue ports of option calls that name a wrapper's exchange. */
export function optionQueuePorts(project: GoProject): ExtractedPort[] {
  const fields = exchangeFields(project);
  if (fields.size === 0) return [];
  const setters = optionSetters(project, fields);
  if (setters.size === 0) return [];
  const out: ExtractedPort[] = [];
  for (const file of project.files) {
    for (const call of project.callsIn(file)) {
      const callee = call.childForFieldName("function");
      const qualified = project.qualified(callee);
      const dirs = qualified
        ? project.packageDirs(qualified[0])
        : callee?.type === "identifier"
        ? [file.dir]
        : [];
      const name = qualified ? qualified[1] : callee?.text ?? "";
      for (const dir of dirs) {
        const setter = setters.get(`${dir}:${name}`);
        if (!setter) continue;
        const exchange = exactText(
          project.evalString(argumentsOf(call)[setter.index]),
        );
        if (!exchange) continue;
        const { line, col } = positionOf(call);
        out.push({
          ref: {
            mechanism: "queue",
            role: setter.role,
            key: exchange,
            line,
            col,
            confidence: CONFIDENCE.composed,
            detail: {
              system: "rabbitmq",
              library: "amqp",
              operation: name,
              topic: exchange,
            },
          },
          owner: ownerOf(call, file.file.path, "go"),
          filePath: file.file.path,
        });
        break;
      }
    }
  }
  return out;
}

/**
 * `dir:Type.field` of the wrapper fields a method passes as an exchange to
 * an amqp channel, with the role of that call.
 */
function exchangeFields(project: GoProject): Map<string, "server" | "client"> {
  const out = new Map<string, "server" | "client">();
  for (const file of project.files) {
    for (const call of project.callsIn(file)) {
      const callee = call.childForFieldName("function");
      if (callee?.type !== "selector_expression") continue;
      const spec = EXCHANGE_ARGS.get(
        callee.childForFieldName("field")?.text ?? "",
      );
      if (!spec) continue;
      const channel = project.typeOf(callee.childForFieldName("operand"));
      if (
        !channel || !AMQP.includes(normalizeImport(channel.pkg)) ||
        channel.name !== "Channel"
      ) continue;
      const exchange = argumentsOf(call)[spec[0]];
      const owner = exchange?.type === "selector_expression"
        ? project.typeOf(exchange.childForFieldName("operand"))
        : undefined;
      const field = exchange?.childForFieldName("field")?.text;
      if (owner?.pkg === "" && owner.dir !== undefined && field) {
        out.set(`${owner.dir}:${owner.name}.${field}`, spec[1]);
      }
    }
  }
  return out;
}

/**
 * `dir:Function` of the option functions that set one of those fields from
 * a string parameter: `func X(v string) Option { return func(p *T) { p.f = v } }`.
 */
function optionSetters(
  project: GoProject,
  fields: Map<string, "server" | "client">,
): Map<string, OptionSetter> {
  const out = new Map<string, OptionSetter>();
  const dirs = new Set(
    [...fields.keys()].map((k) => k.slice(0, k.indexOf(":"))),
  );
  for (const dir of dirs) {
    for (const [name, fn] of project.functionsIn(dir)) {
      const params = parametersOf(fn);
      for (const literal of findAll(fn, LITERALS)) {
        const [target] = [...parametersOf(literal).values()];
        const type = target?.kind === "param"
          ? project.typeFromNode(target.type)
          : undefined;
        if (!type || type.pkg !== "") continue;
        for (const statement of findAll(literal, ASSIGNMENTS)) {
          const left =
            namedChildren(statement.childForFieldName("left") ?? statement)[0];
          const right =
            namedChildren(statement.childForFieldName("right") ?? statement)[0];
          const field = left?.type === "selector_expression"
            ? left.childForFieldName("field")?.text
            : undefined;
          const param = right?.type === "identifier"
            ? params.get(right.text)
            : undefined;
          const role = fields.get(`${dir}:${type.name}.${field}`);
          if (role && param?.kind === "param" && param.index >= 0) {
            out.set(`${dir}:${name}`, { role, index: param.index });
          }
        }
      }
    }
  }
  return out;
}
