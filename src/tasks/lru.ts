/** A small LRU map bounded by entry count and by the total size its caller assigns to entries. */
export class Lru<V> {
  private readonly map = new Map<string, { v: V; size: number }>();
  private total = 0;
  /** The most recently used entry: reading it again needs no move (hot keys repeat). */
  private newest?: { v: V; size: number };
  constructor(
    private readonly maxEntries: number,
    private readonly maxSize = Number.POSITIVE_INFINITY,
  ) {}

  get(key: string): V | undefined {
    const e = this.map.get(key);
    if (!e) return undefined;
    if (e !== this.newest) {
      this.map.delete(key);
      this.map.set(key, e);
      this.newest = e;
    }
    return e.v;
  }

  set(key: string, v: V, size = 1): void {
    this.delete(key);
    if (size > this.maxSize) return;
    const e = { v, size };
    this.map.set(key, e);
    this.newest = e;
    this.total += size;
    while (this.map.size > this.maxEntries || this.total > this.maxSize) {
      const oldest = this.map.keys().next().value as string;
      this.delete(oldest);
    }
  }

  delete(key: string): void {
    const e = this.map.get(key);
    if (!e) return;
    if (e === this.newest) this.newest = undefined;
    this.map.delete(key);
    this.total -= e.size;
  }

  clear(): void {
    this.map.clear();
    this.newest = undefined;
    this.total = 0;
  }

  get size(): number {
    return this.map.size;
  }
}
