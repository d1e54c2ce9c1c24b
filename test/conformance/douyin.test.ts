import { readFileSync, readdirSync } from 'node:fs';
import { resolve } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import type { CommentsResult, CreatorResult, Envelope, TrendResult } from '../../src/domain/results.js';
import type { PageSigning } from '../../src/platforms/types.js';
import { MemoryMemo } from '../../src/tasks/context.js';
import { runAction } from '../helpers/run-action.js';

/*
 * Every douyin recording, replayed through the real catalog validation, adapter and normalization. The real
 * ones (fixtures/douyin) are the 2026 web search and comments answers, the 2020 share-API posts list, the
 * app's hot boards (2021, 2025) and the empty-200 block; the hand-made sandbox (sandbox/douyin) covers what
 * no real recording does: web detail, the share page, profile, web posts, replies, the feed, the web hot
 * board, the app's star/brand/live boards, the share-link redirect and the error answers.
 */

const FIXTURES = resolve(process.cwd(), '../shared/fixtures/douyin');
const SANDBOX = resolve(process.cwd(), 'sandbox/douyin');
const used = new Set<string>();
const usedSandbox = new Set<string>();
const real = (name: string): string => (used.add(name), resolve(FIXTURES, name));
const sand = (name: string): string => (usedSandbox.add(name), resolve(SANDBOX, name));
const body = (file: string, i = 0): any => JSON.parse(JSON.parse(readFileSync(file, 'utf8')).log.entries[i].response.content.text);
const origin = (serviceUrl: string): string => new URL(serviceUrl, 'http://x').searchParams.get('u')!;

const run = (action: string, params: Record<string, unknown>, replay: string[], extra: Partial<Parameters<typeof runAction>[0]> = {}) =>
  runAction({ source: 'douyin', action, params, replay, ...extra });

