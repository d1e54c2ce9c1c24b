import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { errorPageMessage, renderDataStatus, summaryRealtimehot, summaryTopicband } from '../../src/platforms/weibo/html.js';
import {
  cardsToMblogs,
  childComments,
  decodeCommentCursor,
  encodeCommentCursor,
  hotBoardEntries,
  hotEntriesToTrends,
  htmlToText,
  isTruncated,
  mblogToDraft,
  parseCount,
  parseWeiboDate,
  idTime,
  statusTime,
  threadComments,
  topicContainerTrends,
  userToAuthor,
  videoStreams,
  wholeCount,
} from '../../src/platforms/weibo/parse.js';

const FIXTURES = resolve(process.cwd(), '../shared/fixtures/weibo');
const SANDBOX = resolve(process.cwd(), 'sandbox/weibo');
const text = (file: string, i = 0, dir = FIXTURES): string =>
  JSON.parse(readFileSync(resolve(dir, file), 'utf8')).log.entries[i].response.content.text;
const json = (file: string, i = 0, dir = FIXTURES): any => JSON.parse(text(file, i, dir));
const iso = (s: string): number => Date.parse(s) / 1000;

describe('wholeCount (comment totals)', () => {
  it('keeps whole counts only: a fraction or a number past 2^53 is no total', () => {
    expect([wholeCount(656), wholeCount('1.2万'), wholeCount(2.5), wholeCount(1e300), wholeCount(null)]).toEqual([656, 12_000, undefined, undefined, undefined]);
  });
});

describe('parseCount', () => {
  it.each([
    [37053, 37053],
    ['1363591', 1363591],
    ['145.5万', 1_455_000],
    ['149.9万', 1_499_000],
    ['267.4万', 2_674_000],
    ['2.9亿', 290_000_000],
    ['87万次播放', 870_000],
    ['187万次播放', 1_870_000],
    ['100万+', 1_000_000],
    ['1,234', 1234],
    ['综艺 672281', 672_281],
    ['1165.7万', 11_657_000],
  ])('%s → %d', (input, expected) => {
    expect(parseCount(input)).toBe(expected);
  });

  it('leaves what weibo did not report absent', () => {
    for (const v of [undefined, null, '', '暂无', {}, -5, Number.NaN]) expect(parseCount(v)).toBeUndefined();
  });

  it('multiplies 万 and 亿 exactly for any count (property)', () => {
    fc.assert(
      fc.property(fc.integer({ min: 0, max: 99_999 }), fc.integer({ min: 0, max: 9 }), (whole, tenth) => {
        expect(parseCount(`${whole}.${tenth}万`)).toBe(whole * 10_000 + tenth * 1_000);
        expect(parseCount(`${whole}.${tenth}亿`)).toBe(whole * 100_000_000 + tenth * 10_000_000);
      }),
    );
  });
});

describe('parseWeiboDate', () => {
  it('reads the API form with its offset', () => {
    expect(parseWeiboDate('Sat Jun 15 10:38:14 +0800 2019')).toBe(iso('2019-06-15T10:38:14+08:00'));
    expect(parseWeiboDate('Tue Jun 08 09:35:04 +0800 2021')).toBe(iso('2021-06-08T09:35:04+08:00'));
    expect(parseWeiboDate('Mon Dec 31 23:59:59 -0500 2018')).toBe(iso('2018-12-31T23:59:59-05:00'));
  });

  it('reads the relative Beijing-time forms against a given now', () => {
    const now = Date.parse('2025-04-01T15:24:40+08:00');
    expect(parseWeiboDate('刚刚', now)).toBe(now / 1000);
    expect(parseWeiboDate('5分钟前', now)).toBe(now / 1000 - 300);
    expect(parseWeiboDate('3小时前', now)).toBe(now / 1000 - 3 * 3600);
    expect(parseWeiboDate('昨天 12:30', now)).toBe(iso('2025-03-31T12:30:00+08:00'));
    expect(parseWeiboDate('今天 08:05', now)).toBe(iso('2025-04-01T08:05:00+08:00'));
    expect(parseWeiboDate('06-27', now)).toBe(iso('2025-06-27T00:00:00+08:00'));
    expect(parseWeiboDate('2019-06-27', now)).toBe(iso('2019-06-27T00:00:00+08:00'));
  });

  it('returns undefined for what it cannot read', () => {
    for (const v of [undefined, '', 'yesterday', 'Foo Jun 15 10:38:14 +0800 2019', 'Sat Jux 15 10:38:14 +0800 2019', 1e300, -1e300, Number.NaN]) {
      expect(parseWeiboDate(v)).toBeUndefined();
    }
  });
});

