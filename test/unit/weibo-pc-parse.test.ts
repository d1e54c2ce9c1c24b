import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { interpret } from '../../src/platforms/weibo/api.js';
import {
  decodePcCommentCursor,
  decodePcPage,
  encodePcCommentCursor,
  encodePcPage,
  hotEntriesToTrends,
  hotSearchEntries,
  mblogToDraft,
  pcIsTruncated,
  pcStatusText,
  pcStatusToDraft,
  pcTimelineDrafts,
  pcTimelineNext,
  threadComments,
  topicBandTrends,
  userToAuthor,
  videoStreams,
} from '../../src/platforms/weibo/parse.js';

/*
 * Pure parsers for weibo.com's desktop ajax answers. Inputs are the hand-made sandbox recordings
 * (sandbox/weibo/pc-*.har) and small literals of the documented field shapes.
 */

const SANDBOX = resolve(process.cwd(), 'sandbox/weibo');
const body = (file: string, i = 0): any => JSON.parse(JSON.parse(readFileSync(resolve(SANDBOX, file), 'utf8')).log.entries[i].response.content.text);
const iso = (s: string): number => Date.parse(s) / 1000;

const timeline = body('pc-posts-mymblog-6279793937.har');
const statusOf = (mid: string) => timeline.data.list.find((s: any) => s.idstr === mid);

