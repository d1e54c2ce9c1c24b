import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import {
  appTrends,
  archiveToDraft,
  aspectOf,
  authorFromAccInfo,
  authorFromCard,
  commentOf,
  dynamicToDraft,
  hotwordTrends,
  httpsUrl,
  parseClock,
  parseCount,
  pickUrl,
  plainText,
  rcmdToDraft,
  searchVideoToDraft,
  squareTrends,
  streamsOf,
  threadComments,
  uploadToDraft,
  wholeCount,
} from '../../src/platforms/bilibili/parse.js';

const FIXTURES = resolve(process.cwd(), '../shared/fixtures/bilibili');
const SANDBOX = resolve(process.cwd(), 'sandbox/bilibili');
const body = (file: string, i = 0, dir = FIXTURES): any => JSON.parse(JSON.parse(readFileSync(resolve(dir, file), 'utf8')).log.entries[i].response.content.text);

describe('small readers', () => {
  it.each([
    ['14150:36', 14150 * 60 + 36],
    ['05:26', 326],
    ['1:02:03', 3723],
    ['0:45', 45],
    [486, 486],
    ['00:00', undefined],
    [0, undefined],
    ['', undefined],
    ['--', undefined],
    [undefined, undefined],
  ])('parseClock(%j) = %j', (v, expected) => {
    expect(parseClock(v)).toBe(expected);
  });

  it.each([
    [47660, 47660],
    ['190.3万', 1_903_000],
    ['1.2亿', 120_000_000],
    ['1,234', 1234],
    ['2365', 2365],
    ['--', undefined],
    [-1, undefined],
    [null, undefined],
  ])('parseCount(%j) = %j', (v, expected) => {
    expect(parseCount(v)).toBe(expected);
  });

  it('plainText strips search highlights and decodes entities', () => {
    expect(plainText('【<em class="keyword">火-影-忍-者</em>】全720集')).toBe('【火-影-忍-者】全720集');
    expect(plainText('a &amp; b &lt;c&gt; &#39;d&#39; &#x4e2d;')).toBe("a & b <c> 'd' 中");
  });

  it('httpsUrl upgrades protocol-relative and http image-CDN URLs only', () => {
    expect(httpsUrl('//i2.hdslb.com/bfs/archive/x.jpg')).toBe('https://i2.hdslb.com/bfs/archive/x.jpg');
    expect(httpsUrl('http://i0.hdslb.com/bfs/face/y.jpg')).toBe('https://i0.hdslb.com/bfs/face/y.jpg');
    expect(httpsUrl('http://archive.biliimg.com/bfs/archive/z.jpg')).toBe('https://archive.biliimg.com/bfs/archive/z.jpg');
    expect(httpsUrl('http://example.com/a.jpg')).toBe('http://example.com/a.jpg');
    expect(httpsUrl('')).toBeUndefined();
    expect(httpsUrl('not a url')).toBeUndefined();
  });

  it('aspectOf swaps a rotated frame and ignores zero sizes', () => {
    expect(aspectOf({ width: 1920, height: 1080, rotate: 0 })).toEqual({ width: 1920, height: 1080 });
    expect(aspectOf({ width: 1080, height: 1920, rotate: 1 })).toEqual({ width: 1920, height: 1080 });
    expect(aspectOf({ width: 0, height: 0, rotate: 0 })).toBeUndefined();
    expect(aspectOf(null)).toBeUndefined();
  });

  it('pickUrl prefers bilibili mirrors over PCDN hosts on odd ports', () => {
    expect(pickUrl(['https://xy1x2x3x4xy.mcdn.bilivideo.cn:4483/a.m4s', 'https://upos-sz-mirrorcos.bilivideo.com/a.m4s'])).toBe('https://upos-sz-mirrorcos.bilivideo.com/a.m4s');
    expect(pickUrl(['https://xy1x2x3x4xy.mcdn.bilivideo.cn:4483/a.m4s'])).toBe('https://xy1x2x3x4xy.mcdn.bilivideo.cn:4483/a.m4s');
    expect(pickUrl([undefined, ''])).toBeUndefined();
  });
});