describe('htmlToText', () => {
  it('keeps link text, turns <br /> into newlines and emoji images into their alt text', () => {
    const html =
      '<a  href="https://m.weibo.cn/search?containerid=231522" data-hide=""><span class="surl-text">#明日方舟#</span></a> 公告<br />第二行' +
      '<span class="url-icon"><img alt=[羞嗒嗒] src="//h5.sinaimg.cn/m/emoticon/icon/lxh/lxh_xiudada-f44e8f5688.png" style="width:1em; height:1em;" /></span>' +
      "<a data-url=\"http://t.cn/A6VRxRhv\" href=\"http://t.cn/A6VRxRhv\"><span class='url-icon'><img style='width: 1rem;height: 1rem' src='https://h5.sinaimg.cn/upload/timeline_card_small_web_default.png'></span><span class=\"surl-text\">网页链接</span></a>" +
      " 回复<a href='/n/热爱CP'>@热爱CP</a>:a &amp; b &lt;3 &#39;x&#39;";
    expect(htmlToText(html)).toBe("#明日方舟# 公告\n第二行[羞嗒嗒]网页链接 回复@热爱CP:a & b <3 'x'");
  });

  it('drops the trailing 全文 link of a truncated status but keeps the ellipsis', () => {
    expect(htmlToText('开头 ...<a href="/status/4645748019299849">全文</a>')).toBe('开头 ...');
  });

  it('is total on any input (property)', () => {
    fc.assert(
      fc.property(fc.string(), (s) => {
        expect(typeof htmlToText(s)).toBe('string');
        expect(htmlToText(s)).not.toMatch(/<br\s*\/?>/i);
      }),
    );
  });
});

