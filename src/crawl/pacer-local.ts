import type { Pacer } from './pacer.js';

/** The embedded pacer: next free slot per key, in this process's memory. */
export class LocalPacer implements Pacer {
  private readonly next = new Map<string, number>();
  constructor(private readonly now: () => number = Date.now) {}

  async reserve(key: string, gapMs: number): Promise<number> {
    if (gapMs <= 0) return 0;
    const now = this.now();
    const slot = Math.max(now, this.next.get(key) ?? 0);
    this.next.set(key, slot + gapMs);
    return slot - now;
  }
}
