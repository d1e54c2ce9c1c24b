import { resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { ApiError } from '../../src/domain/errors.js';
import type { CommentsResult, Envelope } from '../../src/domain/results.js';
import { mediaUrlBuilder } from '../../src/media/urls.js';
import type { CommentsAction, CrawlContext, ItemDraft, ItemsAction, PlatformAdapter } from '../../src/platforms/types.js';
import { buildCatalog } from '../../src/platforms/catalog.js';
import { Registry } from '../../src/platforms/registry.js';
import { parseDateParam } from '../../src/tasks/dates.js';
import { executeAction } from '../../src/tasks/execute.js';
import { cacheKey, validateParams } from '../../src/tasks/params.js';
import { runAction } from '../helpers/run-action.js';

const refusal = (f: () => unknown): string => {
  try {
    f();
  } catch (e) {
    expect(e).toBeInstanceOf(ApiError);
    expect((e as ApiError).code).toBe('invalid_request');
    return (e as ApiError).message;
  }
  throw new Error('expected a refusal');
};

describe('since / until parsing', () => {
  it('takes unix seconds as a number or digit string, ISO dates and ISO date-times with a zone', () => {
    expect(parseDateParam('since', 1_714_521_600)).toBe(1_714_521_600);
    expect(parseDateParam('since', ' 1714521600 ')).toBe(1_714_521_600);
    expect(parseDateParam('since', '2024-05-01')).toBe(1_714_521_600);
    // A bare date as until takes the whole day.
    expect(parseDateParam('until', '2024-05-01')).toBe(1_714_521_600 + 86_399);
    expect(parseDateParam('since', '2024-05-01T00:00:00Z')).toBe(1_714_521_600);
    expect(parseDateParam('since', '2024-05-01T08:00:00+08:00')).toBe(1_714_521_600);
    expect(parseDateParam('since', '2024-04-30T19:30-0430')).toBe(1_714_521_600);
    expect(parseDateParam('since', '2024-05-01T00:00:00.123Z')).toBe(1_714_521_600);
  });

  it('refuses garbage, milliseconds, impossible dates and zone-less date-times, naming the param', () => {
    for (const bad of ['yesterday', '', '2024-02-30', '2024-13-01', '2024-05-01T25:00Z', -5, 1.5, Number.NaN, true, {}, [], '1714521600000', 1_714_521_600_000, '2024-05-01T10:00:00+19:00']) {
      expect(refusal(() => parseDateParam('since', bad))).toMatch(/^params\.since: /);
    }
    expect(refusal(() => parseDateParam('until', '2024-05-01T10:00:00'))).toMatch(/params\.until: give the date-time a zone/);
    expect(refusal(() => parseDateParam('since', 1_714_521_600_000))).toMatch(/milliseconds/);
  });

  it('validation normalises both to unix seconds, refuses since > until, and the range is part of the cache key', () => {
    const catalog = buildCatalog(new Registry());
    const entry = catalog.get('reddit', 'posts')!.entry;
    const a = validateParams(entry, { query: 'u/spez', since: '2024-05-01', until: 1_714_608_000 });
    expect(a).toMatchObject({ since: 1_714_521_600, until: 1_714_608_000 });
    expect(refusal(() => validateParams(entry, { query: 'u/spez', since: '2024-05-02', until: '2024-05-01T00:00:00Z' }))).toMatch(/params\.since: must not be later than params\.until/);
    expect(refusal(() => validateParams(entry, { query: 'u/spez', until: 'soon' }))).toMatch(/^params\.until: /);
    const b = validateParams(entry, { query: 'u/spez', since: '2024-05-02' });
    const c = validateParams(entry, { query: 'u/spez' });
    // The same instant spelled two ways is one key; another range is another key.
    expect(cacheKey('reddit', 'posts', a)).toBe(cacheKey('reddit', 'posts', validateParams(entry, { query: 'u/spez', since: 1_714_521_600, until: '2024-05-02T00:00:00Z' })));
    expect(new Set([cacheKey('reddit', 'posts', a), cacheKey('reddit', 'posts', b), cacheKey('reddit', 'posts', c)]).size).toBe(3);
  });

  it('is offered on search, posts and comments only', () => {
    const catalog = buildCatalog(new Registry());
    const names = (s: string, a: string) => catalog.get(s, a)!.entry.params.map((p) => p.name);
    for (const [s, a] of [['reddit', 'search'], ['reddit', 'posts'], ['reddit', 'comments']]) expect(names(s, a)).toEqual(expect.arrayContaining(['since', 'until']));
    for (const [s, a] of [['reddit', 'hot'], ['reddit', 'detail'], ['reddit', 'user']]) expect(names(s, a)).not.toContain('since');
  });
});

const adapter = { id: 'feed', authorUrl: () => undefined } as unknown as PlatformAdapter;
const ctx = { profile: 'default' } as unknown as CrawlContext;
const draft = (n: number, ts: number | undefined): ItemDraft => ({ native_id: String(n), type: 'text', text: `post ${n}`, media: [], ts, stats: {} }) as ItemDraft;

/** A newest-first feed of pages of 5: page p holds posts whose ts fall by 100 a post; a pinned old post leads page 1. */
function feed(timeOrdered: boolean) {
  const asked: Array<string | undefined> = [];
  const action: ItemsAction = {
    shape: 'items',
    summary: 'feed',
    walk: true,
    timeOrdered,
    async page(_ctx, _params, cursor) {
      asked.push(cursor);
      const p = cursor ? Number(cursor) : 1;
      const items = Array.from({ length: 5 }, (_, i) => draft(p * 10 + i, 10_000 - ((p - 1) * 5 + i) * 100));
      if (p === 1) items.unshift(draft(1, 50));
      return { items, next_cursor: p < 20 ? String(p + 1) : undefined };
    },
  };
  return { action, asked };
}

const run = (def: ItemsAction | CommentsAction, params: Record<string, unknown>) =>
  executeAction({ adapter, def, params, ctx, urls: mediaUrlBuilder(), warnings: [] });

describe('date filter and walk stop', () => {
  it('drops items outside the range and stops a time-ordered walk once a whole page is older than since', async () => {
    const { action, asked } = feed(true);
    // Posts 0..: ts 10000, 9900, ...; since 8600 keeps the first 15 posts (3 pages); the pinned post (ts 50) is dropped, not a stop.
    const env = (await run(action, { max_items: -1, since: 8600, until: 9850 })) as Envelope;
    expect(env.items.map((i) => i.ts)).toEqual([9800, 9700, 9600, 9500, 9400, 9300, 9200, 9100, 9000, 8900, 8800, 8700, 8600]);
    // Page 4 is wholly older than since: the walk ends there, 4 requests of the 20 pages.
    expect(asked).toEqual([undefined, '2', '3', '4']);
    expect(env.next_cursor).toBeUndefined();
  });

  it('walks on when the feed is not time-ordered, and counts items without a time in a warning', async () => {
    const { action, asked } = feed(false);
    const env = (await run(action, { max_items: -1, since: 8600 })) as Envelope;
    expect(asked).toHaveLength(20);
    expect(env.count).toBe(15);
    const undated: ItemsAction = { ...action, async page() { return { items: [draft(1, 9000), draft(2, undefined), draft(3, 100)] }; } };
    const out = (await run(undated, { limit: 10, since: 8600 })) as Envelope;
    expect(out.items.map((i) => i.id)).toEqual(['feed:1']);
    expect(out.warnings?.join(' ')).toMatch(/1 item\(s\) dropped by a filter: the platform reported no creation time/);
  });

  it('filters comments by created_at; comments without one are counted', async () => {
    const comments: CommentsAction = {
      shape: 'comments',
      summary: 'c',
      async page() {
        const c = (cid: string, created_at: number) => ({ cid, text: cid, likes: 0, reply_total: 0, user_id: '1', handle: 'h', user_name: 'u', created_at, source: 'feed' });
        return { items: [c('a', 100), c('b', 200), c('c', 0), c('d', 300)], total: 4 };
      },
    };
    const r = (await run(comments, { limit: 10, since: 150, until: 250 })) as CommentsResult;
    expect(r.items.map((c) => c.cid)).toEqual(['b']);
    expect(r.warnings?.join(' ')).toMatch(/1 comment\(s\) dropped/);
  });
});

describe('walk stop on a real recording (mastodon, newest first)', () => {
  const har = resolve(process.cwd(), '../shared/fixtures/mastodon/posts-account-statuses-paged.har');
  const params = { query: '117020565966271181', max_items: -1 };
  // As the conformance suite runs it: the recording's dev instance comes with the profile.
  const session = { credentials: { instance: 'http://localhost:3000' } };

  it('stops after the first page when it is wholly older than since, after the second when only that one is', async () => {
    const all = await runAction({ source: 'mastodon', action: 'posts', params, replay: [har], session });
    const items = (all.result as Envelope).items;
    expect(items).toHaveLength(10);
    expect(all.requests).toHaveLength(3); // two recorded pages, then the recordings end
    // The recording's toots are a second apart at most: page 1 holds the one newest second, page 2 is wholly older.
    const newest = Math.max(...items.map((i) => i.ts!));
    expect(items.slice(5).every((i) => i.ts! < newest)).toBe(true);

    const none = await runAction({ source: 'mastodon', action: 'posts', params: { ...params, since: newest + 1 }, replay: [har], session });
    expect(none.requests).toHaveLength(1);
    expect((none.result as Envelope).count).toBe(0);

    const one = await runAction({ source: 'mastodon', action: 'posts', params: { ...params, since: newest }, replay: [har], session });
    expect(one.requests).toHaveLength(2);
    expect((one.result as Envelope).items.map((i) => i.id)).toEqual(items.filter((i) => i.ts === newest).map((i) => i.id));
    expect((one.result as Envelope).next_cursor).toBeUndefined();
  });
});
