// How both enforcer providers open: start the new provider, and close what
// it had started (watchers, timers, a worker, a database) if starting fails.

/**
 * Runs `start` for a new provider, and returns the provider once started.
 *
 * @throws What `start` threw, after `provider.close()` settled.
 */
export async function started<P extends { close(): Promise<void> }>(
  provider: P,
  start: () => Promise<void>,
): Promise<P> {
  try {
    await start();
  } catch (error) {
    await provider.close();
    throw error;
  }
  return provider;
}
