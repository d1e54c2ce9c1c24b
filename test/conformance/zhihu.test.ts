import { readFileSync, readdirSync } from 'node:fs';
import { resolve } from 'node:path';
import pino from 'pino';
import type { Dispatcher } from 'undici';
import { afterAll, describe, expect, it } from 'vitest';
import { LocalPacer } from '../../src/crawl/pacer-local.js';
import { loadRecordings } from '../../src/crawl/replay/har.js';
import { ReplayDispatcher } from '../../src/crawl/replay/dispatcher.js';
import type { CommentsResult, CreatorResult, Envelope, TrendResult } from '../../src/domain/results.js';
import { apiGet } from '../../src/platforms/zhihu/api.js';
import { zhihu } from '../../src/platforms/zhihu/index.js';
import { zse96 } from '../../src/platforms/zhihu/zse.js';
import type { CrawlContext, ItemsAction, PageSigning } from '../../src/platforms/types.js';
import { Registry } from '../../src/platforms/registry.js';
import { makeContext, MemoryMemo } from '../../src/tasks/context.js';
import { decodeCursor } from '../../src/tasks/cursor.js';
import { probeCtx } from '../helpers/probe-ctx.js';
import { runAction } from '../helpers/run-action.js';

/*
 * Every zhihu recording, replayed through the real catalog validation, adapter and normalization. The real
 * ones (fixtures/zhihu) are the member profile, three hot lists (2021 mobile total and video, 2026 total),
 * the topsearch page, the app's people search and two refused-signature answers; the hand-made sandbox
 * (sandbox/zhihu) covers what no real recording does: web search, posts, detail (API and page), comments
 * and replies, the desktop hot-list shape, the 401 hot list, the hot words API, the guest d_c0 and the errors.
 */

const FIXTURES = resolve(process.cwd(), '../shared/fixtures/zhihu');
const SANDBOX = resolve(process.cwd(), 'sandbox/zhihu');
const used = new Set<string>();
const usedSandbox = new Set<string>();
const real = (name: string): string => (used.add(name), resolve(FIXTURES, name));
const sand = (name: string): string => (usedSandbox.add(name), resolve(SANDBOX, name));
const entry = (file: string, i = 0): any => JSON.parse(readFileSync(file, 'utf8')).log.entries[i];
const body = (file: string, i = 0): any => JSON.parse(entry(file, i).response.content.text);
const origin = (serviceUrl: string): string => new URL(serviceUrl, 'http://x').searchParams.get('u')!;
const MINTED_DC0 = '"AABSandboxDeviceCookie00000000000000000=|1763600000"';

const run = (action: string, params: Record<string, unknown>, replay: string[], extra: Partial<Parameters<typeof runAction>[0]> = {}) =>
  runAction({ source: 'zhihu', action, params, replay, ...extra });

/** A signature is "2.0_" + zse_v4 with a random first byte: it must be one of the 127 the signer can give. */
function signedOver(sig: string | undefined, path: string, dc0: string): boolean {
  if (!sig) return false;
  for (let lead = 0; lead < 127; lead++) if (zse96(path, dc0, undefined, lead) === sig) return true;
  return false;
}

/** The adapter run against recordings with every request's headers kept (runAction keeps only URLs). */
function headerCtx(files: string[], extra: { cookies?: string; signer?: PageSigning; signModes?: ReadonlyMap<string, 'native' | 'browser' | 'auto'> } = {}) {
  const registry = new Registry();
  const sent: Array<{ url: string; headers: Record<string, string> }> = [];
  const replay = new ReplayDispatcher({ recordings: loadRecordings(files), rulesFor: (h) => registry.forHost(h)?.replay });
  const original = replay.dispatch.bind(replay);
  replay.dispatch = (opts: Dispatcher.DispatchOptions, handler: Dispatcher.DispatchHandler) => {
    const headers: Record<string, string> = {};
    const raw = opts.headers as unknown;
    if (Array.isArray(raw)) for (let i = 0; i + 1 < raw.length; i += 2) headers[String(raw[i]).toLowerCase()] = String(raw[i + 1]);
    else if (raw && typeof raw === 'object') for (const [k, v] of Object.entries(raw as Record<string, string>)) headers[k.toLowerCase()] = String(v);
    sent.push({ url: new URL(String(opts.path), String(opts.origin)).toString(), headers });
    return original(opts, handler);
  };
  const warnings: string[] = [];
  const ctx: CrawlContext = makeContext({
    adapter: zhihu,
    profile: 'default',
    cookies: extra.cookies,
    memo: new MemoryMemo(),
    dispatcher: replay,
    signer: extra.signer,
    signModes: extra.signModes,
    pacer: new LocalPacer(),
    gapMs: 0,
    signal: new AbortController().signal,
    log: pino({ level: 'silent' }),
    warnings,
  });
  return { ctx, sent, warnings };
}