describe('video lists', () => {
  it('search results (title highlights stripped, "mm:ss" durations, play/like/review)', () => {
    const r = body('search-video-huoying.har').data.result[1];
    expect(searchVideoToDraft(r)).toEqual({
      native_id: 'BV1dh411i7kK',
      type: 'video',
      url: 'https://www.bilibili.com/video/BV1dh411i7kK',
      media: [],
      title: plainText(r.title),
      text: r.description,
      author: r.author,
      author_id: String(r.mid),
      author_handle: r.author,
      thumb: `https:${r.pic}`,
      ts: r.pubdate,
      duration_s: 361 * 60 + 22,
      stats: { likes: r.like, comments: r.review, views: r.play },
    });
    expect(searchVideoToDraft({ type: 'ketang', bvid: 'BV1dh411i7kK' })).toBeUndefined();
    expect(searchVideoToDraft({ type: 'video' })).toBeUndefined();
  });

  it('space uploads (vlist): created, length, play, comment; a 00:00 lesson has no duration', () => {
    const [a, b] = body('posts-space-arc-search-53456.har').data.list.vlist;
    expect(uploadToDraft(a)).toMatchObject({ native_id: 'BV1ac5yzhE94', ts: 1745290800, duration_s: 1331, author_id: '946974', stats: { comments: 985, views: 224185 } });
    expect(uploadToDraft(a)?.stats.likes).toBeUndefined();
    expect(uploadToDraft(b)).toMatchObject({ native_id: 'BV1WB5ezxEnz', thumb: 'https://archive.biliimg.com/bfs/archive/489f3df26a190a152ad479bfe50a73f1cd4c43c5.jpg' });
    expect(uploadToDraft(b)?.duration_s).toBeUndefined();
  });

  it('archive objects (view, popular, ranking) with stats and aspect; "-" descriptions are none', () => {
    const view = body('detail-view-BV117411r7R1.har').data;
    expect(archiveToDraft(view)).toMatchObject({
      native_id: 'BV117411r7R1',
      author: '陈楒潼桶桶桶',
      author_id: '66606350',
      thumb: 'https://i1.hdslb.com/bfs/archive/ea0dd34bf41e23a68175680a00e3358cd249105f.jpg',
      ts: 1580377255,
      duration_s: 486,
      aspect: { width: 1920, height: 1080 },
      stats: { likes: 161270, comments: 2676, shares: 9620, views: 2404179 },
    });
    const [p1, p2] = body('hot-popular-ps2-pn1.har').data.list;
    expect(archiveToDraft(p1)?.aspect).toEqual({ width: 1080, height: 1920 });
    expect(p2.desc).toBe('-');
    expect(archiveToDraft(p2)?.text).toBeUndefined();
    expect(archiveToDraft({ title: 'no id' })).toBeUndefined();
  });

  it('home feed entries: videos only (goto av)', () => {
    const feed = body('recommended-rcmd.har', 0, SANDBOX).data.item;
    expect(feed.map(rcmdToDraft).map((d: any) => d?.native_id ?? null)).toEqual(['BV1Ex411U7Az', null, 'BV1Ex411U7Pi']);
  });
});

describe('dynamics', () => {
  const items = body('posts-161775300-dynamics.har').data.items;

  it('an image post: every picture with its size, stats from module_stat', () => {
    const d = dynamicToDraft(items[0]);
    const draw = items[0].modules.module_dynamic.major.draw.items[0];
    expect(d).toEqual({
      native_id: '916751749918752793',
      type: 'image',
      author: '明日方舟',
      author_id: '161775300',
      author_handle: '明日方舟',
      ts: 1712286300,
      text: items[0].modules.module_dynamic.desc.text,
      url: 'https://t.bilibili.com/916751749918752793',
      thumb: draw.src,
      media: [{ kind: 'image', url: draw.src, w: 761, h: 10800 }],
      stats: { likes: 26249, comments: 5954, shares: 303 },
    });
  });

  it('a video post is the video itself (BV id), with the archive cover, duration and play count', () => {
    const d = dynamicToDraft(items[8]);
    expect(d).toMatchObject({
      native_id: 'BV1Jp421y72e',
      type: 'video',
      url: 'https://www.bilibili.com/video/BV1Jp421y72e',
      title: '《明日方舟》SideStory「巴别塔」活动宣传PV',
      thumb: 'https://i1.hdslb.com/bfs/archive/19630d3e5fd7e1b38cb8152f5e818fdcec7145c3.jpg',
      duration_s: 326,
      stats: { likes: 144036, comments: 10941, shares: 1383, views: 1_903_000 },
    });
  });

  it('a repost is a text post', () => {
    expect(dynamicToDraft(items[7])).toMatchObject({ native_id: '917092495452536836', type: 'text', media: [], stats: { likes: 10443, comments: 3308, shares: 765 } });
  });

  it('an item without modules or id is skipped', () => {
    expect(dynamicToDraft({ id_str: '1' })).toBeUndefined();
    expect(dynamicToDraft({ modules: {} })).toBeUndefined();
  });

  it('a live-room post (live_rcmd, its card a JSON string) is an image post of the room cover and title', () => {
    const card = { type: 1, live_play_info: { room_id: 77, title: 'late stream', cover: 'http://i0.hdslb.com/bfs/live/c.jpg', live_status: 1 } };
    const raw = {
      id_str: '9001',
      type: 'DYNAMIC_TYPE_LIVE_RCMD',
      modules: {
        module_author: { mid: 42, name: 'streamer', pub_ts: 1700000100 },
        module_dynamic: { desc: null, major: { type: 'MAJOR_TYPE_LIVE_RCMD', live_rcmd: { content: JSON.stringify(card) } } },
        module_stat: { like: { count: 5 }, comment: { count: 0 }, forward: { count: 1 } },
      },
    };
    expect(dynamicToDraft(raw)).toEqual({
      native_id: '9001',
      type: 'image',
      title: 'late stream',
      author: 'streamer',
      author_id: '42',
      author_handle: 'streamer',
      ts: 1700000100,
      url: 'https://t.bilibili.com/9001',
      thumb: 'https://i0.hdslb.com/bfs/live/c.jpg',
      media: [{ kind: 'image', url: 'https://i0.hdslb.com/bfs/live/c.jpg' }],
      stats: { likes: 5, comments: 0, shares: 1 },
    });
    // An unreadable card leaves nothing to show: skipped, not invented.
    const broken = structuredClone(raw);
    broken.modules.module_dynamic.major.live_rcmd.content = '{not json';
    expect(dynamicToDraft(broken)).toBeUndefined();
  });

  it('a shared card (major common) keeps its title, description and cover', () => {
    const raw = {
      id_str: '9002',
      modules: {
        module_author: { mid: 43, name: 'sharer', pub_ts: 1700000200 },
        module_dynamic: { desc: null, major: { type: 'MAJOR_TYPE_COMMON', common: { title: 'an event', desc: 'come along', cover: '//i0.hdslb.com/bfs/x/e.png' } } },
      },
    };
    expect(dynamicToDraft(raw)).toMatchObject({ native_id: '9002', type: 'image', title: 'an event', text: 'come along', thumb: 'https://i0.hdslb.com/bfs/x/e.png' });
  });
});

