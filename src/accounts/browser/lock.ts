/** One holder at a time per key, first come first served; waiting can be abandoned through a signal. */
export class KeyedLock {
  private readonly tails = new Map<string, Promise<void>>();
  /** Holders and waiters per key, kept exact at release time (a promise chain would lag by some ticks). */
  private readonly users = new Map<string, number>();

  async acquire(key: string, signal?: AbortSignal): Promise<() => void> {
    const prev = this.tails.get(key) ?? Promise.resolve();
    let open!: () => void;
    const mine = new Promise<void>((resolve) => (open = resolve));
    const tail = prev.then(() => mine);
    this.tails.set(key, tail);
    this.users.set(key, (this.users.get(key) ?? 0) + 1);
    let released = false;
    const release = () => {
      if (released) return;
      released = true;
      const left = (this.users.get(key) ?? 1) - 1;
      if (left > 0) this.users.set(key, left);
      else this.users.delete(key);
      if (this.tails.get(key) === tail) this.tails.delete(key);
      open();
    };
    try {
      await untilAborted(prev, signal);
    } catch (e) {
      // Whoever queued behind this waiter must still get its turn.
      void prev.then(release);
      throw e;
    }
    return release;
  }

  /** Whether anyone holds or waits for the key. */
  held(key: string): boolean {
    return this.users.has(key);
  }
}

function untilAborted<T>(p: Promise<T>, signal?: AbortSignal): Promise<T> {
  if (!signal) return p;
  if (signal.aborted) return Promise.reject(signal.reason);
  return new Promise<T>((resolve, reject) => {
    const onAbort = () => reject(signal.reason);
    signal.addEventListener('abort', onAbort, { once: true });
    p.then(
      (v) => (signal.removeEventListener('abort', onAbort), resolve(v)),
      (e) => (signal.removeEventListener('abort', onAbort), reject(e)),
    );
  });
}
