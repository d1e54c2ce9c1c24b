import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  authorFromAppUser,
  authorFromUserInfo,
  awemeToDraft,
  commentOf,
  count,
  detailItemOf,
  generalResultsOf,
  itemToDraft,
  itemsOf,
  threadComments,
  userCardToDraft,
  webItemToDraft,
} from '../../src/platforms/tiktok/parse.js';

const rendition = (codec: string, w: number, h: number, bitrate: number, urls: string[], key = '') => ({ Bitrate: bitrate, CodecType: codec, PlayAddr: { UrlList: urls, Width: w, Height: h, UrlKey: key } });

describe('tiktok web items', () => {
  it('best stream: highest-resolution H.264, then bitrate; bytevc2 and www.tiktok.com copies are skipped', () => {
    const d = webItemToDraft({
      id: '7000000000000000001',
      video: {
        width: 576,
        height: 1024,
        duration: 12,
        playAddr: 'https://v16-webapp-prime.us.tiktok.com/play',
        bitrateInfo: [
          rendition('bytevc2', 1080, 1920, 9_000_000, ['https://v16-webapp-prime.us.tiktok.com/vvc']),
          rendition('h265_hvc1', 1080, 1920, 3_000_000, ['https://v16-webapp-prime.us.tiktok.com/hevc']),
          rendition('h264', 576, 1024, 900_000, ['https://v16-webapp-prime.us.tiktok.com/low']),
          rendition('h264', 720, 1280, 800_000, ['https://www.tiktok.com/aweme/v1/play/?x', 'https://v19-webapp-prime.us.tiktok.com/720']),
          rendition('h264', 720, 1280, 700_000, ['https://v16-webapp-prime.us.tiktok.com/720lower']),
        ],
      },
    });
    expect(d?.media).toEqual([{ kind: 'video', url: 'https://v19-webapp-prime.us.tiktok.com/720', w: 720, h: 1280, duration_s: 12 }]);
  });

  it('H.265 only when no H.264 is offered, never a video-only hvc1 track; then playAddr; then the watermarked download', () => {
    const only265 = webItemToDraft({
      id: '7000000000000000002',
      video: {
        bitrateInfo: [
          rendition('h265_hvc1', 1080, 1920, 3_000_000, ['https://v16-webapp-prime.us.tiktok.com/x/media-video-hvc1/']),
          rendition('h265_hvc1', 720, 1280, 1_000_000, ['https://v16-webapp-prime.us.tiktok.com/hevc720']),
        ],
      },
    });
    expect(only265?.media?.[0]?.url).toBe('https://v16-webapp-prime.us.tiktok.com/hevc720');
    const playOnly = webItemToDraft({ id: '7000000000000000003', video: { playAddr: [{ src: 'https://v16-webapp-prime.us.tiktok.com/src' }], downloadAddr: 'https://v16-webapp-prime.us.tiktok.com/dl' } });
    expect(playOnly?.media?.[0]?.url).toBe('https://v16-webapp-prime.us.tiktok.com/src');
    const downloadOnly = webItemToDraft({ id: '7000000000000000004', video: { downloadAddr: 'https://v16-webapp-prime.us.tiktok.com/dl', width: 576, height: 1024 } });
    expect(downloadOnly?.media).toEqual([{ kind: 'video', url: 'https://v16-webapp-prime.us.tiktok.com/dl', w: 576, h: 1024 }]);
  });

  it('a photo post: images with sizes, title, first image as cover, no duration', () => {
    const d = webItemToDraft({
      id: '7000000000000000005',
      desc: 'slides',
      author: { id: '1', uniqueId: 'who', nickname: 'Who' },
      video: { duration: 20, cover: 'https://p16-common-sign.tiktokcdn-us.com/music-cover' },
      imagePost: {
        title: 'Slides',
        images: [
          { imageURL: { urlList: ['https://p16-common-sign.tiktokcdn-us.com/a'] }, imageWidth: 1080, imageHeight: 1350 },
          { imageURL: { urlList: [] } },
          { imageURL: { urlList: ['https://p16-common-sign.tiktokcdn-us.com/b'] } },
        ],
      },
      stats: { diggCount: 1 },
    });
    expect(d).toEqual({
      native_id: '7000000000000000005',
      type: 'image',
      title: 'Slides',
      text: 'slides',
      author: 'Who',
      author_id: '1',
      author_handle: 'who',
      url: 'https://www.tiktok.com/@who/photo/7000000000000000005',
      thumb: 'https://p16-common-sign.tiktokcdn-us.com/a',
      media: [
        { kind: 'image', url: 'https://p16-common-sign.tiktokcdn-us.com/a', w: 1080, h: 1350 },
        { kind: 'image', url: 'https://p16-common-sign.tiktokcdn-us.com/b' },
      ],
      aspect: { width: 1080, height: 1350 },
      stats: { likes: 1 },
    });
  });

  it('statsV2 strings fill in; an older item names its author by handle (SIGI ItemModule)', () => {
    const d = webItemToDraft({ id: '7000000000000000006', author: 'olduser', authorId: '42', nickname: 'Old', createTime: '1600000000', statsV2: { playCount: '12345678901', diggCount: 'many' } });
    expect(d).toMatchObject({ author: 'Old', author_id: '42', author_handle: 'olduser', ts: 1600000000, stats: { views: 12345678901 }, url: 'https://www.tiktok.com/@olduser/video/7000000000000000006' });
    expect(d?.stats.likes).toBeUndefined();
  });

  it('a nameless item has no url handle; an item without an id is dropped', () => {
    expect(webItemToDraft({ id: '7000000000000000007' })).toEqual({ native_id: '7000000000000000007', type: 'video', url: 'https://www.tiktok.com/@_/video/7000000000000000007', media: [], stats: {} });
    expect(webItemToDraft({ desc: 'no id' })).toBeUndefined();
    expect(webItemToDraft({ id: '0' })).toBeUndefined();
    expect(webItemToDraft({ id: 'abc' })).toBeUndefined();
    expect(itemsOf({ itemList: [null, 3, 'x', { id: '7000000000000000008' }] }).map((d) => d.native_id)).toEqual(['7000000000000000008']);
  });
});

