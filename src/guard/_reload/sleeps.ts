// The pauses of one provider (debounce, retry, poll, reconnect backoff), so
// that closing it ends every pause at once instead of waiting out its timer.

/** Sleeps that one call wakes early. */
export class Sleeps {
  // Each pending sleep: its timer, and how to end it early.
  readonly #timers = new Map<ReturnType<typeof setTimeout>, () => void>();

  /** Resolves after `ms` milliseconds, or at the next `wakeAll()`. */
  sleep(ms: number): Promise<void> {
    return new Promise<void>((resolve) => {
      const id = setTimeout(() => {
        this.#timers.delete(id);
        resolve();
      }, ms);
      this.#timers.set(id, resolve);
    });
  }

  /** Ends every pending sleep now (on close). */
  wakeAll(): void {
    const sleeping = [...this.#timers];
    this.#timers.clear();
    for (const [id, wake] of sleeping) {
      clearTimeout(id);
      wake();
    }
  }
}
