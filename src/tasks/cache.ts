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

export function fromCacheEntry(e: Pick<CacheEntry, 'head' | 'tail' | 'created_at'>, now: number): { text: string; age_s: number } {
  const age = Math.max(0, Math.floor((now - e.created_at) / 1000));
  // An empty object body would leave a dangling comma; results always have fields, but stay safe.
  const tail = e.tail === ',}' ? '}' : e.tail;
  return { text: `${e.head}${age}${tail}`, age_s: age };
}

export interface CacheHit {
  /** The cached entry itself: the same object while it stays in memory (a key for facts derived from its text). */
  entry: object;
  resultId: number;
  text: string;
  age_s: number;
}

/** The result cache: SQLite is the record, with a bounded in-memory front for hot keys. */
export class ResultCache {
  private readonly hot = new Lru<CacheEntry>(2000, 128 * 1024 * 1024);

  constructor(
    private readonly store: Store,
    private readonly ttl: Record<string, number> = DEFAULT_TTL_S,
  ) {}

  async lookup(key: string, maxAgeS: number | undefined, now: number): Promise<CacheHit | undefined> {
    let e = this.hot.get(key);
    if (e && e.expires_at <= now) {
      this.hot.delete(key);
      e = undefined;
    }
    if (!e) {
      e = await this.store.cacheGet(key, now);
      if (!e) return undefined;
      this.hot.set(key, e, e.head.length + e.tail.length);
    }
    const hit = fromCacheEntry(e, now);
    if (maxAgeS !== undefined && hit.age_s > maxAgeS) return undefined;
    return { entry: e, resultId: e.result_id, ...hit };
  }

  async save(key: string, action: string, result: TaskResult, now: number): Promise<void> {
    if (!isCacheable(result)) return;
    const ttl = this.ttl[action] ?? 300;
    const e = await this.store.cachePut(key, toCacheEntry(result, now), now + ttl * 1000);
    this.hot.set(key, e, e.head.length + e.tail.length);
  }
}