describe('tiktok app items', () => {
  it('durations are milliseconds; bit_rate ranks H.264 by bitrate; placeholder 720x720 sizes are ignored', () => {
    const d = awemeToDraft({
      aweme_id: '6990000000000000001',
      author: { uid: '9', unique_id: 'app.user', nickname: 'App' },
      create_time: 1627618258,
      statistics: { digg_count: 1, comment_count: 2, share_count: 3, play_count: 4 },
      video: {
        width: 576,
        height: 1024,
        duration: 15300,
        cover: { url_list: ['https://p16-sign-va.tiktokcdn.com/cover'] },
        bit_rate: [
          { bit_rate: 500, play_addr: { url_list: ['https://v19-us.tiktokcdn.com/low'], width: 720, height: 720, url_key: 'x_h264_540p_500' } },
          { bit_rate: 900, play_addr: { url_list: ['https://v19-us.tiktokcdn.com/hevc'], width: 720, height: 720, url_key: 'x_bytevc1_540p_900' }, is_bytevc1: 1 },
          { bit_rate: 800, play_addr: { url_list: ['https://v19-us.tiktokcdn.com/high'], width: 720, height: 720, url_key: 'x_h264_540p_800' } },
        ],
        download_addr: { url_list: ['https://v16m.tiktokcdn.com/watermarked'] },
      },
    });
    expect(d).toMatchObject({
      native_id: '6990000000000000001',
      author_handle: 'app.user',
      duration_s: 15.3,
      media: [{ kind: 'video', url: 'https://v19-us.tiktokcdn.com/high', w: 576, h: 1024, duration_s: 15.3 }],
      stats: { likes: 1, comments: 2, shares: 3, views: 4 },
      url: 'https://www.tiktok.com/@app.user/video/6990000000000000001',
    });
  });

  it('app photo posts (image_post_info) and the watermarked download as the last resort', () => {
    const photo = awemeToDraft({
      aweme_id: '6990000000000000002',
      image_post_info: { images: [{ display_image: { url_list: ['https://p16-sign-va.tiktokcdn.com/p1'], width: 1080, height: 1440 } }] },
      video: { duration: 9000 },
    });
    expect(photo).toMatchObject({ type: 'image', media: [{ kind: 'image', url: 'https://p16-sign-va.tiktokcdn.com/p1', w: 1080, h: 1440 }], url: 'https://www.tiktok.com/@_/photo/6990000000000000002' });
    expect(photo?.duration_s).toBeUndefined();
    const dl = awemeToDraft({ aweme_id: '6990000000000000003', video: { download_addr: { url_list: ['https://v16m.tiktokcdn.com/wm'] } } });
    expect(dl?.media).toEqual([{ kind: 'video', url: 'https://v16m.tiktokcdn.com/wm' }]);
  });

  it('either shape through one door: itemToDraft, itemsOf, detailItemOf', () => {
    expect(itemToDraft({ aweme_id: '6990000000000000004' })?.native_id).toBe('6990000000000000004');
    expect(itemToDraft({ id: '7000000000000000009' })?.native_id).toBe('7000000000000000009');
    expect(itemsOf({ aweme_list: [{ aweme_id: '6990000000000000005' }] }).map((d) => d.native_id)).toEqual(['6990000000000000005']);
    expect(itemsOf({ item_list: [{ id: '7000000000000000010' }] }).map((d) => d.native_id)).toEqual(['7000000000000000010']);
    expect(itemsOf({})).toEqual([]);
    expect(detailItemOf({ aweme_detail: { aweme_id: '1' } })).toEqual({ aweme_id: '1' });
    expect(detailItemOf({ itemInfo: { itemStruct: { id: '2' } } })).toEqual({ id: '2' });
    expect(detailItemOf({ itemInfo: {} })).toBeUndefined();
  });

  it('general search cards: posts of both shapes, user rows, unknown card types skipped', () => {
    const got = generalResultsOf({
      data: [{ type: 1, item: { id: '7000000000000000011' } }, { type: 1, aweme_info: { aweme_id: '6990000000000000006' } }, { type: 4, user_list: [{ user_info: { uid: '5', unique_id: 'five' } }] }, { type: 999, banner: {} }],
    });
    expect(got.map((d) => [d.native_id, d.type])).toEqual([
      ['7000000000000000011', 'video'],
      ['6990000000000000006', 'video'],
      ['@five', 'text'],
    ]);
  });
});

