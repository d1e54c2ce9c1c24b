import { resolve } from 'node:path';
import { afterAll, beforeAll, describe, expect, expectTypeOf, it } from 'vitest';
import { CrawlerClient, CrawlerError, type Comment, type CommentsResult, type Envelope, type Item, type Task, type TrendResult } from '../../client/dist/index.js';
import { startService, type Running } from '../helpers/service.js';

/* The built client (client/dist) against the real service answering from the project's sandbox recordings. */
let s: Running;
let client: CrawlerClient;

beforeAll(async () => {
  s = await startService({ config: { replay: [resolve(process.cwd(), 'sandbox')] } });
  client = new CrawlerClient({ url: s.base, token: await s.token(['read', 'write']) });
});
afterAll(async () => {
  await s?.close();
});

const WEIBO = { source: 'weibo', action: 'posts', params: { query: '6279793937', limit: 5 } } as const;
const THREAD = 'https://www.reddit.com/r/MechanicalKeyboards/comments/1kq4x1e/';

async function caught(p: Promise<unknown> | (() => Promise<unknown>)): Promise<CrawlerError> {
  try {
    await (typeof p === 'function' ? p() : p);
  } catch (e) {
    expect(e).toBeInstanceOf(CrawlerError);
    return e as CrawlerError;
  }
  throw new Error('expected a CrawlerError');
}

describe('submit, get, wait', () => {
  it('submit with an inline wait answers the whole task, its result typed by the action', async () => {
    const t = await client.submit(WEIBO, { wait: 8000 });
    expect(t.status).toBe('succeeded');
    const task = t as Task<Envelope>;
    expectTypeOf(task.result).toEqualTypeOf<Envelope | undefined>();
    expect(task.result!.count).toBe(5);
    expect(task.result!.items[0]!.id).toMatch(/^weibo:\d+$/);
    expect(task.result!.next_cursor).toBeTruthy();
  });

  it('submit without wait answers the acceptance; get and wait(id) follow it to the end', async () => {
    const accepted = await client.submit({ source: 'mastodon', action: 'trending' });
    expect(accepted).toEqual({ task_id: expect.stringMatching(/^t_/), status: 'queued' });
    const done = await client.wait(accepted.task_id, { timeoutMs: 10_000 });
    expect(done.status).toBe('succeeded');
    if (done.action !== 'trending') throw new Error(`unexpected action ${done.action}`);
    expectTypeOf(done.result).toEqualTypeOf<TrendResult | undefined>();
    expect(done.result!.data!.trends[0]).toMatchObject({ word: '#otters', rank: 1 });
    const again = await client.get(accepted.task_id);
    expect(again).toEqual(done);
  });

  it('wait(task) submits with the inline wait and answers the finished task', async () => {
    const t = await client.wait({ source: 'reddit', action: 'comments', params: { query: THREAD, limit: 3 } });
    expectTypeOf(t.result).toEqualTypeOf<CommentsResult | undefined>();
    expect(t.result!.items).toHaveLength(3);
    expect(t.result!.has_more).toBe(true);
  });

  it('a write verb without confirm answers its plan (typed for write actions), nothing queued', async () => {
    const plan = await client.submit({ source: 'mastodon', action: 'post.create', params: { text: 'hello from the client' } });
    expect(plan.status).toBe('needs_confirmation');
    if (plan.status !== 'needs_confirmation') throw new Error('no plan');
    expect(plan.plan.action).toBe('mastodon.post.create');
    const dry = await client.wait({ source: 'mastodon', action: 'post.create', params: { text: 'hi', dry_run: true } });
    expect(dry.status).toBe('succeeded');
    if (dry.status === 'needs_confirmation') throw new Error('dry_run needs no confirmation');
    expect(dry.result).toMatchObject({ ok: true, state: 'planned' });
  });

  it('list answers the caller’s tasks newest first, filtered', async () => {
    const mine = await client.list({ source: 'weibo', limit: 100 });
    expect(mine.tasks.length).toBeGreaterThan(0);
    expect(mine.tasks.every((t) => t.source === 'weibo' && !('result' in t))).toBe(true);
    const one = await client.list({ limit: 1 });
    expect(one.tasks).toHaveLength(1);
    expect(one.next_cursor).toBeTruthy();
    const next = await client.list({ limit: 1, cursor: one.next_cursor });
    expect(next.tasks[0]!.task_id).not.toBe(one.tasks[0]!.task_id);
  });
});

