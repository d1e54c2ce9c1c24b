import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import type { CommentsResult, CreatorResult, Envelope, TrendResult } from '../../src/domain/results.js';
import { runAction } from '../helpers/run-action.js';

/*
 * weibo.com's desktop ajax API as the second route, replayed from the hand-made sandbox recordings
 * (sandbox/weibo/pc-*.har) through the real catalog, adapter and normalization; with the real fixtures
 * alongside where the order of routes is the point.
 */

const FIXTURES = resolve(process.cwd(), '../shared/fixtures/weibo');
const SANDBOX = resolve(process.cwd(), 'sandbox/weibo');
const sand = (name: string): string => resolve(SANDBOX, name);
const real = (name: string): string => resolve(FIXTURES, name);
const raw = (file: string, i = 0): any => JSON.parse(JSON.parse(readFileSync(file, 'utf8')).log.entries[i].response.content.text);
const run = (action: string, params: Record<string, unknown>, replay: string[]) => runAction({ source: 'weibo', action, params, replay });
const image = (origin: string): string => `/v1/media?u=${encodeURIComponent(origin)}`;
const video = (origin: string): string => `/v1/media?u=${encodeURIComponent(origin)}&kind=video&platform=weibo&profile=default`;
const iso = (s: string): number => Date.parse(s) / 1000;

const M_TIMELINE = 'GET https://m.weibo.cn/api/container/getIndex?containerid=1076036279793937';
const PC_TIMELINE = (page: number) => `GET https://weibo.com/ajax/statuses/mymblog?uid=6279793937&page=${page}&feature=0`;

