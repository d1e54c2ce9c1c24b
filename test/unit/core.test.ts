import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { loadConfig } from '../../src/config.js';
import { compareParams, compileRules } from '../../src/crawl/replay/match.js';
import { ApiError } from '../../src/domain/errors.js';
import type { CatalogEntry } from '../../src/domain/catalog.js';
import { fromCacheEntry, isCacheable, toCacheEntry } from '../../src/tasks/cache.js';
import { decodeCursor, encodeCursor } from '../../src/tasks/cursor.js';
import { buildFilter, orientationOf } from '../../src/tasks/filters.js';
import { cacheKey, validateParams } from '../../src/tasks/params.js';

describe('cursor', () => {
  it('round-trips any page cursor and skip count', () => {
    fc.assert(
      fc.property(fc.option(fc.string(), { nil: undefined }), fc.nat(99_999), (c, s) => {
        expect(decodeCursor(encodeCursor({ c, s }))).toEqual({ c, s });
      }),
    );
  });
  it('takes a foreign cursor as a native one and rejects forged ones of ours', () => {
    expect(decodeCursor('4646131823281332')).toEqual({ c: '4646131823281332', s: 0 });
    expect(() => decodeCursor('c1.bm9wZQ')).toThrow(/cursor/);
    expect(() => decodeCursor(`c1.${Buffer.from('{"c":1,"s":-3}').toString('base64url')}`)).toThrow(/cursor/);
  });
  it('never throws anything but a clean input error on arbitrary strings', () => {
    fc.assert(
      fc.property(fc.string(), (s) => {
        try {
          decodeCursor(`c1.${s}`);
        } catch (e) {
          expect((e as Error).message).toMatch(/params\.cursor/);
        }
      }),
    );
  });
});

const entry: CatalogEntry = {
  name: 'x.search',
  group: 'x',
  summary: '',
  params: [
    { name: 'query', type: 'string', required: true, description: '' },
    { name: 'limit', type: 'integer', required: false, default: 24, min: 1, max: 100, description: '' },
    { name: 'force', type: 'boolean', required: false, description: '' },
    { name: 'media', type: 'string', required: false, enum: ['video', 'image', 'any'], description: '' },
    { name: 'min_duration_s', type: 'number', required: false, min: 0, description: '' },
    { name: 'max_duration_s', type: 'number', required: false, min: 0, description: '' },
    { name: 'profile', type: 'string', required: false, default: 'default', description: '' },
  ],
};

describe('params', () => {
  it('applies defaults and trims strings', () => {
    expect(validateParams(entry, { query: ' cats ' })).toEqual({ query: 'cats', limit: 24, profile: 'default' });
  });
  it('names the param in every rejection', () => {
    const bad: Array<[unknown, RegExp]> = [
      [{ query: 'a', limit: 0 }, /params\.limit: must be at least 1/],
      [{ query: 'a', limit: 1e9 }, /params\.limit: must be at most 100/],
      [{ query: 'a', limit: Number.NaN }, /params\.limit/],
      [{ query: 'a', force: 'yes' }, /params\.force/],
      [{ query: 'a', media: 'gif' }, /params\.media: must be one of/],
      [{ query: '' }, /params\.query/],
      [{ query: 5 }, /params\.query/],
      [{}, /params\.query: required/],
      [{ query: 'a', min_duration_s: 10, max_duration_s: 5 }, /params\.min_duration_s/],
      [{ query: 'a', profile: '../etc' }, /params\.profile/],
      [{ query: 'a', zzz: 1 }, /params\.zzz: unknown/],
      ['nope', /params must be an object/],
    ];
    for (const [raw, re] of bad) {
      const err = (() => {
        try {
          validateParams(entry, raw);
        } catch (e) {
          return e;
        }
      })();
      expect(err).toBeInstanceOf(ApiError);
      expect((err as ApiError).status).toBe(400);
      expect((err as ApiError).message).toMatch(re);
    }
  });
  it('keys the cache without cursor, force and max_age_s, whatever the order', () => {
    expect(cacheKey('x', 'search', { query: 'a', limit: 5, force: true, cursor: 'z', max_age_s: 3 })).toBe(cacheKey('x', 'search', { limit: 5, query: 'a' }));
    expect(cacheKey('x', 'search', { query: 'a', limit: 5 })).not.toBe(cacheKey('x', 'search', { query: 'a', limit: 6 }));
  });
});

