import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { parseJsonBody } from '../../src/api/http-errors.js';
import { Metrics } from '../../src/metrics.js';
import type { TaskRow } from '../../src/store/types.js';
import { AnswerSlabs, taskBytes } from '../../src/tasks/answer.js';
import { fromCacheEntry, toCacheEntry } from '../../src/tasks/cache.js';
import { Lru } from '../../src/tasks/lru.js';
import { taskJson } from '../../src/tasks/serialize.js';

const text = fc.string({ unit: 'binary', maxLength: 40 });

describe('taskBytes (a cached result answered as bytes)', () => {
  it('is byte for byte the JSON text of the task, whatever the result, params and times hold', () => {
    const slabs = new AnswerSlabs(4096);
    fc.assert(
      fc.property(
        fc.record({ query: text, title: text, n: fc.integer(), tags: fc.array(text, { maxLength: 3 }) }),
        fc.record({ query: text, limit: fc.integer({ min: 1, max: 100 }) }),
        fc.nat(10_000),
        fc.integer({ min: 0, max: 4_000_000_000_000 }),
        fc.boolean(),
        (result, params, ageS, createdAt, empty) => {
          const entry = toCacheEntry({ source: empty ? 'empty' : 'live', items: [], ...result } as never, createdAt - ageS * 1000);
          const hit = fromCacheEntry(entry, createdAt);
          const row: TaskRow = {
            id: 't_0000000000123456789abcdef',
            status: 'succeeded',
            source: 'fake',
            action: 'search',
            params: JSON.stringify(params),
            account: 'fake:default',
            created_at: createdAt,
            started_at: createdAt,
            finished_at: createdAt,
            attempts: 1,
            progress: null,
            result: hit.text,
            error: null,
            owner: 'tok_0123456789abcdef',
            event_seq: 2,
          };
          const tail = Buffer.from(hit.text.slice(entry.head.length + String(hit.age_s).length));
          const bytes = taskBytes(row, { head: entry.head, age: hit.age_s, tail }, slabs.take);
          expect(bytes.equals(Buffer.from(taskJson(row)))).toBe(true);
          expect(JSON.parse(bytes.toString('utf8')).result.age_s).toBe(ageS);
        },
      ),
    );
  });

  it('falls back to the text for a task that has not succeeded', () => {
    const row = { id: 't_x', status: 'failed', source: 's', action: 'a', params: '{}', created_at: 0, started_at: 5, finished_at: 9, attempts: 2, progress: null, result: null, error: '{"code":"timeout"}' } as TaskRow;
    expect(taskBytes(row, { head: '{"age_s":', age: 1, tail: Buffer.from('}') }).toString()).toBe(taskJson(row));
  });
});

describe('AnswerSlabs', () => {
  it('hands out slices that never overlap: each keeps its bytes while later ones are written', () => {
    fc.assert(
      fc.property(fc.array(fc.integer({ min: 0, max: 700 }), { maxLength: 40 }), (sizes) => {
        const slabs = new AnswerSlabs(2048);
        const taken = sizes.map((size, i) => {
          const b = slabs.take(size);
          expect(b.length).toBe(size);
          b.fill(i % 251);
          return b;
        });
        taken.forEach((b, i) => expect(b.every((x) => x === i % 251)).toBe(true));
      }),
    );
  });
});

