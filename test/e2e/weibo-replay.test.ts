import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CommentsResultSchema, CreatorResultSchema, EnvelopeSchema, TrendResultSchema } from '../../src/domain/results.js';
import { startService, until, type Running } from '../helpers/service.js';

const FIXTURES = resolve(process.cwd(), '../shared/fixtures/weibo');
const SANDBOX = resolve(process.cwd(), 'sandbox/weibo');
const CDN = resolve(process.cwd(), 'sandbox/media');
let s: Running;

beforeAll(async () => {
  s = await startService({ config: { replay: [FIXTURES, SANDBOX, CDN] } });
});
afterAll(async () => {
  await s?.close();
});

const run = async (action: string, params: Record<string, unknown> = {}) => {
  const r = await s.api('/v1/tasks?wait=8000', { method: 'POST', json: { source: 'weibo', action, params: { force: true, ...params } } });
  expect(r.status, JSON.stringify(r.body).slice(0, 300)).toBe(200);
  return r.body;
};

describe('weibo end to end in replay mode, over HTTP', () => {
  it('says it is replaying', async () => {
    const h = await s.api('/v1/health', { token: null });
    expect(h.body.replay).toBe(true);
  });

  it('keeps the pages the recordings hold when a walk runs past them, and says where they end', async () => {
    const t = await run('posts', { query: '6279793937' });
    expect(t.status).toBe('succeeded');
    const env = EnvelopeSchema.parse(t.result);
    expect(env.count).toBeGreaterThanOrEqual(10);
    expect(env.next_cursor).toBeTruthy();
    expect(env.warnings?.join(' ')).toMatch(/stopped after \d+ page\(s\): replay: no recording matches GET https:\/\/m\.weibo\.cn/);
  });

  it('posts: a creator timeline with a cursor, service-hosted media, and a replay warning', async () => {
    const t = await run('posts', { query: 'https://weibo.com/u/6279793937', limit: 5 });
    expect(t.status).toBe('succeeded');
    const env = EnvelopeSchema.parse(t.result);
    expect(env.source).toBe('live');
    expect(env.count).toBe(5);
    expect(env.items.every((i) => i.id.startsWith('weibo:') && i.author_id === '6279793937')).toBe(true);
    expect(env.items.every((i) => !i.thumb || i.thumb.startsWith('/v1/media?u='))).toBe(true);
    expect(JSON.stringify(env.items)).not.toMatch(/"(thumb|url)":"https?:\/\/[^"]*sinaimg/);
    expect(env.next_cursor).toBeTruthy();
    expect(env.warnings?.join(' ')).toMatch(/replayed/);
  });

  it('user, detail, comments, hot and trending answer in their shapes', async () => {
    const user = CreatorResultSchema.parse((await run('user', { query: '6279793937' })).result);
    expect(user.data?.author).toMatchObject({ id: '6279793937', followers: expect.any(Number) });
    const detail = EnvelopeSchema.parse((await run('detail', { query: '4645748019299849' })).result);
    expect(detail.count).toBe(1);
    expect(detail.items[0].id).toBe('weibo:4645748019299849');
    expect(detail.items[0].media.some((m) => m.kind === 'video' && m.url.includes('kind=video'))).toBe(true);
    const comments = CommentsResultSchema.parse((await run('comments', { query: '4383183661430868', limit: 50 })).result);
    expect(comments.items.length).toBeGreaterThan(0);
    expect(comments.items.some((c) => c.parent_id)).toBe(true);
    const hot = EnvelopeSchema.parse((await run('hot')).result);
    expect(hot.count).toBeGreaterThan(0);
    const trending = TrendResultSchema.parse((await run('trending')).result);
    expect(trending.data?.trends[0].rank).toBe(1);
  });

  it("maps weibo's own outcomes: an empty profile is empty, the visitor wall is session_expired", async () => {
    const empty = await run('user', { query: '000' });
    expect(empty.result).toMatchObject({ ok: true, source: 'empty' });
    const board = TrendResultSchema.parse((await run('trending', { board: 'topicband' })).result);
    expect(board.data?.trends.length).toBeGreaterThan(10);
  });

  it('fails the task loudly when no recording answers, naming the request', async () => {
    const t = await run('user', { query: '1234567890' });
    expect(t.status).toBe('failed');
    expect(t.error).toMatchObject({ code: 'upstream_error', retryable: false });
    expect(t.error.message).toMatch(/replay: no recording matches GET https:\/\/m\.weibo\.cn\/.*1234567890/);
  });

  it('detail of a video post → service-hosted media and preview, all answered by replay', async () => {
    const har = JSON.parse(readFileSync(resolve(CDN, 'weibo-cdn.har'), 'utf8'));
    const jpg = Buffer.from(har.log.entries[0].response.content.text, 'base64');
    const mp4 = Buffer.from(har.log.entries[1].response.content.text, 'base64');
    const t = await run('detail', { query: '4645748019299849' });
    const item = EnvelopeSchema.parse(t.result).items[0];
    expect(item.preview).toMatchObject({ url: '/v1/preview?platform=weibo&id=4645748019299849', h: 240, w: 426, status: 'pending' });
    expect(item.preview!.seconds).toBeCloseTo(103.165, 2);
    const thumb = await fetch(`${s.base}${item.thumb}`);
    expect(thumb.status).toBe(200);
    expect(Buffer.from(await thumb.arrayBuffer()).equals(jpg)).toBe(true);
    const token = await s.token(['read']);
    const video = item.media.find((m) => m.kind === 'video')!;
    const part = await fetch(`${s.base}${video.url}`, { headers: { authorization: `Bearer ${token}`, range: 'bytes=100-299' } });
    expect(part.status).toBe(206);
    expect(part.headers.get('content-range')).toBe(`bytes 100-299/${mp4.length}`);
    expect(Buffer.from(await part.arrayBuffer()).equals(mp4.subarray(100, 300))).toBe(true);
    const head = await fetch(`${s.base}${video.url}`, { method: 'HEAD', headers: { authorization: `Bearer ${token}` } });
    expect(head.status).toBe(200);
    expect(head.headers.get('content-length')).toBe(String(mp4.length));
    const clip = await until(async () => {
      const r = await fetch(`${s.base}${item.preview!.url}`);
      const body = Buffer.from(await r.arrayBuffer());
      if (r.status === 404) throw new Error(body.toString());
      return r.status === 200 ? body : undefined;
    }, 60_000, 200);
    expect(clip.subarray(4, 8).toString()).toBe('ftyp');
    expect(clip.indexOf('moov')).toBeLessThan(clip.indexOf('mdat'));
  });

  it('answers a media URL no recording holds with 502, naming it, and says asking again will not help', async () => {
    const t = await run('posts', { query: 'https://weibo.com/u/6279793937', limit: 5 });
    const recorded = EnvelopeSchema.parse(t.result).items.map((i) => i.thumb).find((u) => u && !u.includes('crop.0.33.960.533'));
    expect(recorded).toBeTruthy();
    // The same CDN host, a file no recording holds.
    const thumb = recorded!.replace(/\.jpg/, '-unrecorded.jpg');
    expect(thumb).not.toBe(recorded);
    const r = await fetch(`${s.base}${thumb}`);
    expect(r.status).toBe(502);
    expect(r.headers.get('x-content-type-options')).toBe('nosniff');
    expect(await r.json()).toMatchObject({ ok: false, error: { code: 'upstream_error', retryable: false, message: expect.stringMatching(/^replay: no recording matches GET https:\/\//) } });
  });
});