describe('tiktok creators', () => {
  it('web userInfo: stats first, statsV2 strings as fallback; no user → undefined', () => {
    expect(
      authorFromUserInfo({
        user: { id: '107955', uniqueId: 'tiktok', nickname: 'TikTok', signature: '', verified: true, secUid: 'MS4wLjABAAAAv7iSuuXDJGDvJkmH_vz1qkDZYo1apxgzaxdBSeIuPiM', avatarMedium: 'https://p16-common-sign.tiktokcdn-us.com/m' },
        stats: { followerCount: 92700000, heart: 453517656 },
        statsV2: { followingCount: '3', videoCount: '1200', followerCount: 'x' },
      }),
    ).toEqual({
      id: '107955',
      source: 'tiktok',
      handle: 'tiktok',
      name: 'TikTok',
      avatar: 'https://p16-common-sign.tiktokcdn-us.com/m',
      url: 'https://www.tiktok.com/@tiktok',
      followers: 92700000,
      following: 3,
      posts: 1200,
      likes: 453517656,
      verified: true,
    });
    expect(authorFromUserInfo({})).toBeUndefined();
    expect(authorFromUserInfo({ user: { nickname: 'no id' } })).toBeUndefined();
    expect(authorFromUserInfo({ user: { secUid: 'MS4wLjABAAAAv7iSuuXDJGDvJkmH_vz1qkDZYo1apxgzaxdBSeIuPiM' } })).toMatchObject({ id: 'MS4wLjABAAAAv7iSuuXDJGDvJkmH_vz1qkDZYo1apxgzaxdBSeIuPiM', url: 'https://www.tiktok.com/@MS4wLjABAAAAv7iSuuXDJGDvJkmH_vz1qkDZYo1apxgzaxdBSeIuPiM' });
  });

  it('snake users: verified from the verify reasons; a card needs a handle', () => {
    expect(authorFromAppUser({ uid: '1', unique_id: 'a', custom_verify: '', enterprise_verify_reason: '' })?.verified).toBe(false);
    expect(authorFromAppUser({ uid: '1', unique_id: 'a', custom_verify: 'Creator' })?.verified).toBe(true);
    expect(userCardToDraft({ uid: '1', nickname: 'no handle' })).toBeUndefined();
    expect(userCardToDraft({ user: { id: '2', uniqueId: 'web.card', nickname: 'Web' }, stats: {} })).toMatchObject({ native_id: '@web.card', type: 'text', url: 'https://www.tiktok.com/@web.card' });
  });
});

