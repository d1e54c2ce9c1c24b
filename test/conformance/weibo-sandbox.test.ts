import { readFileSync, readdirSync } from 'node:fs';
import { resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { loadRecordings, type Recording } from '../../src/crawl/replay/har.js';
import { compileRules, matchRequest } from '../../src/crawl/replay/match.js';
import type { CommentsResult, CreatorResult, Envelope, TrendResult } from '../../src/domain/results.js';
import { weibo } from '../../src/platforms/weibo/index.js';
import { runAction } from '../helpers/run-action.js';

/*
 * The demo (`npm run demo`) replays sandbox/ only. Every example below must answer from sandbox/weibo
 * alone, completely (no "stopped after" warnings), in its action's shape and with content.
 */

const SANDBOX = resolve(process.cwd(), 'sandbox/weibo');
const FIXTURES = resolve(process.cwd(), '../shared/fixtures/weibo');

const demo = async (action: string, params: Record<string, unknown>) => {
  const out = await runAction({ source: 'weibo', action, params, replay: [SANDBOX] });
  expect(out.warnings.filter((w) => /stopped after|replay/.test(w))).toEqual([]);
  return out;
};

/** Every demo example, as listed in the report; the shape checks below run each one. */
const DEMO_EXAMPLES: Array<{ action: string; params: Record<string, unknown> }> = [
  { action: 'search', params: { query: '明日方舟' } },
  { action: 'posts', params: { query: '7723001456' } },
  { action: 'user', params: { query: '7723001456' } },
  { action: 'detail', params: { query: '5152381730717912' } },
  { action: 'detail', params: { query: '5152352118034627' } },
  { action: 'comments', params: { query: '5152381730717912' } },
  { action: 'hot', params: {} },
  { action: 'hot', params: { category: 'hotposts' } },
  { action: 'trending', params: { board: 'realtimehot' } },
  { action: 'trending', params: { board: 'topicband' } },
  // Served by weibo.com's desktop API (the fallback route), m.weibo.cn having no recording for them here.
  { action: 'posts', params: { query: '6279793937', limit: 5 } },
  { action: 'posts', params: { query: '6279793937' } },
  { action: 'user', params: { query: '6279793937' } },
  { action: 'detail', params: { query: '4645748019299849' } },
  { action: 'detail', params: { query: 'https://weibo.com/6279793937/Klpl5yu8T' } },
  { action: 'comments', params: { query: 'Klpl5yu8T' } },
];

const isServiceMedia = (u: string | undefined) => u === undefined || u.startsWith('/v1/media?u=https%3A%2F%2F');

describe('every demo example answers from sandbox/weibo alone', () => {
  it.each(DEMO_EXAMPLES.map((e) => [e.action, JSON.stringify(e.params), e] as const))('%s %s', async (_a, _p, example) => {
    const { result } = await demo(example.action, example.params);
    const shape = weibo.actions[example.action as keyof typeof weibo.actions]!.shape;
    if (shape === 'items') {
      const env = result as Envelope;
      expect(env).toMatchObject({ ok: true, source: 'live' });
      expect(env.count).toBeGreaterThan(0);
      for (const item of env.items) {
        expect(item.id).toMatch(/^weibo:/);
        expect(item.title ?? item.text).toBeTruthy();
        expect(isServiceMedia(item.thumb)).toBe(true);
        for (const m of item.media) expect(isServiceMedia(m.url)).toBe(true);
      }
    } else if (shape === 'comments') {
      const res = result as CommentsResult;
      expect(res.error).toBeUndefined();
      expect(res.source).toBe('live');
      expect(res.items.length).toBeGreaterThan(0);
      expect(res.items.every((c) => c.cid && c.user_id && c.text)).toBe(true);
    } else if (shape === 'creator') {
      const res = result as CreatorResult;
      expect(res).toMatchObject({ ok: true, source: 'live' });
      expect(res.data?.author).toMatchObject({ id: expect.stringMatching(/^\d+$/), name: expect.any(String), followers: expect.any(Number) });
    } else {
      const res = result as TrendResult;
      expect(res).toMatchObject({ ok: true, source: 'live' });
      const trends = res.data!.trends;
      expect(trends.length).toBeGreaterThan(0);
      expect(trends.map((t) => t.rank)).toEqual(trends.map((_, i) => i + 1));
    }
  });
});

describe('the demo examples, in detail', () => {
  it('search: two pages of statuses', async () => {
    const { result, requests } = await demo('search', { query: '明日方舟' });
    expect(requests).toHaveLength(2);
    expect((result as Envelope).items.map((i) => i.type)).toEqual(['image', 'image', 'video', 'text', 'image']);
  });

  it('posts: the demo creator over two m.weibo.cn pages, ending cleanly', async () => {
    const { result, requests } = await demo('posts', { query: '7723001456' });
    expect(requests).toEqual([
      'GET https://m.weibo.cn/api/container/getIndex?containerid=1076037723001456',
      'GET https://m.weibo.cn/api/container/getIndex?containerid=1076037723001456&since_id=5152020671103090',
    ]);
    const env = result as Envelope;
    expect(env.count).toBe(6);
    expect(env.next_cursor).toBeUndefined();
    expect(env.items.map((i) => i.type)).toEqual(['video', 'image', 'text', 'text', 'image', 'text']);
    expect(env.items.every((i) => i.author_id === '7723001456' && i.author === '城市天气观察')).toBe(true);
  });

  it('user: the same creator', async () => {
    const { result } = await demo('user', { query: '7723001456' });
    expect((result as CreatorResult).data!.author).toMatchObject({ id: '7723001456', name: '城市天气观察', followers: 1_289_000, following: 311, posts: 20417, verified: true });
  });

  it('detail: the video post carries a playable 720p stream, its cover and duration', async () => {
    const { result, requests } = await demo('detail', { query: '5152381730717912' });
    expect(requests).toEqual(['GET https://m.weibo.cn/statuses/show?id=5152381730717912']);
    const item = (result as Envelope).items[0];
    expect(item).toMatchObject({ id: 'weibo:5152381730717912', type: 'video', duration_s: 95.04, aspect: { width: 1280, height: 720 }, stats: { views: 12_870_000 } });
    expect(item.media).toHaveLength(1);
    expect(item.media[0]).toMatchObject({ kind: 'video', w: 1280, h: 720 });
    expect(item.media[0].url).toMatch(/^\/v1\/media\?u=https%3A%2F%2Ff\.video\.weibocdn\.com%2F004Rt1Zngx08ozh5bF6M01041200nWqH0E010\.mp4.*&kind=video&platform=weibo/);
    expect(item.thumb).toMatch(/sinaimg\.cn%2Forj480/);
  });

  it('detail: the image post carries its full-size pictures', async () => {
    const { result } = await demo('detail', { query: '5152352118034627' });
    const item = (result as Envelope).items[0];
    expect(item).toMatchObject({ type: 'image', aspect: { width: 1440, height: 1080 } });
    expect(item.media.map((m) => [m.kind, m.w, m.h])).toEqual([['image', 1440, 1080], ['image', 1440, 1080]]);
    expect(item.media[0].url).toContain(encodeURIComponent('https://wx2.sinaimg.cn/large/008rKq2ely1i02ka1x0mxj31400u0n3b.jpg'));
    expect(item.text).toBe('网友拍到的“乳状云”，强对流来临前的信号之一[吃惊]\n图：@今天吃点啥呀');
  });

  it('comments: roots each followed by their inline replies', async () => {
    const { result } = await demo('comments', { query: '5152381730717912' });
    const res = result as CommentsResult;
    expect(res).toMatchObject({ total: 18812, has_more: false });
    expect(res.items.map((c) => [c.cid, c.parent_id ?? null])).toEqual([
      ['5152383102154327', null],
      ['5152383520534211', '5152383102154327'],
      ['5152384106688020', '5152383102154327'],
      ['5152382697403811', null],
      ['5152390248915044', null],
      ['5152391405512703', '5152390248915044'],
    ]);
  });

  it('hot: the hot posts feed over two pages (the default category); never hot-search words', async () => {
    const feed = await demo('hot', {});
    expect(feed.requests).toHaveLength(2);
    const env = feed.result as Envelope;
    expect(env.count).toBe(5);
    expect(env.items.every((i) => !i.id.startsWith('weibo:hot:'))).toBe(true);
    expect(env.items.every((i) => i.author_id)).toBe(true);
  });

  it('trending: both boards', async () => {
    const realtime = ((await demo('trending', { board: 'realtimehot' })).result as TrendResult).data!.trends;
    expect(realtime).toHaveLength(8);
    expect(realtime[0]).toEqual({
      word: '清明假期出行预测', source: 'weibo', rank: 1, hot_value: 2_248_139, url: `https://s.weibo.com/weibo?q=${encodeURIComponent('#清明假期出行预测#')}`,
    });
    const topics = ((await demo('trending', { board: 'topicband' })).result as TrendResult).data!.trends;
    expect(topics.map((t) => [t.word, t.hot_value])).toEqual([
      ['清明出行攻略', 286_400_000], ['春天的第一口野菜', 154_200_000], ['强对流天气科普', 98_760_000], ['我的城市春色', 61_380_000], ['花粉季自救', 35_022_000],
    ]);
  });

  it("the banner's example (posts 6279793937, limit 5) answers from weibo.com's timeline", async () => {
    const { result, requests } = await demo('posts', { query: '6279793937', limit: 5 });
    expect(requests).toEqual([
      'GET https://m.weibo.cn/api/container/getIndex?containerid=1076036279793937',
      'GET https://weibo.com/ajax/statuses/mymblog?uid=6279793937&page=1&feature=0',
    ]);
    expect((result as Envelope).count).toBe(5);
    expect((result as Envelope).next_cursor).toBeTruthy();
  });
});

describe('sandbox/weibo recordings', () => {
  const files = readdirSync(SANDBOX).filter((f) => f.endsWith('.har'));

  it('are all marked hand-made', () => {
    expect(files.length).toBeGreaterThan(20);
    for (const f of files) {
      const har = JSON.parse(readFileSync(resolve(SANDBOX, f), 'utf8'));
      expect(har.log.version).toBe('1.2');
      for (const e of har.log.entries) expect(e.comment, f).toMatch(/^hand-made sandbox recording: /);
    }
  });

  it('never answer a request a real recording answers, nor the reverse (both directories load together)', () => {
    const rules = compileRules(weibo.replay);
    const sandbox = loadRecordings([SANDBOX]);
    const real = loadRecordings([FIXTURES]);
    const clash = (req: Recording, pool: Recording[]) => {
      const m = matchRequest({ method: req.method, url: req.url, params: req.params }, pool, rules, new Map());
      return 'recording' in m && !m.recording.body.equals(req.body) ? `${req.url} ~ ${m.recording.file.split('/').pop()}` : undefined;
    };
    const clashes = [...sandbox.map((s) => clash(s, real)), ...real.map((r) => clash(r, sandbox))].filter(Boolean);
    expect(clashes).toEqual([]);
  });
});
