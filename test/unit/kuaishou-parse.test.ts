import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  apolloDetail,
  appPhotoToDraft,
  bestStream,
  commentOf,
  hasReplies,
  hotEntries,
  initStateDetail,
  parseCount,
  sharedPhotoId,
  visionProfileAuthor,
  webPhotoToDraft,
  wxUsers,
} from '../../src/platforms/kuaishou/parse.js';
import { apolloClient, objectLiteral, scriptState, unwrapJson } from '../../src/platforms/kuaishou/state.js';

const FIXTURES = resolve(process.cwd(), '../shared/fixtures/kuaishou');
const body = (file: string): any => JSON.parse(JSON.parse(readFileSync(resolve(FIXTURES, file), 'utf8')).log.entries[0].response.content.text);

const rep = (url: string, width: number, height: number, avgBitrate: number, codecs = 'avc1') => ({ url, width, height, avgBitrate, codecs });
const manifest = (...representation: unknown[]) => ({ adaptationSet: [{ duration: 10000, representation }] });

describe('counts', () => {
  it.each([
    [7610, 7610],
    ['154028', 154028],
    ['169.8w', 1698000],
    ['1.2万', 12000],
    ['3亿', 300000000],
    ['1,234', 1234],
    ['10w+', 100000],
    ['', undefined],
    ['many', undefined],
    [null, undefined],
    [-1, undefined],
  ])('%s → %s', (v, n) => {
    expect(parseCount(v)).toBe(n);
  });
  it('whole numbers survive as strings', () => {
    fc.assert(
      fc.property(fc.nat({ max: 2 ** 40 }), (n) => {
        expect(parseCount(String(n))).toBe(n);
      }),
    );
  });
});

describe('stream choice', () => {
  it('the largest h264 representation wins; equal sizes go to the higher bitrate', () => {
    const s = bestStream({
      manifest: manifest(rep('https://v1.kwaicdn.com/a_720.mp4', 720, 1280, 2000), rep('https://v1.kwaicdn.com/a_1080.mp4', 1080, 1920, 4000), rep('https://v1.kwaicdn.com/a_1080b.mp4', 1080, 1920, 5000)),
      manifestH265: manifest(rep('https://v2.kwaicdn.com/a_2160.mp4', 2160, 3840, 9000, 'hev1')),
    });
    expect(s).toMatchObject({ url: 'https://v1.kwaicdn.com/a_1080b.mp4', w: 1080, h: 1920, hevc: false, duration: 10 });
  });
  it('hevc only when there is no h264 representation; a codecs string naming hevc counts as hevc', () => {
    expect(bestStream({ manifestH265: manifest(rep('https://v2.kwaicdn.com/h.mp4', 720, 1280, 1000)) })).toMatchObject({ url: 'https://v2.kwaicdn.com/h.mp4', hevc: true });
    expect(bestStream({ manifest: manifest(rep('https://v2.kwaicdn.com/x.mp4', 1080, 1920, 1, 'hvc1'), rep('https://v2.kwaicdn.com/y.mp4', 720, 1280, 1)) })?.url).toBe('https://v2.kwaicdn.com/y.mp4');
  });
  it('manifests arrive as objects, Apollo {type:json} wrappers or JSON strings', () => {
    const m = manifest(rep('https://v1.kwaicdn.com/w.mp4', 540, 960, 800));
    for (const form of [m, { type: 'json', json: m }, JSON.stringify(m)]) expect(bestStream({ manifest: form })?.url).toBe('https://v1.kwaicdn.com/w.mp4');
    expect(unwrapJson('not json')).toBe('not json');
  });
  it('without a manifest: photoUrl, photoUrls, mainMvUrls, mp4Url, then the h265 URLs; a backupUrl stands in for a missing url', () => {
    expect(bestStream({ photoUrl: 'https://v1.kwaicdn.com/p.mp4' })?.url).toBe('https://v1.kwaicdn.com/p.mp4');
    expect(bestStream({ photoUrls: [{ cdn: 'v2.kwaicdn.com', url: 'https://v2.kwaicdn.com/q.mp4' }] })?.url).toBe('https://v2.kwaicdn.com/q.mp4');
    expect(bestStream({ mainMvUrls: [{ url: 'http://txmov2.a.yximgs.com/m.mp4' }] })?.url).toBe('https://txmov2.a.yximgs.com/m.mp4');
    expect(bestStream({ photoH265Urls: [{ url: 'https://v2.kwaicdn.com/h.mp4' }] })).toMatchObject({ hevc: true });
    expect(bestStream({ manifest: manifest({ backupUrl: ['https://v2.kwaicdn.com/b.mp4'], width: 1, height: 1 }) })?.url).toBe('https://v2.kwaicdn.com/b.mp4');
    expect(bestStream({ photoUrl: 'javascript:alert(1)' })).toBeUndefined();
    expect(bestStream({})).toBeUndefined();
  });
});

