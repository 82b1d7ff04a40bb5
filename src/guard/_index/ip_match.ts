// casbin's ipMatch, compiled once per policy pattern. casbin's own function
// (node-ip's parsing, with its quirks for IPv6 and mixed families) decides
// every case but the common one, an IPv4 request against an IPv4 address or
// an IPv4 CIDR with a prefix of 0 to 32 bits, which is answered here with
// 32-bit arithmetic, as node-ip's byte masks answer it.
import { Util } from "casbin";

// node-ip's IPv4 form (casbin's isV4Format): four decimal bytes, at most
// two digits unless the value needs three.
const IPV4 =
  /^(25[0-5]|2[0-4]\d|1\d\d|\d?\d)(\.(25[0-5]|2[0-4]\d|1\d\d|\d?\d)){3}$/;
const DIGITS = /^\d+$/;
const ANY_ADDRESS = "0.0.0.0";

/** A request address: its IPv4 value, or -1 for an IPv6 one. */
export type RequestAddress = number;

/** The 32-bit value of an address in node-ip's IPv4 form. */
function v4Value(text: string): number {
  const bytes = text.split(".");
  return ((Number.parseInt(bytes[0]!, 10) << 24) |
    (Number.parseInt(bytes[1]!, 10) << 16) |
    (Number.parseInt(bytes[2]!, 10) << 8) |
    Number.parseInt(bytes[3]!, 10)) >>> 0;
}

/**
 * Reads a request value as casbin's ipMatch does: its IPv4 value, -1 for an
 * address casbin accepts that is not IPv4, or `undefined` when casbin
 * throws on it (not an IP address).
 */
export function requestAddress(text: string): RequestAddress | undefined {
  if (IPV4.test(text)) return v4Value(text);
  try {
    // Throws on a first argument that is not an address, whatever the
    // second.
    Util.ipMatchFunc(text, ANY_ADDRESS);
    return -1;
  } catch {
    return undefined;
  }
}

/** A compiled ipMatch pattern: the request's text and its address. */
export type IpTest = (text: string, address: RequestAddress) => boolean;

/**
 * Compiles an ipMatch pattern (an address or a CIDR), or says why the index
 * must not: casbin throws on it.
 */
export function compileIpPattern(pattern: string): IpTest | string {
  const parts = pattern.split("/");
  // casbin's checks of its second argument do not depend on the first
  // (once the first is an address); an invalid one throws.
  try {
    if (parts.length === 2) Util.ipMatchFunc(ANY_ADDRESS, pattern);
    else Util.ipMatchFunc(pattern, ANY_ADDRESS);
  } catch {
    return "casbin's ipMatch throws on it (not an address or a CIDR)";
  }
  const general: IpTest = (text) => Util.ipMatchFunc(text, pattern);
  if (parts.length === 1 && IPV4.test(pattern)) {
    const address = v4Value(pattern);
    return (text, value) =>
      value === -1 ? general(text, value) : value === address;
  }
  if (parts.length === 2 && IPV4.test(parts[0]!) && DIGITS.test(parts[1]!)) {
    const bits = Number.parseInt(parts[1]!, 10);
    if (bits <= 32) {
      const mask = bits === 0 ? 0 : (0xffffffff << (32 - bits)) >>> 0;
      const network = (v4Value(parts[0]!) & mask) >>> 0;
      return (text, value) =>
        value === -1
          ? general(text, value)
          : ((value & mask) >>> 0) === network;
    }
  }
  return general;
}
