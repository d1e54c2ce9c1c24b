import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildCatalog } from '../../src/platforms/catalog.js';
import { Registry } from '../../src/platforms/registry.js';
import { TREE_FIRST, TREE_ORDER, TREE_ROOTS } from '../helpers/fake-comment-tree.js';
import { startFakePlatform, type FakePlatform } from '../helpers/fake-platform.js';
import { startService, until, type Running } from '../helpers/service.js';

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

const submit = (params: Record<string, unknown>, wait = 8000) =>
  s.api(`/v1/tasks?wait=${wait}`, { method: 'POST', json: { source: 'fake', action: 'comments', params: { query: 'tree', force: true, ...params } } });
const pairs = (items: Array<{ cid: string; parent_id?: string }>) => items.map((c) => ({ cid: c.cid, ...(c.parent_id ? { parent_id: c.parent_id } : {}) }));
const replyHits = () => fake.hits.filter((h) => h.startsWith('GET /replies'));

/** Follows cursors until the walk ends; every call with the same params. */
async function collect(params: Record<string, unknown>) {
  const items: Array<{ cid: string; parent_id?: string }> = [];
  let cursor: string | undefined;
  for (let calls = 1; calls < 40; calls++) {
    const r = await submit({ ...params, ...(cursor ? { cursor } : {}) });
    expect(r.body.status).toBe('succeeded');
    items.push(...r.body.result.items);
    cursor = r.body.result.cursor;
    expect(r.body.result.has_more).toBe(cursor !== undefined);
    if (!cursor) return { items, calls };
  }
  throw new Error('the walk never ended');
}