describe('statuses → ItemDraft', () => {
  const timeline = json('posts-arknights-timeline.har').data;
  const mblogs = cardsToMblogs(timeline.cards);

  it('flattens the timeline cards', () => {
    expect(mblogs).toHaveLength(11);
    expect(mblogs[0].mid).toBe('4645748019299849');
  });

  it('picks the best video stream, with its frame size and duration', () => {
    const d = mblogToDraft(mblogs[0])!;
    expect(d.type).toBe('video');
    expect(d.native_id).toBe('4645748019299849');
    expect(d.title).toBe('2021明日方舟音律联觉专场演出官方录播预告PV');
    expect(d.media).toHaveLength(1);
    expect(d.media![0]).toMatchObject({ kind: 'video', w: 1280, h: 720, duration_s: 103.165 });
    expect(d.media![0].url).toMatch(/^https:\/\/f\.video\.weibocdn\.com\/004gx4yOgx07Ni70wB1601041200QZHs0E010\.mp4\?label=mp4_720p/);
    expect(d.thumb).toBe('https://wx4.sinaimg.cn/crop.0.33.960.533/006QZngZgy1grapj0wc3ej30qo0goton.jpg');
    expect(d.aspect).toEqual({ width: 1280, height: 720 });
    expect(d.duration_s).toBe(103.165);
    expect(d.stats).toEqual({ likes: 37053, comments: 2126, shares: 9079, views: 870_000 });
    expect(d.ts).toBe(iso('2021-06-08T09:35:04+08:00'));
    expect(d.author).toBe('明日方舟Arknights');
    expect(d.author_id).toBe('6279793937');
    expect(d.url).toBe('https://weibo.com/6279793937/Kjc77D1jz');
    expect(d.text!.startsWith('#明日方舟# #音律联觉#\n2021明日方舟音律联觉')).toBe(true);
  });

  it('ranks streams by frame size, mp4 before HLS, whatever order weibo lists them in', () => {
    const pageInfo = {
      urls: { mp4_ld_mp4: 'https://f.video.weibocdn.com/a.mp4?template=640x360.25.0', hevc_mp4_hd: 'https://f.video.weibocdn.com/b.m3u8?template=1920x1080' },
      media_info: { stream_url_hd: 'https://f.video.weibocdn.com/c.mp4?label=mp4_hd&template=852x480.25.0', duration: 5 },
    };
    expect(videoStreams(pageInfo).map((s) => s.url.split('?')[0].split('/').pop())).toEqual(['c.mp4', 'a.mp4', 'b.m3u8']);
  });

  it('reads image posts: full-size pictures with their sizes, the small picture as thumb', () => {
    const d = mblogToDraft(mblogs[7])!;
    expect(d.type).toBe('image');
    expect(d.media).toHaveLength(4);
    expect(d.media![0]).toEqual({ kind: 'image', url: 'https://wx2.sinaimg.cn/large/006QZngZgy1grebng32cij31hc0u0hdm.jpg', w: 1920, h: 1080 });
    expect(d.thumb).toBe('https://wx2.sinaimg.cn/orj360/006QZngZgy1grebng32cij31hc0u0hdm.jpg');
    expect(d.aspect).toEqual({ width: 1920, height: 1080 });
    expect(d.stats.views).toBeUndefined();
  });

  it("carries a media-less repost's original video, but not the original's play count", () => {
    const repost = mblogs[3];
    expect(repost.retweeted_status).toBeDefined();
    const d = mblogToDraft(repost)!;
    expect(d.native_id).toBe('4648806186747944');
    expect(d.type).toBe('video');
    expect(d.media![0].url).toContain('mp4_720p');
    expect(d.stats).toEqual({ likes: 1340, comments: 147, shares: 7 });
    expect(d.text!.startsWith('恭喜@黄防护服黄 等10名用户获得')).toBe(true);
  });

  it('keeps a text repost as text when the original has no media either', () => {
    const show = json('detail-statuses-show-HyZVegYAP.har').data;
    const d = mblogToDraft(show)!;
    expect(d).toMatchObject({ native_id: '4383411844046171', type: 'text', text: '转发微博', author_id: '5973737418', url: 'https://weibo.com/5973737418/HyZVegYAP' });
    expect(d.media).toEqual([]);
    expect(d.stats).toEqual({ likes: 0, comments: 0, shares: 0 });
  });

  it('tells a truncated long status from a complete one', () => {
    expect(isTruncated(mblogs[2])).toBe(true);
    expect(isTruncated(json('detail-statuses-show-4645748019299849.har').data)).toBe(false);
    expect(isTruncated(mblogs[1])).toBe(false);
    const withLong = { ...mblogs[2], longText: { longTextContent: '全文' } };
    expect(isTruncated(withLong)).toBe(false);
  });

  it('prefers longText content when present', () => {
    const d = mblogToDraft({ ...mblogs[2], longText: { longTextContent: '完整<br />正文' } })!;
    expect(d.text).toBe('完整\n正文');
  });

  it('never throws on a status missing optional fields', () => {
    expect(mblogToDraft({ mid: '4645748019299849' })).toEqual({
      native_id: '4645748019299849',
      type: 'text',
      text: '',
      url: 'https://m.weibo.cn/detail/4645748019299849',
      media: [],
      stats: {},
      author: undefined,
      author_id: undefined,
      author_handle: undefined,
      title: undefined,
      thumb: undefined,
      ts: undefined,
      duration_s: undefined,
      aspect: undefined,
    });
    expect(mblogToDraft({})).toBeUndefined();
    fc.assert(
      fc.property(fc.dictionary(fc.constantFrom('text', 'pics', 'page_info', 'user', 'created_at', 'retweeted_status', 'attitudes_count'), fc.anything()), (extra) => {
        expect(() => mblogToDraft({ mid: '123456789012345', ...extra })).not.toThrow();
      }),
    );
  });
});

describe('detail page', () => {
  it('extracts the status from $render_data', () => {
    const status = renderDataStatus(text('detail-html-4649031014551911.har'))!;
    expect(status.mid).toBe('4649031014551911');
    expect(status.bid).toBe('Kkzwhj69V');
    const d = mblogToDraft(status)!;
    expect(d.type).toBe('image');
    expect(d.media![0]).toEqual({ kind: 'image', url: 'https://wx1.sinaimg.cn/large/006QZngZgy1grl2q3n98jj30rs2084qp.jpg', w: 1000, h: 2600 });
    expect(d.text).toContain('*本次维护不排除延迟开启的可能，如若延迟则请关注官方发布的具体开服时间*');
  });

  it('says when the page is weibo error page, and returns nothing for pages without data', () => {
    const err = '<html><body><div class="h5-4box"><img src="//h5.sinaimg.cn/upload/2016/04/11/319/h5-404.png"><p class="h5-4con">微博不存在或暂无查看权限!</p></div></body></html>';
    expect(renderDataStatus(err)).toBeUndefined();
    expect(errorPageMessage(err)).toBe('微博不存在或暂无查看权限!');
    expect(errorPageMessage(text('detail-html-4649031014551911.har'))).toBeUndefined();
    expect(renderDataStatus('<script>var $render_data = [{"status": ][0] || {};</script>')).toBeUndefined();
  });
});