describe('walk', () => {
  it('follows next_cursor task by task and yields every item once', async () => {
    const pages = [];
    for await (const page of client.pages('weibo', 'posts', { query: '6279793937', limit: 5 })) pages.push(page);
    expect(pages.map((p) => p.result.items.length)).toEqual([5, 2]);
    expect(pages[1]!.task.params.cursor).toBe(pages[0]!.result.next_cursor);
    const items: Item[] = [];
    for await (const item of client.walk('weibo', 'posts', { query: '6279793937', limit: 5 })) items.push(item);
    expect(new Set(items.map((i) => i.id)).size).toBe(7);
  });

  it('stops at maxItems in pages mode', async () => {
    const items: Item[] = [];
    for await (const item of client.walk('weibo', 'posts', { query: '6279793937', limit: 5 }, { maxItems: 6, mode: 'pages' })) items.push(item);
    expect(items).toHaveLength(6);
  });

  it('runs one max_items task on the server for an action that takes max_items, reporting progress', async () => {
    const progress: Array<{ items: number; pages: number }> = [];
    const tasks: string[] = [];
    const items: Item[] = [];
    for await (const item of client.walk('weibo', 'posts', { query: '6279793937', force: true }, { maxItems: -1, onProgress: (p) => progress.push(p), onTask: (id) => tasks.push(id) })) items.push(item);
    expect(tasks).toHaveLength(1);
    expect(items).toHaveLength(7);
    const task = await client.get(tasks[0]!);
    expect(task.params.max_items).toBe(-1);
    expect(progress.at(-1)).toMatchObject({ items: 7, pages: 2, task_id: tasks[0] });
  });

  it('walks comments by their cursor', async () => {
    const comments: Comment[] = [];
    for await (const c of client.walk('reddit', 'comments', { query: THREAD, limit: 4 })) comments.push(c);
    expectTypeOf(comments[0]!).toEqualTypeOf<Comment>();
    expect(comments.length).toBeGreaterThan(4);
    expect(new Set(comments.map((c) => c.cid)).size).toBe(comments.length);
  });

  it('ends without an error on an honest empty answer', async () => {
    const items: Item[] = [];
    for await (const item of client.walk('reddit', 'search', { query: 'zxqv no such words anywhere' })) items.push(item);
    expect(items).toEqual([]);
  });
});

describe('CrawlerError', () => {
  it('carries the spec code, the HTTP status and retryable for every refusal', async () => {
    const noToken = await caught(new CrawlerClient({ url: s.base }).catalog());
    expect([noToken.code, noToken.status, noToken.retryable]).toEqual(['auth_required', 401, false]);
    const bad = await caught(new CrawlerClient({ url: s.base, token: 'crw_not_a_token' }).get('t_x'));
    expect(bad.code).toBe('auth_required');
    const unsupported = await caught(client.submit({ source: 'tiktok', action: 'trending' }));
    expect([unsupported.code, unsupported.status]).toEqual(['unsupported', 404]);
    const invalid = await caught(client.submit({ source: 'weibo', action: 'posts', params: { query: 'x', limit: 1000 } }));
    expect([invalid.code, invalid.status, invalid.retryable]).toEqual(['invalid_request', 400, false]);
    expect(invalid.message).toMatch(/params\.limit/);
    const unknown = await caught(client.get('t_0000000000000000000000000'));
    expect([unknown.code, unknown.status]).toEqual(['not_found', 404]);
    const readOnly = new CrawlerClient({ url: s.base, token: await s.token(['read']) });
    const scope = await caught(readOnly.submit({ source: 'mastodon', action: 'post.create', params: { text: 'x', confirm: true } }));
    expect([scope.code, scope.status]).toEqual(['forbidden_scope', 403]);
    const tooLong = await caught(client.submit(WEIBO, { wait: 9000 }));
    expect(tooLong.code).toBe('invalid_request');
  });

  it('turns a crawl error inside a succeeded task into the same class, with the task', async () => {
    const e = await caught(async () => {
      for await (const _ of client.walk('reddit', 'hot', { subreddit: 'AskHistorians' })) break;
    });
    expect([e.code, e.retryable, e.status]).toEqual(['blocked', true, 0]);
    expect(e.details.task_id).toMatch(/^t_/);
    expect((e.details.result as Envelope).source).toBe('blocked');
  });

  it('turns a failed task into its error (a request no recording answers is not retryable)', async () => {
    const e = await caught(async () => {
      for await (const _ of client.walk('reddit', 'posts', { query: 'r/AskHistorians' })) break;
    });
    expect([e.code, e.retryable]).toEqual(['upstream_error', false]);
    expect((e.details.task as Task).status).toBe('failed');
  });

  it('is network_error (retryable) when nothing answers', async () => {
    const e = await caught(new CrawlerClient({ url: 'http://127.0.0.1:9' }).health());
    expect([e.code, e.status, e.retryable]).toEqual(['network_error', 0, true]);
  });
});