describe('tiktok comments', () => {
  it('reply_to_reply_id names the reply answered, reply_id the thread; empty text stays empty', () => {
    expect(commentOf({ cid: '11', reply_id: '10', reply_to_reply_id: '0', text: null, user: {} })).toEqual({
      cid: '11',
      text: '',
      likes: 0,
      reply_total: 0,
      user_id: '',
      handle: '',
      user_name: '',
      created_at: 0,
      source: 'tiktok',
      parent_id: '10',
    });
    expect(commentOf({ cid: '12', reply_id: '10', reply_to_reply_id: '11' })?.parent_id).toBe('11');
    expect(commentOf({ cid: '0' })).toBeUndefined();
  });

  it('inline replies follow their top comment once, even when TikTok repeats them', () => {
    const list = [
      { cid: '1', reply_comment: [{ cid: '2', reply_id: '1' }, { cid: '3' }] },
      { cid: '2', reply_id: '1' },
      { cid: '4', reply_comment: null },
    ];
    expect(threadComments(list).map((c) => [c.cid, c.parent_id ?? null])).toEqual([
      ['1', null],
      ['2', '1'],
      ['3', '1'],
      ['4', null],
    ]);
  });
});

describe('tiktok parsers never throw and never invent values', () => {
  const anyJson = fc.jsonValue({ maxDepth: 4 });
  it('property: arbitrary JSON in any slot gives a draft or nothing, with no "undefined" / NaN strings', () => {
    fc.assert(
      fc.property(anyJson, anyJson, anyJson, anyJson, (video, author, stats, images) => {
        for (const d of [
          webItemToDraft({ id: '7000000000000000012', video, author, stats, imagePost: { images } }),
          awemeToDraft({ aweme_id: '6990000000000000007', video, author, statistics: stats, image_post_info: { images } }),
        ]) {
          expect(d).toBeDefined();
          const text = JSON.stringify(d);
          expect(text).not.toMatch(/undefined|NaN|\[object Object\]/);
          for (const m of d!.media ?? []) expect(m.url).toMatch(/^(?:https?:)?\/\//);
        }
        expect(() => commentOf({ cid: '5', user: author, text: video })).not.toThrow();
        expect(() => authorFromUserInfo({ user: author, stats })).not.toThrow();
        expect(() => generalResultsOf({ data: images })).not.toThrow();
      }),
    );
  });

  it('count: non-negative safe integers or decimal strings only', () => {
    expect([count(5), count('17'), count(' 9 '), count(-1), count(1.5), count('1e3'), count(null), count(2 ** 60)]).toEqual([5, 17, 9, undefined, undefined, undefined, undefined, undefined]);
  });
});
