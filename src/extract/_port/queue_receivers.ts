// The kind of a receiver expression in a queue reader of a language whose
// receivers are names, members (`kafka.producer`, `self.channel`) and calls
// (`connect(url)`, `conn.channel()`): the walk is the same in every such
// language, the tables of kinds and the call rules are each language's.
import type { Node } from "web-tree-sitter";
import { unwrapped } from "../_syntax/tree.ts";
import { QueueFile, type QueueSyntax } from "./queue_file.ts";

/** The syntax of the receivers of a language (see {@linkcode QueueSyntax}). */
export interface ReceiverSyntax extends QueueSyntax {
  /** What a receiver or topic expression is read through (`await`, parens). */
  wrappers: ReadonlySet<string>;
  /**
   * A member access `x.name` (`x` being its field `object`): its node type,
   * the field of `name`, and the name an instance has in its own methods
   * (`this`, `self`).
   */
  member: { type: string; name: string; self: string };
}

/** A queue reader that resolves receivers through names, members and calls. */
export abstract class ReceiverQueueFile extends QueueFile {
  declare readonly syntax: ReceiverSyntax;

  /** The kind of `x.name` when `x` is of kind `kind`. */
  abstract memberKind(kind: string, name: string): string | undefined;
  /** The kind a call `fn(...)` returns (`fn` being its callee). */
  abstract callKind(call: Node, fn: Node): string | undefined;

  /** The kind of an expression other than a name, a member or a call. */
  otherKind(_node: Node): string | undefined {
    return undefined;
  }

  unwrap(node: Node): Node {
    return unwrapped(node, this.syntax.wrappers);
  }

  /**
   * The kind of a receiver expression of a queue library: a name, a member
   * `x.name`, a call (of one of the syntax's `calls`, its callee the field
   * `function`) or what the language adds ({@linkcode otherKind}).
   */
  kindOf(expression: Node): string | undefined {
    const n = this.unwrap(expression);
    if (n.type === "identifier") return this.kinds.lookup(n, n.text);
    if (n.type === this.syntax.member.type) {
      const own = this.ownMember(n);
      if (own) return this.kinds.lookup(n, own);
      const kind = this.receiverKind(n);
      return kind ? this.memberKind(kind, this.memberName(n)) : undefined;
    }
    if (!this.syntax.calls.has(n.type)) return this.otherKind(n);
    const fn = n.childForFieldName("function");
    return fn ? this.callKind(n, fn) : undefined;
  }

  /** The kind of the object of a member access `x.name`. */
  receiverKind(member: Node): string | undefined {
    const object = member.childForFieldName("object");
    return object ? this.kindOf(object) : undefined;
  }

  /** The name of a member access `x.name` (`""` when it has none). */
  memberName(member: Node): string {
    return member.childForFieldName(this.syntax.member.name)?.text ?? "";
  }

  /** `this.name` / `self.name`: the instance's own member, else `undefined`. */
  ownMember(node: Node): string | undefined {
    const { type, self } = this.syntax.member;
    if (node.type !== type) return undefined;
    if (node.childForFieldName("object")?.text !== self) return undefined;
    const name = this.memberName(node);
    return name ? `${self}.${name}` : undefined;
  }
}