describe('catalog and media helpers', () => {
  it('reads the catalog, the capabilities, the categories and the health', async () => {
    const catalog = await client.catalog();
    expect(catalog.some((e) => e.name === 'weibo.posts')).toBe(true);
    expect((await client.entry('weibo', 'posts'))!.params.map((p) => p.name)).toContain('max_items');
    expect(await client.entry('weibo', 'no-such-action')).toBeUndefined();
    const caps = await client.capabilities();
    expect(caps.providers.find((p) => p.source === 'mastodon')!.write).toBe(true);
    expect((await client.categories('douyin')).categories.length).toBeGreaterThan(0);
    const health = await new CrawlerClient({ url: s.base }).health();
    expect(health).toMatchObject({ ok: true, replay: true });
  });

  it('resolves service-hosted media URLs against the base, and they load', async () => {
    const t = (await client.wait(WEIBO)) as Task<Envelope>;
    const item = t.result!.items.find((i) => i.thumb)!;
    const url = client.mediaUrl(item.thumb!);
    expect(url.startsWith(`${s.base}/v1/media?u=`)).toBe(true);
    const res = await fetch(url);
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toMatch(/^image\//);
    await res.arrayBuffer();
  });

  it('builds preview URLs from an item or a platform and native id', async () => {
    const t = (await client.wait(WEIBO)) as Task<Envelope>;
    const video = t.result!.items.find((i) => i.type === 'video')!;
    expect(client.previewUrl(video)).toBe(client.mediaUrl(video.preview!.url));
    expect(client.previewUrl('weibo', '4645748019299849')).toBe(`${s.base}/v1/preview?platform=weibo&id=4645748019299849`);
    expect(client.previewUrl({ id: 'weibo:4645748019299849' })).toBe(`${s.base}/v1/preview?platform=weibo&id=4645748019299849`);
    const res = await fetch(client.previewUrl(video), { method: 'HEAD' });
    expect([200, 202]).toContain(res.status);
    const behindProxy = new CrawlerClient({ url: 'https://example.test/crawler/', fetch: async () => new Response('{}') });
    expect(behindProxy.mediaUrl('/v1/media?u=x')).toBe('https://example.test/crawler/v1/media?u=x');
    expect(behindProxy.mediaUrl('https://cdn.example.test/a.jpg')).toBe('https://cdn.example.test/a.jpg');
  });
});

describe('batches, exports and watches', () => {
  it('submits a batch (refusals by index), follows it, and streams a task export', async () => {
    const b = await client.batch([WEIBO, { source: 'weibo', action: 'posts', params: { query: '6279793937', limit: 'x' as unknown as number } }]);
    expect(b.accepted).toBe(1);
    expect(b.refused).toEqual([{ index: 1, error: expect.objectContaining({ code: 'invalid_request' }) }]);
    const id = b.tasks[0]!.task_id;
    await client.wait(id);
    const batch = await client.getBatch(b.batch_id);
    expect(batch).toMatchObject({ batch_id: b.batch_id, total: 1, task_ids: [id], counts: { succeeded: 1 } });
    expect((await client.retryBatch(b.batch_id)).retried).toEqual([]);
    const jsonl = await client.export(id);
    expect(jsonl.headers.get('content-type')).toMatch(/ndjson/);
    const rows = (await jsonl.text()).trim().split('\n').map((l) => JSON.parse(l) as Item);
    expect(rows).toHaveLength(5);
    expect(rows[0]!.id).toMatch(/^weibo:/);
    const csv = await (await client.export(id, { format: 'csv' })).text();
    expect(csv.split('\r\n')[0]).toMatch(/^id,/);
    expect((await caught(client.export('t_nope'))).code).toBe('not_found');
  });

  it('creates, lists, changes, exports and deletes a watch', async () => {
    const w = await client.createWatch({ source: 'weibo', action: 'posts', params: { query: '6279793937', limit: 5 }, every_s: 3600, paused: true });
    expect(w).toMatchObject({ source: 'weibo', action: 'posts', every_s: 3600, paused: true, failures: 0 });
    expect((await client.listWatches()).watches.map((x) => x.watch_id)).toContain(w.watch_id);
    expect(await client.updateWatch(w.watch_id, { every_s: 900, full_page: true })).toMatchObject({ every_s: 900, full_page: true, paused: true });
    expect((await client.getWatch(w.watch_id)).recent_runs).toEqual([]);
    // Paused since creation: nothing collected yet, so the export is the CSV header alone.
    expect((await (await client.export({ watch: w.watch_id }, { format: 'csv' })).text()).trim()).toMatch(/^id,[^\r\n]*$/);
    expect((await caught(client.createWatch({ source: 'weibo', action: 'posts', every_s: 60 }))).code).toBe('invalid_request');
    await client.deleteWatch(w.watch_id);
    expect((await caught(client.getWatch(w.watch_id))).code).toBe('not_found');
  });
});