describe('posts from weibo.com statuses/mymblog', () => {
  const file = sand('pc-posts-mymblog-6279793937.har');

  it('are read field by field after m.weibo.cn cannot answer, and walk page numbers to the empty since_id', async () => {
    const { result, requests } = await run('posts', { query: '6279793937' }, [file]);
    expect(requests).toEqual([M_TIMELINE, PC_TIMELINE(1), PC_TIMELINE(2)]);
    const env = result as Envelope;
    expect(env).toMatchObject({ ok: true, source: 'live', count: 7 });
    expect(env.next_cursor).toBeUndefined();
    expect(env.items.map((i) => [i.id, i.type])).toEqual([
      ['weibo:4645748019299849', 'video'],
      ['weibo:4651022958219023', 'text'],
      ['weibo:4650702367286437', 'text'],
      ['weibo:4650385012457066', 'image'],
      ['weibo:4649106427873349', 'image'],
      ['weibo:4646917039199914', 'image'],
      ['weibo:4646489065033746', 'text'],
    ]);

    const origin = raw(file).data.list[0].page_info;
    const [clip, notice, night, repost, gallery] = env.items;
    expect(clip).toMatchObject({
      title: '音律联觉专场演出官方录播预告PV',
      text: '#明日方舟# #音律联觉#\n音律联觉专场演出官方录播预告PV，录播将于6月12日10:30上线 http://t.cn/A6VR9W6h',
      author: '明日方舟Arknights',
      author_id: '6279793937',
      author_url: 'https://weibo.com/u/6279793937',
      url: 'https://weibo.com/6279793937/Kjc77D1jz',
      thumb: image(origin.page_pic),
      ts: iso('2021-06-08T09:35:04+08:00'),
      duration_s: 103,
      aspect: { width: 1280, height: 720 },
      stats: { likes: 37053, comments: 2126, shares: 9079, views: 1_870_000 },
    });
    // The 720p entry of playback_list, never its scrubber image.
    expect(clip.media).toEqual([{ kind: 'video', url: video(origin.media_info.playback_list[0].play_info.url), w: 1280, h: 720, duration_s: 103 }]);

    // The timeline carries the preview of a long status; detail fetches the rest.
    expect(notice.text).toMatch(/请在本次闪断更新时$/);
    expect(notice.text).not.toContain('展开');
    expect(night.text).toBe('#明日方舟# 博士，夜深了，记得早点休息[月亮]');

    // A text repost shows the original's picture, without the original's counts.
    expect(repost).toMatchObject({ text: '转发一下，博士们别错过', stats: { likes: 2207, comments: 96, shares: 31 } });
    expect(repost.media).toEqual([{ kind: 'image', url: image('https://wx4.sinaimg.cn/large/007ZxYkHly1grp0w7c8hwj30u01hc4qp.jpg'), w: 1080, h: 1920 }]);

    // pic_infos in pic_ids order: the largest size with its own width and height, bmiddle as the thumb.
    expect(gallery.media).toEqual([
      { kind: 'image', url: image('https://wx1.sinaimg.cn/large/006QZngZgy1grlb68fzfvj31hc0u0b29.jpg'), w: 1920, h: 1080 },
      { kind: 'image', url: image('https://wx2.sinaimg.cn/large/006QZngZgy1grlb6c2k1bj31hc0u0hdt.jpg'), w: 1920, h: 1080 },
    ]);
    expect(gallery.thumb).toBe(image('https://wx1.sinaimg.cn/wap360/006QZngZgy1grlb68fzfvj31hc0u0b29.jpg'));
  });

  it('resume on weibo.com from the cursor they handed out, without asking m.weibo.cn again', async () => {
    const first = (await run('posts', { query: '6279793937', limit: 5 }, [file])).result as Envelope;
    expect(first.next_cursor).toBeTruthy();
    const { result, requests } = await run('posts', { query: '6279793937', limit: 5, cursor: first.next_cursor }, [file]);
    expect(requests).toEqual([PC_TIMELINE(2)]);
    expect((result as Envelope).items.map((i) => i.id)).toEqual(['weibo:4646917039199914', 'weibo:4646489065033746']);
  });

  it('are never asked while m.weibo.cn answers, even when both are recorded', async () => {
    const { requests } = await run('posts', { query: '6279793937', limit: 5 }, [real('posts-arknights-timeline.har'), SANDBOX]);
    expect(requests).toEqual([M_TIMELINE]);
  });

  it('a walk past the m.weibo.cn pages stays on m.weibo.cn: its since_id means nothing to mymblog', async () => {
    const { result, requests, warnings } = await run('posts', { query: '6279793937', max_items: 100 }, [real('posts-arknights-timeline.har'), SANDBOX]);
    expect(requests.every((r) => r.startsWith('GET https://m.weibo.cn/'))).toBe(true);
    expect((result as Envelope).count).toBeGreaterThan(11);
    expect(warnings.join(' ')).toMatch(/stopped after 2 page\(s\): replay: no recording matches GET https:\/\/m\.weibo\.cn\//);
  });
});

describe('user from weibo.com profile/info', () => {
  it('reads data.user after m.weibo.cn cannot answer', async () => {
    const { result, requests } = await run('user', { query: 'https://weibo.com/u/6279793937' }, [sand('pc-user-profile-info-6279793937.har')]);
    expect(requests).toEqual([
      'GET https://m.weibo.cn/api/container/getIndex?type=uid&value=6279793937&containerid=1005056279793937',
      'GET https://weibo.com/ajax/profile/info?uid=6279793937',
    ]);
    const user = raw(sand('pc-user-profile-info-6279793937.har')).data.user;
    expect((result as CreatorResult).data!.author).toEqual({
      id: '6279793937',
      source: 'weibo',
      handle: '明日方舟Arknights',
      name: '明日方舟Arknights',
      bio: '《明日方舟》官方微博，欢迎咨询客服QQ服务号：800830064',
      avatar: image(user.avatar_hd),
      url: 'https://weibo.com/u/6279793937',
      followers: 1_455_000,
      following: 34,
      posts: 1553,
      verified: true,
    });
  });

  it("an honest empty profile on m.weibo.cn stays empty: weibo.com is not asked", async () => {
    const { result, requests } = await run('user', { query: '000' }, [real('error-empty-profile.har'), SANDBOX]);
    expect(requests).toHaveLength(1);
    expect(result).toMatchObject({ ok: true, source: 'empty' });
  });

  it("weibo.com's visitor wall (302 to passport) is session_expired when no visitor cookies can be minted; the wall itself is never followed", async () => {
    const { result, requests } = await run('user', { query: '7604561234' }, [SANDBOX]);
    // One mint attempt (no recording holds it here), then the honest outcome.
    expect(requests).toEqual([
      'GET https://m.weibo.cn/api/container/getIndex?type=uid&value=7604561234&containerid=1005057604561234',
      'GET https://weibo.com/ajax/profile/info?uid=7604561234',
      'POST https://passport.weibo.com/visitor/genvisitor',
    ]);
    expect(result).toMatchObject({ ok: false, error: { code: 'session_expired', retryable: false } });
    expect((result as CreatorResult).error!.message).toMatch(/passport/);
  });

  it('when neither site can be replayed, the m.weibo.cn request is the one named', async () => {
    await expect(run('user', { query: '1234567890' }, [FIXTURES, SANDBOX])).rejects.toThrow(/no recording matches GET https:\/\/m\.weibo\.cn\/.*1234567890/);
  });
});

describe('detail from weibo.com statuses/show', () => {
  it('is the third route, after both m.weibo.cn routes; the desktop bid form is tried when the mid has no recording', async () => {
    const file = sand('pc-detail-statuses-show-Kjc77D1jz.har');
    const { result, requests } = await run('detail', { query: '4645748019299849' }, [file]);
    expect(requests).toEqual([
      'GET https://m.weibo.cn/statuses/show?id=4645748019299849',
      'GET https://m.weibo.cn/detail/4645748019299849',
      'GET https://weibo.com/ajax/statuses/show?id=4645748019299849',
      'GET https://weibo.com/ajax/statuses/show?id=Kjc77D1jz',
    ]);
    const pi = raw(file).page_info;
    const item = (result as Envelope).items[0];
    expect(item).toMatchObject({ id: 'weibo:4645748019299849', type: 'video', thumb: image(pi.page_pic), url: 'https://weibo.com/6279793937/Kjc77D1jz' });
    expect(item.media).toEqual([{ kind: 'video', url: video(pi.media_info.mp4_720p_mp4), w: 1280, h: 720, duration_s: 103 }]);
  });

  it('is not asked while m.weibo.cn answers (the real statuses/show of the same status)', async () => {
    const { requests } = await run('detail', { query: '4645748019299849' }, [FIXTURES, SANDBOX]);
    expect(requests).toEqual(['GET https://m.weibo.cn/statuses/show?id=4645748019299849']);
  });

  it('fetches statuses/longtext for an isLongText status', async () => {
    const file = sand('pc-detail-statuses-show-Klpl5yu8T.har');
    const { result, requests, warnings } = await run('detail', { query: 'https://weibo.com/6279793937/Klpl5yu8T' }, [file]);
    expect(requests.slice(2)).toEqual(['GET https://weibo.com/ajax/statuses/show?id=Klpl5yu8T', 'GET https://weibo.com/ajax/statuses/longtext?id=Klpl5yu8T']);
    expect(warnings).toEqual([]);
    const item = (result as Envelope).items[0];
    expect(item).toMatchObject({ id: 'weibo:4651022958219023', type: 'text', stats: { likes: 15821, comments: 517, shares: 63 } });
    expect(item.text).toBe(raw(file, 1).data.longTextContent);
    expect(item.text).toContain('闪断补偿：合成玉*200');
  });

  it('a passport redirect on m.weibo.cn is final: weibo.com is not asked', async () => {
    const { result, requests } = await run('detail', { query: '4650335219154003' }, [SANDBOX]);
    expect(requests).toHaveLength(2);
    expect(result).toMatchObject({ ok: false, error: { code: 'session_expired' } });
  });
});

describe('comments from weibo.com buildComments', () => {
  const file = sand('pc-comments-buildcomments-4651022958219023.har');
  const PC1 = 'GET https://weibo.com/ajax/statuses/buildComments?is_reload=1&id=4651022958219023&is_show_bulletin=2&is_mix=0&count=20&flow=0';

  it('thread inline replies after their root and page by max_id until it is 0', async () => {
    const { result, requests } = await run('comments', { query: 'Klpl5yu8T', limit: 50 }, [file]);
    expect(requests).toEqual([
      'GET https://m.weibo.cn/comments/hotflow?id=4651022958219023&mid=4651022958219023&max_id_type=0',
      PC1,
      `${PC1}&max_id=139013405861129`,
    ]);
    const res = result as CommentsResult;
    expect(res).toMatchObject({ source: 'live', total: 517, has_more: false });
    expect(res.items.map((c) => [c.cid, c.parent_id ?? null])).toEqual([
      ['4651023490766981', null],
      ['4651023801148113', '4651023490766981'],
      ['4651024312852760', '4651023801148113'],
      ['4651023155222629', null],
      ['4651026215429876', null],
      ['4651026567227433', '4651026215429876'],
      ['4651029731332194', null],
    ]);
    expect(res.items[0]).toMatchObject({ text: '凌晨四点，懂的都懂', likes: 1893, reply_total: 12, user_id: '6602214786', handle: '整合运动的小兵', created_at: iso('2021-06-22T22:58:31+08:00') });
    expect(res.items[1].text).toBe('回复@整合运动的小兵:还好我睡了');
    expect(res.items[6].text).toBe('已设闹钟&准备好了');
  });

  it('resume on weibo.com from their own cursor', async () => {
    const first = (await run('comments', { query: '4651022958219023', limit: 6 }, [file])).result as CommentsResult;
    expect(first.has_more).toBe(true);
    const { result, requests } = await run('comments', { query: '4651022958219023', limit: 6, cursor: first.cursor }, [file]);
    expect(requests).toEqual([`${PC1}&max_id=139013405861129`]);
    expect((result as CommentsResult).items.map((c) => c.cid)).toEqual(['4651029731332194']);
  });

  it('are not asked while hotflow answers', async () => {
    const { requests } = await run('comments', { query: '4383183661430868', limit: 5 }, [FIXTURES, SANDBOX]);
    expect(requests).toHaveLength(1);
  });
});

describe('boards from weibo.com', () => {
  it('trending realtimehot: side/hotSearch before s.weibo.com, the advert and the pinned entry left out of the ranks', async () => {
    const { result, requests } = await run('trending', {}, [sand('pc-hotsearch.har')]);
    // The board's container under each of its spellings (replay misses), then weibo.com.
    expect(requests.filter((r) => r.includes('m.weibo.cn/api/container/getIndex'))).toHaveLength(3);
    expect(requests.slice(3)).toEqual(['GET https://weibo.com/ajax/side/hotSearch']);
    const trends = (result as TrendResult).data!.trends;
    expect(trends.map((t) => t.rank)).toEqual([1, 2, 3, 4, 5, 6, 7, 8]);
    expect(trends.map((t) => t.word)).not.toContain('春日新品限时尝鲜');
    expect(trends.map((t) => t.word)).not.toContain('清明节文明祭扫');
    expect(trends[1]).toEqual({ word: '春季强对流天气', source: 'weibo', rank: 2, hot_value: 1_512_077, url: `https://s.weibo.com/weibo?q=${encodeURIComponent('春季强对流天气')}` });
  });

  it('trending realtimehot from side/hotSearch: pinned entry first, advert left out (hot is posts only)', async () => {
    const { result } = await run('trending', { board: 'realtimehot' }, [sand('pc-hotsearch.har')]);
    const trends = (result as TrendResult).data!.trends;
    expect(trends.map((t) => t.word)).toContain('清明假期出行预测');
    expect(trends.map((t) => t.word)).not.toContain('春日新品限时尝鲜');
  });

  it('trending topicband: the m.weibo.cn container, then s.weibo.com, then topic_band', async () => {
    const { result, requests } = await run('trending', { board: 'topicband' }, [real('error-empty-hot-topic-container-2025-04-01.har'), sand('pc-topic-band.har')]);
    expect(requests).toEqual([
      'GET https://m.weibo.cn/api/container/getIndex?containerid=231648_-_4&luicode=10000011&lfid=231648_-_1',
      'GET https://s.weibo.com/top/summary?cate=topicband',
      'GET https://weibo.com/ajax/statuses/topic_band?sid=v_weibopro&category=all&page=1&count=50',
    ]);
    expect((result as TrendResult).data!.trends[0]).toEqual({
      word: '清明出行攻略', source: 'weibo', rank: 1, hot_value: 286_400_000, url: `https://s.weibo.com/weibo?q=${encodeURIComponent('#清明出行攻略#')}`,
    });
  });

  it('with every recording loaded the real boards still win', async () => {
    const realtime = await run('trending', {}, [FIXTURES, SANDBOX]);
    expect(realtime.requests).toHaveLength(1);
    const topics = await run('trending', { board: 'topicband' }, [FIXTURES, SANDBOX]);
    expect(topics.requests).toHaveLength(2);
    expect((topics.result as TrendResult).data!.trends[0].word).toBe('花好月圆会观后感');
  });
});