describe('weibo.com statuses', () => {
  it('read a video status: page_info.object_type video, page_pic a plain URL, views from online_users_number', () => {
    const s = statusOf('4645748019299849');
    const d = pcStatusToDraft(s)!;
    expect(d).toMatchObject({
      native_id: '4645748019299849',
      type: 'video',
      title: '音律联觉专场演出官方录播预告PV',
      author: '明日方舟Arknights',
      author_id: '6279793937',
      url: 'https://weibo.com/6279793937/Kjc77D1jz',
      thumb: s.page_info.page_pic,
      ts: iso('2021-06-08T09:35:04+08:00'),
      duration_s: 103,
      stats: { likes: 37053, comments: 2126, shares: 9079, views: 1_870_000 },
    });
    expect(d.media).toEqual([{ kind: 'video', url: s.page_info.media_info.mp4_720p_mp4, w: 1280, h: 720, duration_s: 103 }]);
    // text_raw, without the zero-width padding weibo appends.
    expect(d.text).toBe('#明日方舟# #音律联觉#\n音律联觉专场演出官方录播预告PV，录播将于6月12日10:30上线 http://t.cn/A6VR9W6h');
  });

  it('read pic_infos in pic_ids order, largest size first choice, string sizes as numbers', () => {
    const d = pcStatusToDraft(statusOf('4649106427873349'))!;
    expect(d.type).toBe('image');
    expect(d.media).toEqual([
      { kind: 'image', url: 'https://wx1.sinaimg.cn/large/006QZngZgy1grlb68fzfvj31hc0u0b29.jpg', w: 1920, h: 1080 },
      { kind: 'image', url: 'https://wx2.sinaimg.cn/large/006QZngZgy1grlb6c2k1bj31hc0u0hdt.jpg', w: 1920, h: 1080 },
    ]);
    expect(d.thumb).toBe('https://wx1.sinaimg.cn/wap360/006QZngZgy1grlb68fzfvj31hc0u0b29.jpg');
    expect(d.aspect).toEqual({ width: 1920, height: 1080 });
  });

  it('fall back to the next size when largest is missing, and to the map order without pic_ids', () => {
    const s = {
      mid: '1',
      pic_infos: {
        b: { original: { url: 'https://wx1.sinaimg.cn/orj1080/b.jpg', width: '800', height: '600' } },
        a: { largest: { url: 'https://wx1.sinaimg.cn/large/a.jpg', width: 0 }, thumbnail: { url: 'https://wx1.sinaimg.cn/wap180/a.jpg' } },
        c: { bmiddle: { url: 'https://wx1.sinaimg.cn/wap360/c.jpg' } },
      },
    };
    expect(pcStatusToDraft(s)!.media).toEqual([
      { kind: 'image', url: 'https://wx1.sinaimg.cn/orj1080/b.jpg', w: 800, h: 600 },
      { kind: 'image', url: 'https://wx1.sinaimg.cn/large/a.jpg', w: undefined, h: undefined },
    ]);
    expect(pcStatusToDraft({ ...s, pic_ids: ['a', 'b', 'gone'] })!.media?.map((m) => m.url)).toEqual([
      'https://wx1.sinaimg.cn/large/a.jpg',
      'https://wx1.sinaimg.cn/orj1080/b.jpg',
    ]);
    expect(pcStatusToDraft({ ...s, pic_ids: ['a', 'b'] })!.thumb).toBe('https://wx1.sinaimg.cn/wap180/a.jpg');
  });

  it("carry a text repost's original pictures, but not its counts", () => {
    const d = pcStatusToDraft(statusOf('4650385012457066'))!;
    expect(d).toMatchObject({ type: 'image', text: '转发一下，博士们别错过', stats: { likes: 2207, comments: 96, shares: 31 } });
    expect(d.media?.map((m) => m.url)).toEqual(['https://wx4.sinaimg.cn/large/007ZxYkHly1grp0w7c8hwj30u01hc4qp.jpg']);
  });

  it('tell a long-text preview by isLongText, and prefer the fetched long text', () => {
    const s = statusOf('4651022958219023');
    expect(pcIsTruncated(s)).toBe(true);
    expect(pcStatusText(s)).toMatch(/请在本次闪断更新时$/);
    const full = { ...s, longText: { longTextContent: '全文\n第二行\u200b ' } };
    expect(pcIsTruncated(full)).toBe(false);
    expect(pcStatusText(full)).toBe('全文\n第二行');
    expect(pcIsTruncated(statusOf('4650702367286437'))).toBe(false);
  });

  it('read the HTML text when text_raw is absent, without the 展开 link', () => {
    const html = '#明日方舟# 公告<br />第二行 ...<span class="expand">展开</span>';
    expect(pcStatusText({ text: html })).toBe('#明日方舟# 公告\n第二行');
    expect(pcStatusText({ text: '<a href=/n/某人 usercard="name=某人">@某人</a> 早<img alt="[doge]" src="x.png" />' })).toBe('@某人 早[doge]');
  });

  it('leave the m.weibo.cn reading of a status unchanged', () => {
    const mobile = { mid: '2', text: 'hi', page_info: { type: 'video', object_type: 11, page_pic: { url: 'https://wx1.sinaimg.cn/orj480/c.jpg' }, urls: { mp4_hd_mp4: 'https://f.video.weibocdn.com/a.mp4?template=852x480.1' }, play_count: '3万次播放' } };
    expect(mblogToDraft(mobile)).toMatchObject({ type: 'video', thumb: 'https://wx1.sinaimg.cn/orj480/c.jpg', stats: { views: 30_000 }, media: [{ w: 852, h: 480 }] });
  });

  it('never throw on statuses missing optional fields (property)', () => {
    fc.assert(
      fc.property(
        fc.record(
          {
            mid: fc.stringMatching(/^\d{1,16}$/),
            text_raw: fc.oneof(fc.string(), fc.constant(null)),
            text: fc.anything(),
            pic_ids: fc.anything(),
            pic_infos: fc.oneof(fc.anything(), fc.dictionary(fc.string(), fc.anything())),
            page_info: fc.oneof(fc.anything(), fc.record({ object_type: fc.constant('video'), page_pic: fc.anything(), media_info: fc.anything() })),
            retweeted_status: fc.anything(),
            user: fc.anything(),
            isLongText: fc.anything(),
          },
          { requiredKeys: ['mid'] },
        ),
        (s) => {
          const d = pcStatusToDraft(s as Record<string, unknown>);
          expect(d?.native_id).toBe(s.mid);
          expect(typeof pcStatusText(s as Record<string, unknown>)).toBe('string');
        },
      ),
      { numRuns: 300 },
    );
  });
});