describe('page state', () => {
  it('reads the literal after window.X = …, stopping at its closing brace, ignoring braces in strings', () => {
    const html = `<script>var a=1;window.__APOLLO_STATE__={"defaultClient":{"k":"a } { \\" }","u":"https:\\u002F\\u002Fv1.kwaicdn.com"}};(function(){var s;}());</script>`;
    expect(scriptState(html, '__APOLLO_STATE__')).toEqual({ defaultClient: { k: 'a } { " }', u: 'https://v1.kwaicdn.com' } });
  });
  it('bare undefined values become null; a string holding "undefined" is left alone', () => {
    const html = 'window.INIT_STATE = {"a":undefined,"b":"undefined","c":[undefined,1],"undefinedKey":2}';
    expect(scriptState(html, 'INIT_STATE')).toEqual({ a: null, b: 'undefined', c: [null, 1], undefinedKey: 2 });
  });
  it('an unterminated or non-JSON literal is no state; a later assignment that parses is taken', () => {
    expect(scriptState('window.__APOLLO_STATE__={"a":1', '__APOLLO_STATE__')).toBeUndefined();
    expect(scriptState('window.__APOLLO_STATE__={a:1}', '__APOLLO_STATE__')).toBeUndefined();
    expect(scriptState('window.__APOLLO_STATE__=null; window.__APOLLO_STATE__={"b":2};', '__APOLLO_STATE__')).toEqual({ b: 2 });
    expect(objectLiteral('{"a":[1,{"b":2}]} trailing', 0)).toBe('{"a":[1,{"b":2}]}');
    expect(objectLiteral('{"a":]', 0)).toBeUndefined();
  });
  it('never evaluates: any text either yields a plain object or nothing', () => {
    fc.assert(
      fc.property(fc.string({ maxLength: 80 }), (tail) => {
        const got = scriptState(`window.__APOLLO_STATE__={${tail}`, '__APOLLO_STATE__');
        expect(got === undefined || (typeof got === 'object' && !Array.isArray(got))).toBe(true);
      }),
    );
  });
});

describe('share-page detail', () => {
  const photo = { id: '3xp4tq7wz3hb5ca', caption: 'c', duration: 5000, realLikeCount: 3, viewCount: '10', timestamp: 1700000000000, photoUrl: 'https://v2.kwaicdn.com/p.mp4', coverUrl: 'https://p2.a.yximgs.com/c.jpg' };
  it('the photo by key, its author through the root query reference', () => {
    const client = {
      'VisionVideoDetailPhoto:3xp4tq7wz3hb5ca': photo,
      'VisionVideoDetailAuthor:3xr2bt6kq9zm4vw': { id: '3xr2bt6kq9zm4vw', name: 'A' },
      'VisionVideoDetailAuthor:3xother00000000': { id: '3xother00000000', name: 'B' },
      '$ROOT_QUERY.visionVideoDetail({"photoId":"3xp4tq7wz3hb5ca","page":"detail"})': {
        photo: { type: 'id', id: 'VisionVideoDetailPhoto:3xp4tq7wz3hb5ca' },
        author: { type: 'id', id: 'VisionVideoDetailAuthor:3xr2bt6kq9zm4vw' },
      },
    };
    expect(apolloDetail(client, '3xp4tq7wz3hb5ca')).toMatchObject({ native_id: '3xp4tq7wz3hb5ca', author: 'A', author_id: '3xr2bt6kq9zm4vw', duration_s: 5, ts: 1700000000, stats: { likes: 3, views: 10 } });
  });
  it('a lone author entry is taken when no root query names one; two are not guessed between', () => {
    const one = { 'VisionVideoDetailPhoto:3xp4tq7wz3hb5ca': photo, 'VisionVideoDetailAuthor:u1': { id: 'u1', name: 'A' } };
    expect(apolloDetail(one, '3xp4tq7wz3hb5ca')?.author).toBe('A');
    const two = { ...one, 'VisionVideoDetailAuthor:u2': { id: 'u2', name: 'B' } };
    expect(apolloDetail(two, '3xp4tq7wz3hb5ca')?.author).toBeUndefined();
    expect(apolloDetail({}, '3xp4tq7wz3hb5ca')).toBeUndefined();
  });
  it('reads the sandbox page end to end (\\u002F escapes, the trailing script)', () => {
    const text = JSON.parse(readFileSync(resolve(process.cwd(), 'sandbox/kuaishou/detail-share-page-3xp4tq7wz3hb5ca.har'), 'utf8')).log.entries[1].response.content.text;
    const client = apolloClient(text);
    expect(client && apolloDetail(client, '3xp4tq7wz3hb5ca')).toMatchObject({ author: '山城吃货日记', aspect: { width: 1080, height: 1920 } });
  });
});

