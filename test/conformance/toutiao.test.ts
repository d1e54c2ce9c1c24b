import { mkdtempSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import type { CommentsResult, CreatorResult, Envelope, TrendResult } from '../../src/domain/results.js';
import type { PageSigning } from '../../src/platforms/types.js';
import { runAction } from '../helpers/run-action.js';

/*
 * Every toutiao recording replayed through the real catalog validation, adapter and runner normalization.
 * The one real recording is the 2021 app hot board; everything else is hand-made (sandbox/toutiao, each
 * entry's comment names the public source of its shape), plus a few same-URL edge answers written to a
 * temp dir here so they never compete with the demo's recordings.
 */

const FIXTURES = resolve(process.cwd(), '../shared/fixtures/toutiao');
const SANDBOX = resolve(process.cwd(), 'sandbox/toutiao');
const APP_BOARD = resolve(FIXTURES, 'hot-board-app-2021-01-14.har');
const sand = (name: string): string => resolve(SANDBOX, name);
const TTWID = sand('ttwid-register.har');

const image = (origin: string): string => `/v1/media?u=${encodeURIComponent(origin)}`;
const video = (origin: string): string => `/v1/media?u=${encodeURIComponent(origin)}&kind=video&platform=toutiao&profile=default`;
const entries = (file: string): any[] => JSON.parse(readFileSync(file, 'utf8')).log.entries;
const paths = (requests: string[]): string[] => requests.map((r) => r.replace(/\?.*$/, ''));

const run = (action: string, params: Record<string, unknown>, replay: string[], extra: Partial<Parameters<typeof runAction>[0]> = {}) =>
  runAction({ source: 'toutiao', action, params, replay, ...extra });

const TOKEN_NEWS = 'MS4wLjABAAAAq3Yk8mZxWc2aNfR0uT7pLh4sVbE9oDj1iKQ6wGyCX5M';
const TOKEN_MAKER = 'MS4wLjABAAAA4f7d4mwtApALtHIiq-QM20dwXqe3sandboxMaker01';
const TOKEN_REFUSED = 'MS4wLjABAAAAsandboxRefusedFeed00000000000000000000000';
const SIGNATURE = '_02B4Z6wo00f01sandboxSignedInPage.0000000000AAIDAsandbox';

/** A fake of the profile's browser page: answers the acrawler signature and records what it was asked. */
function fakePage(): PageSigning & { calls: Array<Record<string, unknown>> } {
  const calls: Array<Record<string, unknown>> = [];
  return {
    calls,
    sign: async (req) => {
      calls.push(req as Record<string, unknown>);
      return SIGNATURE as never;
    },
  };
}

/** Edge answers that share a URL with a demo recording: written to their own temp dir, hand-made too. */
function tmpHar(name: string, list: Array<{ url: string; status?: number; body: string; mime?: string }>): string {
  const dir = mkdtempSync(join(tmpdir(), 'toutiao-edge-'));
  const file = join(dir, name);
  const har = {
    log: {
      version: '1.2',
      creator: { name: 'hand-made (toutiao conformance edge cases)', version: '1' },
      entries: list.map((e) => ({
        startedDateTime: '2026-05-20T08:00:00.000Z',
        time: 0,
        request: { method: 'GET', url: e.url, httpVersion: 'HTTP/1.1', headers: [], queryString: [], cookies: [], headersSize: -1, bodySize: -1 },
        response: {
          status: e.status ?? 200,
          statusText: '',
          httpVersion: 'HTTP/1.1',
          headers: [{ name: 'Content-Type', value: e.mime ?? 'application/json; charset=utf-8' }],
          cookies: [],
          content: { size: e.body.length, mimeType: e.mime ?? 'application/json; charset=utf-8', text: e.body },
          redirectURL: '',
          headersSize: -1,
          bodySize: -1,
        },
        cache: {},
        timings: { send: 0, wait: 0, receive: 0 },
        comment: 'hand-made: an edge answer of the documented board shapes (see sandbox/toutiao/hot-web.har and the app fixture)',
      })),
    },
  };
  writeFileSync(file, JSON.stringify(har));
  return file;
}
const WEB_BOARD = 'https://www.toutiao.com/hot-event/hot-board/?origin=toutiao_pc';
const APP_BOARD_URL = 'https://i-lq.snssdk.com/api/feed/hotboard_online/v1/?category=hotboard_online&count=50';

describe('toutiao.hot and trending: the real app-board recording', () => {
  const cells = () => JSON.parse(entries(APP_BOARD)[0].response.content.text).data.map((d: any) => d.content as string);

  it('hot falls back from the unanswered web board to the app board, one topic item per cell, ids exact', async () => {
    const { result, requests, warnings } = await run('hot', {}, [APP_BOARD]);
    expect(requests).toEqual([`GET ${WEB_BOARD}`, `GET ${APP_BOARD_URL}`]);
    expect(warnings).toEqual([]);
    const env = result as Envelope;
    expect(env).toMatchObject({ ok: true, source: 'live', count: 4 });
    // hot_item_id_str as written in each cell's JSON string (JSON.parse would round the bare numbers).
    const ids = cells().map((c: string) => /"hot_item_id_str":"(\d+)"/.exec(c)![1]);
    expect(ids).toEqual(['6917172096716099083', '6917259794306911758', '6908983819773149703', '6914905542192742915']);
    expect(env.items.map((i) => i.id)).toEqual(ids.map((id: string) => `toutiao:trending-${id}`));
    expect(env.items[0]).toEqual({
      id: 'toutiao:trending-6917172096716099083',
      type: 'text',
      provider: 'toutiao',
      title: '石家庄建设集中隔离点',
      url: 'https://www.toutiao.com/trending/6917172096716099083/',
      media: [],
      stats: {},
      provenance: 'live',
    });
    expect(env.items.map((i) => i.title)).toEqual(['石家庄建设集中隔离点', '美国骚乱后施瓦辛格批特朗普', '春节回家要不要隔离？一键查询', '特朗普：一定不能出现任何形式暴力']);
    // The third cell is a webview activity, not a search topic: its link is the page it opens.
    expect(env.items[2].url).toBe('https://i.snssdk.com/feoffline/ugc_activities/html/epidemic-prevention-sftr/index.html?style_id=30014');
    // title_label_image is the "hot" badge, not a cover: no thumb is made of it.
    expect(env.items.every((i) => i.thumb === undefined)).toBe(true);
    expect(env.next_cursor).toBeUndefined();
  });

  it('trending board=app: the words ranked by log_pb.impr_rank, no heat value (the cells carry hot_value "")', async () => {
    const { result, requests } = await run('trending', { board: 'app' }, [APP_BOARD]);
    expect(requests).toEqual([`GET ${APP_BOARD_URL}`]);
    const trends = (result as TrendResult).data!.trends;
    expect(result).toMatchObject({ ok: true, source: 'live', items: [] });
    expect(trends).toEqual([
      { word: '石家庄建设集中隔离点', source: 'toutiao', rank: 1, url: 'https://www.toutiao.com/trending/6917172096716099083/' },
      { word: '美国骚乱后施瓦辛格批特朗普', source: 'toutiao', rank: 2, url: 'https://www.toutiao.com/trending/6917259794306911758/' },
      { word: '春节回家要不要隔离？一键查询', source: 'toutiao', rank: 3, url: 'https://i.snssdk.com/feoffline/ugc_activities/html/epidemic-prevention-sftr/index.html?style_id=30014' },
      { word: '特朗普：一定不能出现任何形式暴力', source: 'toutiao', rank: 4, url: 'https://www.toutiao.com/trending/6914905542192742915/' },
    ]);
  });

  it('board=web without a web recording fails loudly, naming the web board URL', async () => {
    await expect(run('hot', { board: 'web' }, [APP_BOARD])).rejects.toThrow(/hot-event\/hot-board/);
  });
});

describe('toutiao.hot and trending: the web board (sandbox) and the chain', () => {
  it('the web board answers first: topics with their cover, linked to the clean topic page', async () => {
    const file = sand('hot-web.har');
    const raw = JSON.parse(entries(file)[0].response.content.text).data;
    const { result, requests } = await run('hot', {}, [file, APP_BOARD]);
    expect(requests).toEqual([`GET ${WEB_BOARD}`]);
    const env = result as Envelope;
    expect(env).toMatchObject({ ok: true, source: 'live', count: raw.length });
    expect(env.items[0]).toEqual({
      id: `toutiao:trending-${raw[0].ClusterIdStr}`,
      type: 'text',
      provider: 'toutiao',
      title: raw[0].Title,
      url: `https://www.toutiao.com/trending/${raw[0].ClusterIdStr}/`,
      thumb: image(raw[0].Image.url),
      media: [],
      stats: {},
      provenance: 'live',
    });
    // The raw Url carries tracking params; the item's link does not.
    expect(raw[0].Url).toContain('log_pb=');
    expect(env.items.every((i) => !i.url!.includes('?'))).toBe(true);
  });

  it('trending from the web board carries HotValue as hot_value, ranked in board order', async () => {
    const raw = JSON.parse(entries(sand('hot-web.har'))[0].response.content.text).data;
    const { result } = await run('trending', {}, [sand('hot-web.har')]);
    const trends = (result as TrendResult).data!.trends;
    expect(trends.map((t) => [t.word, t.rank, t.hot_value])).toEqual(raw.map((r: any, i: number) => [r.Title, i + 1, Number(r.HotValue)]));
  });

  it('a refused web board (HTTP 403) falls back to the app board and says so', async () => {
    const web403 = tmpHar('hot-web-403.har', [{ url: WEB_BOARD, status: 403, body: '<html>forbidden</html>', mime: 'text/html' }]);
    const { result, warnings } = await run('trending', {}, [web403, APP_BOARD]);
    expect(result).toMatchObject({ ok: true, source: 'live' });
    expect((result as TrendResult).data!.trends).toHaveLength(4);
    expect(warnings.join()).toMatch(/app hot board.*web board failed \(blocked: .*HTTP 403/);
  });

  it('both boards honestly empty is an empty result, not a block', async () => {
    const empty = tmpHar('hot-empty.har', [
      { url: WEB_BOARD, body: '{"data":[]}' },
      { url: APP_BOARD_URL, body: '{"message":"success","data":[]}' },
    ]);
    expect((await run('hot', {}, [empty])).result).toMatchObject({ ok: true, source: 'empty', count: 0, items: [] });
    expect((await run('trending', {}, [empty])).result).toMatchObject({ ok: true, source: 'empty', data: { trends: [] } });
  });

  it('both boards refused is blocked, reporting the web failure first', async () => {
    const refused = tmpHar('hot-refused.har', [
      { url: WEB_BOARD, status: 200, body: '' },
      { url: APP_BOARD_URL, status: 403, body: '' },
    ]);
    const { result } = await run('hot', {}, [refused]);
    expect(result).toMatchObject({ ok: false, source: 'blocked', error: { code: 'blocked' } });
    expect((result as Envelope).error!.message).toMatch(/web hot board: toutiao answered an empty 200/);
  });
});

describe('toutiao.search', () => {
  it('reads the post cards of the result page (not the related-searches card), with the guest ttwid, and pages to the end', async () => {
    const first = sand('search-rengongzhineng.har');
    const { result, requests, warnings } = await run('search', { query: '人工智能' }, [first, sand('search-rengongzhineng-more.har'), TTWID]);
    expect(paths(requests)).toEqual([
      'POST https://ttwid.bytedance.com/ttwid/union/register/',
      'GET https://so.toutiao.com/search',
      'GET https://so.toutiao.com/search',
      'GET https://so.toutiao.com/search',
    ]);
    expect(requests[1]).toBe('GET https://so.toutiao.com/search?keyword=%E4%BA%BA%E5%B7%A5%E6%99%BA%E8%83%BD&pd=synthesis&dvpf=pc&source=input&page_num=0');
    expect(requests[2]).toContain('source=pagination&page_num=1&action_type=pagination');
    expect(warnings).toEqual([]);
    const env = result as Envelope;
    expect(env).toMatchObject({ ok: true, source: 'live', count: 4 });
    expect(env.next_cursor).toBeUndefined();
    expect(env.items.map((i) => i.id)).toEqual(['toutiao:7505129384756102183', 'toutiao:7504988312204321076', 'toutiao:7504870015532974658', 'toutiao:7503310248891130427']);
    expect(env.items[0]).toEqual({
      id: 'toutiao:7505129384756102183',
      type: 'text',
      provider: 'toutiao',
      title: '人工智能如何改变制造业：三家工厂的一年',
      text: '从质检到排产，三家工厂在一年里把人工智能用进了生产线，效果和代价都比预想的大。',
      author: '科技观察站',
      url: 'https://www.toutiao.com/article/7505129384756102183/',
      media: [],
      ts: 1747392000,
      stats: { likes: 2410, comments: 318 },
      provenance: 'live',
    });
    expect(env.items[1]).toMatchObject({ type: 'video', url: 'https://www.toutiao.com/video/7504988312204321076/', duration_s: 63 });
    expect(env.items[2]).toMatchObject({ text: '今天去听了一节用AI助教的公开课，学生的反应很有意思……', author: '教育一线', author_id: '3651978203441287', author_url: 'https://www.toutiao.com/c/user/3651978203441287/' });
  });

  it('a limit inside page 1 stops there with a cursor that asks page 2', async () => {
    const { result } = await run('search', { query: '人工智能', limit: 2 }, [sand('search-rengongzhineng.har'), TTWID]);
    const env = result as Envelope;
    expect(env.count).toBe(2);
    const next = await run('search', { query: '人工智能', cursor: env.next_cursor, limit: 2 }, [sand('search-rengongzhineng.har'), sand('search-rengongzhineng-more.har'), TTWID]);
    expect((next.result as Envelope).items.map((i) => i.id)).toEqual(['toutiao:7504870015532974658', 'toutiao:7503310248891130427']);
  });

  it('a page that repeats the previous one stops the paging with a warning', async () => {
    const html = readFileSync(sand('search-rengongzhineng.har'), 'utf8');
    const page1 = entries(sand('search-rengongzhineng.har'))[0];
    const repeat = tmpHar('search-repeat.har', [
      { url: page1.request.url, body: page1.response.content.text, mime: 'text/html' },
      {
        url: 'https://so.toutiao.com/search?keyword=%E4%BA%BA%E5%B7%A5%E6%99%BA%E8%83%BD&pd=synthesis&dvpf=pc&source=pagination&page_num=1&action_type=pagination',
        body: page1.response.content.text,
        mime: 'text/html',
      },
    ]);
    expect(html).toContain('data-druid-card-data-id');
    const { result, warnings } = await run('search', { query: '人工智能' }, [repeat, TTWID]);
    expect((result as Envelope).count).toBe(3);
    expect(warnings.join()).toMatch(/page 2 .* previous page again; paging stopped/);
  });

  it('the verify box is blocked; a page without cards is an upstream error to retry, never "no results"', async () => {
    expect((await run('search', { query: '验证测试' }, [sand('error-search-captcha.har'), TTWID])).result).toMatchObject({ ok: false, source: 'blocked', error: { code: 'blocked', retryable: true } });
    const none = (await run('search', { query: '空手测试' }, [sand('error-search-no-cards.har'), TTWID])).result as Envelope;
    expect(none).toMatchObject({ ok: false, error: { code: 'upstream_error', retryable: true } });
    expect(none.source).not.toBe('empty');
  });
});

describe('toutiao.posts', () => {
  it('walks the creator feed (uid link resolved to its token by the redirect), unsigned first, newest first', async () => {
    const file = sand('posts-chengshizaobao.har');
    const { result, requests, warnings } = await run('posts', { query: 'https://www.toutiao.com/c/user/58391760233/' }, [file, sand('user-chengshizaobao.har'), TTWID]);
    expect(requests).toEqual([
      'POST https://ttwid.bytedance.com/ttwid/union/register/',
      'GET https://www.toutiao.com/c/user/58391760233/',
      `GET https://www.toutiao.com/api/pc/list/user/feed?category=profile_all&token=${TOKEN_NEWS}&max_behot_time=0&entrance_gid=&aid=24&app_name=toutiao_web`,
      `GET https://www.toutiao.com/api/pc/list/user/feed?category=profile_all&token=${TOKEN_NEWS}&max_behot_time=1747390000&entrance_gid=&aid=24&app_name=toutiao_web`,
    ]);
    expect(warnings).toEqual([]);
    const env = result as Envelope;
    expect(env).toMatchObject({ ok: true, source: 'live', count: 4 });
    expect(env.next_cursor).toBeUndefined();
    expect(env.items.map((i) => [i.id, i.type, i.url])).toEqual([
      ['toutiao:7506218830561436223', 'text', 'https://www.toutiao.com/article/7506218830561436223/'],
      ['toutiao:7505382061495176511', 'video', 'https://www.toutiao.com/video/7505382061495176511/'],
      ['toutiao:1832590417768457', 'text', 'https://www.toutiao.com/w/1832590417768457/'],
      ['toutiao:7504411208836514345', 'text', 'https://www.toutiao.com/article/7504411208836514345/'],
    ]);
    expect(env.items[0]).toEqual({
      id: 'toutiao:7506218830561436223',
      type: 'text',
      provider: 'toutiao',
      title: '地铁三号线南延段今日开通，沿途设站八座',
      text: '南延段全长十二公里，早高峰发车间隔四分钟。',
      author: '城市早报',
      author_id: TOKEN_NEWS,
      author_url: `https://www.toutiao.com/c/user/token/${TOKEN_NEWS}/`,
      url: 'https://www.toutiao.com/article/7506218830561436223/',
      thumb: image('https://p3-sign.toutiaoimg.com/tos-cn-i-6w9my0ksvp/sandbox-metro~tplv-tt-cs0:640:360.jpg'),
      media: [],
      ts: 1747483344,
      stats: { likes: 1830, comments: 264, views: 158302 },
      provenance: 'live',
    });
    expect(env.items[1]).toMatchObject({ duration_s: 242, stats: { likes: 9120, comments: 411, views: 803216 } });
    // A micro-post: its body is the text; no title that only repeats it.
    expect(env.items[2]).toMatchObject({ text: '今天早上的江边，雾还没散，渡船已经出发了。', ts: 1747390000, stats: { likes: 77, comments: 12 } });
    expect(env.items[2].title).toBeUndefined();
  });

  it('manual paging: limit 2 gives a cursor; max_items walks the whole account', async () => {
    const replay = [sand('posts-chengshizaobao.har'), TTWID];
    const first = (await run('posts', { query: TOKEN_NEWS, limit: 3 }, replay)).result as Envelope;
    expect(first.count).toBe(3);
    const second = (await run('posts', { query: TOKEN_NEWS, cursor: first.next_cursor }, replay)).result as Envelope;
    expect(second.items.map((i) => i.id)).toEqual(['toutiao:7504411208836514345']);
    expect(second.next_cursor).toBeUndefined();
    const all = (await run('posts', { query: TOKEN_NEWS, max_items: -1 }, replay)).result as Envelope;
    expect(all.count).toBe(4);
  });

  it('a creator without posts is an honest empty', async () => {
    const { result } = await run('posts', { query: 'MS4wLjABAAAAsandboxQuietCreator000000000000000000000' }, [sand('posts-quiet-creator.har'), TTWID]);
    expect(result).toMatchObject({ ok: true, source: 'empty', count: 0 });
  });

  it('auto: an empty 200 to the unsigned request is signed by the page\'s byted_acrawler.sign and sent again', async () => {
    const page = fakePage();
    const { result, requests, warnings } = await run('posts', { query: TOKEN_REFUSED }, [sand('error-posts-refused.har'), TTWID], { signer: page });
    const unsigned = `https://www.toutiao.com/api/pc/list/user/feed?category=profile_all&token=${TOKEN_REFUSED}&max_behot_time=0&entrance_gid=&aid=24&app_name=toutiao_web`;
    expect(page.calls).toEqual([{ pageUrl: 'https://www.toutiao.com/', fn: 'byted_acrawler.sign', args: [{ url: unsigned }] }]);
    expect(requests.slice(1)).toEqual([`GET ${unsigned}`, `GET ${unsigned}&_signature=${SIGNATURE}`]);
    expect(result).toMatchObject({ ok: true, source: 'live', count: 1, items: [{ id: 'toutiao:7506112093345608227', title: '签名后才给的文章' }] });
    expect(warnings.join()).toMatch(/toutiao posts: the platform refused our native signature .*empty 200.*signed in the page/);
  });

  it('without a page the refusal is blocked (never empty); toutiao=native never asks the page', async () => {
    const replay = [sand('error-posts-refused.har'), TTWID];
    const alone = (await run('posts', { query: TOKEN_REFUSED }, replay)).result;
    expect(alone).toMatchObject({ ok: false, source: 'blocked', count: 0, error: { code: 'blocked', retryable: true } });
    for (const key of ['toutiao', 'toutiao.posts']) {
      const page = fakePage();
      const { result, requests } = await run('posts', { query: TOKEN_REFUSED }, replay, { signer: page, signModes: new Map([[key, 'native' as const]]) });
      expect(page.calls).toEqual([]);
      expect(requests.filter((r) => r.includes('_signature'))).toEqual([]);
      expect(result).toMatchObject({ source: 'blocked', error: { code: 'blocked' } });
    }
  });

  it('toutiao=browser signs in the page first and never sends the unsigned request', async () => {
    const page = fakePage();
    const { result, requests } = await run('posts', { query: TOKEN_REFUSED }, [sand('error-posts-refused.har'), TTWID], { signer: page, signModes: new Map([['toutiao', 'browser' as const]]) });
    expect(page.calls).toHaveLength(1);
    expect(requests.filter((r) => r.includes('/api/pc/list/user/feed'))).toEqual([
      `GET https://www.toutiao.com/api/pc/list/user/feed?category=profile_all&token=${TOKEN_REFUSED}&max_behot_time=0&entrance_gid=&aid=24&app_name=toutiao_web&_signature=${SIGNATURE}`,
    ]);
    expect(result).toMatchObject({ ok: true, count: 1 });
  });

  it('replay mode never opens a page, even when asked to sign in the browser', async () => {
    const page = fakePage();
    const { result } = await run('posts', { query: TOKEN_REFUSED }, [sand('error-posts-refused.har'), TTWID], { signer: page, replayMode: true, signModes: new Map([['toutiao', 'browser' as const]]) });
    expect(page.calls).toEqual([]);
    expect(result).toMatchObject({ ok: false, error: { code: 'upstream_error' } });
    expect((result as Envelope).error!.message).toMatch(/replay mode opens no page/);
  });
});

describe('toutiao.user', () => {
  it('reads the profile page and the follower counts ("12.8万" → 128000)', async () => {
    const { result, requests, warnings } = await run('user', { query: `https://www.toutiao.com/c/user/token/${TOKEN_NEWS}/?source=profile` }, [sand('user-chengshizaobao.har'), TTWID]);
    expect(requests).toEqual([
      'POST https://ttwid.bytedance.com/ttwid/union/register/',
      `GET https://www.toutiao.com/c/user/token/${TOKEN_NEWS}/`,
      'POST https://www.toutiao.com/api/pc/user/fans_stat',
    ]);
    expect(warnings).toEqual([]);
    expect(result).toEqual({
      ok: true,
      source: 'live',
      items: [],
      ms: (result as CreatorResult).ms,
      data: {
        platform: 'toutiao',
        author: {
          id: TOKEN_NEWS,
          source: 'toutiao',
          url: `https://www.toutiao.com/c/user/token/${TOKEN_NEWS}/`,
          name: '城市早报',
          bio: '本地新闻、交通与天气，每天早上七点更新。',
          avatar: image('https://p3-sign.toutiaoimg.com/tos-cn-i-0022/sandbox-avatar-news~tplv-tt-shrink:120:120.jpeg'),
          verified: true,
          followers: 128000,
          following: 156,
          likes: 2043311,
        },
      },
    });
  });

  it('refused counts leave the profile without them and say why; the page\'s signer gets them', async () => {
    const replay = [sand('user-xiaolichuangyi.har'), TTWID];
    const alone = await run('user', { query: TOKEN_MAKER }, replay);
    expect(alone.result).toMatchObject({ ok: true, source: 'live', data: { author: { id: TOKEN_MAKER, name: '小莉创意发明', verified: false } } });
    expect((alone.result as CreatorResult).data!.author.followers).toBeUndefined();
    expect(alone.warnings.join()).toMatch(/followers, following and likes .* not reported \(blocked: .*empty 200/);
    const page = fakePage();
    const signed = await run('user', { query: TOKEN_MAKER }, replay, { signer: page });
    expect(page.calls).toEqual([{ pageUrl: 'https://www.toutiao.com/', fn: 'byted_acrawler.sign', args: [{ url: 'https://www.toutiao.com/api/pc/user/fans_stat' }] }]);
    expect(signed.requests.at(-1)).toBe(`POST https://www.toutiao.com/api/pc/user/fans_stat?_signature=${SIGNATURE}`);
    expect(signed.result).toMatchObject({ data: { author: { followers: 3561, following: 12, likes: 40217 } } });
  });
});

describe('toutiao.detail', () => {
  it('an article from its share link: text with paragraph breaks, the body\'s images as media', async () => {
    const { result, requests } = await run('detail', { query: 'https://m.toutiao.com/is/iSbxK9mR/' }, [sand('resolve-share-link.har'), sand('detail-article.har'), TTWID]);
    expect(requests).toEqual([
      'POST https://ttwid.bytedance.com/ttwid/union/register/',
      'GET https://m.toutiao.com/is/iSbxK9mR/',
      'GET https://www.toutiao.com/article/7506218830561436223/',
    ]);
    const env = result as Envelope;
    const img = (n: number) =>
      `https://p3-sign.toutiaoimg.com/tos-cn-i-6w9my0ksvp/sandbox-metro-${n}~tplv-tt-origin-web:gif.jpeg?_iz=58558&from=article.pc_detail&x-expires=1779264000&x-signature=sandbox`;
    expect(env.items).toEqual([
      {
        id: 'toutiao:7506218830561436223',
        type: 'text',
        provider: 'toutiao',
        title: '地铁三号线南延段今日开通，沿途设站八座',
        text: '记者从市轨道交通集团获悉，地铁三号线南延段今天上午正式开通运营。\n\n南延段全长十二公里，共设车站八座，其中换乘站两座。\n工作日早高峰最小发车间隔四分钟，首班车六点发出。',
        url: 'https://www.toutiao.com/article/7506218830561436223/',
        thumb: image(img(1)),
        media: [
          { kind: 'image', url: image(img(1)) },
          { kind: 'image', url: image(img(2)) },
        ],
        ts: 1747483344,
        stats: {},
        provenance: 'live',
      },
    ]);
  });

  it('a video: the largest progressive stream, cover, duration, author and counts', async () => {
    const { result, requests, warnings } = await run('detail', { query: 'https://www.toutiao.com/video/7505382061495176511/' }, [sand('detail-video.har'), TTWID]);
    expect(requests[1]).toBe('GET https://www.toutiao.com/video/7505382061495176511/');
    expect(warnings).toEqual([]);
    expect((result as Envelope).items[0]).toEqual({
      id: 'toutiao:7505382061495176511',
      type: 'video',
      provider: 'toutiao',
      title: '航拍：雨后的老城区',
      text: '四分钟航拍，记录雨后老城。',
      author: '城市早报',
      author_id: TOKEN_NEWS,
      author_url: `https://www.toutiao.com/c/user/token/${TOKEN_NEWS}/`,
      url: 'https://www.toutiao.com/video/7505382061495176511/',
      thumb: image('https://p9-sign.toutiaoimg.com/tos-cn-i-0004/sandbox-aerial~tplv-tt-large.image'),
      media: [
        {
          kind: 'video',
          url: video('https://v3-default.toutiaovod.com/sandbox/aerial-720p.mp4?a=24&ch=0&dr=0&er=0&cd=0%7C0%7C0%7C0&br=1190&bt=1190'),
          w: 1280,
          h: 720,
          duration_s: 242.35,
        },
      ],
      ts: 1747440000,
      duration_s: 242.35,
      aspect: { width: 1280, height: 720 },
      stats: { comments: 411, likes: 9120, views: 803216 },
      provenance: 'live',
    });
  });

  it('a micro-post from the phone site, asked with a phone User-Agent and without the guest cookie', async () => {
    const { result, requests } = await run('detail', { query: 'https://www.toutiao.com/w/1832590417768457/' }, [sand('detail-micro.har')]);
    expect(requests).toEqual(['GET https://m.toutiao.com/w/1832590417768457/']);
    expect((result as Envelope).items).toEqual([
      {
        id: 'toutiao:1832590417768457',
        type: 'text',
        provider: 'toutiao',
        text: '今天早上的江边，雾还没散，渡船已经出发了。',
        author: '城市早报',
        url: 'https://www.toutiao.com/w/1832590417768457/',
        media: [],
        ts: 1747390000,
        stats: { likes: 77 },
        provenance: 'live',
      },
    ]);
  });

  it('the challenge page: a fresh ttwid is minted once, then it is blocked', async () => {
    const { result, requests } = await run('detail', { query: '7506300000000000001' }, [sand('error-detail-challenge.har'), TTWID]);
    expect(paths(requests).slice(0, 4)).toEqual([
      'POST https://ttwid.bytedance.com/ttwid/union/register/',
      'GET https://www.toutiao.com/article/7506300000000000001/',
      'POST https://ttwid.bytedance.com/ttwid/union/register/',
      'GET https://www.toutiao.com/article/7506300000000000001/',
    ]);
    expect(result).toMatchObject({ ok: false, source: 'blocked', error: { code: 'blocked', retryable: true } });
    expect((result as Envelope).error!.message).toMatch(/JSVMP challenge page/);
  });

  it('a login wall is blocked for an anonymous client and session_expired for a stored login', async () => {
    const replay = [sand('error-detail-login-wall.har'), TTWID];
    expect((await run('detail', { query: '7506300000000000002' }, replay)).result).toMatchObject({ ok: false, source: 'blocked', error: { code: 'blocked' } });
    const loggedIn = await run('detail', { query: '7506300000000000002' }, replay, { session: { cookies: 'sessionid=abc123; sid_tt=abc123' } });
    expect(loggedIn.result).toMatchObject({ ok: false, error: { code: 'session_expired' } });
    // A stored login is not asked to repeat itself on the phone page: the wall is the answer.
    expect(loggedIn.requests.some((r) => r.includes('m.toutiao.com'))).toBe(false);
  });

  it('HTTP 404 is not_found; a hot-board topic is refused as input', async () => {
    expect((await run('detail', { query: '7506300000000000003' }, [sand('error-detail-404.har'), TTWID])).result).toMatchObject({ ok: false, error: { code: 'not_found', retryable: false } });
    const topic = await run('detail', { query: 'trending-7506290511447588874' }, [TTWID]);
    expect(topic.requests).toEqual([]);
    expect(topic.result).toMatchObject({ ok: false, error: { code: 'invalid_request', message: expect.stringMatching(/hot-board topic/) } });
  });
});

describe('toutiao.comments', () => {
  it('pages the top-level comments by offset, ids kept exact, total from the first page', async () => {
    const file = sand('comments-article.har');
    const { result, requests } = await run('comments', { query: 'https://www.toutiao.com/article/7506218830561436223/' }, [file]);
    expect(requests).toEqual([
      'GET https://www.toutiao.com/article/v4/tab_comments/?aid=24&app_name=toutiao_web&offset=0&count=20&group_id=7506218830561436223&item_id=7506218830561436223',
      'GET https://www.toutiao.com/article/v4/tab_comments/?aid=24&app_name=toutiao_web&offset=20&count=20&group_id=7506218830561436223&item_id=7506218830561436223',
    ]);
    // The ids are bare 19-digit numbers in the answer text.
    expect(entries(file)[0].response.content.text).toContain('"id":7506231029384756481');
    const res = result as CommentsResult;
    expect(res).toMatchObject({ source: 'live', total: 264, has_more: false });
    expect(res.items).toHaveLength(3);
    expect(res.items[0]).toEqual({
      cid: '7506231029384756481',
      text: '终于通了，以后上班能省二十分钟',
      likes: 512,
      reply_total: 23,
      user_id: '3651978203441287',
      handle: '早起的鸟',
      user_name: '早起的鸟',
      created_at: 1747484100,
      source: 'toutiao',
    });
  });

  it('limit 2 stops on page 1 with a cursor; the cursor resumes at offset 20', async () => {
    const file = sand('comments-article.har');
    const first = (await run('comments', { query: '7506218830561436223', limit: 2 }, [file])).result as CommentsResult;
    expect(first).toMatchObject({ has_more: true });
    const second = await run('comments', { query: '7506218830561436223', cursor: first.cursor }, [file]);
    expect(second.requests).toEqual([expect.stringContaining('offset=20&')]);
    expect((second.result as CommentsResult).items.map((c) => c.cid)).toEqual(['7506240057712345094']);
  });

  it('no comments is empty; err_no ≠ 0 is an upstream error, not empty', async () => {
    expect((await run('comments', { query: '7506300000000000004' }, [sand('comments-empty.har')])).result).toMatchObject({ source: 'empty', total: 0, items: [] });
    const refused = (await run('comments', { query: '7506300000000000005' }, [sand('error-comments-params-illegal.har')])).result as CommentsResult;
    expect(refused).toMatchObject({ error: { code: 'upstream_error' } });
    expect(refused.error!.message).toMatch(/err_no 2 \(params illegal\)/);
  });
});

describe('the sandbox answers every demo-worthy example alone (replay mode), complete', () => {
  const EXAMPLES: Array<[string, Record<string, unknown>]> = [
    ['hot', {}],
    ['trending', {}],
    ['search', { query: '人工智能' }],
    ['posts', { query: TOKEN_NEWS }],
    ['user', { query: TOKEN_NEWS }],
    ['detail', { query: '7506218830561436223' }],
    ['detail', { query: 'https://www.toutiao.com/video/7505382061495176511/' }],
    ['detail', { query: 'https://www.toutiao.com/w/1832590417768457/' }],
    ['comments', { query: '7506218830561436223' }],
  ];
  it.each(EXAMPLES.map(([a, p]) => [a, JSON.stringify(p), p] as const))('%s %s', async (action, _p, params) => {
    const { result, warnings } = await run(action, params, [SANDBOX], { replayMode: true });
    expect(warnings).toEqual([]);
    expect(result).toMatchObject({ source: 'live' });
    expect((result as { ok?: boolean }).ok ?? true).toBe(true);
  });

  it('every sandbox entry is marked hand-made and names a source', () => {
    for (const name of readdirSync(SANDBOX).filter((n) => n.endsWith('.har'))) {
      for (const e of entries(sand(name))) expect(e.comment, name).toMatch(/^hand-made: /);
    }
  });
});