describe('douyin on real recordings', () => {
  it('search: the 2026 general search answer gives its posts (video and image), skipping word cards; cursor carries offset and search_id', async () => {
    const file = real('search-general-maomi.har');
    const raw = body(file);
    const { result, requests } = await run('search', { query: '猫咪', limit: 10 }, [file]);
    const env = result as Envelope;
    expect(env.ok).toBe(true);
    expect(env.source).toBe('live');
    const withAweme = raw.data.filter((d: any) => d.aweme_info);
    expect(env.items.map((i) => i.id)).toEqual(withAweme.slice(0, 10).map((d: any) => `douyin:${d.aweme_info.aweme_id}`));
    const first = env.items[0]!;
    const a0 = withAweme[0].aweme_info;
    expect(first.type).toBe('image');
    expect(first.url).toBe(`https://www.douyin.com/note/${a0.aweme_id}`);
    expect(first.text).toBe(a0.desc);
    expect(first.author).toBe(a0.author.nickname);
    expect(first.author_id).toBe(a0.author.sec_uid);
    expect(first.author_url).toBe(`https://www.douyin.com/user/${a0.author.sec_uid}`);
    expect(first.ts).toBe(a0.create_time);
    expect(first.stats).toEqual({ likes: a0.statistics.digg_count, comments: a0.statistics.comment_count, shares: a0.statistics.share_count });
    expect(first.media.filter((m) => m.kind === 'image')).toHaveLength(a0.images.length);
    expect(origin(first.media[0]!.url)).toBe(a0.images[0].url_list.find((u: string) => !/\.heic\?/.test(u)));
    // A video: the highest bit-rate rendition's play_addr, never download_addr (the watermarked one).
    const vIdx = withAweme.findIndex((d: any) => d.aweme_info.aweme_type === 0);
    const v = withAweme[vIdx].aweme_info;
    const best = [...v.video.bit_rate].sort((x: any, y: any) => y.bit_rate - x.bit_rate)[0];
    const item = env.items[vIdx]!;
    expect(item.type).toBe('video');
    expect(item.duration_s).toBeCloseTo(v.video.duration / 1000, 1);
    expect(item.media).toHaveLength(1);
    expect(item.media[0]!.kind).toBe('video');
    expect(new URL(item.media[0]!.url, 'http://x').searchParams.get('kind')).toBe('video');
    expect(origin(item.media[0]!.url)).toBe(best.play_addr.url_list[0]);
    expect(v.video.download_addr.url_list).not.toContain(origin(item.media[0]!.url));
    expect(item.aspect).toEqual({ width: best.play_addr.width, height: best.play_addr.height });
    // Signed as sent: a_bogus over the exact query; msToken in the query; the guest's fingerprint params.
    const sent = new URL(requests.find((r) => r.includes('/general/search/single/'))!.slice(4));
    expect(sent.searchParams.get('keyword')).toBe('猫咪');
    expect(sent.searchParams.get('offset')).toBe('0');
    expect(sent.searchParams.get('a_bogus')).toMatch(/^[A-Za-z0-9/+=-]{150,}$/);
    expect(sent.searchParams.get('msToken')).toMatch(/^[\w-]{100,}$/);
    expect(sent.search.endsWith(`&a_bogus=${encodeURIComponent(sent.searchParams.get('a_bogus')!)}`)).toBe(true);
  });

  it('search: the next cursor is "<cursor>:<extra.logid>"; a walk asks for offset and search_id', async () => {
    const file = real('search-general-maomi.har');
    const raw = body(file);
    const { result, requests } = await run('search', { query: '猫咪', limit: 30 }, [file]);
    const env = result as Envelope;
    expect(env.items.length).toBe(raw.data.filter((d: any) => d.aweme_info).length);
    const second = requests.filter((r) => r.includes('/general/search/single/'))[1];
    expect(second).toBeDefined();
    const u = new URL(second!.slice(4));
    expect(u.searchParams.get('offset')).toBe(String(raw.cursor));
    expect(u.searchParams.get('search_id')).toBe(raw.extra.logid);
  });

  it('comments: the 2026 list gives cid, text, likes, reply totals, users with sec_uid; total and cursor', async () => {
    const file = real('comments-7565738211130035491.har');
    const raw = body(file);
    const { result } = await run('comments', { query: 'https://www.douyin.com/video/7565738211130035491', limit: 20 }, [file]);
    const res = result as CommentsResult;
    expect(res.source).toBe('live');
    expect(res.total).toBe(raw.total);
    expect(res.items).toHaveLength(raw.comments.length);
    const c = res.items[3]!;
    const r = raw.comments[3];
    expect(c).toMatchObject({ cid: r.cid, text: r.text, likes: r.digg_count, reply_total: r.reply_comment_total, user_id: r.user.uid, sec_uid: r.user.sec_uid, user_name: r.user.nickname, created_at: r.create_time, source: 'douyin' });
    expect(c.parent_id).toBeUndefined();
    expect(res.has_more).toBe(true);
  });

  it('posts: the share site list (2020) gives the posts, clean play URLs and max_cursor paging', async () => {
    const file = real('posts-legacy-iesdouyin-data.har');
    const raw = body(file);
    const sec = 'MS4wLjABAAAAAI3oSIRdM9cE-AflbGPjaw_xUg6xajgGJtM_yX4hkCY';
    const { result, requests, warnings } = await run('posts', { query: `https://www.douyin.com/user/${sec}?from_tab_name=main`, limit: 5 }, [file]);
    const env = result as Envelope;
    expect(env.ok).toBe(true);
    expect(env.items.map((i) => i.id)).toEqual(raw.aweme_list.slice(0, 5).map((a: any) => `douyin:${a.aweme_id}`));
    const a = raw.aweme_list[0];
    const first = env.items[0]!;
    expect(first).toMatchObject({ type: 'video', text: a.desc, author: a.author.nickname, author_id: sec, stats: { likes: a.statistics.digg_count, comments: a.statistics.comment_count, shares: a.statistics.share_count } });
    expect(origin(first.media[0]!.url)).toMatch(/^https:\/\/aweme\.snssdk\.com\/aweme\/v1\/play\/\?video_id=/);
    expect(origin(first.media[0]!.url)).not.toContain('playwm');
    // The signed web list was asked first; the share list answered.
    expect(requests.findIndex((r) => r.includes('/web/aweme/post/'))).toBeLessThan(requests.findIndex((r) => r.includes('iesdouyin.com/web/api/v2/aweme/post/')));
    expect(warnings.join(' ')).not.toMatch(/undefined/);
  });

  it('hot: the app board (2021) gives the video behind each word; a topic entry without a video is left out', async () => {
    const file = real('hot-search-app-2021-01-14.har');
    const raw = body(file);
    const { result } = await run('hot', {}, [file]);
    const env = result as Envelope;
    const withVideo = raw.data.word_list.filter((w: any) => w.group_id);
    expect(env.items.map((i) => i.id)).toEqual(withVideo.map((w: any) => `douyin:${w.group_id}`));
    expect(env.items[0]).toMatchObject({ type: 'video', title: withVideo[0].word, ts: withVideo[0].event_time, stats: { views: withVideo[0].view_count } });
    expect(origin(env.items[0]!.thumb!)).toBe(withVideo[0].word_cover.url_list[0]);
  });

  it('trending: the hot-search words, ranked, with their heat (board realtime)', async () => {
    const file = real('hot-search-app-2021-01-14.har');
    const raw = body(file);
    const { result } = await run('trending', {}, [file]);
    const t = result as TrendResult;
    expect(t.ok).toBe(true);
    expect(t.data!.trends.map((x) => x.word)).toEqual(raw.data.word_list.map((w: any) => w.word));
    expect(t.data!.trends[1]).toMatchObject({ rank: 2, hot_value: raw.data.word_list[1].hot_value, source: 'douyin' });
    expect(t.data!.trends[0]!.hot_value).toBeUndefined();
  });

  it('trending board=music: the 2025 music chart, title - author with heat', async () => {
    const file = real('hot-music-chart-2025-06-01.har');
    const raw = body(file);
    const { result } = await run('trending', { board: 'music' }, [file]);
    const t = result as TrendResult;
    expect(t.data!.trends).toHaveLength(raw.music_list.length);
    const m = raw.music_list[0];
    expect(t.data!.trends[0]).toEqual({ word: `${m.music_info.title} - ${m.music_info.author}`, source: 'douyin', rank: 1, hot_value: m.heat, url: `https://www.douyin.com/music/${m.music_info.id_str}` });
  });

  it('trending board=brand: the categories come from the recorded category list; an unknown one is refused with the list', async () => {
    const file = real('hot-brand-categories-2021-01-14.har');
    const { result } = await run('trending', { board: 'brand', brand_category: 8 }, [file]);
    const t = result as TrendResult;
    expect(t.ok).toBe(false);
    expect(t.error!.code).toBe('invalid_request');
    expect(t.error!.message).toContain('1 (汽车)');
    expect(t.error!.message).toContain('10 (日化)');
  });

  it('detail: an empty 200 is a block (never empty), after one re-mint of the guest state', async () => {
    const file = real('error-empty-200-block.har');
    const { result, requests, warnings } = await run('detail', { query: '7565738211130035491' }, [file]);
    const env = result as Envelope;
    expect(env.ok).toBe(false);
    expect(env.source).toBe('blocked');
    expect(env.error!.code).toBe('blocked');
    expect(requests.filter((r) => r.includes('/aweme/detail/'))).toHaveLength(2);
    expect(warnings.join(' ')).toMatch(/minted again/);
  });
});