describe('profiles', () => {
  it('reads the 2022 profile with its 万-string follower count', () => {
    const a = userToAuthor(json('user-arknights-profile.har').data.userInfo)!;
    expect(a).toEqual({
      id: '6279793937',
      source: 'weibo',
      handle: '明日方舟Arknights',
      name: '明日方舟Arknights',
      bio: '《明日方舟》官方微博，欢迎咨询客服QQ服务号：800830064',
      avatar: 'https://wx4.sinaimg.cn/orj480/006QZngZly8gdj05mufr9j30l00l0dq4.jpg',
      url: 'https://weibo.com/u/6279793937',
      followers: 1_455_000,
      following: 34,
      posts: 1553,
      verified: true,
    });
  });

  it('reads the 2019 profile with numeric counts', () => {
    const a = userToAuthor(json('user-1669879400-profile.har').data.userInfo)!;
    expect(a).toMatchObject({ id: '1669879400', handle: 'Dear-迪丽热巴', followers: 63_357_736, following: 240, posts: 1008, verified: true });
  });

  it('leaves unreported fields out', () => {
    expect(userToAuthor({ id: 42 })).toEqual({ id: '42', source: 'weibo', url: 'https://weibo.com/u/42' });
    expect(userToAuthor({})).toBeUndefined();
  });
});

describe('comments', () => {
  const page = json('comments-hotflow-4383183661430868.har').data;
  const comments = threadComments(page.data, '4383183661430868');

  it('places each inline reply right after its root, with parent_id', () => {
    expect(comments).toHaveLength(21);
    expect(comments[0]).toEqual({
      cid: '4383183984547669',
      text: '宝宝陪你一起搬陪你一起吃[羞嗒嗒]',
      likes: 6183,
      reply_total: 143,
      user_id: '1787569845',
      handle: '护舒宝',
      user_name: '护舒宝',
      created_at: iso('2019-06-14T20:39:20+08:00'),
      source: 'weibo',
      url: 'https://m.weibo.cn/detail/4383183661430868?cid=4383183984547669',
    });
    expect(comments[1]).toMatchObject({ cid: '4383191449773449', parent_id: '4383183984547669', text: '回复@热爱CP:那阿丝们一起搬叭[doge]', likes: 0 });
    expect(comments.filter((c) => c.parent_id)).toHaveLength(1);
    expect(comments[2]).toMatchObject({ cid: '4383184256927204', likes: 5458, reply_total: 513 });
    expect(comments[2].parent_id).toBeUndefined();
  });

  it('threads a reply to the comment it answers when weibo names it', () => {
    const list = [{ id: '1', text: 'root', comments: [{ id: '2', text: 'a' }, { id: '3', text: 'b', reply_comment: { id: '2' } }] }];
    const out = threadComments(list, '9');
    expect(out.map((c) => [c.cid, c.parent_id])).toEqual([['1', undefined], ['2', '1'], ['3', '2']]);
  });

  it('reads hotFlowChild replies against their root', () => {
    const child = json('replies-hotflowchild-4645751278535701.har', 0, SANDBOX);
    const out = childComments(child.data, '4645748019299849', '4645751278535701');
    expect(out).toHaveLength(3);
    expect(out.every((c) => c.parent_id === '4645751278535701')).toBe(true);
    expect(out[2]).toMatchObject({ cid: '4645758842364917', likes: 3, text: '录播是大会员专享哦' });
  });

  it('packs max_id and max_id_type into one cursor; 0 ends the chain', () => {
    expect(encodeCommentCursor(page.max_id, page.max_id_type)).toBe('314345666829623:0');
    expect(decodeCommentCursor('314345666829623:0')).toEqual({ maxId: '314345666829623', maxIdType: '0' });
    expect(decodeCommentCursor('314345666829623:1')).toEqual({ maxId: '314345666829623', maxIdType: '1' });
    expect(decodeCommentCursor(undefined)).toEqual({ maxIdType: '0' });
    expect(encodeCommentCursor(0, 0)).toBeUndefined();
    expect(encodeCommentCursor(undefined, 0)).toBeUndefined();
    fc.assert(
      fc.property(fc.bigInt({ min: 1n, max: 10n ** 18n }), fc.integer({ min: 0, max: 9 }), (id, type) => {
        const c = encodeCommentCursor(String(id), type)!;
        expect(decodeCommentCursor(c)).toEqual({ maxId: String(id), maxIdType: String(type) });
      }),
    );
  });
});

