/**
 * The pacing port: a minimum gap between requests that share a key (a platform, or an account).
 * Reservations are atomic and handed out in call order, so concurrent callers queue rather than burst;
 * the embedded backend keeps them in memory, a fleet's keeps them where every worker sees them.
 */
export interface Pacer {
  /** Takes the key's next slot, at least gapMs after the previous one; resolves with the ms until it. */
  reserve(key: string, gapMs: number): Promise<number>;
  /**
   * Takes the key's slot only if it is due now (resolves 0), else says how long until it is (nothing taken).
   * A pacer that has it is used this way: a slot is taken at the moment the request leaves, so a caller
   * that wakes late (a busy process) cannot end up bunched against the next one, and an aborted wait spends nothing.
   */
  acquire?(key: string, gapMs: number): Promise<{ wait: number; now: number }>;
}

/** Waits for the key's next slot; rejects if the signal aborts first. Resolves with the slot's time (the pacer's clock). */
export async function pace(pacer: Pacer, key: string, gapMs: number, signal?: AbortSignal): Promise<number | undefined> {
  if (gapMs <= 0) return undefined;
  if (signal?.aborted) throw signal.reason ?? new Error('aborted');
  if (pacer.acquire) {
    for (;;) {
      const { wait, now } = await pacer.acquire(key, gapMs);
      if (wait <= 0) return now;
      await sleep(wait, signal);
    }
  }
  const delay = await pacer.reserve(key, gapMs);
  const slot = Date.now() + Math.max(0, delay);
  if (delay > 0) await sleep(delay, signal);
  return slot;
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