describe('douyin on the hand-made sandbox', () => {
  it('detail (web): best bit rate, clean stream, duration and aspect', async () => {
    const file = sand('detail-web-7300000000000000001.har');
    const a = body(file).aweme_detail;
    const { result } = await run('detail', { query: '7300000000000000001' }, [file]);
    const item = (result as Envelope).items[0]!;
    expect(item).toMatchObject({ id: 'douyin:7300000000000000001', type: 'video', text: a.desc, duration_s: 61.2, aspect: { width: 1080, height: 1920 }, stats: { likes: 24000, comments: 318, shares: 1200 } });
    expect(item.stats.views).toBeUndefined();
    expect(origin(item.media[0]!.url)).toBe(a.video.bit_rate[0].play_addr.url_list[0]);
  });

  it('detail: when the web refuses, the share page answers; its /playwm/ stream becomes /play/', async () => {
    const file = sand('detail-share-7300000000000000002.har');
    const { result, requests } = await run('detail', { query: 'https://www.douyin.com/discover?modal_id=7300000000000000002' }, [file]);
    const env = result as Envelope;
    expect(env.ok).toBe(true);
    expect(env.items[0]!.id).toBe('douyin:7300000000000000002');
    expect(origin(env.items[0]!.media[0]!.url)).toBe('https://aweme.snssdk.com/aweme/v1/play/?video_id=v0d00fg10000sandbox000002&ratio=720p&line=0');
    expect(requests.at(-1)).toBe('GET https://www.iesdouyin.com/share/video/7300000000000000002/');
  });

  it('detail via a v.douyin.com share link (302 followed without fetching the target)', async () => {
    const { result, requests } = await run('detail', { query: '7.43 复制打开抖音，看看【旅行的人的作品】山里的清晨 https://v.douyin.com/iSbxDemo/ O@x.Sl 11/20' }, [sand('resolve-short-link.har'), sand('detail-web-7300000000000000001.har')]);
    expect((result as Envelope).items[0]!.id).toBe('douyin:7300000000000000001');
    expect(requests.some((r) => r.startsWith('GET https://www.iesdouyin.com/share/video/'))).toBe(false);
  });

  it('detail of a deleted post is not_found with douyin’s reason', async () => {
    const { result } = await run('detail', { query: '7300000000000000099' }, [sand('error-detail-deleted.har')]);
    expect((result as Envelope).error).toMatchObject({ code: 'not_found' });
    expect((result as Envelope).error!.message).toContain('status_deleted');
  });

  it('user: the web profile with counts and verification', async () => {
    const sec = 'MS4wLjABAAAAsandboxTravelerX9kQ2mV7pL4nR8sT1uW3yZ5aB6cD0eF';
    const { result } = await run('user', { query: sec }, [sand('user-web-traveler.har')]);
    const r = result as CreatorResult;
    expect(r.data!.author).toMatchObject({ id: sec, source: 'douyin', handle: 'traveler_sbx', name: '旅行的人', followers: 128000, following: 120, posts: 3, likes: 2400000, verified: true, url: `https://www.douyin.com/user/${sec}` });
    expect(origin(r.data!.author.avatar!)).toContain('1080x1080');
  });

  it('posts (web): two pages walked by max_cursor, image post last', async () => {
    const sec = 'MS4wLjABAAAAsandboxTravelerX9kQ2mV7pL4nR8sT1uW3yZ5aB6cD0eF';
    const { result, requests } = await run('posts', { query: sec, max_items: 10 }, [sand('posts-web-traveler.har')]);
    const env = result as Envelope;
    expect(env.items.map((i) => i.id)).toEqual(['douyin:7300000000000000001', 'douyin:7300000000000000002', 'douyin:7300000000000000003']);
    expect(env.items[2]!.type).toBe('image');
    expect(env.items[2]!.media.every((m) => m.kind === 'image' && !origin(m.url).includes('watermark'))).toBe(true);
    expect(requests.filter((r) => r.includes('max_cursor=1763500000000'))).toHaveLength(1);
  });

  it('posts of a user with none is an honest empty', async () => {
    const sec = 'MS4wLjABAAAAsandboxNilKeeperH2jK4lM6nP8qR0sT2uV4wX6yZ8aB0c';
    const { result } = await run('posts', { query: sec }, [sand('error-posts-empty.har')]);
    expect((result as Envelope).source).toBe('empty');
  });

  it('comments and replies: parent_id names the comment answered', async () => {
    const { result } = await run('comments', { query: '7300000000000000001' }, [sand('comments-7300000000000000001.har')]);
    expect((result as CommentsResult).items.map((c) => c.cid)).toEqual(['7300000000000100001', '7300000000000100002']);
    const { result: replies } = await run('comments', { query: '7300000000000000001', replies_of: '7300000000000100001' }, [sand('replies-7300000000000100001.har')]);
    const items = (replies as CommentsResult).items;
    expect(items.map((c) => [c.cid, c.parent_id])).toEqual([
      ['7300000000000200001', '7300000000000100001'],
      ['7300000000000200002', '7300000000000200001'],
    ]);
  });

  it('recommended: the web feed', async () => {
    const { result } = await run('recommended', { limit: 2 }, [sand('recommended-feed.har')]);
    expect((result as Envelope).items.map((i) => i.id)).toEqual(['douyin:7300000000000000011', 'douyin:7300000000000000001']);
  });

  it('hot and trending from the web board; rising words as their own category and board', async () => {
    const file = sand('hot-web-board.har');
    const { result, requests } = await run('hot', {}, [file]);
    expect((result as Envelope).items.map((i) => i.title)).toEqual(['初雪', '山里的清晨']);
    expect(requests.some((r) => r.includes('aweme.snssdk.com'))).toBe(false);
    const { result: rising } = await run('hot', { category: 'rising' }, [file]);
    expect((rising as Envelope).items.map((i) => i.id)).toEqual(['douyin:7300000000000000002']);
    const { result: words } = await run('trending', { board: 'rising' }, [file]);
    expect((words as TrendResult).data!.trends).toEqual([{ word: '海边日落', source: 'douyin', rank: 1, hot_value: 2100000, url: 'https://www.douyin.com/search/%E6%B5%B7%E8%BE%B9%E6%97%A5%E8%90%BD' }]);
  });

  it('trending boards star, brand (category), live', async () => {
    const star = (await run('trending', { board: 'star' }, [sand('trending-star.har')])).result as TrendResult;
    expect(star.data!.trends.map((t) => [t.word, t.hot_value])).toEqual([['沙盒明星甲', 18752181], ['沙盒明星乙', 9100000]]);
    const brand = (await run('trending', { board: 'brand', brand_category: 2 }, [sand('trending-brand.har')])).result as TrendResult;
    expect(brand.data!.trends.map((t) => t.word)).toEqual(['沙盒手机品牌', '另一个品牌']);
    expect(brand.data!.trends[0]!.url).toMatch(/^https:\/\/www\.douyin\.com\/user\/MS4wLjABAAAA/);
    const live = (await run('trending', { board: 'live' }, [sand('trending-live.har')])).result as TrendResult;
    expect(live.data!.trends[0]).toMatchObject({ word: '沙盒主播: 晚上好', hot_value: 1024549 });
  });

  it('search soft block (verify_check) is blocked, never an empty result', async () => {
    const { result } = await run('search', { query: 'verifyme' }, [sand('error-search-verify.har')]);
    expect((result as Envelope).source).toBe('blocked');
  });

  it('the sandbox search answers for the demo', async () => {
    const { result } = await run('search', { query: '旅行' }, [sand('search-lvxing.har')]);
    expect((result as Envelope).items.map((i) => i.type)).toEqual(['video', 'image']);
  });

  it('a minted ttwid goes out as a cookie, once per account', async () => {
    const memo = new MemoryMemo();
    const files = [sand('ttwid-register.har'), sand('detail-web-7300000000000000001.har')];
    const { requests } = await run('detail', { query: '7300000000000000001' }, files, { memo });
    expect(requests[0]).toBe('POST https://ttwid.bytedance.com/ttwid/union/register/');
  });
});

