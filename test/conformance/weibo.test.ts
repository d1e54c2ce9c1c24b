import { readFileSync, readdirSync } from 'node:fs';
import { basename, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import type { CommentsResult, CreatorResult, Envelope, TrendResult } from '../../src/domain/results.js';
import { runAction } from '../helpers/run-action.js';

/*
 * Every weibo recording, replayed through the real catalog validation, adapter and runner normalization.
 * Hand-made sandbox recordings (sandbox/weibo) cover what no real recording does.
 */

const FIXTURES = resolve(process.cwd(), '../shared/fixtures/weibo');
const SANDBOX = resolve(process.cwd(), 'sandbox/weibo');
const used = new Set<string>();
const real = (name: string): string => (used.add(name), resolve(FIXTURES, name));
const sand = (name: string): string => resolve(SANDBOX, name);
const raw = (file: string, i = 0): any => JSON.parse(JSON.parse(readFileSync(file, 'utf8')).log.entries[i].response.content.text);

const run = (action: string, params: Record<string, unknown>, replay: string[]) => runAction({ source: 'weibo', action, params, replay });
const image = (origin: string): string => `/v1/media?u=${encodeURIComponent(origin)}`;
const video = (origin: string): string => `/v1/media?u=${encodeURIComponent(origin)}&kind=video&platform=weibo&profile=default`;
const iso = (s: string): number => Date.parse(s) / 1000;

describe('weibo.posts', () => {
  it('reads the recorded timeline page, field by field', async () => {
    const { result, requests } = await run('posts', { query: '6279793937', limit: 11 }, [real('posts-arknights-timeline.har')]);
    const env = result as Envelope;
    expect(requests).toEqual(['GET https://m.weibo.cn/api/container/getIndex?containerid=1076036279793937']);
    expect(env).toMatchObject({ ok: true, source: 'live', count: 11 });
    expect(env.items.map((i) => i.id).slice(0, 3)).toEqual(['weibo:4645748019299849', 'weibo:4649106427873349', 'weibo:4649031014551911']);

    const origin = raw(real('posts-arknights-timeline.har')).data.cards[0].mblog.page_info;
    const first = env.items[0];
    expect(first).toMatchObject({
      type: 'video',
      provider: 'weibo',
      title: '2021明日方舟音律联觉专场演出官方录播预告PV',
      author: '明日方舟Arknights',
      author_id: '6279793937',
      author_handle: '明日方舟Arknights',
      author_url: 'https://weibo.com/u/6279793937',
      url: 'https://weibo.com/6279793937/Kjc77D1jz',
      thumb: image(origin.page_pic.url),
      ts: iso('2021-06-08T09:35:04+08:00'),
      duration_s: 103.165,
      aspect: { width: 1280, height: 720 },
      stats: { likes: 37053, comments: 2126, shares: 9079, views: 870_000 },
      provenance: 'live',
    });
    expect(first.media).toEqual([{ kind: 'video', url: video(origin.urls.mp4_720p_mp4), w: 1280, h: 720, duration_s: 103.165 }]);
    expect(first.text).toMatch(/^#明日方舟# #音律联觉#\n2021明日方舟音律联觉Ambience Synesthesia专场演出官方录播将于6月12日10:30正式上线/);

    const gallery = env.items[7];
    expect(gallery).toMatchObject({ id: 'weibo:4646917039199914', type: 'image', stats: { likes: 28729, comments: 707, shares: 813 } });
    expect(gallery.media.map((m) => m.kind)).toEqual(['image', 'image', 'image', 'image']);
    expect(gallery.media[0]).toEqual({ kind: 'image', url: image('https://wx2.sinaimg.cn/large/006QZngZgy1grebng32cij31hc0u0hdm.jpg'), w: 1920, h: 1080 });
    expect(gallery.thumb).toBe(image('https://wx2.sinaimg.cn/orj360/006QZngZgy1grebng32cij31hc0u0hdm.jpg'));

    const repost = env.items[3];
    expect(repost).toMatchObject({ id: 'weibo:4648806186747944', type: 'video', stats: { likes: 1340, comments: 147, shares: 7 } });
    expect(repost.stats.views).toBeUndefined();
    expect(repost.media[0].url).toBe(video(origin.urls.mp4_720p_mp4));

    for (const item of env.items) {
      expect(item.thumb === undefined || item.thumb.startsWith('/v1/media?u=')).toBe(true);
      for (const m of item.media) expect(m.url.startsWith('/v1/media?u=https%3A%2F%2F')).toBe(true);
    }
    expect(env.next_cursor).toBeTruthy();
  });

  it('pages on with since_id from cardlistInfo', async () => {
    const first = (await run('posts', { query: '6279793937', limit: 11 }, [real('posts-arknights-timeline.har')])).result as Envelope;
    const { result, requests } = await run('posts', { query: '6279793937', limit: 3, cursor: first.next_cursor }, [sand('posts-arknights-page2.har')]);
    expect(requests).toEqual(['GET https://m.weibo.cn/api/container/getIndex?containerid=1076036279793937&since_id=4646131823281332']);
    const env = result as Envelope;
    expect(env.items.map((i) => i.id)).toEqual(['weibo:4646131823281332', 'weibo:4646071672078623', 'weibo:4645988835082493']);
    expect(env.items[1]).toMatchObject({ type: 'text', text: '#明日方舟# 早安，博士[太阳]' });
    expect(env.items[2]).toMatchObject({ type: 'video', title: '音律联觉演出幕后花絮', aspect: { width: 1280, height: 720 }, stats: { views: 430_000 } });
    expect(env.next_cursor).toBeTruthy();
  });

  it('walks across pages with max_items', async () => {
    const { result, requests } = await run('posts', { query: 'https://m.weibo.cn/u/6279793937', max_items: 13 }, [
      real('posts-arknights-timeline.har'),
      sand('posts-arknights-page2.har'),
    ]);
    const env = result as Envelope;
    expect(requests).toHaveLength(2);
    expect(env.count).toBe(13);
    expect(env.items[11].id).toBe('weibo:4646131823281332');
    expect(new Set(env.items.map((i) => i.id)).size).toBe(13);
    expect(env.next_cursor).toBeTruthy();
  });

  it('resolves an @screen_name through the user search, taking only the exact name', async () => {
    const { result, requests } = await run('posts', { query: '@明日方舟Arknights', limit: 2 }, [
      sand('resolve-user-search-arknights.har'),
      real('posts-arknights-timeline.har'),
    ]);
    expect(requests[0]).toContain('containerid=100103type%3D3%26q%3D%E6%98%8E%E6%97%A5%E6%96%B9%E8%88%9FArknights%26t%3D0');
    expect(requests[1]).toBe('GET https://m.weibo.cn/api/container/getIndex?containerid=1076036279793937');
    expect((result as Envelope).items[0].author_id).toBe('6279793937');
  });
});

describe('weibo.user', () => {
  it('reads the 2022 profile (万 follower string)', async () => {
    const { result, requests } = await run('user', { query: 'https://weibo.com/u/6279793937' }, [real('user-arknights-profile.har')]);
    expect(requests).toEqual(['GET https://m.weibo.cn/api/container/getIndex?type=uid&value=6279793937&containerid=1005056279793937']);
    expect(result as CreatorResult).toEqual({
      ok: true,
      source: 'live',
      items: [],
      ms: expect.any(Number),
      data: {
        platform: 'weibo',
        author: {
          id: '6279793937',
          source: 'weibo',
          handle: '明日方舟Arknights',
          name: '明日方舟Arknights',
          bio: '《明日方舟》官方微博，欢迎咨询客服QQ服务号：800830064',
          avatar: `/v1/media?u=${encodeURIComponent('https://wx4.sinaimg.cn/orj480/006QZngZly8gdj05mufr9j30l00l0dq4.jpg')}`,
          url: 'https://weibo.com/u/6279793937',
          followers: 1_455_000,
          following: 34,
          posts: 1553,
          verified: true,
        },
      },
    });
  });

  it('reads the 2019 profile', async () => {
    const { result } = await run('user', { query: '1669879400' }, [real('user-1669879400-profile.har')]);
    expect((result as CreatorResult).data!.author).toMatchObject({ id: '1669879400', name: 'Dear-迪丽热巴', followers: 63_357_736, following: 240, posts: 1008 });
  });

  it('an ok:0 "这里还没有内容" profile is an honest empty', async () => {
    const { result, requests } = await run('user', { query: '000' }, [real('error-empty-profile.har')]);
    expect(requests[0]).toContain('containerid=100505000');
    expect(result).toMatchObject({ ok: true, source: 'empty', items: [] });
    expect((result as CreatorResult).data).toBeUndefined();
  });

  it('a profile request never answers from the timeline recording (and vice versa)', async () => {
    await expect(run('user', { query: '6279793937' }, [real('posts-arknights-timeline.har')])).rejects.toThrow(/no recording matches/);
    await expect(run('posts', { query: '6279793937', limit: 1 }, [real('user-arknights-profile.har')])).rejects.toThrow(/no recording matches/);
  });
});

describe('weibo.detail', () => {
  it('statuses/show of a video post carries a playable stream', async () => {
    const file = real('detail-statuses-show-4645748019299849.har');
    const { result, requests } = await run('detail', { query: 'https://m.weibo.cn/detail/4645748019299849' }, [file]);
    expect(requests).toEqual(['GET https://m.weibo.cn/statuses/show?id=4645748019299849']);
    const item = (result as Envelope).items[0];
    const pi = raw(file).data.page_info;
    expect((result as Envelope).count).toBe(1);
    expect(item).toMatchObject({
      id: 'weibo:4645748019299849',
      type: 'video',
      thumb: image(pi.page_pic.url),
      duration_s: 103.165,
      aspect: { width: 1280, height: 720 },
      stats: { likes: 39030, comments: 2202, shares: 7187, views: 1_870_000 },
      url: 'https://weibo.com/6279793937/Kjc77D1jz',
    });
    expect(item.media).toEqual([{ kind: 'video', url: video(pi.urls.mp4_720p_mp4), w: 1280, h: 720, duration_s: 103.165 }]);
    expect(item.text).toContain('开奖后奖品会在出货后寄出。');
  });

  it('statuses/show by bid (the id form the caller gave)', async () => {
    const { result, requests } = await run('detail', { query: 'HyZVegYAP' }, [real('detail-statuses-show-HyZVegYAP.har')]);
    expect(requests).toEqual(['GET https://m.weibo.cn/statuses/show?id=HyZVegYAP']);
    expect((result as Envelope).items[0]).toMatchObject({
      id: 'weibo:4383411844046171',
      type: 'text',
      text: '转发微博',
      author: '九月九的晴天',
      author_url: 'https://weibo.com/u/5973737418',
      ts: iso('2019-06-15T11:44:46+08:00'),
      stats: { likes: 0, comments: 0, shares: 0 },
    });
  });

  it('falls back to the HTML detail page when statuses/show cannot answer', async () => {
    const { result, requests } = await run('detail', { query: '4649031014551911' }, [
      real('detail-html-4649031014551911.har'),
      real('detail-statuses-extend-4649031014551911.har'),
    ]);
    expect(requests).toEqual(['GET https://m.weibo.cn/statuses/show?id=4649031014551911', 'GET https://m.weibo.cn/detail/4649031014551911']);
    const item = (result as Envelope).items[0];
    expect(item).toMatchObject({ id: 'weibo:4649031014551911', type: 'image', stats: { likes: 20119, comments: 656, shares: 81 } });
    expect(item.media).toEqual([{ kind: 'image', url: image('https://wx1.sinaimg.cn/large/006QZngZgy1grl2q3n98jj30rs2084qp.jpg'), w: 1000, h: 2600 }]);
    expect(item.text).toMatch(/如若延迟则请关注官方发布的具体开服时间\*$/);
  });

  it('fetches statuses/extend for a truncated long text', async () => {
    const { result, requests } = await run('detail', { query: 'https://weibo.com/6279793937/Kkzwhj69V' }, [
      sand('detail-statuses-show-Kkzwhj69V.har'),
      real('detail-statuses-extend-4649031014551911.har'),
    ]);
    expect(requests).toEqual(['GET https://m.weibo.cn/statuses/show?id=Kkzwhj69V', 'GET https://m.weibo.cn/statuses/extend?id=4649031014551911']);
    const item = (result as Envelope).items[0];
    expect(item.id).toBe('weibo:4649031014551911');
    const full = raw(resolve(FIXTURES, 'detail-statuses-extend-4649031014551911.har')).data.longTextContent as string;
    expect(full).toContain('闪断补偿');
    expect(item.text).toContain('闪断补偿：合成玉*200');
    expect(item.text).not.toContain('...');
  });

  it('a redirect to passport is session_expired, and passport is never requested', async () => {
    const { result, requests } = await run('detail', { query: '4650335219154003' }, [sand('error-passport-redirect-detail-4650335219154003.har')]);
    expect(requests).toEqual(['GET https://m.weibo.cn/statuses/show?id=4650335219154003', 'GET https://m.weibo.cn/detail/4650335219154003']);
    expect(result).toMatchObject({ ok: false, source: 'live', count: 0, error: { code: 'session_expired', retryable: false } });
    expect((result as Envelope).error!.message).toMatch(/passport/);
  });

  it('with only the long-text answer recorded: that text and its counts, a warning naming what is missing, the time from the id', async () => {
    const file = real('detail-statuses-extend-4649031014551911.har');
    const data = JSON.parse(JSON.parse(readFileSync(file, 'utf8')).log.entries[0].response.content.text).data;
    const { result, requests, warnings } = await run('detail', { query: '4649031014551911' }, [file]);
    expect(requests.at(-1)).toBe('GET https://m.weibo.cn/statuses/extend?id=4649031014551911');
    const item = (result as Envelope).items[0];
    expect(item).toMatchObject({ id: 'weibo:4649031014551911', type: 'text', url: expect.stringContaining('4649031014551911') });
    expect(item.text?.length).toBeGreaterThan(20);
    expect(item.text).not.toMatch(/<[a-z]/i);
    expect(item.author_id).toBeUndefined();
    expect(item.stats).toMatchObject({ likes: data.attitudes_count, comments: data.comments_count, shares: data.reposts_count });
    // The id's own time (2021-06): weibo ids carry their creation second.
    expect(new Date(item.ts! * 1000).toISOString()).toMatch(/^2021-/);
    expect(warnings.join(' ')).toMatch(/only weibo's long-text answer \(statuses\/extend\)/);
  });

  it('fails loudly, naming the first unreplayable URL, when no route can be replayed', async () => {
    await expect(run('detail', { query: '4649031014551912' }, [real('detail-statuses-extend-4649031014551911.har')])).rejects.toThrow(
      /statuses\/show\?id=4649031014551912/,
    );
  });
});

describe('weibo.comments', () => {
  it('threads inline replies after their root comment', async () => {
    const { result, requests } = await run('comments', { query: 'https://m.weibo.cn/detail/4383183661430868', limit: 21 }, [real('comments-hotflow-4383183661430868.har')]);
    expect(requests).toEqual(['GET https://m.weibo.cn/comments/hotflow?id=4383183661430868&mid=4383183661430868&max_id_type=0']);
    const res = result as CommentsResult;
    expect(res).toMatchObject({ source: 'live', total: 133_519, has_more: true });
    expect(res.items).toHaveLength(21);
    expect(res.items[0]).toMatchObject({ cid: '4383183984547669', likes: 6183, reply_total: 143, user_id: '1787569845', handle: '护舒宝', user_name: '护舒宝', source: 'weibo', text: '宝宝陪你一起搬陪你一起吃[羞嗒嗒]' });
    expect(res.items[0].parent_id).toBeUndefined();
    expect(res.items[1]).toMatchObject({ cid: '4383191449773449', parent_id: '4383183984547669', created_at: iso('2019-06-14T21:09:00+08:00') });
    expect(res.items.filter((c) => c.parent_id)).toHaveLength(1);
    expect(res.cursor).toBeTruthy();
  });

  it('pages with max_id + max_id_type until max_id is 0', async () => {
    const { result, requests } = await run('comments', { query: 'Kjc77D1jz', limit: 50 }, [sand('comments-hotflow-4645748019299849.har')]);
    expect(requests).toEqual([
      'GET https://m.weibo.cn/comments/hotflow?id=4645748019299849&mid=4645748019299849&max_id_type=0',
      'GET https://m.weibo.cn/comments/hotflow?id=4645748019299849&mid=4645748019299849&max_id=138893602117834&max_id_type=0',
    ]);
    const res = result as CommentsResult;
    expect(res).toMatchObject({ source: 'live', total: 2202, has_more: false });
    expect(res.cursor).toBeUndefined();
    expect(res.items.map((c) => [c.cid, c.parent_id ?? null])).toEqual([
      ['4645751278535701', null],
      ['4645752654267183', '4645751278535701'],
      ['4645753211847529', '4645751278535701'],
      ['4645749927706812', null],
      ['4645756210839176', null],
      ['4645760442096930', null],
      ['4645761130487051', '4645760442096930'],
    ]);
    expect(res.items[4].text).toBe('好耶&好耶');
  });

  it('resumes from the cursor it handed out', async () => {
    const first = (await run('comments', { query: '4645748019299849', limit: 5 }, [sand('comments-hotflow-4645748019299849.har')])).result as CommentsResult;
    expect(first.has_more).toBe(true);
    const { result, requests } = await run('comments', { query: '4645748019299849', limit: 5, cursor: first.cursor }, [sand('comments-hotflow-4645748019299849.har')]);
    expect(requests[0]).toContain('max_id=138893602117834&max_id_type=0');
    expect((result as CommentsResult).items.map((c) => c.cid)).toEqual(['4645760442096930', '4645761130487051']);
  });

  it('pages one thread through hotFlowChild with replies_of', async () => {
    const { result, requests } = await run('comments', { query: '4645748019299849', replies_of: '4645751278535701', limit: 10 }, [
      sand('replies-hotflowchild-4645751278535701.har'),
    ]);
    expect(requests).toEqual(['GET https://m.weibo.cn/comments/hotFlowChild?cid=4645751278535701&max_id=0&max_id_type=0']);
    const res = result as CommentsResult;
    expect(res).toMatchObject({ source: 'live', total: 57, has_more: false });
    expect(res.items.map((c) => c.cid)).toEqual(['4645752654267183', '4645753211847529', '4645758842364917']);
    expect(res.items.every((c) => c.parent_id === '4645751278535701')).toBe(true);
  });
});

describe('weibo.hot', () => {
  it('realtimehot words are trends, not items: trending reads the board; hot refuses the category and names trending', async () => {
    const { result, requests } = await run('trending', {}, [real('hot-realtimehot-getindex-2025-04-01.har')]);
    expect(requests).toEqual([
      'GET https://m.weibo.cn/api/container/getIndex?containerid=106003type%253D25%2526t%253D3%2526disable_hot%253D1%2526filter_type%253Drealtimehot&luicode=10000011&lfid=231583',
    ]);
    const trends = (result as TrendResult).data!.trends;
    expect(trends.find((t) => t.word === '雷军回应')).toMatchObject({ hot_value: 20_628_640 });
    expect(trends.some((t) => t.word === '智能见真章安全有底线')).toBe(false);
    const hot = await run('hot', { category: 'realtimehot' }, [real('hot-realtimehot-getindex-2025-04-01.har')]).catch((e: Error) => e);
    const text = hot instanceof Error ? hot.message : JSON.stringify(hot.result);
    expect(text).toMatch(/params\.category: must be one of hotposts/);
  });


  it('hotposts: the 102803 feed as items, next page by since_id', async () => {
    const { result, requests } = await run('hot', { category: 'hotposts', limit: 3 }, [sand('hot-hotposts.har')]);
    expect(requests).toEqual(['GET https://m.weibo.cn/api/container/getIndex?containerid=102803&openApp=0']);
    const env = result as Envelope;
    expect(env.items.map((i) => i.type)).toEqual(['video', 'image', 'text']);
    expect(env.items[0]).toMatchObject({ id: 'weibo:5152381730717912', author: '城市天气观察', duration_s: 95.04, stats: { views: 12_870_000 } });
    expect(env.items[0].media[0].url).toMatch(/^\/v1\/media\?u=https%3A%2F%2Ff\.video\.weibocdn\.com%2F004Rt1Zngx08ozh5bF6M01041200nWqH0E010\.mp4.*&kind=video&platform=weibo/);
    expect(env.items[1].media).toHaveLength(3);
    expect(env.next_cursor).toBeTruthy();
  });
});

describe('weibo.search', () => {
  it('reads card_type 9 statuses, also nested in card_group, over two pages', async () => {
    const { result, requests } = await run('search', { query: '明日方舟' }, [sand('search-arknights.har')]);
    expect(requests).toEqual([
      'GET https://m.weibo.cn/api/container/getIndex?containerid=100103type%3D1%26q%3D%E6%98%8E%E6%97%A5%E6%96%B9%E8%88%9F&page_type=searchall',
      'GET https://m.weibo.cn/api/container/getIndex?containerid=100103type%3D1%26q%3D%E6%98%8E%E6%97%A5%E6%96%B9%E8%88%9F&page_type=searchall&page=2',
    ]);
    const env = result as Envelope;
    expect(env.items.map((i) => i.id)).toEqual([
      'weibo:4649262383245125',
      'weibo:4649106427873349',
      'weibo:4648977256451207',
      'weibo:4648631102996823',
      'weibo:4648360583756011',
    ]);
    expect(env.items.map((i) => i.type)).toEqual(['image', 'image', 'video', 'text', 'image']);
    expect(env.items[0].text).toBe('#明日方舟# 沃伦姆德的薄暮复刻，W的新立绘太好看了[心]\n攻略和配队放在图里了');
    expect(env.items[4].media[0].url).toBe(image('https://wx1.sinaimg.cn/large/006QZngZgy1grht0d1dbij31hc0u0kjl.jpg'));
    expect(env.next_cursor).toBeUndefined();
  });

  it('HTTP 432 is blocked, not empty', async () => {
    const { result } = await run('search', { query: '测试' }, [sand('error-search-432.har')]);
    expect(result).toMatchObject({ ok: false, source: 'blocked', count: 0, items: [], error: { code: 'blocked', retryable: true } });
  });
});

describe('weibo.trending', () => {
  it('realtimehot from the m.weibo.cn board', async () => {
    const { result, requests } = await run('trending', {}, [real('hot-realtimehot-getindex-2025-04-01.har')]);
    expect(requests).toHaveLength(1);
    const res = result as TrendResult;
    expect(res).toMatchObject({ ok: true, source: 'live', data: { platform: 'weibo' } });
    const trends = res.data!.trends;
    expect(trends.map((t) => t.rank)).toEqual(Array.from({ length: 50 }, (_, i) => i + 1));
    expect(trends.slice(0, 2).map((t) => [t.word, t.hot_value])).toEqual([
      ['雷军回应', 20_628_640],
      ['小米汽车回应', 2_875_141],
    ]);
  });

  it('realtimehot falls back to weibo.com side/hotSearch, then to the s.weibo.com page', async () => {
    const { result, requests } = await run('trending', { board: 'realtimehot' }, [real('trending-s-weibo-top-summary-realtimehot-2021-09-22.har')]);
    // The m.weibo.cn container is asked under each of its spellings first (all replay misses here).
    expect(requests.slice(3)).toEqual(['GET https://weibo.com/ajax/side/hotSearch', 'GET https://s.weibo.com/top/summary?cate=realtimehot']);
    const trends = (result as TrendResult).data!.trends;
    expect(trends).toHaveLength(50);
    expect(trends[0]).toMatchObject({ rank: 1, word: '美国新冠零号病人可能2019年4月出现', hot_value: 1_711_551 });
    expect(trends[0].url).toMatch(/^https:\/\/s\.weibo\.com\/weibo\?q=/);
  });

  it('topicband: the retired m.weibo.cn topic container answers empty, so the s.weibo.com board is read', async () => {
    const { result, requests } = await run('trending', { board: 'topicband' }, [
      real('error-empty-hot-topic-container-2025-04-01.har'),
      real('trending-s-weibo-top-summary-topicband-2021-09-22.har'),
    ]);
    expect(requests).toEqual([
      'GET https://m.weibo.cn/api/container/getIndex?containerid=231648_-_4&luicode=10000011&lfid=231648_-_1',
      'GET https://s.weibo.com/top/summary?cate=topicband',
    ]);
    const trends = (result as TrendResult).data!.trends;
    expect(trends[0]).toMatchObject({ rank: 1, word: '花好月圆会观后感', hot_value: 11_657_000 });
    expect(trends.every((t, i) => t.rank === i + 1 && !t.word.startsWith('#'))).toBe(true);
  });

  it('the Sina Visitor System page is session_expired, not "no trends"', async () => {
    const { result } = await run('trending', {}, [real('error-visitor-system-s-weibo-2024-01.har')]);
    expect(result).toMatchObject({ ok: false, source: 'live', items: [], error: { code: 'session_expired', retryable: false } });
    expect((result as TrendResult).error!.message).toMatch(/visitor/i);
  });
});

describe('weibo recordings', () => {
  // Runs last (vitest keeps file order): every real recording must have been replayed above.
  it('every recording in ../shared/fixtures/weibo was replayed', () => {
    const all = readdirSync(FIXTURES).filter((f) => f.endsWith('.har'));
    expect(all.length).toBeGreaterThanOrEqual(14);
    expect(all.filter((f) => !used.has(basename(f)))).toEqual([]);
  });
});