describe('result cache entries', () => {
  const live = { ok: true, source: 'live', count: 1, items: [{ id: 'x:1', provenance: 'live' }], ms: 12 };
  it('serve as source cache with the current age and cache provenance', () => {
    const e = toCacheEntry(live as never, 1_000_000);
    const hit = JSON.parse(fromCacheEntry(e, 1_004_500).text);
    expect(hit).toEqual({ age_s: 4, ok: true, source: 'cache', count: 1, items: [{ id: 'x:1', provenance: 'cache' }], ms: 12 });
  });
  it('keep an honest empty as empty, and never store blocked or errors', () => {
    const e = toCacheEntry({ ok: true, source: 'empty', count: 0, items: [], ms: 1 } as never, 0);
    expect(JSON.parse(fromCacheEntry(e, 0).text).source).toBe('empty');
    expect(isCacheable({ ok: false, source: 'blocked', count: 0, items: [], ms: 1 } as never)).toBe(false);
    expect(isCacheable({ ok: false, source: 'live', count: 0, items: [], ms: 1, error: { code: 'timeout' } } as never)).toBe(false);
    expect(isCacheable({ source: 'live', total: 1, has_more: false, ms: 1, items: [] } as never)).toBe(true);
  });
});

describe('filters', () => {
  const item = (o: Record<string, unknown>) => ({ id: 'x:1', type: 'video', provider: 'x', media: [], stats: {}, provenance: 'live', ...o }) as never;
  it('judge by type, duration, orientation and size, counting what could not be judged', () => {
    const f = buildFilter({ media: 'video', min_duration_s: 10, orientation: 'landscape' });
    expect(f.test(item({ duration_s: 20, aspect: { width: 16, height: 9 } }))).toBe(true);
    expect(f.test(item({ duration_s: 5, aspect: { width: 16, height: 9 } }))).toBe(false);
    expect(f.test(item({ type: 'image', duration_s: 20 }))).toBe(false);
    expect(f.test(item({ aspect: { width: 16, height: 9 } }))).toBe(false);
    expect(f.test(item({ duration_s: 20 }))).toBe(false);
    expect(f.warnings()).toHaveLength(2);
    expect(buildFilter({}).active).toBe(false);
    expect(buildFilter({ media: 'any' }).active).toBe(false);
  });
  it('classifies orientation with a small tolerance for square', () => {
    expect(orientationOf(1920, 1080)).toBe('landscape');
    expect(orientationOf(1080, 1920)).toBe('portrait');
    expect(orientationOf(1000, 1020)).toBe('square');
  });
});

describe('config', () => {
  it('has the documented defaults', () => {
    const c = loadConfig({});
    expect(c.port).toBe(8080);
    expect(c.dataDir).toMatch(/\/data$/);
    expect(c.replay).toEqual([]);
    expect(c.accountSlots).toBe(1);
  });
  it('refuses bad values with a message naming the variable', () => {
    expect(() => loadConfig({ PORT: '70000' })).toThrow(/PORT/);
    expect(() => loadConfig({ CRAWLER_WORKERS: '0' })).toThrow(/CRAWLER_WORKERS/);
    expect(() => loadConfig({ LOG_LEVEL: 'loud' })).toThrow(/LOG_LEVEL/);
    expect(() => loadConfig({ CRAWLER_PUBLIC_URL: 'ftp://x' })).toThrow(/CRAWLER_PUBLIC_URL/);
  });
  it('reads replay paths and public URL', () => {
    const c = loadConfig({ CRAWLER_REPLAY: 'sandbox/weibo, sandbox', CRAWLER_PUBLIC_URL: 'https://c.example.com/' });
    expect(c.replay.map((p) => p.split('/').pop())).toEqual(['weibo', 'sandbox']);
    expect(c.publicUrl).toBe('https://c.example.com');
    expect(c.minGapMs).toBe(0);
  });

  it('stops on a replay path that does not exist, naming the variable and the path', () => {
    expect(() => loadConfig({ CRAWLER_REPLAY: 'sandbox, no/such/recordings.har' })).toThrow(/^CRAWLER_REPLAY: no such file or directory: .*no\/such\/recordings\.har$/);
  });

  it('reads CORS origins and the group-commit window, refusing malformed origins', () => {
    const c = loadConfig({ CRAWLER_CORS_ORIGINS: 'https://app.example.com, http://localhost:5173/', CRAWLER_GROUP_COMMIT_MS: '5' });
    expect(c.corsOrigins).toEqual(['https://app.example.com', 'http://localhost:5173']);
    expect(c.groupCommitMs).toBe(5);
    expect(loadConfig({}).corsOrigins).toEqual([]);
    expect(() => loadConfig({ CRAWLER_CORS_ORIGINS: 'app.example.com' })).toThrow(/CRAWLER_CORS_ORIGINS/);
  });
});