describe('Lru', () => {
  it('keeps the same entries as a reference model under any sequence of reads, writes and deletes', () => {
    // Few keys and long runs, reads and writes weighted: most runs evict something a read has just refreshed.
    const key = fc.integer({ min: 0, max: 3 });
    const op = fc.oneof(
      { arbitrary: fc.record({ kind: fc.constant('get' as const), key }), weight: 4 },
      { arbitrary: fc.record({ kind: fc.constant('set' as const), key, size: fc.integer({ min: 1, max: 4 }) }), weight: 4 },
      { arbitrary: fc.record({ kind: fc.constant('delete' as const), key }), weight: 1 },
      { arbitrary: fc.record({ kind: fc.constant('clear' as const) }), weight: 1 },
    );
    fc.assert(
      fc.property(fc.array(op, { minLength: 8, maxLength: 60 }), fc.integer({ min: 1, max: 3 }), fc.integer({ min: 4, max: 12 }), (ops, maxEntries, maxSize) => {
        const lru = new Lru<number>(maxEntries, maxSize);
        // Oldest first: the reference keeps recency as array order.
        let model: Array<{ key: string; v: number; size: number }> = [];
        let n = 0;
        for (const o of ops) {
          if (o.kind === 'clear') {
            lru.clear();
            model = [];
            continue;
          }
          const key = String(o.key);
          const at = model.findIndex((e) => e.key === key);
          if (o.kind === 'get') {
            expect(lru.get(key)).toBe(at >= 0 ? model[at].v : undefined);
            if (at >= 0) model.push(...model.splice(at, 1));
          } else if (o.kind === 'delete') {
            lru.delete(key);
            if (at >= 0) model.splice(at, 1);
          } else {
            const v = n++;
            lru.set(key, v, o.size);
            if (at >= 0) model.splice(at, 1);
            if (o.size <= maxSize) model.push({ key, v, size: o.size });
            while (model.length > maxEntries || model.reduce((a, e) => a + e.size, 0) > maxSize) model.shift();
          }
          expect(lru.size).toBe(model.length);
        }
        for (const e of model) expect(lru.get(e.key)).toBe(e.v);
      }),
      { numRuns: 300 },
    );
  });
});

describe('Metrics.cacheHit', () => {
  const value = async (m: Metrics, name: string, labels: Record<string, string>) => {
    const metric = (await m.registry.getMetricsAsJSON()).find((x) => x.name === name);
    const found = metric?.values.find((v) => Object.entries(labels).every(([k, l]) => v.labels[k] === l));
    return found?.value ?? 0;
  };

  it('counts each hit as submitted, a cache hit and finished from cache, on every scrape, without counting twice', async () => {
    const m = new Metrics(async () => ({}));
    m.tasksSubmitted.inc({ source: 'weibo', action: 'posts' });
    for (let i = 0; i < 3; i++) m.cacheHit('weibo', 'posts');
    m.cacheHit('reddit', 'comments');
    expect(await value(m, 'crawler_tasks_submitted_total', { source: 'weibo', action: 'posts' })).toBe(4);
    expect(await value(m, 'crawler_cache_hits_total', { source: 'weibo', action: 'posts' })).toBe(3);
    expect(await value(m, 'crawler_tasks_finished_total', { source: 'weibo', action: 'posts', status: 'succeeded', outcome: 'cache' })).toBe(3);
    expect(await value(m, 'crawler_cache_hits_total', { source: 'reddit', action: 'comments' })).toBe(1);
    // A second scrape, then more hits: the sums move by exactly the new hits.
    expect(await value(m, 'crawler_cache_hits_total', { source: 'weibo', action: 'posts' })).toBe(3);
    m.cacheHit('weibo', 'posts');
    expect(await m.registry.metrics()).toContain('crawler_cache_hits_total{source="weibo",action="posts"} 4');
    expect(await value(m, 'crawler_tasks_submitted_total', { source: 'weibo', action: 'posts' })).toBe(5);
    expect(await value(m, 'crawler_tasks_finished_total', { source: 'weibo', action: 'posts', status: 'succeeded', outcome: 'cache' })).toBe(4);
  });
});

describe('parseJsonBody', () => {
  const parse = (text: string) => {
    let out: { err: Error | null; value?: unknown } | undefined;
    parseJsonBody({} as never, text, (err, value) => (out = { err, value }));
    return out!;
  };

  it('refuses a prototype key however the JSON text spells it, and passes everything else through', () => {
    for (const text of [
      '{"params":{"__proto__":{"x":1}}}',
      '{"params":{"\\u005f_proto__":{"x":1}}}',
      '{"a":[{"\\u005F\\u005Fproto\\u005f\\u005f":1}]}',
      '{"constructor":{"prototype":{"x":1}}}',
      '{"\\u0063onstructor":{"prototype":{}}}',
      '{"c":{"constructor":{"\\u0070rototype":1}}}',
    ]) {
      expect(Object.keys(JSON.parse(text)).length, text).toBeGreaterThan(0);
      expect(parse(text).err?.message, text).toMatch(/is not accepted/);
    }
    for (const text of ['{"source":"fake","params":{"query":"constructor"}}', '{"q":"\\u00e9t\\u00e9"}', '{"constructor":"x"}', '[1,2]']) {
      expect(parse(text), text).toEqual({ err: null, value: JSON.parse(text) });
    }
  });
});