describe('zhihu on real recordings', () => {
  it('user: the 2022 members answer gives id, url_token, name, headline, avatar and the profile URL', async () => {
    const file = real('user-houziliaorenwu.har');
    const raw = body(file);
    const { result, requests } = await run('user', { query: 'https://www.zhihu.com/people/houziliaorenwu' }, [file]);
    const r = result as CreatorResult;
    expect(r.ok).toBe(true);
    expect(r.source).toBe('live');
    expect(r.data!.author).toEqual({
      id: raw.id,
      source: 'zhihu',
      handle: 'houziliaorenwu',
      name: '猴子',
      bio: raw.headline,
      avatar: `/v1/media?u=${encodeURIComponent(raw.avatar_url)}`,
      url: 'https://www.zhihu.com/people/houziliaorenwu',
    });
    // Counts the answer did not carry stay absent (not reported), never 0.
    expect(r.data!.author.followers).toBeUndefined();
    const sent = new URL(requests.find((x) => x.includes('/api/v4/members/'))!.slice(4));
    expect(sent.pathname).toBe('/api/v4/members/houziliaorenwu');
    expect(sent.searchParams.get('include')).toContain('follower_count');
  });

  it('hot (total, 2026): every card becomes its question, with the title, excerpt and cover; the heat stays out of stats', async () => {
    const file = real('hot-lists-total-2026-07-10.har');
    const raw = body(file);
    const { result, requests } = await run('hot', { limit: 30 }, [file]);
    const env = result as Envelope;
    expect(env.ok).toBe(true);
    expect(env.items).toHaveLength(30);
    expect(env.items.map((i) => i.url)).toEqual(raw.data.map((d: any) => d.target.link.url));
    expect(env.items.map((i) => i.id)).toEqual(raw.data.map((d: any) => `zhihu:question:${d.target.link.url.split('/').pop()}`));
    const first = env.items[0]!;
    const t = raw.data[0].target;
    expect(first).toMatchObject({ type: 'text', title: t.title_area.text, text: t.excerpt_area.text, stats: {}, media: [] });
    expect(origin(first.thumb!)).toBe(t.image_area.url);
    expect(requests.at(-1)).toBe('GET https://www.zhihu.com/api/v3/feed/topstory/hot-lists/total?limit=50');
    expect(env.next_cursor).toBeUndefined();
  });

  it('hot (total, 2021): the video card leads as a video item with its author; questions follow', async () => {
    const file = real('hot-lists-total-2021-01-14.har');
    const raw = body(file);
    const { result } = await run('hot', { category: 'total', limit: 50 }, [file]);
    const env = result as Envelope;
    expect(env.items).toHaveLength(raw.data.length);
    const v = env.items[0]!;
    const a = raw.data[0].target.author_area;
    expect(v).toMatchObject({ id: 'zhihu:zvideo:1332714297550991360', type: 'video', author: a.name, author_id: a.id, author_handle: a.url_token, author_url: `https://www.zhihu.com/people/${a.url_token}` });
    expect(v.media).toEqual([]);
    expect(env.items.slice(1).every((i) => i.type === 'text' && i.id.startsWith('zhihu:question:'))).toBe(true);
    expect(env.items[1]!.title).toBe(raw.data[1].target.title_area.text);
  });

  it('hot (zvideo category): the 2021 video list, all videos', async () => {
    const file = real('hot-lists-zvideo-2021-01-14.har');
    const raw = body(file);
    const { result, requests } = await run('hot', { category: 'zvideo', limit: 50 }, [file]);
    const env = result as Envelope;
    expect(env.items.map((i) => i.url)).toEqual(raw.data.map((d: any) => d.target.link.url));
    expect(env.items.every((i) => i.type === 'video')).toBe(true);
    expect(requests).toContain('GET https://www.zhihu.com/api/v3/feed/topstory/hot-lists/zvideo?limit=50');
  });

  it('trending: when the hot-words API is not there, the topsearch page (js-initialData) gives the ranked words', async () => {
    const file = real('trending-topsearch-html-2021-01-14.har');
    const html: string = entry(file).response.content.text;
    const data = JSON.parse(/<script id="js-initialData" type="text\/json">([\s\S]*?)<\/script>/.exec(html)![1]!).initialState.topsearch.data;
    const { result, requests } = await run('trending', {}, [file]);
    const t = result as TrendResult;
    expect(t.ok).toBe(true);
    // Words are trimmed: one of 2021's carried a trailing space.
    expect(t.data!.trends.map((x) => x.word)).toEqual(data.map((d: any) => d.queryDisplay.trim()));
    expect(data.some((d: any) => d.queryDisplay !== d.queryDisplay.trim())).toBe(true);
    expect(t.data!.trends[3]).toEqual({ word: data[3].queryDisplay, source: 'zhihu', rank: 4, url: `https://www.zhihu.com/search?type=content&q=${encodeURIComponent(data[3].realQuery)}` });
    expect(requests.indexOf('GET https://www.zhihu.com/api/v4/search/recommend_query/v2')).toBeLessThan(requests.indexOf('GET https://www.zhihu.com/topsearch'));
  });

  it('search type=people: the app search_v3 answers (after the web one); members become items, the cursor keeps offset and search_hash_id', async () => {
    const file = real('search-app-people-zhihu.har');
    const raw = body(file);
    const { result, requests } = await run('search', { query: '知乎', type: 'people', limit: 1 }, [file]);
    const env = result as Envelope;
    const p = raw.data[0].object;
    expect(env.items).toHaveLength(1);
    expect(env.items[0]).toMatchObject({
      id: `zhihu:people:${p.url_token}`,
      type: 'text',
      title: '匿名机构甲',
      text: p.headline,
      author: '匿名机构甲',
      author_handle: p.url_token,
      url: `https://www.zhihu.com/people/${p.url_token}`,
    });
    expect(origin(env.items[0]!.thumb!)).toBe(p.avatar_url);
    expect(decodeCursor(env.next_cursor).c).toBe('20:783ec8ea00f3133dc2344a5d33a9c40b');
    const web = requests.findIndex((r) => r.startsWith('GET https://www.zhihu.com/api/v4/search_v3?'));
    const app = requests.findIndex((r) => r.startsWith('GET https://api.zhihu.com/search_v3?'));
    expect(web).toBeGreaterThanOrEqual(0);
    expect(app).toBeGreaterThan(web);
    expect(new URL(requests[app]!.slice(4)).searchParams.get('t')).toBe('people');
  });

  it('posts of a column: 403 10003 is a refused signature: blocked (never empty), after one re-mint of the guest d_c0', async () => {
    const file = real('error-10003-403-signature.har');
    const { result, requests, warnings } = await run('posts', { query: 'https://zhuanlan.zhihu.com/c_1867989249418211328' }, [file, sand('udid-mint.har')]);
    const env = result as Envelope;
    expect(env.ok).toBe(false);
    expect(env.source).toBe('blocked');
    expect(env.error).toMatchObject({ code: 'blocked', retryable: true });
    expect(env.error!.message).toMatch(/refused the request signature \(10003/);
    expect(requests.filter((r) => r.includes('/api/v4/columns/c_1867989249418211328/items'))).toHaveLength(2);
    expect(requests.filter((r) => r === 'POST https://www.zhihu.com/udid')).toHaveLength(2);
    expect(warnings.join(' ')).toMatch(/new one was minted/);
  });

  it('the older 10002 answer (pretty-printed, \\u-escaped) is a refused signature too', async () => {
    const file = real('error-10002-followees.har');
    const ctx = probeCtx(zhihu, [file]);
    await expect(apiGet(ctx, { endpoint: 'user', url: 'https://www.zhihu.com/api/v4/members/houziliaorenwu/followees', params: [], what: 'followees' })).rejects.toMatchObject({
      code: 'blocked',
      name: 'SignatureRefused',
      message: expect.stringContaining('10002'),
    });
  });
});

describe('zhihu on the hand-made sandbox', () => {
  it('search (web): answer, article and video cards in order; the related-queries card is skipped; highlights are stripped', async () => {
    const file = sand('search-web-coffee.har');
    const raw = body(file);
    const { result, requests } = await run('search', { query: '咖啡', limit: 3 }, [file, sand('udid-mint.har')]);
    const env = result as Envelope;
    expect(env.items.map((i) => i.id)).toEqual(['zhihu:answer:1900000000000000001', 'zhihu:article:1700000000000000001', 'zhihu:zvideo:1600000000000000001']);
    const [a, art, v] = env.items;
    expect(a).toMatchObject({ type: 'text', title: '在家做手冲咖啡有哪些入门技巧？', url: 'https://www.zhihu.com/question/1800000000000000001/answer/1900000000000000001', ts: 1763500000, stats: { likes: 2048, comments: 3, shares: 12 } });
    expect(a!.author_url).toBe('https://www.zhihu.com/people/sandbox-writer');
    expect(origin(a!.thumb!)).toBe(raw.data[0].object.thumbnail_info.thumbnails[0].url);
    expect(a!.media.map((m) => origin(m.url))).toEqual(['https://pic1.zhimg.com/v2-5a5dbc0ffee0000000000000000000a1_r.jpg', 'https://pic1.zhimg.com/v2-5a5dbc0ffee0000000000000000000a2_r.jpg']);
    expect(art).toMatchObject({ title: '一杯好咖啡的七个变量', url: 'https://zhuanlan.zhihu.com/p/1700000000000000001' });
    expect(v).toMatchObject({ type: 'video', duration_s: 183.5, stats: { likes: 150, comments: 9, views: 23000 }, media: [] });
    expect(decodeCursor(env.next_cursor).c).toBe('20:sandboxhash0001');
    expect(requests.some((r) => r.includes('api.zhihu.com'))).toBe(false);
  });

  it('search: a captcha (40352) on both the web and the app route is blocked, never an empty result nor a login demand', async () => {
    const { result } = await run('search', { query: '验证' }, [sand('error-search-captcha.har')]);
    const env = result as Envelope;
    expect(env.source).toBe('blocked');
    expect(env.error!.code).toBe('blocked');
    expect(env.error!.message).toContain('40352');
  });

  it('user (API): counts, identity badge as verified, posts = answers + articles + videos', async () => {
    const { result } = await run('user', { query: 'https://www.zhihu.com/people/sandbox-writer/answers' }, [sand('user-sandbox-writer.har')]);
    expect((result as CreatorResult).data!.author).toMatchObject({ id: '5bd1c0de5bd1c0de5bd1c0de5bd1c0de', handle: 'sandbox-writer', followers: 12800, following: 210, posts: 5, likes: 45678, verified: true });
  });

  it('user: a captcha on the API falls back to the profile page (camelCase js-initialData); an org links to /org/', async () => {
    const { result, requests } = await run('user', { query: '@sandbox-org' }, [sand('user-page-fallback.har')]);
    const r = result as CreatorResult;
    expect(r.ok).toBe(true);
    expect(r.data!.author).toMatchObject({ id: 'a0a0a0a0b1b1b1b1c2c2c2c2d3d3d3d3', name: '沙盒咖啡协会', url: 'https://www.zhihu.com/org/sandbox-org', followers: 99000, posts: 52, likes: 123456, verified: true });
    expect(requests.at(-1)).toBe('GET https://www.zhihu.com/people/sandbox-org');
  });

  it('posts (answers): walked to the end by offset; the anonymous answer has a name but no identity', async () => {
    const { result, requests } = await run('posts', { query: 'sandbox-writer', max_items: -1 }, [sand('posts-answers-sandbox-writer.har')]);
    const env = result as Envelope;
    expect(env.items.map((i) => i.id)).toEqual(['zhihu:answer:1900000000000000001', 'zhihu:answer:1900000000000000002', 'zhihu:answer:1900000000000000003']);
    expect(env.items[2]).toMatchObject({ author: '匿名用户' });
    expect(env.items[2]!.author_id).toBeUndefined();
    expect(env.items[2]!.author_url).toBeUndefined();
    expect(env.next_cursor).toBeUndefined();
    const pages = requests.filter((r) => r.includes('/members/sandbox-writer/answers')).map((r) => new URL(r.slice(4)).searchParams.get('offset'));
    expect(pages).toEqual(['0', '20']);
  });

  it('posts (articles, zvideos): the tab picks the list; a 19-digit article id that JSON lost is read from its URL', async () => {
    const { result } = await run('posts', { query: 'sandbox-writer', tab: 'articles' }, [sand('posts-articles-sandbox-writer.har')]);
    expect((result as Envelope).items.map((i) => [i.id, i.url])).toEqual([['zhihu:article:1700000000000000001', 'https://zhuanlan.zhihu.com/p/1700000000000000001']]);
    const { result: videos, requests } = await run('posts', { query: 'sandbox-writer', tab: 'zvideos' }, [sand('posts-zvideos-sandbox-writer.har')]);
    expect((videos as Envelope).items[0]).toMatchObject({ id: 'zhihu:zvideo:1600000000000000001', type: 'video', media: [] });
    expect(requests.at(-1)).toContain('/members/sandbox-writer/zvideos?');
  });

  it('posts of a member with none is an honest empty; a 401 is session_expired', async () => {
    expect(((await run('posts', { query: 'sandbox-quiet' }, [sand('posts-empty.har')])).result as Envelope).source).toBe('empty');
    const { result } = await run('posts', { query: 'sandbox-private' }, [sand('error-posts-login.har')]);
    expect((result as Envelope).error).toMatchObject({ code: 'session_expired' });
  });

  it('detail (answer API): the body as text (formula TeX kept, figures out), pictures once each at full size', async () => {
    const { result } = await run('detail', { query: 'https://www.zhihu.com/question/1800000000000000001/answer/1900000000000000001?utm_psn=1' }, [sand('detail-answer-1900000000000000001.har')]);
    const item = (result as Envelope).items[0]!;
    expect(item.text).toBe('手冲的水温在 90 到 96 度之间，浅烘豆用高一点。\n手冲壶和滤杯\n\n萃取率： E=TDS\\times W/D ，一般落在 18% 到 22%。\n粉水比 1:15\n研磨 中细\n\n第二张是萃取曲线：\n横轴是时间。');
    expect(item.media).toEqual([
      { kind: 'image', url: `/v1/media?u=${encodeURIComponent('https://pic1.zhimg.com/v2-5a5dbc0ffee0000000000000000000a1_r.jpg')}`, w: 1280, h: 720 },
      { kind: 'image', url: `/v1/media?u=${encodeURIComponent('https://pic1.zhimg.com/v2-5a5dbc0ffee0000000000000000000a2_r.jpg')}`, w: 800, h: 1200 },
    ]);
    expect(item.stats).toEqual({ likes: 2048, comments: 3, shares: 12 });
  });

  it('detail (article): 10003 on the API twice (with a re-mint between), then the zhuanlan page answers', async () => {
    const { result, requests, warnings } = await run('detail', { query: 'article:1700000000000000001' }, [sand('detail-article-page-fallback.har'), sand('udid-mint.har')]);
    const env = result as Envelope;
    expect(env.ok).toBe(true);
    expect(env.items[0]).toMatchObject({ id: 'zhihu:article:1700000000000000001', title: '一杯好咖啡的七个变量', author_handle: 'sandbox-writer', stats: { likes: 301, comments: 25 } });
    expect(requests.at(-1)).toBe('GET https://zhuanlan.zhihu.com/p/1700000000000000001');
    expect(warnings).toContain('zhihu refused the signature over the guest d_c0; a new one was minted');
  });

  it('detail (question, video): visits as views; the best rendition (FHD) of the video with its size and length', async () => {
    const { result } = await run('detail', { query: 'https://www.zhihu.com/question/1800000000000000001' }, [sand('detail-question-1800000000000000001.har')]);
    expect((result as Envelope).items[0]).toMatchObject({ id: 'zhihu:question:1800000000000000001', text: '预算两千以内，想在家做。', author_handle: 'sandbox-asker', stats: { comments: 4, views: 250000 } });
    const { result: video } = await run('detail', { query: 'zvideo:1600000000000000001' }, [sand('detail-zvideo-1600000000000000001.har')]);
    const v = (video as Envelope).items[0]!;
    expect(v.media).toHaveLength(1);
    expect(origin(v.media[0]!.url)).toMatch(/^https:\/\/vdn3\.vzuu\.com\/FHD\/sandbox-v60-fhd\.mp4\?/);
    expect(new URL(v.media[0]!.url, 'http://x').searchParams.get('kind')).toBe('video');
    expect(v).toMatchObject({ duration_s: 183.5, aspect: { width: 1920, height: 1080 } });
  });

  it('detail of a deleted answer (404, 4041) is not_found', async () => {
    const { result } = await run('detail', { query: 'answer:1900000000000000404' }, [sand('error-detail-404.har')]);
    expect((result as Envelope).error).toMatchObject({ code: 'not_found' });
  });

  it('comments: two pages by offset token, total from paging; replies carry parent_id (the root, or the comment answered)', async () => {
    const { result, requests } = await run('comments', { query: 'https://www.zhihu.com/answer/1900000000000000001' }, [sand('comments-answer-1900000000000000001.har')]);
    const res = result as CommentsResult;
    expect(res.total).toBe(3);
    expect(res.items.map((c) => c.cid)).toEqual(['11000000001', '11000000002', '11000000003']);
    expect(res.items[0]).toMatchObject({ text: '水温这段很有用 @沙盒写作者', likes: 37, reply_total: 2, user_id: '7e7e7e7e7e7e7e7e7e7e7e7e7e7e7e7e', handle: 'sandbox-reader', user_name: '读者甲', created_at: 1763510000, source: 'zhihu' });
    expect(res.items.every((c) => c.parent_id === undefined)).toBe(true);
    expect(requests.at(-1)).toContain('offset=11000000002_10000000001_0');
    const { result: replies } = await run('comments', { query: 'answer:1900000000000000001', replies_of: '11000000001' }, [sand('replies-11000000001.har')]);
    expect((replies as CommentsResult).items.map((c) => [c.cid, c.parent_id])).toEqual([
      ['11000000101', '11000000001'],
      ['11000000102', '11000000101'],
    ]);
  });

  it('comments: a 404 on comment_v5 is an honest empty with a warning', async () => {
    const { result } = await run('comments', { query: 'https://zhuanlan.zhihu.com/p/1700000000000000002' }, [sand('comments-404-empty.har')]);
    const res = result as CommentsResult;
    expect(res.source).toBe('empty');
    expect(res.items).toEqual([]);
    expect(res.warnings!.join(' ')).toMatch(/404 for the comments of article 1700000000000000002/);
  });

  it('hot (science): the desktop card shape (target is the question), id from its API URL, cover from children', async () => {
    const { result } = await run('hot', { category: 'science' }, [sand('hot-science-desktop.har')]);
    const env = result as Envelope;
    expect(env.items.map((i) => i.id)).toEqual(['zhihu:question:1800000000000000011', 'zhihu:question:1800000000000000012']);
    expect(env.items[0]).toMatchObject({ title: '为什么咖啡因让人清醒？', text: '腺苷受体的故事。', ts: 1763500100, stats: { comments: 15 } });
    expect(env.items[1]!.thumb).toBeUndefined();
  });

  it('hot: a guest refused with 401 asks again as the app (and says so); a 401 there too is session_expired', async () => {
    const { result, warnings } = await run('hot', { category: 'digital' }, [sand('hot-digital-401-then-app.har')]);
    expect((result as Envelope).items.map((i) => i.id)).toEqual(['zhihu:question:1800000000000000021']);
    expect(warnings.join(' ')).toMatch(/read as the iOS app/);
    const { result: refused } = await run('hot', { category: 'car' }, [sand('error-hot-login.har')]);
    expect((refused as Envelope).error).toMatchObject({ code: 'session_expired' });
  });

  it('hot: a logged-in profile is never downgraded to the app route', async () => {
    const { result, requests } = await run('hot', { category: 'car' }, [sand('error-hot-login.har')], { session: { cookies: 'z_c0=2|1:0|sandbox; d_c0="AAprofile=|1"' } });
    expect((result as Envelope).error).toMatchObject({ code: 'session_expired' });
    expect(requests.filter((r) => r.includes('/hot-lists/car'))).toHaveLength(1);
    expect(requests.some((r) => r.includes('/udid'))).toBe(false);
  });

  it('trending: the hot-words API (recommend_query/v2)', async () => {
    const { result, requests } = await run('trending', {}, [sand('trending-hot-words.har')]);
    expect((result as TrendResult).data!.trends).toEqual([
      { word: '咖啡因摄入上限是多少', source: 'zhihu', rank: 1, url: 'https://www.zhihu.com/search?type=content&q=%E5%92%96%E5%95%A1%E5%9B%A0%E6%91%84%E5%85%A5%E4%B8%8A%E9%99%90' },
      { word: '冷萃咖啡走红', source: 'zhihu', rank: 2, url: 'https://www.zhihu.com/search?type=content&q=%E5%86%B7%E8%90%83%E5%92%96%E5%95%A1' },
      { word: '手冲入门', source: 'zhihu', rank: 3, url: 'https://www.zhihu.com/search?type=content&q=%E6%89%8B%E5%86%B2%E5%85%A5%E9%97%A8' },
    ]);
    expect(requests.some((r) => r.endsWith('/topsearch'))).toBe(false);
  });
});

describe('zhihu signing', () => {
  it('native: x-zse-93 and x-zse-96 over the exact path and query sent and the minted d_c0, which goes out as a cookie', async () => {
    const { ctx, sent } = headerCtx([sand('udid-mint.har'), sand('detail-answer-1900000000000000001.har')]);
    await (zhihu.actions.detail as ItemsAction).page(ctx, { query: 'answer:1900000000000000001' });
    const api = sent.find((s) => s.url.includes('/api/v4/answers/'))!;
    const u = new URL(api.url);
    expect(api.headers['x-zse-93']).toBe('101_3_3.0');
    expect(api.headers['x-zse-96']).toMatch(/^2\.0_[A-Za-z0-9+/=]{64}$/);
    expect(signedOver(api.headers['x-zse-96'], u.pathname + u.search, MINTED_DC0)).toBe(true);
    expect(api.headers['cookie']).toContain(`d_c0=${MINTED_DC0}`);
    expect(api.headers['cookie']).toContain('_xsrf=sandboxXsrfToken0001');
    expect(api.headers['x-requested-with']).toBe('fetch');
  });

  it("native with a login: the profile's d_c0 is signed over and no guest device is minted", async () => {
    const dc0 = '"AAprofileDevice=|1700000000"';
    const { ctx, sent } = headerCtx([sand('detail-answer-1900000000000000001.har')], { cookies: `z_c0=2|1:0|sandbox; d_c0=${dc0}` });
    await (zhihu.actions.detail as ItemsAction).page(ctx, { query: 'answer:1900000000000000001' });
    expect(sent.some((s) => s.url.endsWith('/udid'))).toBe(false);
    const api = sent.find((s) => s.url.includes('/api/v4/answers/'))!;
    const u = new URL(api.url);
    expect(signedOver(api.headers['x-zse-96'], u.pathname + u.search, dc0)).toBe(true);
    expect(api.headers['cookie']).toContain('z_c0=');
  });

  /** A stand-in for the profile's page: its d_c0 and its own fetch, answered from a recorded body. */
  function fakePage(answer: { status: number; text: string }, calls: Array<{ expression?: string; args?: unknown[] }>): PageSigning {
    return {
      sign: async (req) => {
        calls.push({ expression: req.expression, args: req.args });
        if (req.expression?.includes('document.cookie')) return '"AApageDevice=|1700000001"' as never;
        return { status: answer.status, url: String(req.args?.[0]), text: answer.text } as never;
      },
    };
  }

  it("browser mode: the page's fetch sends the request, signed over the page's d_c0; nothing goes out natively", async () => {
    const file = sand('detail-answer-1900000000000000001.har');
    const calls: Array<{ expression?: string; args?: unknown[] }> = [];
    const signer = fakePage({ status: 200, text: entry(file).response.content.text }, calls);
    const { result, requests } = await run('detail', { query: 'answer:1900000000000000001' }, [file], { signer, signModes: new Map([['zhihu', 'browser']]) });
    expect((result as Envelope).items[0]!.id).toBe('zhihu:answer:1900000000000000001');
    expect(requests).toEqual([]);
    expect(calls).toHaveLength(2);
    const [url, headers] = calls[1]!.args as [string, Record<string, string>];
    const u = new URL(url);
    expect(u.pathname).toBe('/api/v4/answers/1900000000000000001');
    expect(headers['x-zse-93']).toBe('101_3_3.0');
    expect(signedOver(headers['x-zse-96'], u.pathname + u.search, '"AApageDevice=|1700000001"')).toBe(true);
  });

  it('auto mode: a refused native signature (10003) is retried through the page, and the result says so', async () => {
    const pageAnswer = body(sand('detail-answer-1900000000000000001.har'));
    const article = { ...pageAnswer, id: '1700000000000000001', type: 'article', title: '页面里的文章', url: 'https://zhuanlan.zhihu.com/p/1700000000000000001' };
    const calls: Array<{ expression?: string; args?: unknown[] }> = [];
    const signer = fakePage({ status: 200, text: JSON.stringify(article) }, calls);
    const { result, warnings } = await run('detail', { query: 'article:1700000000000000001' }, [sand('detail-article-page-fallback.har')], { signer });
    expect((result as Envelope).items[0]).toMatchObject({ id: 'zhihu:article:1700000000000000001', title: '页面里的文章' });
    expect(warnings.join(' ')).toMatch(/refused our native signature/);
    expect(calls.length).toBe(2);
  });

  it('native mode never asks the page: the refusal stays, and the zhuanlan page route answers', async () => {
    const signer: PageSigning = { sign: async () => { throw new Error('the page must not be asked'); } };
    const { result } = await run('detail', { query: 'article:1700000000000000001' }, [sand('detail-article-page-fallback.har')], { signer, signModes: new Map([['zhihu.detail', 'native']]) });
    expect((result as Envelope).ok).toBe(true);
    expect((result as Envelope).items[0]!.title).toBe('一杯好咖啡的七个变量');
  });

  it('browser mode: the page fetch answering the captcha is blocked', async () => {
    const signer = fakePage({ status: 403, text: JSON.stringify({ error: { code: 40352, need_login: true, redirect: 'https://www.zhihu.com/account/unhuman?type=S6E3V1', message: '系统监测到您的网络环境存在异常' } }) }, []);
    const { ctx } = headerCtx([], { signer, signModes: new Map([['zhihu', 'browser']]) });
    await expect(apiGet(ctx, { endpoint: 'detail', url: 'https://www.zhihu.com/api/v4/answers/1', params: [], what: 'answer 1' })).rejects.toMatchObject({ code: 'blocked' });
  });
});

describe('zhihu login probe', () => {
  it('a member with a uid is ok; 401 is session_expired; the captcha stays a block', async () => {
    expect(await zhihu.probe!(probeCtx(zhihu, [sand('probe-me.har')], 'z_c0=x; d_c0="AA=|1"'))).toBe('ok');
    const url = 'https://www.zhihu.com/api/v4/me?include=email%2Cis_active%2Cis_bind_phone';
    expect(await zhihu.probe!(probeCtx(zhihu, [], 'z_c0=x; d_c0="AA=|1"', { url, status: 401, body: { error: { message: 'ZERR_NO_AUTH_TOKEN', code: 100, name: 'AuthenticationInvalidRequest' } } }))).toBe('session_expired');
    await expect(zhihu.probe!(probeCtx(zhihu, [], 'z_c0=x; d_c0="AA=|1"', { url, status: 403, body: { error: { code: 40352, need_login: true, redirect: 'https://www.zhihu.com/account/unhuman', message: '…' } } }))).rejects.toMatchObject({ code: 'blocked' });
  });
});

describe('zhihu bad input', () => {
  it.each([
    ['detail', { query: '1900000000000000001' }],
    ['detail', { query: 'https://www.bilibili.com/video/BV1xx' }],
    ['detail', { query: 'https://www.zhihu.com/pin/1234567' }],
    ['comments', { query: 'question:1800000000000000001' }],
    ['comments', { query: 'answer:1', replies_of: 'abc' }],
    ['user', { query: 'https://www.zhihu.com/question/1' }],
    ['posts', { query: 'sandbox-writer', cursor: 'x;y' }],
  ])('%s %j is invalid_request before any request', async (action, params) => {
    const { result, requests } = await run(action, params, [SANDBOX]);
    expect((result as { error?: { code: string } }).error?.code).toBe('invalid_request');
    expect(requests).toEqual([]);
  });
  it.each([
    ['posts', { query: 'sandbox-writer', tab: 'pins' }],
    ['hot', { category: 'weekly' }],
    ['search', { query: '咖啡', sort: 'random' }],
  ])('%s %j is refused by the catalog (enum)', async (action, params) => {
    await expect(run(action, params, [SANDBOX])).rejects.toMatchObject({ code: 'invalid_request' });
  });
});

afterAll(() => {
  // Every recording is exercised: a new one without a test fails here.
  expect(readdirSync(FIXTURES).filter((f) => f.endsWith('.har')).filter((f) => !used.has(f))).toEqual([]);
  expect(readdirSync(SANDBOX).filter((f) => f.endsWith('.har')).filter((f) => !usedSandbox.has(f))).toEqual([]);
});