describe('hot board', () => {
  const item = (name: string, extra: Record<string, unknown> = {}) => ({ name, hotValue: '12.5万', ...extra });
  it('the $ROOT_QUERY.visionHotRank entry, items by reference, photo ids from photoIds or the poster', () => {
    const client = {
      '$ROOT_QUERY.visionHotRank({"page":"home"})': { items: [{ type: 'id', id: 'VisionHotRankItem:a' }, { type: 'id', id: 'VisionHotRankItem:b' }, { type: 'id', id: 'VisionHotRankItem:missing' }] },
      'VisionHotRankItem:a': item('甲', { photoIds: { type: 'json', json: ['3xs9d8k2mf4nq6e'] }, rank: 1 }),
      'VisionHotRankItem:b': item('乙', { poster: 'https%3A%2F%2Fp2.a.yximgs.com%2Fx.jpg%3FclientCacheKey%3D3xp4tq7wz3hb5ca.jpg' }),
    };
    expect(hotEntries(client)).toEqual([
      { word: '甲', rank: 1, hotValue: 125000, photoId: '3xs9d8k2mf4nq6e', poster: undefined },
      { word: '乙', rank: 2, hotValue: 125000, photoId: '3xp4tq7wz3hb5ca', poster: 'https://p2.a.yximgs.com/x.jpg?clientCacheKey=3xp4tq7wz3hb5ca.jpg' },
    ]);
  });
  it('the nested ROOT_QUERY form and the {"page":"home","platform":"web"} key are read too; no board is undefined', () => {
    const nested = {
      ROOT_QUERY: { 'visionHotRank({"page":"home"})': { type: 'id', generated: true, id: 'R' } },
      R: { items: [{ __ref: 'I' }] },
      I: item('丙'),
    };
    expect(hotEntries(nested)?.map((e) => e.word)).toEqual(['丙']);
    const web = { '$ROOT_QUERY.visionHotRank({"page":"home","platform":"web"})': { items: [{ id: 'J', typename: 'VisionHotRankItem' }] }, J: item('丁') };
    expect(hotEntries(web)?.map((e) => e.word)).toEqual(['丁']);
    expect(hotEntries({ ROOT_QUERY: {} })).toBeUndefined();
  });
});

