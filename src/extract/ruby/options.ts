// The names a route call's option gives (`via: [:get, :post]`,
// `skip: :all`, Padrino's `parent: :post` and `with: :id`).
import type { Node } from "web-tree-sitter";
import { option, symbolList } from "./project.ts";

/** The names of a call's `key:` option (none when it has no such option). */
export function optionNames(call: Node, key: string): string[] {
  return symbolList(option(call, key));
}
