import type { TaskResult } from '../domain/results.js';
import type { CacheEntry, Store } from '../store/types.js';
import { Lru } from './lru.js';

/** How long a live result stays servable from cache, per action (seconds). */
export const DEFAULT_TTL_S: Record<string, number> = {
  search: 600,
  posts: 300,
  user: 1800,
  detail: 1800,
  comments: 300,
  hot: 180,
  recommended: 180,
  trending: 120,
};

/** Blocked results and errors are never cached; an honest empty is. */
export function isCacheable(result: TaskResult): boolean {
  const r = result as { ok?: boolean; source?: string; error?: unknown; state?: unknown };
  if (r.state !== undefined) return false;
  return r.source !== 'blocked' && r.error === undefined && r.ok !== false;
}

const HEAD = '{"age_s":';

/**
 * Stores the result already in its cached form (source cache, items' provenance cache) with age_s as
 * its first key, so a hit is one string join.
 */
export function toCacheEntry(result: TaskResult, now: number): Pick<CacheEntry, 'head' | 'tail' | 'created_at'> {
  const r = result as unknown as Record<string, unknown>;
  const cached: Record<string, unknown> = { ...r, source: r.source === 'empty' ? 'empty' : 'cache' };
  delete cached.age_s;
  if (Array.isArray(r.items)) {
    cached.items = (r.items as Array<Record<string, unknown>>).map((i) => ('provenance' in i ? { ...i, provenance: 'cache' } : i));
  }
  const body = JSON.stringify(cached);
  return { head: HEAD, tail: `,${body.slice(1)}`, created_at: now };
}

// An empty object body would leave a dangling comma; results always have fields, but stay safe.
const tailOf = (e: Pick<CacheEntry, 'tail'>) => (e.tail === ',}' ? '}' : e.tail);

export function fromCacheEntry(e: Pick<CacheEntry, 'head' | 'tail' | 'created_at'>, now: number): { text: string; age_s: number } {
  const age = Math.max(0, Math.floor((now - e.created_at) / 1000));
  return { text: `${e.head}${age}${tailOf(e)}`, age_s: age };
}

export interface CacheHit {
  /** The cached entry itself: the same object while it stays in memory (a key for facts derived from its text). */
  entry: object;
  resultId: number;
  text: string;
  age_s: number;
  /** The text as bytes, split around the age: `head` + age + `tail` (encoded once per entry, copied per answer). */
  bytes: { head: string; tail: Buffer };
}

/** The result cache: SQLite is the record, with a bounded in-memory front for hot keys. */
export class ResultCache {
  /** Hot entries with their tail already encoded; the size bound counts both forms. */
  private readonly hot = new Lru<{ e: CacheEntry; tail: Buffer }>(2000, 128 * 1024 * 1024);

  constructor(
    private readonly store: Store,
    private readonly ttl: Record<string, number> = DEFAULT_TTL_S,
  ) {}

  async lookup(key: string, maxAgeS: number | undefined, now: number): Promise<CacheHit | undefined> {
    let h = this.hot.get(key);
    if (h && h.e.expires_at <= now) {
      this.hot.delete(key);
      h = undefined;
    }
    if (!h) {
      const e = await this.store.cacheGet(key, now);
      if (!e) return undefined;
      h = this.remember(key, e);
    }
    const hit = fromCacheEntry(h.e, now);
    if (maxAgeS !== undefined && hit.age_s > maxAgeS) return undefined;
    return { entry: h.e, resultId: h.e.result_id, ...hit, bytes: { head: h.e.head, tail: h.tail } };
  }

  async save(key: string, action: string, result: TaskResult, now: number): Promise<void> {
    if (!isCacheable(result)) return;
    const ttl = this.ttl[action] ?? 300;
    const e = await this.store.cachePut(key, toCacheEntry(result, now), now + ttl * 1000);
    this.remember(key, e);
  }

  private remember(key: string, e: CacheEntry): { e: CacheEntry; tail: Buffer } {
    const h = { e, tail: Buffer.from(tailOf(e)) };
    this.hot.set(key, h, e.head.length + e.tail.length + h.tail.length);
    return h;
  }
}
