import { readFileSync, readdirSync } from 'node:fs';
import { basename, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { xBogus } from '../../src/crawl/bytedance/xbogus.js';
import { DEFAULT_UA } from '../../src/crawl/http.js';
import type { CommentsResult, CreatorResult, Envelope } from '../../src/domain/results.js';
import { authorFromAppUser, generalResultsOf, itemsOf, threadComments, userCardsOf } from '../../src/platforms/tiktok/parse.js';
import type { PageSigning } from '../../src/platforms/types.js';
import { decodeCursor } from '../../src/tasks/cursor.js';
import { runAction } from '../helpers/run-action.js';

/*
 * Every TikTok recording: the 2026 web answers (search, comments), the 2020 web detail and the empty-200
 * block replayed through the real catalog validation, adapter and runner normalization; the 2021 app-API
 * answers (aweme/post, comment/list, search/item, discover/search, general/search/single) read by the
 * parsers directly, since the adapter has no app-API route (device registration + X-Gorgon/X-Argus).
 * Hand-made sandbox recordings (sandbox/tiktok) stand in for what no real recording covers: pages,
 * posts, user, recommended, replies, share links and the block / private / login answers.
 */

const FIXTURES = resolve(process.cwd(), '../shared/fixtures/tiktok');
const SANDBOX = resolve(process.cwd(), 'sandbox/tiktok');
const used = new Set<string>();
const real = (name: string): string => (used.add(name), resolve(FIXTURES, name));
const sand = (name: string): string => resolve(SANDBOX, name);
const raw = (file: string, i = 0): any => JSON.parse(JSON.parse(readFileSync(file, 'utf8')).log.entries[i].response.content.text);

const run = (action: string, params: Record<string, unknown>, replay: string[], extra: Partial<Parameters<typeof runAction>[0]> = {}) =>
  runAction({ source: 'tiktok', action, params, replay, ...extra });
const image = (origin: string): string => `/v1/media?u=${encodeURIComponent(origin)}`;
const video = (origin: string): string => `/v1/media?u=${encodeURIComponent(origin)}&kind=video&platform=tiktok&profile=default`;
const recordedParam = (file: string, name: string, i = 0): string =>
  new URL(JSON.parse(readFileSync(file, 'utf8')).log.entries[i].request.url).searchParams.get(name) ?? '';
const paths = (requests: string[]): string[] => requests.map((r) => r.replace(/\?.*$/, ''));
const param = (request: string, name: string): string | null => new URL(request.replace(/^[A-Z]+ /, '')).searchParams.get(name);
const TTWID = 'POST https://www.tiktok.com/ttwid/check/';

/** The query bytes before X-Bogus, and whether X-Bogus is our port's value for them at some second of the run. */
function signedOverSentBytes(request: string, started: number): boolean {
  const url = request.replace(/^[A-Z]+ /, '');
  const m = /\?(.*)&X-Bogus=([^&]+)$/.exec(url);
  if (!m) return false;
  const bogus = decodeURIComponent(m[2]);
  for (let t = started - 2; t <= Math.floor(Date.now() / 1000) + 1; t++) if (xBogus(m[1], DEFAULT_UA, t) === bogus) return true;
  return false;
}

describe('tiktok.search (web, 2026 recording)', () => {
  it('reads the general search: 11 posts and the user card, field by field, X-Bogus over the sent bytes', async () => {
    const file = real('search-general-tiktok.har');
    const started = Math.floor(Date.now() / 1000);
    const { result, requests, warnings } = await run('search', { query: 'TikTok', limit: 12 }, [file]);
    expect(paths(requests)).toEqual([TTWID, 'GET https://www.tiktok.com/api/search/general/full/']);
    const sent = requests[1];
    expect([param(sent, 'keyword'), param(sent, 'offset'), param(sent, 'aid'), param(sent, 'app_name'), param(sent, 'device_platform'), param(sent, 'from_page')]).toEqual([
      'TikTok',
      '0',
      '1988',
      'tiktok_web',
      'web_pc',
      'search',
    ]);
    expect(param(sent, 'msToken')).toMatch(/^[0-9A-Za-z]{156}$/);
    expect(param(sent, 'device_id')).toMatch(/^7[23]\d{17}$/);
    expect(param(sent, 'X-Gnarly')).toBeNull();
    expect(signedOverSentBytes(sent, started)).toBe(true);
    expect(warnings).toEqual([]);

    const env = result as Envelope;
    const data = raw(file).data;
    expect(env).toMatchObject({ ok: true, source: 'live', count: 12 });
    const expectedIds = data.flatMap((d: any) => (d.type === 1 ? [`tiktok:${d.item.id}`] : d.user_list.map((u: any) => `tiktok:@${u.user_info.unique_id}`)));
    expect(env.items.map((i) => i.id)).toEqual(expectedIds);
    const first = data[0].item;
    const h264 = first.video.bitrateInfo.find((b: any) => b.CodecType === 'h264');
    expect(env.items[0]).toEqual({
      id: 'tiktok:7603296357641735445',
      type: 'video',
      provider: 'tiktok',
      text: first.desc,
      author: first.author.nickname,
      author_id: '7105281502317872154',
      author_handle: 'dua_zahra014',
      author_url: 'https://www.tiktok.com/@dua_zahra014',
      url: 'https://www.tiktok.com/@dua_zahra014/video/7603296357641735445',
      thumb: image(first.video.cover),
      // The H.264 rendition (576x1024) over the larger H.265 one; its first CDN copy, not www.tiktok.com/aweme/v1/play.
      media: [{ kind: 'video', url: video(h264.PlayAddr.UrlList[0]), w: 576, h: 1024, duration_s: 15 }],
      ts: 1770280392,
      duration_s: 15,
      aspect: { width: 576, height: 1024 },
      stats: { likes: 2887, comments: 179, shares: 38, views: 12100 },
      provenance: 'live',
    });
    // That rendition is the play address TikTok itself hands the player, not the (watermarked) download one.
    expect(h264.PlayAddr.UrlList[0]).toBe(first.video.playAddr);
    expect(env.items[0].media[0].url).not.toContain(encodeURIComponent(first.video.downloadAddr));
    for (const item of env.items.filter((i) => i.type === 'video')) {
      expect(item.media).toHaveLength(1);
      expect(decodeURIComponent(item.media[0].url)).toMatch(/^\/v1\/media\?u=https:\/\/v16-webapp-prime\.us\.tiktok\.com\//);
      expect(item.stats.views).toBeGreaterThan(0);
    }
    const card = env.items[2];
    expect(card).toEqual({
      id: 'tiktok:@tiktok',
      type: 'text',
      provider: 'tiktok',
      title: 'TikTok',
      text: 'One TikTok can make a big impact',
      author: 'TikTok',
      author_id: '107955',
      author_handle: 'tiktok',
      author_url: 'https://www.tiktok.com/@tiktok',
      url: 'https://www.tiktok.com/@tiktok',
      thumb: image(data[2].user_list[0].user_info.avatar_thumb.url_list[0]),
      media: [],
      stats: {},
      provenance: 'live',
    });
    // 12 asked, 12 given: the cursor carries TikTok's next offset and its search id.
    expect(decodeCursor(env.next_cursor).c).toBe(`12~${data.length && raw(file).log_pb.impr_id}`);
  });

  it('the next page asks offset=12 with the search id (and fails loudly, naming it, since it is not recorded)', async () => {
    const first = (await run('search', { query: 'TikTok', limit: 12 }, [real('search-general-tiktok.har')])).result as Envelope;
    await expect(run('search', { query: 'TikTok', cursor: first.next_cursor }, [real('search-general-tiktok.har')])).rejects.toThrow(
      /api\/search\/general\/full\/\?.*offset=12&search_id=20260205104802B66526ADF1C094052237/,
    );
  });

  it('a walk past the recorded page keeps the page and says where the recordings end', async () => {
    const { result, warnings } = await run('search', { query: 'TikTok', limit: 30 }, [real('search-general-tiktok.har')]);
    expect(result).toMatchObject({ ok: true, source: 'live', count: 12 });
    expect(warnings.join()).toMatch(/stopped after 1 page\(s\): replay: no recording matches GET .*offset=12/);
  });
});

describe('tiktok.comments (web, 2026 recording)', () => {
  it('reads the comment list: ids, text, authors, likes, total, the native cursor', async () => {
    const file = real('comments-7603296357641735445.har');
    const { result, requests } = await run('comments', { query: 'https://www.tiktok.com/@dua_zahra014/video/7603296357641735445', limit: 19 }, [file]);
    expect(paths(requests)).toEqual([TTWID, 'GET https://www.tiktok.com/api/comment/list/']);
    expect([param(requests[1], 'aweme_id'), param(requests[1], 'cursor'), param(requests[1], 'count')]).toEqual(['7603296357641735445', '0', '20']);
    const body = raw(file);
    const res = result as CommentsResult;
    expect(res).toMatchObject({ source: 'live', total: 227, has_more: true });
    expect(decodeCursor(res.cursor).c).toBe('20');
    expect(res.items.map((c) => c.cid)).toEqual(body.comments.map((c: any) => c.cid));
    const c0 = body.comments[1];
    expect(res.items[1]).toEqual({
      cid: c0.cid,
      text: c0.text,
      likes: c0.digg_count,
      reply_total: c0.reply_comment_total,
      user_id: c0.user.uid,
      sec_uid: c0.user.sec_uid,
      handle: c0.user.unique_id,
      user_name: c0.user.nickname,
      created_at: c0.create_time,
      source: 'tiktok',
    });
    // An image-only comment has empty text, never "undefined".
    expect(res.items[0]).toMatchObject({ cid: '7603301260598838032', text: '', likes: 2, handle: 'zainjutt.31' });
    expect(res.items.every((c) => c.parent_id === undefined)).toBe(true);
  });

  it('page 2 asks cursor=20', async () => {
    const first = (await run('comments', { query: '7603296357641735445', limit: 19 }, [real('comments-7603296357641735445.har')])).result as CommentsResult;
    await expect(run('comments', { query: '7603296357641735445', cursor: first.cursor }, [real('comments-7603296357641735445.har')])).rejects.toThrow(/comment\/list\/\?.*cursor=20/);
  });
});

describe('tiktok.detail (web)', () => {
  it('2020 recording: the page and the www API are not recorded, the m.tiktok.com API answers', async () => {
    const file = real('detail-item-6832324357851778309.har');
    const { result, requests, warnings } = await run('detail', { query: '6832324357851778309' }, [file]);
    expect(paths(requests)).toEqual([
      'GET https://www.tiktok.com/@_/video/6832324357851778309',
      TTWID,
      'GET https://www.tiktok.com/api/item/detail/',
      'GET https://m.tiktok.com/api/item/detail/',
    ]);
    expect(param(requests[3], 'itemId')).toBe('6832324357851778309');
    expect(warnings).toEqual([]);
    const s = raw(file).itemInfo.itemStruct;
    expect((result as Envelope).items).toEqual([
      {
        id: 'tiktok:6832324357851778309',
        type: 'video',
        provider: 'tiktok',
        text: 'Should I start the #ShutitDown Challenge ??? #fyp #foryou',
        author: 'Gordon Ramsay',
        author_id: '6747935906352907269',
        author_handle: 'gordonramsayofficial',
        author_url: 'https://www.tiktok.com/@gordonramsayofficial',
        url: 'https://www.tiktok.com/@gordonramsayofficial/video/6832324357851778309',
        thumb: image(s.video.cover),
        // No bitrateInfo in 2020: the play address (watermark-free), not downloadAddr.
        media: [{ kind: 'video', url: video(s.video.playAddr), w: 576, h: 1024, duration_s: 6 }],
        ts: 1590774479,
        duration_s: 6,
        aspect: { width: 576, height: 1024 },
        stats: { likes: 231700, comments: 1463, shares: 739, views: 1200000 },
        provenance: 'live',
      },
    ]);
  });

  it('an empty 200 is blocked (never empty): the guest identity is re-minted once, then it stops', async () => {
    const { result, requests } = await run('detail', { query: 'https://www.tiktok.com/@someone/video/7409215120842231086' }, [real('error-empty-200-block.har')]);
    expect(result).toMatchObject({ ok: false, source: 'blocked', count: 0, items: [], error: { code: 'blocked', retryable: true } });
    expect((result as Envelope).error!.message).toMatch(/empty body/);
    expect(paths(requests)).toEqual([
      'GET https://www.tiktok.com/@someone/video/7409215120842231086',
      TTWID,
      'GET https://www.tiktok.com/api/item/detail/',
      TTWID,
      'GET https://www.tiktok.com/api/item/detail/',
    ]);
    // The second attempt went out as a fresh guest.
    expect(param(requests[2], 'msToken')).not.toBe(param(requests[4], 'msToken'));
  });
});

describe('tiktok app-API recordings (2021): read by the parsers, no app route', () => {
  it('aweme/post: aweme_list → posts with the watermark-free play stream and millisecond durations', () => {
    const body = raw(real('posts-app-user-6889508286968038405.har'));
    const a = body.aweme_list[0];
    expect(itemsOf(body)).toEqual([
      {
        native_id: '6990567184082701573',
        type: 'video',
        text: a.desc,
        author: 'Anastasiya Chorna421',
        author_id: '6889508286968038405',
        author_handle: 'anastasiyachorna3',
        url: 'https://www.tiktok.com/@anastasiyachorna3/video/6990567184082701573',
        thumb: a.video.cover.url_list[0],
        media: [{ kind: 'video', url: a.video.play_addr_h264.url_list[0], w: 576, h: 1024, duration_s: 5.779 }],
        ts: 1627618258,
        duration_s: 5.779,
        aspect: { width: 576, height: 1024 },
        stats: { likes: 453, comments: 11, shares: 3, views: 5040 },
      },
    ]);
    // download_addr is the watermarked copy (has_watermark, watermark=1 on its play URL): never chosen.
    expect(a.video.has_watermark).toBe(true);
    expect(JSON.stringify(itemsOf(body))).not.toContain('watermark=1');
  });

  it('search/item: aweme_list with bit_rate renditions → the highest-bitrate H.264 one', () => {
    const body = raw(real('search-app-videos-beauty.har'));
    const drafts = itemsOf(body);
    expect(drafts.map((d) => d.native_id)).toEqual(body.aweme_list.map((a: any) => a.aweme_id));
    const best = (a: any) => [...a.video.bit_rate].sort((x: any, y: any) => y.bit_rate - x.bit_rate)[0].play_addr.url_list[0];
    expect(drafts.map((d) => d.media![0].url)).toEqual(body.aweme_list.map(best));
    expect(drafts[0]).toMatchObject({ author_handle: 'trulybeauty', duration_s: 27.002, aspect: { width: 576, height: 1024 }, stats: { likes: 1256636, comments: 21992, shares: 56460, views: 16509966 } });
  });

  it('general/search/single: data[].aweme_info cards', () => {
    const body = raw(real('search-app-general-beauty.har'));
    const drafts = generalResultsOf(body);
    expect(drafts.map((d) => [d.native_id, d.type, d.author_handle])).toEqual([['6932229950720216325', 'video', 'trulybeauty']]);
    expect(drafts[0].media).toHaveLength(1);
  });

  it('discover/search: user_list → profile cards and authors', () => {
    const body = raw(real('search-app-users-beauty.har'));
    const cards = userCardsOf(body.user_list);
    expect(cards.map((c) => c.native_id)).toEqual(body.user_list.map((u: any) => `@${u.user_info.unique_id}`));
    expect(authorFromAppUser(body.user_list[0].user_info)).toEqual({
      id: '6613926240453148678',
      source: 'tiktok',
      handle: 'hudabeauty',
      name: 'Huda Beauty💄',
      bio: 'Founder of Huda Beauty & Wishful',
      avatar: body.user_list[0].user_info.avatar_larger.url_list[0],
      url: 'https://www.tiktok.com/@hudabeauty',
      followers: 5479588,
      following: 154,
      posts: 324,
      likes: 98989516,
      verified: true,
    });
  });

  it('comment/list (v2): snake_case comments like the web ones', () => {
    const body = raw(real('comments-app-6993829555089706245.har'));
    expect(threadComments(body.comments)).toEqual([
      {
        cid: '6996843253702542081',
        text: 'What👁👄👁',
        likes: 0,
        reply_total: 0,
        user_id: '6934915800185177094',
        sec_uid: body.comments[0].user.sec_uid,
        handle: 'the.king.of.drip',
        user_name: 'Love you guys',
        created_at: 1629079535,
        source: 'tiktok',
      },
      expect.objectContaining({ cid: '6996897023341953798', handle: 'xeon_ccl', text: 'And it’s only 50 thousand calories' }),
    ]);
  });

  it('the adapter never asks the app host: an app recording alone answers nothing (a loud replay miss)', async () => {
    await expect(run('comments', { query: '6993829555089706245' }, [real('comments-app-6993829555089706245.har')])).rejects.toThrow(/www\.tiktok\.com\/api\/comment\/list/);
  });
});

describe('tiktok sandbox: search, posts, user, detail, replies, recommended, share links', () => {
  const all = [SANDBOX];

  it('search general pages with offset + search id; video and user search', async () => {
    const env = (await run('search', { query: 'harbor cooking', limit: 10 }, all)).result as Envelope;
    expect(env.items.map((i) => [i.id, i.type])).toEqual([
      ['tiktok:7345678901234567890', 'video'],
      ['tiktok:@harborcook', 'text'],
      ['tiktok:7345678901234567893', 'video'],
      ['tiktok:7345678901234567892', 'video'],
    ]);
    expect(env.next_cursor).toBeUndefined();
    const videos = (await run('search', { query: 'harbor cooking', type: 'video' }, all)).result as Envelope;
    expect(videos.items.map((i) => [i.id, i.type, i.media.map((m) => m.kind)])).toEqual([
      ['tiktok:7345678901234567890', 'video', ['video']],
      ['tiktok:7345678901234567891', 'image', ['image', 'image', 'image']],
    ]);
    const users = (await run('search', { query: 'harbor', type: 'user' }, all)).result as Envelope;
    expect(users.items.map((i) => [i.id, i.author_url])).toEqual([
      ['tiktok:@harborcook', 'https://www.tiktok.com/@harborcook'],
      ['tiktok:@quietharbor', 'https://www.tiktok.com/@quietharbor'],
    ]);
    expect((await run('search', { query: 'zqxjkvwy harbor' }, all)).result).toMatchObject({ ok: true, source: 'empty', count: 0 });
  });

  it('user: the profile page (no signature), every counter', async () => {
    const { result, requests } = await run('user', { query: '@harborcook' }, [sand('user-page-harborcook.har')]);
    expect(requests).toEqual(['GET https://www.tiktok.com/@harborcook']);
    expect((result as CreatorResult).data!.author).toEqual({
      id: '7012345678901234567',
      source: 'tiktok',
      handle: 'harborcook',
      name: 'Harbor Cook',
      bio: 'Fish stews from a very small galley.\nNew video every Sunday',
      avatar: image('https://p16-common-sign.tiktokcdn-us.com/tos-useast5-avt-0068-tx/01234567sandbox~tplv-tiktokx-cropcenter:1080:1080.jpeg?dr=9640&x-expires=1778000000&x-signature=sandbox1080'),
      url: 'https://www.tiktok.com/@harborcook',
      followers: 482100,
      following: 87,
      posts: 214,
      likes: 9310000,
      verified: true,
    });
  });

  it('user: a private account is its public card plus a warning; an unknown handle is not_found; a -1 refusal is blocked', async () => {
    const priv = await run('user', { query: 'https://www.tiktok.com/@quietharbor' }, all);
    expect(priv.result).toMatchObject({ ok: true, source: 'live', data: { author: { handle: 'quietharbor', followers: 112 } } });
    expect(priv.warnings.join()).toMatch(/private account/);
    expect((await run('user', { query: 'nosuchharbor' }, all)).result).toMatchObject({ ok: false, error: { code: 'not_found' } });
    const refusedUid = recordedParam(sand('error-user-api-refused.har'), 'secUid');
    const refused = await run('user', { query: refusedUid }, [sand('error-user-api-refused.har')]);
    expect(refused.result).toMatchObject({ ok: false, source: 'blocked', error: { code: 'blocked' } });
  });

  it('posts: @handle → secUid from the profile page → the post list, walked to its end', async () => {
    const { result, requests } = await run('posts', { query: '@harborcook', max_items: -1 }, all);
    const env = result as Envelope;
    expect(env.items.map((i) => [i.id, i.type])).toEqual([
      ['tiktok:7345678901234567890', 'video'],
      ['tiktok:7345678901234567891', 'image'],
      ['tiktok:7345678901234567892', 'video'],
      ['tiktok:7345678901234567894', 'video'],
    ]);
    expect(env.next_cursor).toBeUndefined();
    expect(paths(requests)).toEqual([
      'GET https://www.tiktok.com/@harborcook',
      TTWID,
      'GET https://www.tiktok.com/api/post/item_list/',
      'GET https://www.tiktok.com/api/post/item_list/',
    ]);
    expect(param(requests[2], 'secUid')).toMatch(/^MS4wLjABAAAAhArB0rC00k/);
    expect(param(requests[3], 'cursor')).toBe('1777650000000');
    // The photo carousel: each image, the carousel's title, the first image as cover.
    const photo = env.items[1];
    expect(photo).toMatchObject({ type: 'image', title: 'Knots of the week', url: 'https://www.tiktok.com/@harborcook/photo/7345678901234567891', aspect: { width: 1080, height: 1440 } });
    expect(photo.media.map((m) => [m.kind, m.w, m.h])).toEqual([
      ['image', 1080, 1440],
      ['image', 1080, 1440],
      ['image', 1080, 1350],
    ]);
    expect(photo.duration_s).toBeUndefined();
  });

  it('posts: a private account is not_found (never an empty list); HTTP 429 is rate_limited', async () => {
    const priv = (await run('posts', { query: '@quietharbor' }, all)).result as Envelope;
    expect(priv).toMatchObject({ ok: false, error: { code: 'not_found' } });
    expect(priv.error!.message).toMatch(/private account/);
    const throttled = (await run('posts', { query: recordedParam(sand('error-posts-429.har'), 'secUid') }, all)).result as Envelope;
    expect(throttled).toMatchObject({ ok: false, error: { code: 'rate_limited', retryable: true } });
  });

  it('detail: the page answers a video (best H.264 rendition) and a photo post, unsigned', async () => {
    const { result, requests } = await run('detail', { query: 'https://www.tiktok.com/@harborcook/video/7345678901234567890?is_from_webapp=1' }, all);
    expect(requests).toEqual(['GET https://www.tiktok.com/@harborcook/video/7345678901234567890']);
    const item = (result as Envelope).items[0];
    expect(item).toMatchObject({ id: 'tiktok:7345678901234567890', type: 'video', duration_s: 41, stats: { likes: 48200, comments: 5, shares: 1310, views: 512000 } });
    expect(decodeURIComponent(item.media[0].url)).toMatch(/\/o34567890h264normal\/.*br=2000/);
    const photo = ((await run('detail', { query: 'www.tiktok.com/@harborcook/photo/7345678901234567891' }, all)).result as Envelope).items[0];
    expect(photo.media).toHaveLength(3);
    expect(photo.thumb).toBe(photo.media[0].url);
  });

  it('detail: a bare id falls back from the page to the API; a WAF challenge page too', async () => {
    const { result, requests } = await run('detail', { query: '7345678901234567892' }, all);
    expect(paths(requests)).toEqual(['GET https://www.tiktok.com/@_/video/7345678901234567892', TTWID, 'GET https://www.tiktok.com/api/item/detail/']);
    expect((result as Envelope).items[0]).toMatchObject({ id: 'tiktok:7345678901234567892', aspect: { width: 720, height: 1280 } });
    const waf = await run('detail', { query: '7345678901234560403' }, all);
    expect(waf.result).toMatchObject({ ok: true, items: [{ id: 'tiktok:7345678901234560403' }] });
  });

  it('detail: 10204 is blocked, 10216 not_found, a redirect to /login session_expired', async () => {
    expect((await run('detail', { query: '7345678901234560204' }, all)).result).toMatchObject({ ok: false, source: 'blocked', error: { code: 'blocked' } });
    const priv = (await run('detail', { query: '7345678901234560216' }, all)).result as Envelope;
    expect(priv).toMatchObject({ ok: false, error: { code: 'not_found' } });
    expect(priv.error!.message).toMatch(/private/);
    expect((await run('detail', { query: '7345678901234560301' }, all)).result).toMatchObject({ ok: false, error: { code: 'session_expired' } });
  });

  it('share links: vm./vt.tiktok.com and /t/ are followed one hop, without fetching the target', async () => {
    const { result, requests } = await run('detail', { query: 'https://vm.tiktok.com/ZMsandbox1/' }, all);
    expect(requests).toEqual(['GET https://vm.tiktok.com/ZMsandbox1/', 'GET https://www.tiktok.com/@harborcook/video/7345678901234567890']);
    expect((result as Envelope).items[0].id).toBe('tiktok:7345678901234567890');
    expect(((await run('user', { query: 'vt.tiktok.com/ZSsandbox2' }, all)).result as CreatorResult).data!.author.handle).toBe('harborcook');
    expect(((await run('detail', { query: 'https://www.tiktok.com/t/ZTsandbox3/' }, all)).result as Envelope).items[0].type).toBe('image');
  });

  it('comments: inline replies follow their thread (parent_id); replies_of pages one thread', async () => {
    const res = (await run('comments', { query: '7345678901234567890' }, all)).result as CommentsResult;
    expect(res.items.map((c) => [c.cid, c.parent_id ?? null])).toEqual([
      ['7345679000000000001', null],
      ['7345679000000000101', '7345679000000000001'],
      ['7345679000000000002', null],
    ]);
    expect(res).toMatchObject({ source: 'live', total: 5, has_more: false });
    const thread = (await run('comments', { query: '7345678901234567890', replies_of: '7345679000000000001' }, all)).result as CommentsResult;
    expect(thread.items.map((c) => [c.cid, c.parent_id])).toEqual([
      ['7345679000000000101', '7345679000000000001'],
      ['7345679000000000102', '7345679000000000101'],
    ]);
    const byParent = (await run('comments', { query: '7345678901234567890', parent_id: '7345679000000000001' }, all)).result as CommentsResult;
    expect(byParent.items.map((c) => c.cid)).toEqual(thread.items.map((c) => c.cid));
    expect((await run('comments', { query: '7345678901234567890', parent_id: '1', replies_of: '2' }, all)).result).toMatchObject({ error: { code: 'invalid_request' } });
    expect((await run('comments', { query: '7345678901234560008' }, all)).result).toMatchObject({ source: 'live', items: [], error: { code: 'session_expired' } });
  });

  it('recommended: the For You feed', async () => {
    const env = (await run('recommended', { limit: 3 }, all)).result as Envelope;
    expect(env.items.map((i) => i.id)).toEqual(['tiktok:7345678901234567893', 'tiktok:7345678901234567894', 'tiktok:7345678901234567891']);
    expect(env.next_cursor).toBeDefined();
  });

  it('the guest ttwid is minted before the first signed call, once for the whole crawl', async () => {
    const { requests } = await run('search', { query: 'harbor cooking', limit: 10 }, all);
    expect(paths(requests)).toEqual([TTWID, 'GET https://www.tiktok.com/api/search/general/full/', 'GET https://www.tiktok.com/api/search/general/full/']);
    // Both pages went out as the same guest.
    expect(param(requests[1], 'msToken')).toBe(param(requests[2], 'msToken'));
  });

  it('every sandbox entry is marked hand-made', () => {
    for (const f of readdirSync(SANDBOX).filter((n) => n.endsWith('.har'))) {
      for (const e of JSON.parse(readFileSync(resolve(SANDBOX, f), 'utf8')).log.entries) expect(e.comment).toMatch(/^hand-made sandbox recording: /);
    }
  });
});

describe('tiktok signing routes', () => {
  const file = sand('signature-refused-then-page-7345678901234560777.har');
  const fakePage = () => {
    const calls: unknown[] = [];
    const signer: PageSigning = {
      sign: async (req) => {
        calls.push(req);
        return { 'X-Bogus': 'DFSzswVOsandboxPAGE000000001', 'X-Gnarly': 'sandboxGnarlyFromTheTikTokPage' } as never;
      },
    };
    return { signer, calls };
  };

  it("auto: the native X-Bogus is refused twice (fresh guest in between), then the page's frontierSign signs", async () => {
    const { signer, calls } = fakePage();
    const { result, requests, warnings } = await run('detail', { query: '7345678901234560777' }, [file], { signer });
    expect(result).toMatchObject({ ok: true, items: [{ id: 'tiktok:7345678901234560777' }] });
    expect(calls).toHaveLength(1);
    const req = calls[0] as { pageUrl: string; fn: string; args: string[] };
    expect(req.pageUrl).toBe('https://www.tiktok.com/');
    expect(req.fn).toBe('byted_acrawler.frontierSign');
    const last = requests[requests.length - 1];
    // The page signed exactly the URL that went out, and both of its values were appended.
    expect(last.replace(/^GET /, '')).toBe(`${req.args[0]}&X-Bogus=DFSzswVOsandboxPAGE000000001&X-Gnarly=sandboxGnarlyFromTheTikTokPage`);
    expect(warnings.join()).toMatch(/refused our native signature.*in the page/);
  });

  it('browser mode goes to the page at once; native mode never calls it (blocked)', async () => {
    const page = fakePage();
    const browser = await run('detail', { query: '7345678901234560777' }, [file], { signer: page.signer, signModes: new Map([['tiktok', 'browser']]) });
    expect(browser.result).toMatchObject({ ok: true });
    expect(browser.requests.filter((r) => r.includes('/api/item/detail/'))).toHaveLength(1);
    const native = fakePage();
    const refused = await run('detail', { query: '7345678901234560777' }, [file], { signer: native.signer, signModes: new Map([['tiktok', 'native']]) });
    expect(refused.result).toMatchObject({ ok: false, source: 'blocked', error: { code: 'blocked' } });
    expect(native.calls).toHaveLength(0);
  });

  it('replay mode opens no page: the refusal stands as blocked', async () => {
    const page = fakePage();
    const { result } = await run('detail', { query: '7345678901234560777' }, [file], { signer: page.signer, replayMode: true });
    expect(result).toMatchObject({ ok: false, source: 'blocked' });
    expect(page.calls).toHaveLength(0);
  });
});

describe('tiktok recordings', () => {
  // Runs last (vitest keeps file order): every real recording must have been used above.
  it('every recording in ../shared/fixtures/tiktok was used', () => {
    const all = readdirSync(FIXTURES).filter((f) => f.endsWith('.har'));
    expect(all.length).toBeGreaterThanOrEqual(9);
    expect(all.filter((f) => !used.has(basename(f)))).toEqual([]);
  });
});
