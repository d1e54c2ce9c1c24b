/**
 * The pacing port: a minimum gap between requests that share a key (a platform, or an account).
 * Reservations are atomic and handed out in call order, so concurrent callers queue rather than burst;
 * the embedded backend keeps them in memory, a fleet's keeps them where every worker sees them.
 */
export interface Pacer {
  /** Takes the key's next slot, at least gapMs after the previous one; resolves with the ms until it. */
  reserve(key: string, gapMs: number): Promise<number>;
}

/** Waits for the key's next slot; rejects if the signal aborts first (the reserved slot stays spent). */
export async function pace(pacer: Pacer, key: string, gapMs: number, signal?: AbortSignal): Promise<void> {
  if (gapMs <= 0) return;
  if (signal?.aborted) throw signal.reason ?? new Error('aborted');
  const delay = await pacer.reserve(key, gapMs);
  if (delay > 0) await sleep(delay, signal);
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