describe('comments: replies none | first | all, max_items', () => {
  it('first (the default) keeps what the top-level pages carry; none drops the replies', async () => {
    const first = await submit({ limit: 100 });
    expect(first.body.result.items.map((c: any) => c.cid)).toEqual(TREE_FIRST);
    expect(first.body.result.items.find((c: any) => c.cid === 'r2a').parent_id).toBe('r2');
    const before = replyHits().length;
    const none = await submit({ replies: 'none', max_items: -1 });
    expect(pairs(none.body.result.items)).toEqual(TREE_ROOTS.map((cid) => ({ cid })));
    expect(none.body.progress).toEqual({ items: 6, pages: 3 });
    expect(replyHits().length).toBe(before);
  });

  it('all walks every thread: each root followed by its replies, parent_id on every reply, no duplicates', async () => {
    const before = replyHits().length;
    const r = await submit({ replies: 'all', max_items: -1 });
    const res = r.body.result;
    expect(pairs(res.items)).toEqual(TREE_ORDER);
    expect(res.items.find((c: any) => c.cid === 'r2d').parent_id).toBe('r2b'); // the reply it answers, as the platform says
    expect(new Set(res.items.map((c: any) => c.cid)).size).toBe(res.items.length);
    expect(res).toMatchObject({ source: 'live', has_more: false, total: TREE_ORDER.length });
    // 3 top-level pages; reply pages of r2 (3), r4 (2), r6 (1); r3's only reply was inline, r1 and r5 have none.
    expect(replyHits().slice(before).map((h) => new URL(h.slice(4), 'http://x').searchParams.get('root'))).toEqual(['r2', 'r2', 'r2', 'r4', 'r4', 'r6']);
    expect(r.body.progress).toEqual({ items: TREE_ORDER.length, pages: 9 });
  });

  it('limit caps the walk when max_items is absent, and its cursor resumes inside a thread', async () => {
    const r = await submit({ replies: 'all', limit: 4 });
    expect(r.body.result.items.map((c: any) => c.cid)).toEqual(TREE_ORDER.slice(0, 4).map((c) => c.cid));
    const rest = await submit({ replies: 'all', limit: 100, cursor: r.body.result.cursor });
    expect(pairs([...r.body.result.items, ...rest.body.result.items])).toEqual(TREE_ORDER);
  });

  it('any max_items boundary resumes exactly: the pieces add up to the whole tree', async () => {
    for (const step of [1, 2, 3, 5, 10]) {
      const { items, calls } = await collect({ replies: 'all', max_items: step });
      expect(pairs(items), `max_items ${step}`).toEqual(TREE_ORDER);
      // The walk knows where the tree ends: no call comes back empty.
      expect(calls).toBe(Math.ceil(TREE_ORDER.length / step));
    }
    const { items } = await collect({ replies: 'none', max_items: 4 });
    expect(items.map((c) => c.cid)).toEqual(TREE_ROOTS);
  });

  it('a reply page that fails keeps what was collected, warns, and the cursor resumes that thread', async () => {
    fake.treeFaults.set('r4:2', 'fail');
    try {
      const r = await submit({ replies: 'all', max_items: -1 });
      const res = r.body.result;
      const upTo = TREE_ORDER.findIndex((c) => c.cid === 'r4b') + 1;
      expect(pairs(res.items)).toEqual(TREE_ORDER.slice(0, upTo));
      expect(res.warnings.join('\n')).toMatch(/stopped after 6 page\(s\): upstream_error/);
      expect(res.has_more).toBe(true);
      fake.treeFaults.delete('r4:2');
      const rest = await submit({ replies: 'all', max_items: -1, cursor: res.cursor });
      expect(pairs([...res.items, ...rest.body.result.items])).toEqual(TREE_ORDER);
    } finally {
      fake.treeFaults.delete('r4:2');
    }
  });

  it('a thread the platform says is gone is skipped with a warning, and the walk goes on', async () => {
    fake.treeFaults.set('r4:1', 'gone');
    try {
      const r = await submit({ replies: 'all', max_items: -1 });
      expect(pairs(r.body.result.items)).toEqual(TREE_ORDER.filter((c) => c.parent_id !== 'r4'));
      expect(r.body.result.warnings).toContain('replies to comment r4 skipped: comment r4 is gone');
      expect(r.body.result.has_more).toBe(false);
    } finally {
      fake.treeFaults.delete('r4:1');
    }
  });

  it('a failing first page is the error result, never partial', async () => {
    fake.treeFaults.set('top:1', 'fail');
    try {
      const r = await submit({ replies: 'all', max_items: -1 });
      expect(r.body.result).toMatchObject({ source: 'live', items: [], error: { code: 'upstream_error' } });
    } finally {
      fake.treeFaults.delete('top:1');
    }
  });

  it('a cancelled walk stops at once, mid-thread', async () => {
    fake.treeFaults.set('r6:1', 'hang');
    try {
      const t = await submit({ replies: 'all', max_items: -1 }, 0);
      expect(t.status).toBe(202);
      await until(() => (fake.hanging > 0 ? true : undefined));
      const running = await s.api(`/v1/tasks/${t.body.task_id}`);
      // Progress comes per page: the last one before the hang ended r4's thread.
      expect(running.body.progress.items).toBeGreaterThanOrEqual(TREE_ORDER.findIndex((c) => c.cid === 'r4c') + 1);
      const hitsBefore = fake.hits.length;
      const cancelled = await s.api(`/v1/tasks/${t.body.task_id}/cancel`, { method: 'POST' });
      expect(cancelled.body.status).toBe('cancelled');
      await until(() => (fake.hanging === 0 ? true : undefined));
      expect(fake.hits.length).toBe(hitsBefore); // nothing asked after the cancel
    } finally {
      fake.treeFaults.delete('r6:1');
    }
  });

  it('replies and max_items are part of the cache key', async () => {
    const none = await s.api('/v1/tasks?wait=8000', { method: 'POST', json: { source: 'fake', action: 'comments', params: { query: 'tree', replies: 'none', limit: 50 } } });
    const all = await s.api('/v1/tasks?wait=8000', { method: 'POST', json: { source: 'fake', action: 'comments', params: { query: 'tree', replies: 'all', limit: 50 } } });
    expect(none.body.result.items).toHaveLength(TREE_ROOTS.length);
    expect(all.body.result.source).toBe('live');
    expect(all.body.result.items).toHaveLength(TREE_ORDER.length);
    const again = await s.api('/v1/tasks?wait=8000', { method: 'POST', json: { source: 'fake', action: 'comments', params: { query: 'tree', replies: 'all', limit: 50 } } });
    expect(again.body.result.source).toBe('cache');
    const walked = await s.api('/v1/tasks?wait=8000', { method: 'POST', json: { source: 'fake', action: 'comments', params: { query: 'tree', replies: 'all', limit: 50, max_items: 3 } } });
    expect(walked.body.result.source).toBe('live');
    expect(walked.body.result.items).toHaveLength(3);
  });

  it('bad replies or max_items: 400 invalid_request naming the param', async () => {
    for (const [params, name] of [
      [{ replies: 'deep' }, 'replies'],
      [{ replies: true }, 'replies'],
      [{ replies: '' }, 'replies'],
      [{ max_items: 0 }, 'max_items'],
      [{ max_items: -2 }, 'max_items'],
      [{ max_items: 10_001 }, 'max_items'],
      [{ max_items: 1.5 }, 'max_items'],
      [{ max_items: '5' }, 'max_items'],
    ] as const) {
      const r = await submit(params);
      expect(r.status, JSON.stringify(params)).toBe(400);
      expect(r.body).toMatchObject({ ok: false, error: { code: 'invalid_request', retryable: false } });
      expect(r.body.error.message).toContain(`params.${name}`);
    }
  });
});

describe('comments catalog', () => {
  const catalog = buildCatalog(new Registry());
  const comments = catalog.entries.filter((e) => e.name.endsWith('.comments'));

  it('every comments action takes replies (default first) and max_items', () => {
    expect(comments.length).toBeGreaterThan(10);
    for (const e of comments) {
      const replies = e.params.find((p) => p.name === 'replies');
      expect(replies, e.name).toMatchObject({ type: 'string', default: 'first' });
      expect(e.params.find((p) => p.name === 'max_items'), e.name).toMatchObject({ min: -1, max: 10_000 });
    }
  });

  it('replies all only where the platform has reply pages or sends the whole tree', () => {
    const withAll = comments.filter((e) => e.params.find((p) => p.name === 'replies')!.enum!.includes('all')).map((e) => e.group).sort();
    expect(withAll).toEqual(['bilibili', 'bluesky', 'douyin', 'instagram', 'kuaishou', 'mastodon', 'reddit', 'threads', 'tieba', 'tiktok', 'twitter', 'weibo', 'xiaohongshu', 'youtube', 'zhihu']);
    const facebook = comments.find((e) => e.group === 'facebook')!;
    expect(facebook.params.find((p) => p.name === 'replies')!.enum).toEqual(['none', 'first']);
  });
});
