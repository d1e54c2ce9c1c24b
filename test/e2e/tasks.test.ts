import { describe, expect, it } from 'vitest';
import type { FakePlatform } from '../helpers/fake-platform.js';
import { useFakeService } from '../helpers/fake-service.js';
import { until, type Running } from '../helpers/service.js';

let fake: FakePlatform;
let s: Running;
useFakeService((f, r) => ([fake, s] = [f, r]));

const submit = (params: Record<string, unknown>, action = 'search', wait = 8000) =>
  s.api(`/v1/tasks${wait === undefined ? '' : `?wait=${wait}`}`, { method: 'POST', json: { source: 'fake', action, params } });

describe('tasks over HTTP', () => {
  it('runs a crawl inline with wait and serves the same task by id', async () => {
    const r = await submit({ query: 'cats', limit: 12, force: true });
    expect(r.status).toBe(200);
    expect(r.body.status).toBe('succeeded');
    expect(r.body.attempts).toBe(1);
    expect(r.body.task_id).toMatch(/^t_/);
    expect(r.body.created_at).toMatch(/^\d{4}-\d\d-\d\dT/);
    const env = r.body.result;
    expect(env.ok).toBe(true);
    expect(env.source).toBe('live');
    expect(env.count).toBe(12);
    expect(env.items[0].id).toBe('fake:1001');
    expect(env.items[0].provenance).toBe('live');
    expect(env.items[0].author_url).toBe('https://fake.test/@fake');
    expect(env.items[0].thumb).toBe(`/v1/media?u=${encodeURIComponent('https://cdn.fake.test/i/1.jpg')}`);
    const video = env.items.find((i: any) => i.type === 'video');
    expect(video.media[0].url).toContain('kind=video&platform=fake&profile=default');
    expect(typeof env.next_cursor).toBe('string');
    const again = await s.api(`/v1/tasks/${r.body.task_id}`);
    expect(again.status).toBe(200);
    expect(again.body).toEqual(r.body);
  });

  it('answers 202 with a task id when not waiting, and the task finishes', async () => {
    const r = await submit({ query: 'dogs', force: true }, 'search', 0);
    expect(r.status).toBe(202);
    expect(Object.keys(r.body).sort()).toEqual(['status', 'task_id']);
    const done = await until(async () => {
      const t = await s.api(`/v1/tasks/${r.body.task_id}`);
      return t.body.status === 'succeeded' ? t.body : undefined;
    });
    expect(done.result.count).toBe(24);
  });

  it('pages with next_cursor without losing or repeating items across a limit that ends mid-page', async () => {
    const first = await submit({ query: 'paging', limit: 7 });
    const second = await submit({ query: 'paging', limit: 7, cursor: first.body.result.next_cursor });
    const third = await submit({ query: 'paging', limit: 20, cursor: second.body.result.next_cursor });
    const ids = [...first.body.result.items, ...second.body.result.items, ...third.body.result.items].map((i: any) => i.id);
    expect(ids).toEqual(Array.from({ length: 25 }, (_, i) => `fake:${1001 + i}`));
    expect(third.body.result.next_cursor).toBeUndefined();
  });

  it('serves repeats from cache with age and provenance, and bypasses it on force, cursor and max_age_s', async () => {
    const live = await submit({ query: 'cache-me', limit: 5 });
    expect(live.body.result.source).toBe('live');
    const hitsBefore = fake.hits.length;
    const cached = await submit({ query: 'cache-me', limit: 5 });
    expect(fake.hits.length).toBe(hitsBefore);
    expect(cached.status).toBe(200);
    expect(cached.body.result.source).toBe('cache');
    expect(cached.body.result.age_s).toBeGreaterThanOrEqual(0);
    expect(cached.body.result.items.every((i: any) => i.provenance === 'cache')).toBe(true);
    expect(cached.body.result.items.map((i: any) => i.id)).toEqual(live.body.result.items.map((i: any) => i.id));
    const forced = await submit({ query: 'cache-me', limit: 5, force: true });
    expect(forced.body.result.source).toBe('live');
    expect(fake.hits.length).toBe(hitsBefore + 1);
    await new Promise((r) => setTimeout(r, 1100));
    const stale = await submit({ query: 'cache-me', limit: 5, max_age_s: 0 });
    expect(stale.body.result.source).toBe('live');
    const fresh = await submit({ query: 'cache-me', limit: 5, max_age_s: 60 });
    expect(fresh.body.result.source).toBe('cache');
    // A different limit is a different result.
    const other = await submit({ query: 'cache-me', limit: 6 });
    expect(other.body.result.source).toBe('live');
  });

  it('says empty only for a real no-results answer, and blocked for a captcha, never caching either error', async () => {
    const empty = await submit({ query: 'nothing' });
    expect(empty.body.result).toMatchObject({ ok: true, source: 'empty', count: 0, items: [] });
    const blocked = await submit({ query: 'captcha' });
    expect(blocked.body.status).toBe('succeeded');
    expect(blocked.body.result).toMatchObject({ ok: false, source: 'blocked', count: 0, error: { code: 'blocked', retryable: true } });
    const hits = fake.hits.length;
    const blockedAgain = await submit({ query: 'captcha' });
    expect(blockedAgain.body.result.source).toBe('blocked');
    expect(fake.hits.length).toBe(hits + 1);
    const down = await submit({ query: 'boom' });
    expect(down.body.result).toMatchObject({ ok: false, error: { code: 'upstream_error' } });
  });

  it('retries a blocked task under the same id, and refuses to retry a good one', async () => {
    const blocked = await submit({ query: 'captcha', force: true });
    const retried = await s.api(`/v1/tasks/${blocked.body.task_id}/retry`, { method: 'POST' });
    expect(retried.status).toBe(200);
    expect(retried.body.task_id).toBe(blocked.body.task_id);
    expect(retried.body.attempts).toBe(2);
    const done = await until(async () => {
      const t = await s.api(`/v1/tasks/${blocked.body.task_id}`);
      return t.body.status === 'succeeded' ? t.body : undefined;
    });
    expect(done.attempts).toBe(2);
    const good = await submit({ query: 'fine', force: true });
    const refused = await s.api(`/v1/tasks/${good.body.task_id}/retry`, { method: 'POST' });
    expect(refused.status).toBe(409);
    expect(refused.body).toMatchObject({ ok: false, error: { code: 'invalid_request' } });
  });

  it('cancels a running crawl, frees its account slot at once, and is idempotent', async () => {
    const slow = await submit({ query: 'slow', force: true }, 'search', 0);
    await until(() => (fake.hanging > 0 ? true : undefined));
    const queuedBehind = await submit({ query: 'after-slow', force: true }, 'search', 0);
    const still = await s.api(`/v1/tasks/${queuedBehind.body.task_id}`);
    expect(still.body.status).toBe('queued'); // one slot per account: waits behind the slow one
    const cancelled = await s.api(`/v1/tasks/${slow.body.task_id}/cancel`, { method: 'POST' });
    expect(cancelled.status).toBe(200);
    expect(cancelled.body.status).toBe('cancelled');
    expect(cancelled.body.finished_at).toBeTruthy();
    const next = await until(async () => {
      const t = await s.api(`/v1/tasks/${queuedBehind.body.task_id}`);
      return t.body.status === 'succeeded' ? t.body : undefined;
    });
    expect(next.result.source).toBe('live');
    await until(() => (fake.hanging === 0 ? true : undefined));
    const again = await s.api(`/v1/tasks/${slow.body.task_id}`, { method: 'DELETE' });
    expect(again.status).toBe(200);
    expect(again.body.status).toBe('cancelled');
    const retried = await s.api(`/v1/tasks/${slow.body.task_id}/retry`, { method: 'POST' });
    expect(retried.body.status).not.toBe('cancelled');
    await s.api(`/v1/tasks/${slow.body.task_id}/cancel`, { method: 'POST' });
  });

  it('walks a back catalogue with max_items and reports progress', async () => {
    const all = await submit({ query: 'creator', max_items: -1 }, 'posts');
    expect(all.body.result.count).toBe(45);
    expect(all.body.progress).toEqual({ items: 45, pages: 5 });
    expect(all.body.result.next_cursor).toBeUndefined();
    const some = await submit({ query: 'creator', max_items: 15 }, 'posts');
    expect(some.body.result.count).toBe(15);
    expect(some.body.result.next_cursor).toBeTruthy();
  });

  it('filters server-side and warns about items it could not judge', async () => {
    const vids = await submit({ query: 'filters', media: 'video', limit: 5 });
    expect(vids.body.result.items.every((i: any) => i.type === 'video')).toBe(true);
    expect(vids.body.result.count).toBe(5);
    const long = await submit({ query: 'filters', min_duration_s: 10, limit: 3 });
    expect(long.body.result.items.every((i: any) => i.duration_s >= 10)).toBe(true);
    expect(long.body.result.warnings.join(' ')).toMatch(/no a duration|could not be judged/);
    const portrait = await submit({ query: 'filters', orientation: 'portrait', limit: 3 });
    expect(portrait.body.result.items.every((i: any) => i.aspect.height > i.aspect.width)).toBe(true);
  });

  it('returns the other result shapes: user, comments with threaded replies, trending', async () => {
    const user = await submit({ query: 'fake' }, 'user');
    expect(user.body.result).toMatchObject({ ok: true, source: 'live', items: [], data: { platform: 'fake', author: { id: '42', followers: 1234 } } });
    const ghost = await submit({ query: 'ghost' }, 'user');
    expect(ghost.body.result).toMatchObject({ ok: false, error: { code: 'not_found', retryable: false } });
    const comments = await submit({ query: 'p1', limit: 3 }, 'comments');
    const c = comments.body.result;
    expect(c.ok).toBeUndefined();
    expect(c).toMatchObject({ source: 'live', total: 4, has_more: true });
    expect(c.items.map((x: any) => [x.cid, x.parent_id])).toEqual([['c1', undefined], ['c2', 'c1'], ['c3', undefined]]);
    const rest = await submit({ query: 'p1', limit: 3, cursor: c.cursor }, 'comments');
    expect(rest.body.result.items.map((x: any) => x.cid)).toEqual(['c4']);
    expect(rest.body.result.has_more).toBe(false);
    const trends = await submit({}, 'trending');
    expect(trends.body.result.data.trends).toEqual([
      { word: 'alpha', source: 'fake', rank: 1 },
      { word: 'beta', source: 'fake', rank: 2 },
    ]);
    const hot = await submit({ category: 'news' }, 'hot');
    expect(hot.body.result.ok).toBe(true);
    const badCat = await submit({ category: 'nope' }, 'hot');
    expect(badCat.status).toBe(400);
    expect(badCat.body.error.message).toMatch(/params\.category/);
  });
});
