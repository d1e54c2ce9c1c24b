import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startFakePlatform, type FakePlatform } from '../helpers/fake-platform.js';
import { startService, type Running } from '../helpers/service.js';

// The fake platform's posts are numbered 1 to 45, post n created at 1_700_000_000 + n, ten a page.
const T0 = 1_700_000_000;

describe('since / until through the service', () => {
  let fake: FakePlatform;
  let s: Running;
  beforeAll(async () => {
    fake = await startFakePlatform();
    s = await startService({ adapters: [fake.adapter] });
  });
  afterAll(async () => {
    await s?.close();
    await fake?.close();
  });
  const run = (action: string, params: Record<string, unknown>) => s.api('/v1/tasks?wait=8000', { method: 'POST', json: { source: 'fake', action, params } });

  it('keeps only items inside the range, whatever form the dates take', async () => {
    const r = await run('posts', { query: 'dates', max_items: -1, since: String(T0 + 12), until: new Date((T0 + 15) * 1000).toISOString() });
    expect(r.status).toBe(200);
    expect(r.body.result.items.map((i: { ts: number }) => i.ts - T0)).toEqual([12, 13, 14, 15]);
    expect(r.body.params).toMatchObject({ since: T0 + 12, until: T0 + 15 });
    const search = await run('search', { query: 'dates', limit: 100, since: T0 + 20 });
    expect(search.body.result.items.map((i: { ts: number }) => i.ts - T0)).toEqual([20, 21, 22, 23, 24, 25]);
  });

  it('the range is part of the cache key', async () => {
    const first = await run('search', { query: 'cachekey', since: T0 + 3 });
    const hits = fake.hits.length;
    const again = await run('search', { query: 'cachekey', since: new Date((T0 + 3) * 1000).toISOString() });
    expect(again.body.result.source).toBe('cache');
    expect(again.body.result.items).toEqual(first.body.result.items.map((i: object) => ({ ...i, provenance: 'cache' })));
    expect(fake.hits.length).toBe(hits);
    const other = await run('search', { query: 'cachekey', since: T0 + 4 });
    expect(other.body.result.source).toBe('live');
    expect(fake.hits.length).toBeGreaterThan(hits);
  });

  it('refuses bad dates with 400 naming the param, never a 5xx', async () => {
    for (const [params, message] of [
      [{ since: 'last tuesday' }, /^params\.since: /],
      [{ until: '2024-02-30' }, /^params\.until: no such date/],
      [{ since: 1_700_000_000_000 }, /^params\.since: .*milliseconds/],
      [{ since: '2024-05-01T10:00' }, /^params\.since: give the date-time a zone/],
      [{ since: '2024-05-02', until: '2024-05-01' }, /^params\.since: must not be later than params\.until/],
      [{ since: ['2024-05-01'] }, /^params\.since: /],
      [{ since: { $gt: 1 } }, /^params\.since: /],
    ] as const) {
      const r = await run('search', { query: 'x', ...params });
      expect(r.status, JSON.stringify(params)).toBe(400);
      expect(r.body).toEqual({ ok: false, error: { code: 'invalid_request', message: expect.stringMatching(message), retryable: false } });
    }
    // Actions without a time to range over do not take the params.
    expect((await run('hot', { since: T0 })).body.error.message).toMatch(/params\.since: unknown param/);
  });
});