describe('play URLs', () => {
  it('durl: the progressive FLV with the frame size given and timelength', () => {
    const data = body('detail-playurl-flv-BV1y7411Q7Eq.har').data;
    expect(streamsOf(data, { width: 1920, height: 1080 })).toEqual({
      media: [{ kind: 'video', url: data.durl[0].url, w: 1920, h: 1080, duration_s: 283.801 }],
      notes: [],
    });
  });

  it('DASH: the best AVC video track, on a bilibili mirror rather than the PCDN base_url', () => {
    const data = body('detail-playurl-dash-BV1rp4y1e745.har').data;
    const avc80 = data.dash.video.find((v: any) => v.id === 80 && v.codecid === 7);
    const s = streamsOf(data);
    expect(s.media).toEqual([{ kind: 'video', url: avc80.backup_url[0], w: 1920, h: 960, duration_s: 346.495 }]);
    expect(s.notes[0]).toMatch(/video-only.*audio is a separate track/);
  });

  it('DASH with dubbed audio: quality 112 AVC from its base_url', () => {
    const data = body('detail-playurl-dash-ai-dub-BV1pR6UB3ENW.har').data;
    const s = streamsOf(data);
    expect(s.media[0]).toEqual({ kind: 'video', url: data.dash.video[0].base_url, w: 1920, h: 1080, duration_s: 173.1 });
  });

  it('neither durl nor dash: no media and a note', () => {
    expect(streamsOf({ timelength: 1000 })).toEqual({ media: [], notes: ['bilibili answered no playable stream (neither durl nor dash)'] });
  });
});