describe('hot search board (m.weibo.cn container)', () => {
  const data = json('hot-realtimehot-getindex-2025-04-01.har').data;
  const entries = hotBoardEntries(data);

  it('reads the ranked words, the pinned word and the advert of the main board', () => {
    expect(entries).toHaveLength(52);
    expect(entries[0]).toMatchObject({ word: '总书记两次讲话传递鲜明信息', pinned: true, ad: false, rank: undefined });
    expect(entries.filter((e) => e.ad).map((e) => e.word)).toEqual(['智能见真章安全有底线']);
  });

  it('turns the ranked words into trends 1..50 with heat and a clean search URL', () => {
    const trends = hotEntriesToTrends(entries);
    expect(trends.map((t) => t.rank)).toEqual(Array.from({ length: 50 }, (_, i) => i + 1));
    expect(trends[0]).toEqual({
      word: '雷军回应',
      source: 'weibo',
      rank: 1,
      hot_value: 20_628_640,
      url: 'https://m.weibo.cn/search?containerid=100103type%3D1%26t%3D10%26q%3D%E9%9B%B7%E5%86%9B%E5%9B%9E%E5%BA%94',
    });
    expect(trends.find((t) => t.word === '吴宣仪三公分数')).toMatchObject({ rank: 5, hot_value: 672_281 });
    expect(trends[49]).toMatchObject({ rank: 50, word: '国际乒联回顾孙颖莎夺冠历程', hot_value: 107_173 });
  });

  it('is empty, not an error, for a container without a board', () => {
    expect(hotBoardEntries({ cards: [] })).toEqual([]);
    expect(hotBoardEntries({})).toEqual([]);
  });
});

describe('hot topic container', () => {
  it('reads card_type 25 topics in order with their read counts', () => {
    const data = {
      cards: [
        {
          card_type: 11,
          card_group: [
            { card_type: 25, title_sub: '#男朋友的分享欲可以有多强#', desc: '1.3万讨论 1.3亿阅读', scheme: 'https://m.weibo.cn/search?containerid=231522type%3D1%26t%3D10%26q%3D%23a%23&extparam=x' },
            { card_type: 25, title_sub: '#第二个话题#', desc: '200讨论 8.5万阅读' },
          ],
        },
      ],
    };
    expect(topicContainerTrends(data)).toEqual([
      { word: '男朋友的分享欲可以有多强', source: 'weibo', rank: 1, hot_value: 130_000_000, url: 'https://m.weibo.cn/search?containerid=231522type%3D1%26t%3D10%26q%3D%23a%23' },
      { word: '第二个话题', source: 'weibo', rank: 2, hot_value: 85_000 },
    ]);
    expect(topicContainerTrends(json('error-empty-hot-topic-container-2025-04-01.har').data)).toEqual([]);
  });
});