describe('weibo.com video streams', () => {
  it('skip playback_list entries that are not video (the scrubber sprite) and rank by frame size', () => {
    const pi = statusOf('4645748019299849').page_info;
    const streams = videoStreams(pi);
    expect(streams.every((s) => /\.mp4\?/.test(s.url))).toBe(true);
    expect(streams[0]).toMatchObject({ w: 1280, h: 720 });
    expect(streams.some((s) => /sinaimg/.test(s.url))).toBe(false);
  });

  it('read the quality label from meta when play_info has none', () => {
    const streams = videoStreams({
      media_info: {
        playback_list: [
          { meta: { quality_label: '720p' }, play_info: { url: 'https://f.video.weibocdn.com/720.mp4' } },
          { meta: { quality_label: '1080p' }, play_info: { url: 'https://f.video.weibocdn.com/1080.mp4', mime: 'video/mp4' } },
          { meta: { quality_label: '480p' }, play_info: { url: 'https://wx1.sinaimg.cn/large/x.jpg', mime: 'image/jpeg' } },
        ],
      },
    });
    expect(streams.map((s) => s.url.split('/').pop())).toEqual(['1080.mp4', '720.mp4']);
  });
});

describe('weibo.com timeline paging', () => {
  it('reads data.list', () => {
    expect(pcTimelineDrafts(timeline.data).map((d) => d.native_id)).toEqual(['4645748019299849', '4651022958219023', '4650702367286437', '4650385012457066', '4649106427873349']);
    expect(pcTimelineDrafts({})).toEqual([]);
  });

  it('goes on by page number until since_id comes back empty or a page has no statuses', () => {
    expect(pcTimelineNext(timeline.data, 1, 5)).toBe(2);
    expect(pcTimelineNext(body('pc-posts-mymblog-6279793937.har', 1).data, 2, 2)).toBeUndefined();
    expect(pcTimelineNext({}, 3, 4)).toBe(4);
    expect(pcTimelineNext({ since_id: 'x' }, 3, 0)).toBeUndefined();
  });

  it('marks its cursors as weibo.com ones', () => {
    expect(encodePcPage(2)).toBe('pc:2');
    expect(encodePcPage(undefined)).toBeUndefined();
    expect(decodePcPage('pc:2')).toBe(2);
    expect(decodePcPage('4646131823281332')).toBeUndefined();
    expect(decodePcPage('pc:0')).toBeUndefined();
    expect(decodePcPage(undefined)).toBeUndefined();
  });
});

describe('weibo.com profile', () => {
  it('reads data.user: numeric followers_count, friends_count as following', () => {
    const user = body('pc-user-profile-info-6279793937.har').data.user;
    expect(userToAuthor(user)).toMatchObject({ id: '6279793937', name: '明日方舟Arknights', followers: 1_455_000, following: 34, posts: 1553, verified: true, avatar: user.avatar_hd });
  });
});

describe('weibo.com comments', () => {
  const page = body('pc-comments-buildcomments-4651022958219023.har');

  it('thread each root with its inline replies; a reply to a reply names that reply', () => {
    const items = threadComments(page.data, '4651022958219023');
    expect(items.map((c) => [c.cid, c.parent_id ?? null, c.likes])).toEqual([
      ['4651023490766981', null, 1893],
      ['4651023801148113', '4651023490766981', 120],
      ['4651024312852760', '4651023801148113', 37],
      ['4651023155222629', null, 840],
      ['4651026215429876', null, 412],
      ['4651026567227433', '4651026215429876', 98],
    ]);
    expect(items[0]).toMatchObject({ reply_total: 12, user_id: '6602214786', handle: '整合运动的小兵', created_at: iso('2021-06-22T22:58:31+08:00') });
  });

  it('pack max_id into a weibo.com cursor; 0 ends the chain', () => {
    expect(encodePcCommentCursor(page.max_id)).toBe('pc:139013405861129');
    expect(encodePcCommentCursor(0)).toBeUndefined();
    expect(encodePcCommentCursor(undefined)).toBeUndefined();
    expect(decodePcCommentCursor('pc:139013405861129')).toBe('139013405861129');
    expect(decodePcCommentCursor('139013405861129:0')).toBeUndefined();
  });
});

