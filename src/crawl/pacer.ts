/**
 * Keeps a minimum gap between requests that share a key (a platform, or an account).
 * Reservations are handed out in call order, so concurrent callers queue rather than burst.
 */
export class Pacer {
  private readonly next = new Map<string, number>();
  constructor(private readonly now: () => number = Date.now) {}

  /** Resolves when the caller may send; rejects if the signal aborts first. */
  async wait(key: string, gapMs: number, signal?: AbortSignal): Promise<void> {
    if (gapMs <= 0) return;
    const now = this.now();
    const slot = Math.max(now, this.next.get(key) ?? 0);
    this.next.set(key, slot + gapMs);
    const delay = slot - now;
    if (delay > 0) await sleep(delay, signal);
  }
}

export function sleep(ms: number, signal?: AbortSignal): Promise<void> {
  return new Promise((resolve, reject) => {
    if (signal?.aborted) return reject(signal.reason ?? new Error('aborted'));
    const timer = setTimeout(() => {
      signal?.removeEventListener('abort', onAbort);
      resolve();
    }, ms);
    const onAbort = () => {
      clearTimeout(timer);
      reject(signal?.reason ?? new Error('aborted'));
    };
    signal?.addEventListener('abort', onAbort, { once: true });
  });
}
