import { readFileSync, readdirSync } from 'node:fs';
import { resolve } from 'node:path';
import pino from 'pino';
import { Dispatcher } from 'undici';
import { afterAll, describe, expect, it } from 'vitest';
import { LocalPacer } from '../../src/crawl/pacer-local.js';
import { loadRecordings } from '../../src/crawl/replay/har.js';
import { ReplayDispatcher } from '../../src/crawl/replay/dispatcher.js';
import type { CommentsResult, CreatorResult, Envelope } from '../../src/domain/results.js';
import { Registry } from '../../src/platforms/registry.js';
import type { ItemsAction, PageSigning } from '../../src/platforms/types.js';
import { xiaohongshu } from '../../src/platforms/xiaohongshu/index.js';
import { noteDraft } from '../../src/platforms/xiaohongshu/parse.js';
import { envelopeB64Decode } from '../../src/platforms/xiaohongshu/sign.js';
import { makeContext, MemoryMemo } from '../../src/tasks/context.js';
import { runAction } from '../helpers/run-action.js';

/*
 * Every xiaohongshu recording, replayed through the real catalog validation, adapter and normalization. The
 * real ones (fixtures/xiaohongshu) are the 2024 web search, feed (detail) and comment answers and three error
 * answers; the hand-made sandbox (sandbox/xiaohongshu) covers what no real recording does: the note, profile
 * and explore pages (__INITIAL_STATE__), a video's streams, user_posted, replies, the user search, homefeed,
 * the share-link redirect and the other error answers.
 */

const FIXTURES = resolve(process.cwd(), '../shared/fixtures/xiaohongshu');
const SANDBOX = resolve(process.cwd(), 'sandbox/xiaohongshu');
const used = new Set<string>();
const usedSandbox = new Set<string>();
const real = (name: string): string => (used.add(name), resolve(FIXTURES, name));
const sand = (name: string): string => (usedSandbox.add(name), resolve(SANDBOX, name));
const body = (file: string, i = 0): any => JSON.parse(JSON.parse(readFileSync(file, 'utf8')).log.entries[i].response.content.text);
const origin = (serviceUrl: string): string => new URL(serviceUrl, 'http://x').searchParams.get('u')!;

/** A stored login as a profile would hand it over (web_session and the a1 it was issued to). */
const LOGIN = { cookies: 'web_session=040069b5a274fb57675ab453ab354bc8b20e29; a1=19223bd30fdyw4izqnvssalktamaab9jcq1a9gdne50000166530; webId=89daffcfb24ae99c9b86c49c47aa5f14' };
const run = (action: string, params: Record<string, unknown>, replay: string[], extra: Partial<Parameters<typeof runAction>[0]> = {}) =>
  runAction({ source: 'xiaohongshu', action, params, replay, session: LOGIN, ...extra });
const anonymous = (action: string, params: Record<string, unknown>, replay: string[]) => runAction({ source: 'xiaohongshu', action, params, replay });

const N1 = '6745c0a1000000000703d1e1';
const N2 = '6745c0a2000000001e01f2a2';
const U1 = '5f1e2d3c000000000101a1b1';