describe('app-shaped photos (mini-program, INIT_STATE)', () => {
  it('share_info names the web id; the numeric photoId is the fallback', () => {
    expect(sharedPhotoId('userId=3xa5v5bh5yedypc&photoId=3xikfwbxncn8fr6')).toBe('3xikfwbxncn8fr6');
    expect(sharedPhotoId('photoId=5200531702450371921')).toBeUndefined();
    expect(appPhotoToDraft({ photoId: '5200531702450371921', caption: 'x' })).toMatchObject({ native_id: '5200531702450371921', url: undefined });
    expect(appPhotoToDraft({ caption: 'no id' })).toBeUndefined();
  });
  it('every recorded mini-program card parses, with a playable stream and its web id', () => {
    for (const file of ['search-wxmini-feed.har', 'recommended-wxmini-feed.har']) {
      for (const f of body(file).feeds) {
        const d = appPhotoToDraft(f);
        expect(d?.native_id, file).toMatch(/^3x[0-9a-z]{13}$/);
        expect(d?.type).toBe('video');
        expect(d?.media?.[0]?.url).toMatch(/^https:\/\/(tx|js)mov2\.a\.yximgs\.com\//);
        expect(d?.author_id).toBe(f.userEid);
      }
    }
  });
  it('a single picture without an atlas falls back to its cover as the image', () => {
    const d = appPhotoToDraft({ share_info: 'photoId=3xs9d8k2mf4nq6e', singlePicture: true, coverUrls: [{ url: 'https://p2.a.yximgs.com/c.jpg' }], width: 800, height: 600, duration: 0 });
    expect(d).toMatchObject({ type: 'image', media: [{ kind: 'image', url: 'https://p2.a.yximgs.com/c.jpg', w: 800, h: 600 }], aspect: { width: 800, height: 600 } });
    expect(d?.duration_s).toBeUndefined();
  });
  it('INIT_STATE: the entry whose photo is this id; mp4Url beside the photo is its stream', () => {
    const state = { h1: { isLogin: false }, h2: { result: 1, mp4Url: 'https://txmov2.a.yximgs.com/m.mp4', photo: { share_info: 'photoId=3xs9d8k2mf4nq6e', caption: 'x', duration: 3000 } } };
    expect(initStateDetail(state, '3xs9d8k2mf4nq6e')).toMatchObject({ type: 'video', media: [{ url: 'https://txmov2.a.yximgs.com/m.mp4', duration_s: 3 }] });
    expect(initStateDetail({ h1: { isLogin: false } }, '3xs9d8k2mf4nq6e')).toBeUndefined();
  });
});

describe('creators', () => {
  it('the recorded mini-program user search lists every user with its numeric id', () => {
    const users = wxUsers(body('search-wxmini-users.har'));
    expect(users).toHaveLength(15);
    expect(users[0]).toEqual({ userId: '555258693', kwaiId: 'QQ552310885', name: '快√手⇒518' });
    expect(users[2]).toEqual({ userId: '811095823', kwaiId: undefined, name: '梅子早上好' });
  });
  it('a visionProfile answer without a profile is no author; counts of 0 are left out (not reported)', () => {
    expect(visionProfileAuthor({ result: 1, userProfile: null }, '3x27q2f82gnxn4e')).toBeUndefined();
    const a = visionProfileAuthor({ userProfile: { profile: { user_id: '3x27q2f82gnxn4e', user_name: 'n' }, ownerCount: { fan: 0, follow: '12', photo_public: null, photo: 5 } } }, 'x');
    expect(a).toEqual({ id: '3x27q2f82gnxn4e', source: 'kuaishou', name: 'n', url: 'https://www.kuaishou.com/profile/3x27q2f82gnxn4e', following: 12, posts: 5 });
  });
});

describe('comments', () => {
  it('REST V2 and GraphQL shapes map to the same comment', () => {
    const v2 = commentOf({ comment_id: 1174060219763, author_id: '3xa', author_name: 'n', content: 't', timestamp: 1788542450634, likeCount: 4, commentCount: 2, hasSubComments: true }, '3xs9d8k2mf4nq6e');
    const gql = commentOf({ commentId: '1174060219763', authorId: '3xa', authorName: 'n', content: 't', timestamp: 1788542450634, likedCount: '4', subCommentCount: 2 }, '3xs9d8k2mf4nq6e');
    expect(v2).toEqual(gql);
    expect(v2).toEqual({ cid: '1174060219763', text: 't', likes: 4, reply_total: 2, user_id: '3xa', handle: 'n', user_name: 'n', created_at: 1788542450, source: 'kuaishou', url: 'https://www.kuaishou.com/short-video/3xs9d8k2mf4nq6e' });
  });
  it('a timestamp no date can carry is left unreported, not passed on', () => {
    expect(commentOf({ comment_id: 1, timestamp: 1e300 }, '3xs9d8k2mf4nq6e')?.created_at).toBe(0);
    expect(webPhotoToDraft({ id: '3xs9d8k2mf4nq6e', timestamp: 1e300 })?.ts).toBeUndefined();
  });
  it('a reply names its root; a comment is never its own parent; no id is no comment', () => {
    expect(commentOf({ comment_id: 2, content: 'r' }, '3xs9d8k2mf4nq6e', '1')?.parent_id).toBe('1');
    expect(commentOf({ comment_id: 1, content: 'r' }, '3xs9d8k2mf4nq6e', '1')?.parent_id).toBeUndefined();
    expect(commentOf({ content: 'r' }, '3xs9d8k2mf4nq6e')).toBeUndefined();
  });
  it('replies are announced by hasSubComments, a pcursor other than no_more, or a count', () => {
    expect(hasReplies({ hasSubComments: false, commentCount: 3 })).toBe(false);
    expect(hasReplies({ subCommentsPcursor: 'no_more' })).toBe(false);
    expect(hasReplies({ subCommentsPcursor: '123' })).toBe(true);
    expect(hasReplies({ commentCount: 1 })).toBe(true);
    expect(hasReplies({})).toBe(false);
  });
});

describe('web photos', () => {
  it('a photo without an id takes the requested one; no photo is no draft', () => {
    expect(webPhotoToDraft({ caption: 'x' }, undefined, '3xs9d8k2mf4nq6e')?.native_id).toBe('3xs9d8k2mf4nq6e');
    expect(webPhotoToDraft(null)).toBeUndefined();
    expect(webPhotoToDraft({ caption: 'x' })).toBeUndefined();
  });
});
