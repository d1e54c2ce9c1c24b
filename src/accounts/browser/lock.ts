/** One holder at a time per key, first come first served; waiting can be abandoned through a signal. */
export class KeyedLock {
  private readonly tails = new Map<string, Promise<void>>();

  async acquire(key: string, signal?: AbortSignal): Promise<() => void> {
    const prev = this.tails.get(key) ?? Promise.resolve();
    let release!: () => void;
    const mine = new Promise<void>((resolve) => (release = resolve));
    const tail = prev.then(() => mine);
    this.tails.set(key, tail);
    void tail.then(() => {
      if (this.tails.get(key) === tail) this.tails.delete(key);
    });
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
    return this.tails.has(key);
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