describe('weibo.com boards', () => {
  const hot = body('pc-hotsearch.har');

  it('hotSearch: ranks from realpos, the advert unranked, hotgov pinned, heat from num', () => {
    const entries = hotSearchEntries(hot.data);
    expect(entries[0]).toEqual({ word: '清明节文明祭扫', url: `https://s.weibo.com/weibo?q=${encodeURIComponent('#清明节文明祭扫#')}`, pinned: true, ad: false });
    const ad = entries.find((e) => e.ad)!;
    expect(ad).toMatchObject({ word: '春日新品限时尝鲜', rank: undefined });
    expect(hotEntriesToTrends(entries).map((t) => [t.rank, t.word, t.hot_value])).toEqual([
      [1, '清明假期出行预测', 2_248_139],
      [2, '春季强对流天气', 1_512_077],
      [3, '全国多地气温创新高', 1_100_357],
      [4, '香椿炒蛋做法', 957_120],
      [5, '周末南方多雨', 885_718],
      [6, '花粉过敏自救指南', 640_233],
      [7, '东北霜冻预警', 412_907],
      [8, '乳状云', 301_548],
    ]);
    // Adverts are not trends.
    expect(hotEntriesToTrends(entries).length).toBeLessThanOrEqual(9);
  });

  it('hotSearch: a 0-based rank stands in for a missing realpos; 荐 marks an advert', () => {
    const entries = hotSearchEntries({ realtime: [{ word: 'a', rank: 0, num: 5 }, { word: 'b', icon_desc: '荐', rank: 1 }, { note: 'c', rank: 2 }, { rank: 3 }] });
    expect(entries.map((e) => [e.word, e.rank, e.ad])).toEqual([['a', 1, false], ['b', undefined, true], ['c', 3, false]]);
    expect(hotSearchEntries({})).toEqual([]);
  });

  it('hotSearch: a realpos or rank that is no 1-based whole number (a fraction, 1e300) ranks nothing', () => {
    const entries = hotSearchEntries({ realtime: [{ word: 'a', realpos: 2.5 }, { word: 'b', realpos: 1e300 }, { word: 'c', rank: 1.5 }, { word: 'd', realpos: 1e300, rank: 3 }] });
    expect(entries.map((e) => [e.word, e.rank])).toEqual([['a', undefined], ['b', undefined], ['c', undefined], ['d', 4]]);
    for (const t of hotEntriesToTrends(entries)) expect(Number.isSafeInteger(t.rank) && t.rank > 0).toBe(true);
  });

  it('topic_band: topics in board order without #, reads as heat', () => {
    const trends = topicBandTrends(body('pc-topic-band.har').data);
    expect(trends.map((t) => [t.rank, t.word, t.hot_value])).toEqual([
      [1, '清明出行攻略', 286_400_000],
      [2, '春天的第一口野菜', 154_200_000],
      [3, '强对流天气科普', 98_760_000],
      [4, '我的城市春色', 61_380_000],
      [5, '花粉季自救', 35_022_000],
    ]);
    expect(topicBandTrends({ statuses: [{ topic: '#x#', read: '1.2万' }, { topic: 'ad', is_ad: 1 }, {}] })).toEqual([
      { word: 'x', source: 'weibo', rank: 1, hot_value: 12_000, url: `https://s.weibo.com/weibo?q=${encodeURIComponent('#x#')}` },
    ]);
  });
});

describe('weibo.com outcome codes', () => {
  it('reads message beside msg, so its refusals are typed too', () => {
    expect(() => interpret({ ok: 0, message: '该微博不存在' }, 'x')).toThrow(/不存在/);
    expect(() => interpret({ ok: -100, url: 'https://weibo.com/login.php' }, 'x')).toThrow(/login/);
    expect(interpret({ ok: 1, idstr: '1', mid: '1' }, 'x')).toMatchObject({ kind: 'ok', raw: { idstr: '1' } });
  });

  it('an answer without ok is named as such, not as "ok:undefined"', () => {
    expect(() => interpret({ data: {} }, 'timeline')).toThrow(/timeline: the answer carries no ok field/);
    expect(() => interpret({ ok: { a: 1 } }, 'timeline')).toThrow(/weibo answered ok:\{"a":1\}/);
  });
});