describe('douyin login probe', () => {
  it('status_code 8 on query/user is session_expired; a user with a sec_uid is ok; an empty 200 stays a block', async () => {
    const { probeCtx } = await import('../helpers/probe-ctx.js');
    const { douyin } = await import('../../src/platforms/douyin/index.js');
    expect(await douyin.probe!(probeCtx(douyin, [sand('error-login-expired.har')], 'sessionid=x'))).toBe('session_expired');
    expect(await douyin.probe!(probeCtx(douyin, [], 'sessionid=x', { url: 'https://www.douyin.com/aweme/v1/web/query/user/', body: { status_code: 0, user: { sec_uid: 'MS4wLjABAAAAme' } } }))).toBe('ok');
    await expect(douyin.probe!(probeCtx(douyin, [], 'sessionid=x', { url: 'https://www.douyin.com/aweme/v1/web/query/user/', body: '' }))).rejects.toMatchObject({ code: 'blocked' });
  });
});

describe('douyin signing modes', () => {
  const file = () => sand('detail-web-7300000000000000001.har');
  it('browser mode asks the page for a_bogus with the exact query and sends what it returned', async () => {
    const calls: unknown[][] = [];
    const signer: PageSigning = { sign: async (req) => (calls.push(req.args ?? []), 'PAGE-SIGNED' as never) };
    const { requests, result } = await run('detail', { query: '7300000000000000001' }, [file()], { signer, signModes: new Map([['douyin', 'browser']]) });
    expect((result as Envelope).ok).toBe(true);
    const sent = new URL(requests.find((r) => r.includes('/aweme/detail/'))!.slice(4));
    expect(sent.searchParams.get('a_bogus')).toBe('PAGE-SIGNED');
    expect(calls).toHaveLength(1);
    expect(sent.search.slice(1)).toBe(`${calls[0]![0] as string}&a_bogus=PAGE-SIGNED`);
  });
  it('auto mode falls back to the page after an empty 200, and the result says so', async () => {
    const signer: PageSigning = { sign: async () => 'PAGE-SIGNED' as never };
    const { result, warnings, requests } = await run('detail', { query: '7300000000000000002' }, [sand('detail-share-7300000000000000002.har')], { signer });
    expect((result as Envelope).ok).toBe(true);
    expect(warnings.join(' ')).toMatch(/refused our native signature/);
    expect(requests.some((r) => r.includes('a_bogus=PAGE-SIGNED'))).toBe(true);
  });
  it('native mode never calls the page', async () => {
    const signer: PageSigning = { sign: async () => { throw new Error('the page must not be asked'); } };
    const { result } = await run('detail', { query: '7300000000000000002' }, [sand('detail-share-7300000000000000002.har')], { signer, signModes: new Map([['douyin.detail', 'native']]) });
    expect((result as Envelope).ok).toBe(true);
  });
});