describe('replay param rules', () => {
  const rules = compileRules({ identifying: ['containerid'], cursor: ['since_id'], volatile: ['extparam'] });
  const m = (o: Record<string, string>) => new Map(Object.entries(o));
  it('never matches another id or cursor, and needs one identifying param in common', () => {
    expect(typeof compareParams(m({ containerid: '1' }), m({ containerid: '2' }), rules)).toBe('string');
    expect(typeof compareParams(m({ containerid: '1', since_id: '5' }), m({ containerid: '1' }), rules)).toBe('string');
    expect(typeof compareParams(m({ containerid: '1' }), m({ containerid: '1', since_id: '5' }), rules)).toBe('string');
    expect(typeof compareParams(m({ containerid: '1' }), m({ type: 'uid', value: '9' }), rules)).toBe('string');
    expect(typeof compareParams(m({ containerid: '1', lang: 'en', extparam: 'a' }), m({ containerid: '1', extparam: 'b' }), rules)).toBe('number');
  });
  it('scores closer recordings higher', () => {
    const a = compareParams(m({ id: '1', x: '1' }), m({ id: '1', x: '1' }), rules) as number;
    const b = compareParams(m({ id: '1', x: '1' }), m({ id: '1', x: '2' }), rules) as number;
    const c = compareParams(m({ id: '1', x: '1' }), m({ id: '1' }), rules) as number;
    expect(a).toBeGreaterThan(c);
    expect(c).toBeGreaterThan(b);
  });
});

describe('crawl context warnings', () => {
  it('keeps one copy of a note that every page repeats, in first-seen order', async () => {
    const { makeContext, MemoryMemo } = await import('../../src/tasks/context.js');
    const { LocalPacer } = await import('../../src/crawl/pacer-local.js');
    const pino = (await import('pino')).default;
    const warnings: string[] = [];
    const adapter = { id: 'x', hosts: [], minGapMs: 0 } as unknown as Parameters<typeof makeContext>[0]['adapter'];
    const ctx = makeContext({ adapter, profile: 'default', memo: new MemoryMemo(), dispatcher: undefined as never, pacer: new LocalPacer(), signal: new AbortController().signal, log: pino({ level: 'silent' }), warnings });
    for (const m of ['keys unavailable', 'other', 'keys unavailable', 'other', 'third']) ctx.warn(m);
    expect(warnings).toEqual(['keys unavailable', 'other', 'third']);
    expect(ctx.replay).toBe(false);
  });
});

describe('memo', () => {
  it('expires entries and stays bounded', async () => {
    const { MemoryMemo } = await import('../../src/tasks/context.js');
    const m = new MemoryMemo(100);
    m.set('short', 1, 1);
    await new Promise((r) => setTimeout(r, 5));
    expect(m.get('short')).toBeUndefined();
    for (let i = 0; i < 500; i++) m.set(`k${i}`, i);
    expect(m.get('k499')).toBe(499);
    expect(m.get('k0')).toBeUndefined();
  });
});

describe('task retention', () => {
  it('deletes ended tasks past the cutoff and keeps queued, running and recent ones', async () => {
    const { mkdtempSync } = await import('node:fs');
    const { tmpdir } = await import('node:os');
    const { join } = await import('node:path');
    const { openDatabase, SqliteStore } = await import('../../src/store/sqlite.js');
    const store = new SqliteStore(openDatabase(join(mkdtempSync(join(tmpdir(), 'ret-')), 'db.sqlite')));
    const base = { source: 'x', action: 'search', params: '{}', account: 'x:default', owner: null };
    await store.insertTask({ ...base, id: 'old-done', createdAt: 1000, finished: { text: '{"ok":true}' } });
    await store.insertTask({ ...base, id: 'old-queued', createdAt: 1000 });
    await store.insertTask({ ...base, id: 'new-done', createdAt: 10_000_000, finished: { text: '{"ok":true}' } });
    store.flush();
    expect(await store.tasksPurge(5000)).toBe(1);
    expect(await store.getTask('old-done')).toBeUndefined();
    expect((await store.getTask('old-queued'))?.status).toBe('queued');
    expect((await store.getTask('new-done'))?.status).toBe('succeeded');
  });
});

describe('item normalization of platform numbers', () => {
  it('passes plain whole numbers on and drops what JSON cannot carry exactly (1e300, NaN), never failing the item', async () => {
    const { normalizeItem } = await import('../../src/tasks/normalize.js');
    const { mediaUrlBuilder } = await import('../../src/media/urls.js');
    const { ItemSchema } = await import('../../src/domain/item.js');
    const adapter = { id: 'x', authorUrl: () => undefined } as unknown as Parameters<typeof normalizeItem>[0];
    const draft = (ts: number, w: number) => ({ native_id: '1', type: 'video' as const, text: 't', url: 'https://x.test/1', ts, media: [{ kind: 'video' as const, url: 'https://cdn.x.test/v.mp4', w, h: 720.4 }], stats: {} });
    const ok = normalizeItem(adapter, draft(1_700_000_000.9, 1279.6), mediaUrlBuilder(), 'default');
    expect(ok).toMatchObject({ ts: 1_700_000_000, media: [{ w: 1280, h: 720 }] });
    for (const [ts, w] of [[1e300, 1e300], [Number.NaN, -5], [2 ** 60, Infinity]]) {
      const item = normalizeItem(adapter, draft(ts, w), mediaUrlBuilder(), 'default');
      expect(item.ts).toBeUndefined();
      expect(item.media[0].w).toBeUndefined();
      expect(ItemSchema.safeParse(item).success).toBe(true);
    }
  });
});
