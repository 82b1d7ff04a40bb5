// What the example servers print once they listen, and when they cannot.

/**
 * "Listening on <the address the server is bound to>", and, when that is
 * every interface, the address to open from this machine.
 */
export function listeningMessage(hostname: string, port: number): string {
  const host = hostname.includes(":") ? `[${hostname}]` : hostname;
  const url = `http://${host}:${port}/`;
  return hostname === "0.0.0.0" || hostname === "::"
    ? `Listening on ${url} (http://localhost:${port}/ from this machine)`
    : `Listening on ${url}`;
}

/** Whether an error from Deno.serve, Bun.serve or node:http is a taken port. */
export function isAddressInUse(error: unknown): boolean {
  const { code, name } = (error ?? {}) as { code?: unknown; name?: unknown };
  return code === "EADDRINUSE" || name === "AddrInUse";
}

/** The message for a port another process holds. */
export function addressInUseMessage(port: number): string {
  return `Cannot start server: port ${port} is already in use; stop the other server or choose another port with PORT=<port> (PORT=0 picks a free one)`;
}