describe('douyin bad input', () => {
  it.each([
    ['detail', { query: 'https://www.youtube.com/watch?v=abc' }],
    ['detail', { query: '12345' }],
    ['user', { query: '123456789' }],
    ['posts', { query: 'MS4wLjABAAAAsandbox', cursor: undefined }],
    ['comments', { query: '7300000000000000001', replies_of: 'abc' }],
  ])('%s %j is invalid_request before any request', async (action, params) => {
    const { result, requests } = await run(action, params, [SANDBOX]);
    expect((result as { error?: { code: string } }).error?.code).toBe('invalid_request');
    expect(requests).toEqual([]);
  });
  it.each([
    ['trending', { board: 'weekly' }],
    ['search', { query: '旅行', sort: 'random' }],
  ])('%s %j is refused by the catalog (enum)', async (action, params) => {
    await expect(run(action, params, [SANDBOX])).rejects.toMatchObject({ code: 'invalid_request' });
  });
});

afterAll(() => {
  // Every recording is exercised: a new one without a test fails here.
  expect(readdirSync(FIXTURES).filter((f) => f.endsWith('.har')).filter((f) => !used.has(f))).toEqual([]);
  expect(readdirSync(SANDBOX).filter((f) => f.endsWith('.har')).filter((f) => !usedSandbox.has(f))).toEqual([]);
});