describe('s.weibo.com summary pages', () => {
  it('reads the 2021 realtimehot page: ranks 1..50, pinned and promoted rows skipped', () => {
    const trends = summaryRealtimehot(text('trending-s-weibo-top-summary-realtimehot-2021-09-22.har'));
    expect(trends.map((t) => t.rank)).toEqual(Array.from({ length: 50 }, (_, i) => i + 1));
    expect(trends[0]).toEqual({
      word: '美国新冠零号病人可能2019年4月出现',
      source: 'weibo',
      rank: 1,
      hot_value: 1_711_551,
      url: 'https://s.weibo.com/weibo?q=%23%E7%BE%8E%E5%9B%BD%E6%96%B0%E5%86%A0%E9%9B%B6%E5%8F%B7%E7%97%85%E4%BA%BA%E5%8F%AF%E8%83%BD2019%E5%B9%B44%E6%9C%88%E5%87%BA%E7%8E%B0%23&Refer=top',
    });
    expect(trends[49]).toMatchObject({ rank: 50, word: '孙俪对付孩子起床气的小办法', hot_value: 206_792 });
    expect(trends.some((t) => t.word === '找工作时谈理想奢侈吗' || t.word === '让农民生活芝麻开花节节高')).toBe(false);
  });

  it('a rank of more digits than any board has is no rank (never an unsafe integer)', () => {
    const huge = '9'.repeat(30);
    expect(summaryRealtimehot(`<ul class="list_a"><li><a href="/w"><strong>${huge}</strong><span>word<em>12</em></span></a></li></ul>`)).toEqual([]);
    expect(summaryTopicband(`<ul class="list_b"><li><a href="/t"><em>${huge}</em><h2>#topic#</h2></a></li></ul>`)).toEqual([]);
  });

  it('reads the desktop markup too', () => {
    const html = `<table><tbody>
      <tr><td class="td-01 ranktop">1</td><td class="td-02"><a href="/weibo?q=%23A%23">词A</a><span>321万</span></td></tr>
      <tr><td class="td-01"><i class="icon-top"></i></td><td class="td-02"><a href="/weibo?q=top">置顶</a></td></tr>
      <tr><td class="td-01 ranktop">2</td><td class="td-02"><a href="/weibo?q=B">词B</a><span> 综艺 1024</span></td></tr>
    </tbody></table>`;
    expect(summaryRealtimehot(html)).toEqual([
      { word: '词A', source: 'weibo', rank: 1, hot_value: 3_210_000, url: 'https://s.weibo.com/weibo?q=%23A%23' },
      { word: '词B', source: 'weibo', rank: 2, hot_value: 1024, url: 'https://s.weibo.com/weibo?q=B' },
    ]);
  });

  it('reads the 2021 topicband page: topic names without #, reads as heat', () => {
    const trends = summaryTopicband(text('trending-s-weibo-top-summary-topicband-2021-09-22.har'));
    expect(trends.length).toBeGreaterThanOrEqual(40);
    expect(trends.map((t) => t.rank)).toEqual(Array.from({ length: trends.length }, (_, i) => i + 1));
    expect(trends[0]).toEqual({
      word: '花好月圆会观后感',
      source: 'weibo',
      rank: 1,
      hot_value: 11_657_000,
      url: 'https://s.weibo.com/weibo?q=%23%E8%8A%B1%E5%A5%BD%E6%9C%88%E5%9C%86%E4%BC%9A%E8%A7%82%E5%90%8E%E6%84%9F%23',
    });
    expect(trends[3]).toMatchObject({ word: '没卖完的月饼都去哪了', hot_value: 290_000_000 });
  });

  it('finds nothing on the visitor page', () => {
    const visitor = text('error-visitor-system-s-weibo-2024-01.har');
    expect(summaryRealtimehot(visitor)).toEqual([]);
    expect(summaryTopicband(visitor)).toEqual([]);
  });
});

describe('status times from short created_at forms', () => {
  // 2021-06-08T01:35:04Z shifted into the id's upper bits, with arbitrary low bits (hand-built id).
  const at = iso('2021-06-08T09:35:04+08:00');
  const mid = ((BigInt(at - 515_483_463) << 22n) + 123_457n).toString();
  const now = Date.parse('2026-11-21T12:00:00Z');

  it('reads the creation second an id carries', () => {
    expect(idTime(mid, now)).toBe(at);
    expect(idTime('12345', now)).toBeUndefined();
    // An id that would decode to a time after now is not a dated id.
    expect(idTime('9999999999999999999', now)).toBeUndefined();
  });

  it('prefers the id over a yearless or relative created_at, never over the full API form', () => {
    expect(statusTime('06-08', mid, now)).toBe(at);
    expect(statusTime('15小时前', mid, now)).toBe(at);
    expect(statusTime('刚刚', mid, now)).toBe(at);
    expect(statusTime('Tue Jun 08 09:35:05 +0800 2021', mid, now)).toBe(at + 1);
  });

  it('without a usable id, a yearless date that would lie in the future is last year\'s', () => {
    expect(statusTime('12-25', 'x', now)).toBe(iso('2025-12-25T00:00:00+08:00'));
    expect(statusTime('06-27', undefined, now)).toBe(iso('2026-06-27T00:00:00+08:00'));
  });

  it('a timeline status and a comment with short dates get the times their ids carry', () => {
    const draft = mblogToDraft({ id: mid, mid, created_at: '06-08', text: 'x', user: { id: 1, screen_name: 'a' } });
    expect(draft?.ts).toBe(at);
    const [c] = threadComments([{ id: mid, created_at: '06-08', text: 'y', user: { id: 2, screen_name: 'b' } }], '1');
    expect(c.created_at).toBe(at);
  });
});