describe('xiaohongshu on real recordings', () => {
  it('search: the 2024 web answer gives its notes (rec_query cards skipped), each url carrying its xsec_token; has_more gives a cursor', async () => {
    const file = real('search-notes.har');
    const raw = body(file).data.items;
    const notes = raw.filter((i: any) => i.model_type === 'note');
    const { result, requests } = await run('search', { query: '客户', limit: 30 }, [file]);
    const env = result as Envelope;
    expect(env.ok).toBe(true);
    expect(env.source).toBe('live');
    expect(env.items.map((i) => i.id)).toEqual(notes.map((n: any) => `xiaohongshu:${n.id}`));
    const video = env.items.find((i) => i.type === 'video')!;
    const v = notes.find((n: any) => n.note_card.type === 'video');
    expect(video).toMatchObject({ id: `xiaohongshu:${v.id}`, title: v.note_card.display_title, author: v.note_card.user.nickname, author_id: v.note_card.user.user_id, author_url: `https://www.xiaohongshu.com/user/profile/${v.note_card.user.user_id}`, stats: { likes: Number(v.note_card.interact_info.liked_count) } });
    expect(video.aspect).toEqual({ width: v.note_card.cover.width, height: v.note_card.cover.height });
    // The recording was trimmed to sizes: no picture URL, so no media and no thumb (never invented).
    expect(video.media).toEqual([]);
    expect(video.thumb).toBeUndefined();
    const first = env.items[0]!;
    expect(first.type).toBe('image');
    const url = new URL(first.url!);
    expect(url.pathname).toBe(`/explore/${notes[0].id}`);
    expect(url.searchParams.get('xsec_token')).toBe(notes[0].xsec_token);
    expect(url.searchParams.get('xsec_source')).toBe('pc_search');
    // has_more: the walk asked for page 2 with the same search_id, and the recordings end there.
    const posts = requests.filter((r) => r.includes('/search/notes'));
    expect(posts).toHaveLength(2);
  });

  it('search: the request is the signed POST the web sends (keyword, page, search_id, sort, note_type)', async () => {
    const { seen } = await direct('search', { query: '客户', sort: 'newest', note_type: 'video' }, [real('search-notes.har')]);
    const sent = seen.find((s) => s.url.endsWith('/api/sns/web/v1/search/notes'))!;
    const json = JSON.parse(sent.body!);
    expect(json).toMatchObject({ keyword: '客户', page: 1, page_size: 20, sort: 'time_descending', note_type: 1 });
    expect(json.search_id).toMatch(/^[0-9a-z]{20,30}$/);
    expect(sent.headers['x-s']).toMatch(/^XYS_[A-Za-z0-9+/=]+$/);
    expect(sent.headers['x-t']).toMatch(/^\d{13}$/);
    expect(sent.headers['x-b3-traceid']).toMatch(/^[0-9a-f]{16}$/);
    expect(sent.headers['x-xray-traceid']).toMatch(/^[0-9a-f]{32}$/);
    expect(sent.headers['content-type']).toBe('application/json;charset=UTF-8');
    // The envelope and x-s-common decode to the published layouts, signed with the login's a1.
    expect(JSON.parse(envelopeB64Decode(sent.headers['x-s']!.slice(4)).toString())).toMatchObject({ x0: '4.2.6', x1: 'xhs-pc-web', x2: 'Windows', x4: '' });
    expect(JSON.parse(envelopeB64Decode(sent.headers['x-s-common']!).toString())).toMatchObject({ s0: 5, x5: '19223bd30fdyw4izqnvssalktamaab9jcq1a9gdne50000166530' });
    expect(sent.headers['cookie']).toContain('web_session=040069b5a274fb57675ab453ab354bc8b20e29');
  });

  it('detail: the 2024 feed answer gives the note, its picture as the original without the watermark, the WB_PRV preview as thumb, stats and time', async () => {
    const file = real('detail-feed-66696f98000000000d00f289.har');
    const card = body(file).data.items[0].note_card;
    const token = JSON.parse(JSON.parse(readFileSync(file, 'utf8')).log.entries[0].request.postData.text).xsec_token;
    const { result, requests } = await run('detail', { query: `https://www.xiaohongshu.com/explore/66696f98000000000d00f289?xsec_token=${encodeURIComponent(token)}&xsec_source=pc_search` }, [file]);
    const item = (result as Envelope).items[0]!;
    expect(item).toMatchObject({
      id: 'xiaohongshu:66696f98000000000d00f289',
      type: 'image',
      text: card.desc,
      author: card.user.nickname,
      author_id: card.user.user_id,
      ts: Math.floor(card.time / 1000),
      stats: { likes: 44, comments: 160, shares: 12 },
      aspect: { width: 2048, height: 2048 },
    });
    expect(item.title).toBeUndefined();
    expect(item.media).toHaveLength(1);
    expect(origin(item.media[0]!.url)).toBe('https://sns-img-bd.xhscdn.com/1040g008313ul3ln81c6g5o8vavbg961a6bl9og0');
    expect(origin(item.thumb!)).toBe(card.image_list[0].info_list.find((i: any) => i.image_scene === 'WB_PRV').url.replace(/^http:/, 'https:'));
    expect(new URL(item.url!).searchParams.get('xsec_token')).toBe(token);
    expect(requests).toEqual(['POST https://edith.xiaohongshu.com/api/sns/web/v1/feed']);
  });

  it('detail: the feed body carries source_note_id, the token and its source', async () => {
    const file = real('detail-feed-66696f98000000000d00f289.har');
    const { seen } = await direct('detail', { query: 'https://www.xiaohongshu.com/discovery/item/66696f98000000000d00f289?xsec_token=AB2ngtDge1SBYqsH8NXPJ25gSUhp6t8636t7_R6HlT7dI%3D&xsec_source=pc_user' }, [file]);
    expect(JSON.parse(seen[0]!.body!)).toEqual({ source_note_id: '66696f98000000000d00f289', image_formats: ['jpg', 'webp', 'avif'], extra: { need_body_topic: '1' }, xsec_source: 'pc_user', xsec_token: 'AB2ngtDge1SBYqsH8NXPJ25gSUhp6t8636t7_R6HlT7dI=' });
  });

  it('comments: the 2024 answer gives roots with their inlined replies (parent_id = target_comment), likes, reply totals, times; cursor from has_more', async () => {
    const file = real('comments-66696f98000000000d00f289.har');
    const data = body(file).data;
    const { result } = await run('comments', { query: '66696f98000000000d00f289', limit: 100 }, [file]);
    const res = result as CommentsResult;
    expect(res.source).toBe('live');
    const roots = res.items.filter((c) => !c.parent_id);
    expect(roots.map((c) => c.cid)).toEqual(data.comments.map((c: any) => c.id));
    const r = data.comments[0];
    expect(roots[0]).toMatchObject({ cid: r.id, text: r.content, likes: Number(r.like_count), reply_total: Number(r.sub_comment_count), user_id: r.user_info.user_id, user_name: r.user_info.nickname, handle: r.user_info.nickname, created_at: Math.floor(r.create_time / 1000), source: 'xiaohongshu', url: 'https://www.xiaohongshu.com/explore/66696f98000000000d00f289' });
    const reply = res.items.find((c) => c.cid === r.sub_comments[0].id)!;
    expect(reply.parent_id).toBe(r.sub_comments[0].target_comment.id);
    expect(res.items.indexOf(reply)).toBe(res.items.indexOf(roots[0]!) + 1);
    const inlined = data.comments.reduce((n: number, c: any) => n + c.sub_comments.length, 0);
    expect(res.items).toHaveLength(data.comments.length + inlined);
    // has_more with a cursor: the walk asked for the next page, which the recordings do not hold.
    expect(res.has_more).toBe(true);
    expect(res.cursor).toBeTruthy();
  });

  it('IP block (300012) is blocked, never empty', async () => {
    const { result } = await run('search', { query: '客户' }, [real('error-300012-ip-block.har')]);
    expect(result).toMatchObject({ ok: false, source: 'blocked', count: 0, error: { code: 'blocked', retryable: true } });
    expect((result as Envelope).error!.message).toMatch(/blocked this IP/);
  });

  it('the expired login (-100 登录已过期) is session_expired, with what to do', async () => {
    const { result } = await run('search', { query: '客户' }, [real('error-expired-login.har')]);
    expect(result).toMatchObject({ ok: false, source: 'live', error: { code: 'session_expired', retryable: false } });
    expect((result as Envelope).error!.message).toMatch(/登录已过期.*store a xiaohongshu profile/);
  });

  it('HTTP 461 with Verifytype/Verifyuuid is a captcha (blocked); the profile page was tried after it and the block stands', async () => {
    const { result, requests } = await run('posts', { query: 'https://www.xiaohongshu.com/user/profile/5a177936e8ac2b535e9441b3' }, [real('error-461-captcha.har')]);
    expect(result).toMatchObject({ ok: false, source: 'blocked', error: { code: 'blocked' } });
    expect((result as Envelope).error!.message).toMatch(/captcha \(HTTP 461, Verifytype/);
    expect(requests[0]).toBe('GET https://edith.xiaohongshu.com/api/sns/web/v1/user_posted?num=30&cursor=&user_id=5a177936e8ac2b535e9441b3&image_formats=jpg,webp,avif');
  });

  it('the app-API search recording: the web adapter never asks that API, and its parser still reads the app note shape', async () => {
    const file = real('search-app-notes-chenpi.har');
    const raw = body(file).items;
    // Replayed through the adapter: the web search's POST finds no recording of its route and fails loudly.
    await expect(run('search', { query: '陈皮' }, [file])).rejects.toThrow(/no recording of POST edith\.xiaohongshu\.com\/api\/sns\/web\/v1\/search\/notes/);
    // The same parser on the app's items (images_list, user.userid/red_id, video_info_v2, counts at the top).
    const drafts = raw.map((i: any) => noteDraft(i)?.draft);
    expect(drafts.map((d: any) => d?.native_id)).toEqual(raw.map((i: any) => i.note.id));
    const n = raw[0].note;
    expect(drafts[0]).toMatchObject({ type: 'image', title: n.title, text: n.desc, author: n.user.nickname, author_id: n.user.userid, author_handle: n.user.red_id, stats: { likes: n.liked_count, comments: n.comments_count, shares: n.shared_count } });
    expect(drafts[0].media).toHaveLength(n.images_list.length);
    expect(drafts[0].media[1].url).toBe(n.images_list[1].url_size_large);
    const vi = raw.findIndex((i: any) => i.note.type === 'video');
    const h264 = raw[vi].note.video_info_v2.media.stream.h264[0];
    expect(drafts[vi]).toMatchObject({ type: 'video', duration_s: Math.round(h264.duration / 100) / 10 });
    expect(drafts[vi].media.filter((m: any) => m.kind === 'video')).toHaveLength(1);
  });

  it('without a stored login the API actions say so (session_expired) and ask nothing', async () => {
    const { result, requests } = await anonymous('search', { query: '客户' }, [real('search-notes.har')]);
    expect(result).toMatchObject({ ok: false, error: { code: 'session_expired' } });
    expect((result as Envelope).error!.message).toMatch(/logged-in session.*store a xiaohongshu profile/);
    expect(requests).toEqual([]);
  });
});

describe('xiaohongshu on the hand-made sandbox', () => {
  it('search walks two pages with one search_id; the rec_query card is skipped; counts such as 1.2万 are read', async () => {
    const memo = new MemoryMemo();
    const { result, requests } = await run('search', { query: '旅行', limit: 10 }, [sand('search-notes-lvxing.har')], { memo });
    const env = result as Envelope;
    expect(env.items.map((i) => i.id)).toEqual([`xiaohongshu:${N1}`, `xiaohongshu:${N2}`, 'xiaohongshu:6745c0a3000000001d02a3b3']);
    expect(env.items[0]!.stats.likes).toBe(12000);
    expect(origin(env.items[0]!.thumb!)).toMatch(/^https:\/\/sns-webpic-qc\.xhscdn\.com\/.*nd_prv_wlteh_webp_3$/);
    expect(env.next_cursor).toBeUndefined();
    expect(requests).toHaveLength(2);
  });

  it("a search result's url is a reference detail accepts: its xsec_token goes into the feed call", async () => {
    const memo = new MemoryMemo();
    const search = (await run('search', { query: '旅行', limit: 1 }, [sand('search-notes-lvxing.har')], { memo })).result as Envelope;
    const { seen, items } = await direct('detail', { query: search.items[0]!.url }, [sand('detail-feed-' + N1 + '.har')]);
    expect(JSON.parse(seen[0]!.body!).xsec_token).toBe(new URL(search.items[0]!.url!).searchParams.get('xsec_token'));
    expect(items[0]!.native_id).toBe(N1);
    // The bare id works too in the same process: the token the search answered is remembered.
    const again = await run('detail', { query: N1 }, [sand('detail-feed-' + N1 + '.har')], { memo });
    expect((again.result as Envelope).items[0]!.url).toBe(search.items[0]!.url);
  });

  it('user search (type=users): user cards as text items with the 小红书号 as handle and the profile (with token) as url', async () => {
    const { result } = await run('search', { query: '旅行', type: 'users' }, [sand('search-users-lvxing.har')]);
    const items = (result as Envelope).items;
    expect(items[0]).toMatchObject({ id: `xiaohongshu:user:${U1}`, type: 'text', title: '旅行的人', author_id: U1, author_handle: '95270001', text: '粉丝 1.2万 · 笔记 86', author_url: `https://www.xiaohongshu.com/user/profile/${U1}` });
    expect(new URL(items[0]!.url!).searchParams.get('xsec_token')).toBe('ABsbxU1userToken0123456789abcdefGHIJKLmnopqs=');
    expect(items).toHaveLength(2);
  });

  it('detail of a video: the tallest stream, h264 before h265 at the same height, with duration and aspect', async () => {
    const file = sand('detail-feed-video.har');
    const card = body(file).data.items[0].note_card;
    const { result } = await run('detail', { query: `https://www.xiaohongshu.com/explore/${N2}?xsec_token=ABsbxN2videoToken0123456789abcdefGHIJKLmno_-%3D&xsec_source=pc_search` }, [file]);
    const item = (result as Envelope).items[0]!;
    expect(item).toMatchObject({ type: 'video', title: card.title, duration_s: 61.2, aspect: { width: 1080, height: 1920 }, stats: { likes: 3456, comments: 97, shares: 45 } });
    expect(item.media).toHaveLength(1);
    expect(origin(item.media[0]!.url)).toBe(card.video.media.stream.h264[1].master_url.replace(/^http:/, 'https:'));
    expect(new URL(item.media[0]!.url, 'http://x').searchParams.get('kind')).toBe('video');
  });

  it('detail without a login reads the note page (__INITIAL_STATE__ with bare undefined): pictures, the live-photo clip, the text kept verbatim', async () => {
    const { result, requests } = await anonymous('detail', { query: `https://www.xiaohongshu.com/explore/${N1}?xsec_token=ABsbxN1travelToken0123456789abcdefGHIJKLmn-_w%3D&xsec_source=pc_search` }, [sand('detail-page-' + N1 + '.har')]);
    const item = (result as Envelope).items[0]!;
    expect(requests).toEqual([`GET https://www.xiaohongshu.com/explore/${N1}?xsec_token=ABsbxN1travelToken0123456789abcdefGHIJKLmn-_w%3D&xsec_source=pc_search`]);
    expect(item).toMatchObject({ type: 'image', title: '山里的清晨｜一个人的徒步路线', ts: 1732096800, stats: { likes: 12000, comments: 318, shares: 266 } });
    expect(item.text).toContain('别让计划 undefined 😄');
    expect(item.media.map((m) => [m.kind, origin(m.url)])).toEqual([
      ['image', 'https://sns-img-bd.xhscdn.com/1040g2sg31sbxn1img0001g5o8vavbg961a6bl9og0'],
      ['image', 'https://sns-img-bd.xhscdn.com/1040g2sg31sbxn1img0002g5o8vavbg961a6bl9og0'],
      ['video', 'https://sns-video-bd.xhscdn.com/stream/1/10/19/01e745c0a1sbxlive_19.mp4'],
    ]);
  });

  it('detail via an xhslink.com share link: the 302 is followed without fetching its target, its token carried to the page', async () => {
    const { result, requests } = await anonymous('detail', { query: '【旅行的人的笔记】山里的清晨 😆 Bx8sDemo 😆 http://xhslink.com/a/Bx8sDemo，复制本条信息，打开【小红书】App查看精彩内容！' }, [sand('resolve-short-link.har'), sand('detail-page-' + N1 + '.har')]);
    expect((result as Envelope).items[0]!.id).toBe(`xiaohongshu:${N1}`);
    expect(requests[0]).toBe('GET https://xhslink.com/a/Bx8sDemo');
    expect(new URL(requests[1]!.slice(4)).searchParams.get('xsec_token')).toBe('CBsbxShareTokenN1abcdefGHIJKL0123456789mnop=');
    expect(requests.some((r) => r.includes('/discovery/item/'))).toBe(false);
  });

  it('detail of a deleted note (-510001) is not_found, and the page is not asked after it', async () => {
    const { result, requests } = await run('detail', { query: '6745c0a6000000001303d6d6' }, [sand('error-detail-gone.har')]);
    expect((result as Envelope).error).toMatchObject({ code: 'not_found' });
    expect((result as Envelope).error!.message).toContain('笔记状态异常');
    expect(requests).toHaveLength(1);
  });

  it('a bare note id without a login: the page answers its 404 (300031); the caller is told to pass the URL with its xsec_token', async () => {
    const { result } = await anonymous('detail', { query: '6745c0a8000000001a08a8a8' }, [sand('error-note-page-no-token.har')]);
    expect((result as Envelope).error).toMatchObject({ code: 'invalid_request' });
    expect((result as Envelope).error!.message).toMatch(/only with its xsec_token.*search, posts or recommended result/);
  });

  it('a note page sent to the slider captcha is blocked, naming the verify type', async () => {
    const { result } = await anonymous('detail', { query: 'https://www.xiaohongshu.com/explore/6745c0a9000000001b09a9a9?xsec_token=ABsbxN9%3D&xsec_source=pc_search' }, [sand('error-note-page-captcha.har')]);
    expect(result).toMatchObject({ ok: false, source: 'blocked', error: { code: 'blocked' } });
    expect((result as Envelope).error!.message).toMatch(/captcha \(verifyType 102/);
  });

  it('comments of a note URL send its xsec_token; replies_of pages one thread, parent_id naming the comment answered', async () => {
    const token = 'ABsbxN1travelToken0123456789abcdefGHIJKLmn-_w%3D';
    const url = `https://www.xiaohongshu.com/explore/${N1}?xsec_token=${token}&xsec_source=pc_search`;
    const { result, requests } = await run('comments', { query: url }, [sand('comments-' + N1 + '.har')]);
    expect((result as CommentsResult).items.map((c) => [c.cid, c.parent_id])).toEqual([
      ['6746a1a1000000001b01e1e1', undefined],
      ['6746a2a2000000001c02e2e2', '6746a1a1000000001b01e1e1'],
      ['6746a4a4000000001e04e4e4', undefined],
    ]);
    expect((result as CommentsResult).has_more).toBe(false);
    expect(requests[0]).toContain(`&xsec_token=${token}`);
    const replies = (await run('comments', { query: url, replies_of: '6746a1a1000000001b01e1e1' }, [sand('replies-6746a1a1000000001b01e1e1.har')])).result as CommentsResult;
    expect(replies.items.map((c) => [c.cid, c.parent_id])).toEqual([
      ['6746a2a2000000001c02e2e2', '6746a1a1000000001b01e1e1'],
      ['6746a3a3000000001d03e3e3', '6746a2a2000000001c02e2e2'],
    ]);
  });

  it('user: the profile page gives name, 小红书号, bio, avatar, followers, following and likes+saves', async () => {
    const { result } = await anonymous('user', { query: `https://www.xiaohongshu.com/user/profile/${U1}` }, [sand('user-profile-' + U1 + '.har')]);
    const r = result as CreatorResult;
    expect(r.ok).toBe(true);
    expect(r.data!.author).toMatchObject({ id: U1, source: 'xiaohongshu', handle: '95270001', name: '旅行的人', bio: '周末徒步，平日写字。\n合作请私信', followers: 12000, following: 128, likes: 356000, url: `https://www.xiaohongshu.com/user/profile/${U1}` });
    expect(origin(r.data!.author.avatar!)).toContain('/w/540/');
  });

  it('posts (login): user_posted walked by cursor; each url carries its token as pc_user; 10万+ read as 100000', async () => {
    const { result, requests } = await run('posts', { query: U1, max_items: 10 }, [sand('posts-' + U1 + '.har')]);
    const env = result as Envelope;
    expect(env.items.map((i) => i.id.slice(12))).toEqual(['6745c0a3000000001d02a3b3', N1, N2, '6741b0c4000000001c00b4c4']);
    expect(new URL(env.items[0]!.url!).searchParams.get('xsec_source')).toBe('pc_user');
    expect(env.items[3]!.stats.likes).toBe(100000);
    expect(requests[1]).toContain(`cursor=${N2}`);
  });

  it("posts without a login: the profile page's first notes, no cursor, and a warning that the rest needs a login", async () => {
    const { result, warnings, requests } = await anonymous('posts', { query: U1, limit: 5 }, [sand('user-profile-' + U1 + '.har')]);
    const env = result as Envelope;
    expect(env.items.map((i) => i.id.slice(12))).toEqual(['6745c0a3000000001d02a3b3', N1]);
    expect(new URL(env.items[1]!.url!).searchParams.get('xsec_token')).toBe('ABsbxN1travelToken0123456789abcdefGHIJKLmn-_w=');
    expect(env.next_cursor).toBeUndefined();
    expect(warnings.join(' ')).toMatch(/first notes are readable without a login/);
    expect(requests).toEqual([`GET https://www.xiaohongshu.com/user/profile/${U1}`]);
  });

  it('posts with a login whose API is blocked: the profile page answers, and its cursor leads back to the API', async () => {
    const U4 = '62d2e2f2000000000104f5f5';
    const { result, requests } = await run('posts', { query: U4, limit: 1 }, [sand(`posts-blocked-api-${U4}.har`)]);
    const env = result as Envelope;
    expect(requests).toEqual([`GET https://edith.xiaohongshu.com/api/sns/web/v1/user_posted?num=30&cursor=&user_id=${U4}&image_formats=jpg,webp,avif`, `GET https://www.xiaohongshu.com/user/profile/${U4}`]);
    expect(env.items.map((i) => i.id.slice(12))).toEqual(['6745c0a3000000001d02a3b3']);
    expect(env.next_cursor).toBeTruthy();
  });

  it('posts of a user without notes is an honest empty', async () => {
    const { result } = await run('posts', { query: '60a0b0c0000000000100c2d2' }, [sand('error-posts-empty.har')]);
    expect(result).toMatchObject({ ok: true, source: 'empty', count: 0 });
  });

  it('a profile page sent to the error page with 300013 (访问频次异常) is rate_limited', async () => {
    const { result } = await anonymous('user', { query: '61b1c1d1000000000102d3d3' }, [sand('error-profile-ratelimit.har')]);
    expect((result as CreatorResult).error).toMatchObject({ code: 'rate_limited' });
  });

  it('recommended (login): homefeed by category, ads skipped, paged by cursor_score and note_index until an empty page', async () => {
    const { result, requests } = await run('recommended', { category: 'homefeed.food_v3', limit: 10 }, [sand('recommended-homefeed-food.har')]);
    const env = result as Envelope;
    expect(env.items.map((i) => i.id.slice(12))).toEqual(['6745c0a5000000001202c5c5', N2]);
    expect(new URL(env.items[0]!.url!).searchParams.get('xsec_source')).toBe('pc_feed');
    expect(requests).toHaveLength(2);
  });

  it("recommended without a login: the explore page's feed", async () => {
    const { result } = await anonymous('recommended', {}, [sand('recommended-explore-page.har')]);
    expect((result as Envelope).items.map((i) => i.id.slice(12))).toEqual([N1, '6745c0a5000000001202c5c5']);
  });

  it('a restricted account (300011) is session_expired: a human has to replace it', async () => {
    const { result } = await run('recommended', { category: 'homefeed.travel_v3' }, [sand('error-account-300011.har')]);
    expect((result as Envelope).error).toMatchObject({ code: 'session_expired' });
    expect((result as Envelope).error!.message).toMatch(/restricted this account.*another account/);
  });
});

describe('xiaohongshu signing modes', () => {
  const SIG = (): string => sand('error-signature-300015.har');
  it("auto: a refused signature (300015) goes to the page's signer, and the result says so", async () => {
    const calls: unknown[][] = [];
    const signer: PageSigning = { sign: async (req) => (calls.push(req.args ?? []), { xs: 'XYS_PAGE', xt: '1732104000000', a1: 'pagea1', b1: '' } as never) };
    const { result, warnings } = await run('detail', { query: '6745c0a7000000001f07a7a7' }, [SIG()], { signer });
    expect((result as Envelope).items[0]!.id).toBe('xiaohongshu:6745c0a7000000001f07a7a7');
    expect(warnings.join(' ')).toMatch(/refused our native signature/);
    expect(calls).toHaveLength(1);
    expect(calls[0]![0]).toBe('/api/sns/web/v1/feed');
    expect(calls[0]![1]).toMatchObject({ source_note_id: '6745c0a7000000001f07a7a7' });
  });

  it("browser: the page's x-s / x-t go out as sent, x-s-common built with its a1; mnsv2 pages give x3 only", async () => {
    const signer: PageSigning = { sign: async () => ({ xs: 'XYS_PAGE', xt: '1732104000000', a1: '19223bd30fdyw4izqnvssalktamaab9jcq1a9gdne50000166530', b1: 'B1FROMPAGE' }) as never };
    const a = await direct('search', { query: '客户' }, [real('search-notes.har')], { signer, signModes: new Map([['xiaohongshu', 'browser']]) });
    expect(a.seen[0]!.headers).toMatchObject({ 'x-s': 'XYS_PAGE', 'x-t': '1732104000000' });
    expect(JSON.parse(envelopeB64Decode(a.seen[0]!.headers['x-s-common']!).toString())).toMatchObject({ x5: '19223bd30fdyw4izqnvssalktamaab9jcq1a9gdne50000166530', x8: 'B1FROMPAGE' });
    // Through the runner too: the page is asked once, with the exact path, body and signed string.
    const calls: Array<{ pageUrl: string; args?: unknown[] }> = [];
    const spy: PageSigning = { sign: async (req) => (calls.push(req), { xs: 'XYS_PAGE', xt: '1732104000000', a1: '', b1: '' }) as never };
    const viaRunner = await run('detail', { query: `https://www.xiaohongshu.com/explore/${N2}?xsec_token=ABsbxN2videoToken0123456789abcdefGHIJKLmno_-%3D` }, [sand('detail-feed-video.har')], { signer: spy, signModes: new Map([['xiaohongshu.detail', 'browser']]) });
    expect((viaRunner.result as Envelope).items[0]!.type).toBe('video');
    expect(calls).toHaveLength(1);
    expect(calls[0]!.pageUrl).toBe('https://www.xiaohongshu.com/explore');
    const [path, sentBody, signText, md5] = calls[0]!.args as [string, unknown, string, string];
    expect(path).toBe('/api/sns/web/v1/feed');
    expect(signText).toBe(path + JSON.stringify(sentBody));
    expect(md5).toMatch(/^[0-9a-f]{32}$/);
    const mns: PageSigning = { sign: async () => ({ x3: 'mns0301_PAGEX3', a1: '', b1: '' }) as never };
    const b = await direct('search', { query: '客户' }, [real('search-notes.har')], { signer: mns, signModes: new Map([['xiaohongshu.search', 'browser']]) });
    expect(JSON.parse(envelopeB64Decode(b.seen[0]!.headers['x-s']!.slice(4)).toString()).x3).toBe('mns0301_PAGEX3');
  });

  it('native mode never asks the page, and the refusal stays a block', async () => {
    const signer: PageSigning = { sign: async () => { throw new Error('the page must not be asked'); } };
    const { result } = await run('detail', { query: '6745c0a7000000001f07a7a7' }, [SIG()], { signer, signModes: new Map([['xiaohongshu', 'native']]) });
    expect(result).toMatchObject({ ok: false, source: 'blocked', error: { code: 'blocked' } });
    expect((result as Envelope).error!.message).toMatch(/refused the request signature \(浏览器异常/);
  });

  it('a minted a1 that is refused is minted again, once (a login stored without its a1)', async () => {
    const { result, warnings, requests } = await run('detail', { query: '6745c0a7000000001f07a7a7' }, [SIG()], { session: { cookies: 'web_session=040069b5sandbox' } });
    expect((result as Envelope).ok).toBe(true);
    expect(warnings.join(' ')).toMatch(/minted again/);
    expect(warnings.join(' ')).toMatch(/has no a1 cookie/);
    expect(requests.filter((r) => r.includes('/v1/feed'))).toHaveLength(2);
  });
});

describe('xiaohongshu login probe', () => {
  it('selfinfo with a user is ok; -100 is session_expired; no web_session is session_expired without a request; a captcha stays a block', async () => {
    const { probeCtx } = await import('../helpers/probe-ctx.js');
    const login = LOGIN.cookies;
    expect(await xiaohongshu.probe!(probeCtx(xiaohongshu, [sand('probe-selfinfo.har')], login))).toBe('ok');
    const url = 'https://edith.xiaohongshu.com/api/sns/web/v1/user/selfinfo';
    expect(await xiaohongshu.probe!(probeCtx(xiaohongshu, [], login, { url, body: { code: -100, success: false, msg: '登录已过期' } }))).toBe('session_expired');
    expect(await xiaohongshu.probe!(probeCtx(xiaohongshu, [], login, { url, body: { code: 0, success: true, data: { guest: true, user_id: '5f00' } } }))).toBe('session_expired');
    expect(await xiaohongshu.probe!(probeCtx(xiaohongshu, [], 'a1=x'))).toBe('session_expired');
    await expect(xiaohongshu.probe!(probeCtx(xiaohongshu, [], login, { url, status: 461, body: '' }))).rejects.toMatchObject({ code: 'blocked' });
  });
});

describe('xiaohongshu bad input', () => {
  it.each([
    ['detail', { query: 'https://www.douyin.com/video/7300000000000000001' }],
    ['detail', { query: '12345' }],
    ['user', { query: '95270001' }],
    ['posts', { query: 'https://www.xiaohongshu.com/user/profile/abc' }],
    ['comments', { query: N1, replies_of: 'abc' }],
  ])('%s %j is invalid_request before any request', async (action, params) => {
    const { result, requests } = await run(action, params, [SANDBOX]);
    expect((result as { error?: { code: string } }).error?.code).toBe('invalid_request');
    expect(requests).toEqual([]);
  });
  it.each([
    ['search', { query: '旅行', sort: 'random' }],
    ['search', { query: '旅行', type: 'videos' }],
    ['recommended', { category: 'homefeed.cars_v3' }],
  ])('%s %j is refused by the catalog (enum)', async (action, params) => {
    await expect(run(action, params, [SANDBOX])).rejects.toMatchObject({ code: 'invalid_request' });
  });
});

// ---------------------------------------------------------------------------------------------
// Calling an action's page() with a dispatcher that records headers and bodies (runAction sees URLs only).

interface Seen {
  method: string;
  url: string;
  headers: Record<string, string>;
  body?: string;
}

class Recording extends Dispatcher {
  readonly seen: Seen[] = [];
  constructor(private readonly inner: Dispatcher) {
    super();
  }
  dispatch(options: Dispatcher.DispatchOptions, handler: Dispatcher.DispatchHandler): boolean {
    const headers: Record<string, string> = {};
    for (const [k, v] of Object.entries((options.headers ?? {}) as Record<string, string>)) headers[k.toLowerCase()] = String(v);
    this.seen.push({ method: String(options.method), url: new URL(String(options.path), String(options.origin)).toString(), headers, body: typeof options.body === 'string' ? options.body : undefined });
    return this.inner.dispatch(options, handler);
  }
}

async function direct(action: 'search' | 'detail', params: Record<string, unknown>, files: string[], extra: { signer?: PageSigning; signModes?: ReadonlyMap<string, 'native' | 'browser' | 'auto'> } = {}) {
  const registry = new Registry();
  const dispatcher = new Recording(new ReplayDispatcher({ recordings: loadRecordings(files), rulesFor: (h) => registry.forHost(h)?.replay }));
  const ctx = makeContext({
    adapter: xiaohongshu,
    profile: 'default',
    cookies: LOGIN.cookies,
    memo: new MemoryMemo(),
    dispatcher,
    pacer: new LocalPacer(),
    gapMs: 0,
    signal: new AbortController().signal,
    log: pino({ level: 'silent' }),
    warnings: [],
    signer: extra.signer,
    signModes: extra.signModes,
  });
  const page = await (xiaohongshu.actions[action] as ItemsAction).page(ctx, params);
  return { seen: dispatcher.seen, items: page.items };
}

afterAll(() => {
  // Every recording is exercised: a new one without a test fails here.
  expect(readdirSync(FIXTURES).filter((f) => f.endsWith('.har')).filter((f) => !used.has(f))).toEqual([]);
  expect(readdirSync(SANDBOX).filter((f) => f.endsWith('.har')).filter((f) => !usedSandbox.has(f))).toEqual([]);
});