describe('comments', () => {
  it('threads inline replies after their root, parent_id = the comment answered', () => {
    const list = body('comments-BV1M1421t7hT-page1.har').data.replies;
    const out = threadComments(list, 'BV1M1421t7hT');
    const expected: Array<[string, string | null]> = [];
    for (const r of list) {
      expected.push([String(r.rpid), null]);
      for (const c of r.replies ?? []) expected.push([String(c.rpid), String(c.parent)]);
    }
    expect(out.map((c) => [c.cid, c.parent_id ?? null])).toEqual(expected);
    const ids = new Set<string>();
    for (const c of out) {
      if (c.parent_id) expect(ids.has(c.parent_id)).toBe(true);
      ids.add(c.cid);
    }
    expect(out[0]).toEqual({
      cid: '237106897104',
      text: '身伤易愈，心伤难合',
      likes: 192,
      reply_total: 20,
      user_id: '227542137',
      handle: '峯情無限',
      user_name: '峯情無限',
      created_at: 1723373490,
      source: 'bilibili',
      url: 'https://www.bilibili.com/video/BV1M1421t7hT#reply237106897104',
    });
  });

  it('a comment without member (the hot list of 2020) keeps its ids and counts', () => {
    const r = body('comments-hot-av2.har').data.replies[0];
    expect(commentOf(r)).toEqual({ cid: '476670', text: '貌似没人来', likes: 90425, reply_total: 2608, user_id: '58426', handle: '', user_name: '', created_at: 1291350931, source: 'bilibili' });
  });

  it('a reply in a thread names the reply it answers', () => {
    const [, second] = body('replies-reply-av201022189-root3030790837.har').data.replies;
    expect(commentOf(second)).toMatchObject({ cid: '3030810089', parent_id: '3030802207' });
  });

  it('a ctime that is not a whole unix time (a fraction, 1e300) is not reported, never passed on as created_at', () => {
    for (const ctime of [2.5, 1e300, '1291350931.5']) expect(commentOf({ rpid: 1, ctime, content: { message: 'x' } })?.created_at).toBe(0);
    expect(commentOf({ rpid: 1, ctime: '1291350931', content: { message: 'x' } })?.created_at).toBe(1291350931);
  });

  it('a comment total must be whole: fractions and numbers past 2^53 are not a total', () => {
    expect([wholeCount(120), wholeCount('1.2万'), wholeCount(2.5), wholeCount(1e300), wholeCount(-7)]).toEqual([120, 12000, undefined, undefined, undefined]);
  });
});

describe('creators', () => {
  it('card: profile with followers, following, uploads and likes', () => {
    expect(authorFromCard(body('user-card-mid2.har').data)).toEqual({
      source: 'bilibili',
      url: 'https://space.bilibili.com/2',
      id: '2',
      handle: '碧诗',
      name: '碧诗',
      bio: 'kami.im 直男过气网红 # av362830 “We Are Star Dust”',
      avatar: 'https://i2.hdslb.com/bfs/face/ef0457addb24141e15dfac6fbf45293ccf1e32ab.jpg',
      followers: 969999,
      following: 234,
      posts: 37,
      likes: 3547978,
      verified: true,
    });
  });

  it('space acc/info plus relation/stat', () => {
    const a = authorFromAccInfo(body('user-161775300-space-acc-info.har').data, { follower: 10, following: 3 });
    expect(a).toMatchObject({ id: '161775300', name: '明日方舟', bio: '重铸未来 方舟启航', followers: 10, following: 3, verified: true });
    expect(authorFromAccInfo(body('user-wbi-acc-info-mid2.har').data)).toMatchObject({ id: '2', verified: true });
    expect(authorFromAccInfo(body('user-wbi-acc-info-mid2.har').data)?.followers).toBeUndefined();
    expect(authorFromCard({ card: { name: 'x' } })).toBeUndefined();
  });

  it('an unverified account (official type -1)', () => {
    const card = body('detail-view-detail-BV17x411w7KC.har').data.Card;
    expect(authorFromCard(card)).toMatchObject({ id: '122541', verified: false, followers: 64052, following: 45 });
  });
});

describe('hot-search words', () => {
  it('search square: ranked in order', () => {
    expect(squareTrends(body('trending-search-square-limit4.har').data).map((t) => [t.rank, t.word])).toEqual([
      [1, '马克龙祝贺中国世界前两名'],
      [2, '小孩电竞世界杯夺冠'],
      [3, '孙颖莎说我全勤下班了'],
      [4, '7月广东新冠新增一万余例'],
    ]);
  });

  it('hotword: rank = pos, word = the shown name, url searches the keyword', () => {
    const t = hotwordTrends(body('trending-hotword.har'));
    expect(t).toHaveLength(10);
    expect(t[3]).toEqual({ word: 'EDGJieJie已起诉多家企业', source: 'bilibili', rank: 4, url: 'https://search.bilibili.com/all?keyword=EDG%20%E8%B5%B7%E8%AF%89' });
  });

  it('app ranking: rank = position, commercial entries left out', () => {
    const data = body('trending-app-search-ranking.har').data;
    expect(appTrends(data).map((t) => t.rank)).toEqual(data.list.map((e: any) => e.position));
    expect(appTrends({ list: [{ position: 1, keyword: 'ad', show_name: 'ad', is_commercial: '1' }, { position: 2, keyword: 'k', show_name: 'k', is_commercial: '0' }] }).map((t) => t.rank)).toEqual([2]);
  });

  it('a position that is no rank (a fraction, 1e300) falls back to the list order', () => {
    const list = [{ keyword: 'a', show_name: 'a', position: 2.5, pos: 2.5 }, { keyword: 'b', show_name: 'b', position: 1e300, pos: 1e300 }];
    expect(appTrends({ list }).map((t) => t.rank)).toEqual([1, 2]);
    expect(hotwordTrends({ list }).map((t) => t.rank)).toEqual([1, 2]);
  });
});
