import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import pino from 'pino';
import { describe, expect, it } from 'vitest';
import { CrawlError, InvalidInput, NotFound, ReplayMiss, SessionExpired } from '../../src/crawl/errors.js';
import type { HttpRequest, HttpResponse } from '../../src/crawl/http.js';
import { buildUrl } from '../../src/crawl/http.js';
import { MemoryMemo } from '../../src/tasks/context.js';
import { weibo } from '../../src/platforms/weibo/index.js';
import type { CommentsAction, CrawlContext, CreatorAction, ItemsAction, TrendsAction } from '../../src/platforms/types.js';

/*
 * Actions driven directly with a scripted http, for outcomes no recording shows: partial failures,
 * fallbacks and refusals.
 */

const FIXTURES = resolve(process.cwd(), '../shared/fixtures/weibo');
const SANDBOX = resolve(process.cwd(), 'sandbox/weibo');
const recorded = (file: string, i = 0): string => JSON.parse(readFileSync(file, 'utf8')).log.entries[i].response.content.text;

type Route = [RegExp, (url: URL) => { status?: number; body: string; headers?: Record<string, string> } | Error];

function ctxWith(routes: Route[]): { ctx: CrawlContext; asked: string[]; warnings: string[] } {
  const asked: string[] = [];
  const warnings: string[] = [];
  const http = {
    request: async (req: HttpRequest): Promise<HttpResponse> => {
      const url = buildUrl(req.url, req.query);
      asked.push(url.toString());
      const route = routes.find(([re]) => re.test(url.toString()));
      if (!route) throw new ReplayMiss('GET', url.toString());
      const answer = route[1](url);
      if (answer instanceof Error) throw answer;
      const body = Buffer.from(answer.body, 'utf8');
      return { status: answer.status ?? 200, url: url.toString(), redirects: [], headers: answer.headers ?? {}, body, text: () => answer.body, json: () => JSON.parse(answer.body) };
    },
  };
  const ctx = { platform: 'weibo', profile: 'default', http, session: {}, memo: new MemoryMemo(), signal: new AbortController().signal, log: pino({ level: 'silent' }), warn: (m: string) => warnings.push(m) } as unknown as CrawlContext;
  return { ctx, asked, warnings };
}

const items = weibo.actions as { search: ItemsAction; posts: ItemsAction; detail: ItemsAction; hot: ItemsAction };
const user = weibo.actions.user as CreatorAction;
const comments = weibo.actions.comments as CommentsAction;
const trending = weibo.actions.trending as TrendsAction;
const EMPTY = '{"ok":0,"msg":"这里还没有内容","data":{"cards":[]}}';

describe('screen-name resolution', () => {
  const search = recorded(resolve(SANDBOX, 'resolve-user-search-arknights.har'));

  it('takes the exact screen name, not the first similar one', async () => {
    const { ctx, asked } = ctxWith([
      [/100103type%3D3/, () => ({ body: search })],
      [/containerid=1005056279793937/, () => ({ body: recorded(resolve(FIXTURES, 'user-arknights-profile.har')) })],
    ]);
    const author = await user.run(ctx, { query: '@明日方舟arknights' });
    expect(author?.id).toBe('6279793937');
    expect(asked).toHaveLength(2);
  });

  it('refuses a name weibo has no exact match for, saying what to pass instead', async () => {
    const { ctx } = ctxWith([[/100103type%3D3/, () => ({ body: search })]]);
    const err = await user.run(ctx, { query: '@明日方舟' }).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(InvalidInput);
    expect((err as Error).message).toMatch(/明日方舟.*uid/);
  });

  it('looks a name up once, not once per page', async () => {
    const timeline = recorded(resolve(FIXTURES, 'posts-arknights-timeline.har'));
    const { ctx, asked } = ctxWith([
      [/100103type%3D3/, () => ({ body: search })],
      [/containerid=1076036279793937/, () => ({ body: timeline })],
    ]);
    const first = await items.posts.page(ctx, { query: '明日方舟Arknights' });
    await items.posts.page(ctx, { query: '明日方舟Arknights' }, first.next_cursor);
    expect(asked.filter((u) => u.includes('100103type%3D3'))).toHaveLength(1);
    expect(asked[2]).toContain(`since_id=${first.next_cursor}`);
  });
});

describe('honest empties', () => {
  it('search, posts, comments and hot answer an empty page for ok:0 "这里还没有内容"', async () => {
    const { ctx } = ctxWith([[/./, () => ({ body: EMPTY })]]);
    expect(await items.search.page(ctx, { query: 'nothing-here' })).toEqual({ items: [] });
    expect(await items.posts.page(ctx, { query: '123' })).toEqual({ items: [] });
    expect(await items.hot.page(ctx, { category: 'hotposts' })).toEqual({ items: [] });
    expect(await comments.page(ctx, { query: '4645748019299849' })).toEqual({ items: [] });
  });

  it('detail treats "nothing here" as not_found, not as an empty result', async () => {
    const { ctx } = ctxWith([[/statuses\/show/, () => ({ body: EMPTY })]]);
    await expect(items.detail.page(ctx, { query: '4645748019299849' })).rejects.toThrow(NotFound);
  });
});

describe('detail fallbacks', () => {
  it('does not try the page when the API says the status is gone', async () => {
    const { ctx, asked } = ctxWith([[/statuses\/show/, () => ({ body: '{"ok":0,"errno":"20101","msg":"target weibo does not exist!"}' })]]);
    await expect(items.detail.page(ctx, { query: '4645748019299849' })).rejects.toThrow(NotFound);
    expect(asked).toHaveLength(1);
  });

  it('falls back to the page on a non-JSON answer, and reads weibo error page as not_found', async () => {
    const { ctx, asked } = ctxWith([
      [/statuses\/show/, () => ({ body: '<html>oops</html>', headers: { 'content-type': 'text/html' } })],
      [/\/detail\//, () => ({ body: '<html><body><img src="//h5.sinaimg.cn/upload/2016/04/11/319/h5-404.png"><p class="h5-4con">微博不存在或暂无查看权限!</p></body></html>' })],
    ]);
    const err = await items.detail.page(ctx, { query: 'Kjc77D1jz' }).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(NotFound);
    expect((err as Error).message).toContain('微博不存在');
    expect(asked).toEqual(['https://m.weibo.cn/statuses/show?id=Kjc77D1jz', 'https://m.weibo.cn/detail/Kjc77D1jz']);
  });

  it('keeps the short text with a warning when statuses/extend fails', async () => {
    const { ctx, warnings } = ctxWith([
      [/statuses\/show/, () => ({ body: recorded(resolve(SANDBOX, 'detail-statuses-show-Kkzwhj69V.har')) })],
      [/statuses\/extend/, () => ({ status: 502, body: '' })],
    ]);
    const page = await items.detail.page(ctx, { query: 'Kkzwhj69V' });
    expect(page.items[0].text).toMatch(/敬 \.\.\.$/);
    expect(warnings).toHaveLength(1);
    expect(warnings[0]).toMatch(/full text of 4649031014551911.*upstream_error/);
  });

  it('a replay miss on statuses/extend still fails loudly', async () => {
    const { ctx } = ctxWith([[/statuses\/show/, () => ({ body: recorded(resolve(SANDBOX, 'detail-statuses-show-Kkzwhj69V.har')) })]]);
    await expect(items.detail.page(ctx, { query: 'Kkzwhj69V' })).rejects.toThrow(/statuses\/extend\?id=4649031014551911/);
  });
});

describe('trending boards', () => {
  it('refuses an unknown board', async () => {
    const { ctx } = ctxWith([]);
    await expect(trending.run(ctx, { board: 'localband' })).rejects.toThrow(InvalidInput);
  });

  it('reads a live hot-topic container without touching s.weibo.com', async () => {
    const container = JSON.stringify({
      ok: 1,
      data: { cards: [{ card_type: 11, card_group: [{ card_type: 25, title_sub: '#话题一#', desc: '1万讨论 2.5亿阅读' }, { card_type: 25, title_sub: '#话题二#', desc: '10讨论 900阅读' }] }] },
    });
    const { ctx, asked } = ctxWith([[/231648_-_4/, () => ({ body: container })]]);
    expect(await trending.run(ctx, { board: 'topicband' })).toEqual([
      { word: '话题一', source: 'weibo', rank: 1, hot_value: 250_000_000 },
      { word: '话题二', source: 'weibo', rank: 2, hot_value: 900 },
    ]);
    expect(asked).toHaveLength(1);
  });

  it('an ok:-100 login demand on the board is session_expired and is not papered over by the fallback', async () => {
    const { ctx, asked } = ctxWith([[/getIndex/, () => ({ body: '{"ok":-100,"url":"https://passport.weibo.cn/signin/welcome"}' })]]);
    const err = await trending.run(ctx, {}).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(SessionExpired);
    expect(asked).toHaveLength(1);
  });
});

describe('hot categories', () => {
  it('refuses a category weibo does not have', async () => {
    const { ctx } = ctxWith([]);
    const err = await items.hot.page(ctx, { category: 'recommended' }).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(CrawlError);
    expect((err as CrawlError).code).toBe('invalid_request');
  });
});

describe('cursors', () => {
  it('rejects a foreign cursor instead of sending it to weibo', async () => {
    const { ctx, asked } = ctxWith([]);
    await expect(items.search.page(ctx, { query: 'x' }, 'abc')).rejects.toThrow(InvalidInput);
    await expect(comments.page(ctx, { query: '4645748019299849' }, 'abc')).rejects.toThrow(InvalidInput);
    expect(asked).toEqual([]);
  });
});

describe('timeline paging by page number', () => {
  // Older timeline containers name the next page in cardlistInfo.page and carry no since_id.
  const card = (id: string) => ({ card_type: 9, mblog: { id, mid: id, created_at: 'Tue Jun 08 09:35:04 +0800 2021', text: 't', user: { id: 42, screen_name: 'n' } } });
  const page = (n: number, ids: string[]) => JSON.stringify({ ok: 1, data: { cardlistInfo: { containerid: '10760342', page: n }, cards: ids.map(card) } });

  it('hands out page:<n> and sends page=<n> for it', async () => {
    const { ctx, asked } = ctxWith([
      [/containerid=10760342&page=2$/, () => ({ body: page(3, ['4645748019299850']) })],
      [/containerid=10760342$/, () => ({ body: page(2, ['4645748019299849']) })],
    ]);
    const first = await items.posts.page(ctx, { query: '42' });
    expect(first.items.map((i) => i.native_id)).toEqual(['4645748019299849']);
    expect(first.next_cursor).toBe('page:2');
    const second = await items.posts.page(ctx, { query: '42' }, 'page:2');
    expect(second.items.map((i) => i.native_id)).toEqual(['4645748019299850']);
    expect(second.next_cursor).toBe('page:3');
    expect(asked[1]).toBe('https://m.weibo.cn/api/container/getIndex?containerid=10760342&page=2');
  });

  it('a since_id wins over a page number, and a page number not past the current page ends the walk', async () => {
    const withBoth = JSON.stringify({ ok: 1, data: { cardlistInfo: { since_id: 4645748019299800, page: 2 }, cards: [card('4645748019299849')] } });
    const { ctx } = ctxWith([
      [/page=2$/, () => ({ body: page(2, ['4645748019299850']) })],
      [/containerid=10760342$/, () => ({ body: withBoth })],
    ]);
    expect((await items.posts.page(ctx, { query: '42' })).next_cursor).toBe('4645748019299800');
    expect((await items.posts.page(ctx, { query: '42' }, 'page:2')).next_cursor).toBeUndefined();
  });
});

describe('the weibo.com route (desktop ajax API) after m.weibo.cn', () => {
  const pcTimeline = recorded(resolve(SANDBOX, 'pc-posts-mymblog-6279793937.har'));
  const pcProfile = recorded(resolve(SANDBOX, 'pc-user-profile-info-6279793937.har'));
  const pcComments = recorded(resolve(SANDBOX, 'pc-comments-buildcomments-4651022958219023.har'));
  const pcShow = recorded(resolve(SANDBOX, 'pc-detail-statuses-show-Kjc77D1jz.har'));
  const pcHot = recorded(resolve(SANDBOX, 'pc-hotsearch.har'));
  const mTimeline = recorded(resolve(FIXTURES, 'posts-arknights-timeline.har'));
  const PC = /^https:\/\/weibo\.com\//;
  const M = /^https:\/\/m\.weibo\.cn\//;
  const html = { body: '<html><body>出错了</body></html>', headers: { 'content-type': 'text/html' } };
  const onWeibo = (asked: string[]) => asked.filter((u) => PC.test(u));

  // Non-terminal failures of m.weibo.cn: each sends the action on to weibo.com.
  const nonTerminal: Array<[string, Route[1]]> = [
    ['HTTP 502 (upstream_error)', () => ({ status: 502, body: '' })],
    ['an HTML page where JSON belongs (parse error)', () => html],
    ['ok:0 with an unknown message (upstream_error)', () => ({ body: '{"ok":0,"msg":"系统繁忙"}' })],
  ];
  // Terminal outcomes: weibo.com is never asked after them.
  const terminal: Array<[string, Route[1], string]> = [
    ['HTTP 432 (blocked)', () => ({ status: 432, body: '' }), 'blocked'],
    ['ok:-100 (session_expired)', () => ({ body: '{"ok":-100,"url":"https://passport.weibo.cn/signin/welcome"}' }), 'session_expired'],
    ['HTTP 429 (rate_limited)', () => ({ status: 429, body: '' }), 'rate_limited'],
    ['a passport redirect (session_expired)', (u) => ({ status: 302, body: '', headers: { location: `https://passport.weibo.cn/signin/login?r=${encodeURIComponent(u.toString())}` } }), 'session_expired'],
  ];

  it.each(nonTerminal)('posts: m.weibo.cn first, weibo.com after %s', async (_why, answer) => {
    const { ctx, asked } = ctxWith([[M, answer], [/statuses\/mymblog/, () => ({ body: pcTimeline })]]);
    const page = await items.posts.page(ctx, { query: '6279793937' });
    expect(asked).toEqual(['https://m.weibo.cn/api/container/getIndex?containerid=1076036279793937', 'https://weibo.com/ajax/statuses/mymblog?uid=6279793937&page=1&feature=0']);
    expect(page.items).toHaveLength(5);
    expect(page.next_cursor).toBe('pc:2');
  });

  it.each(terminal)('posts: %s on m.weibo.cn is the answer; weibo.com is not asked', async (_why, answer, code) => {
    const { ctx, asked } = ctxWith([[M, answer], [PC, () => ({ body: pcTimeline })]]);
    const err = await items.posts.page(ctx, { query: '6279793937' }).catch((e: unknown) => e);
    expect((err as CrawlError).code).toBe(code);
    expect(onWeibo(asked)).toEqual([]);
  });

  it('posts: an honest empty timeline stays empty; weibo.com is not asked', async () => {
    const { ctx, asked } = ctxWith([[M, () => ({ body: EMPTY })], [PC, () => ({ body: pcTimeline })]]);
    expect(await items.posts.page(ctx, { query: '6279793937' })).toEqual({ items: [] });
    expect(onWeibo(asked)).toEqual([]);
  });

  it('posts: m.weibo.cn answering means weibo.com is never asked', async () => {
    const { ctx, asked } = ctxWith([[M, () => ({ body: mTimeline })], [PC, () => ({ body: pcTimeline })]]);
    expect((await items.posts.page(ctx, { query: '6279793937' })).items.length).toBeGreaterThan(0);
    expect(asked).toHaveLength(1);
  });

  it('posts: a since_id cursor stays on m.weibo.cn, a pc: cursor goes straight to weibo.com', async () => {
    const down = ctxWith([[M, () => ({ status: 502, body: '' })], [PC, () => ({ body: pcTimeline })]]);
    await expect(items.posts.page(down.ctx, { query: '6279793937' }, '4646131823281332')).rejects.toThrow(/502/);
    expect(onWeibo(down.asked)).toEqual([]);
    const pc = ctxWith([[PC, () => ({ body: pcTimeline })]]);
    await items.posts.page(pc.ctx, { query: '6279793937' }, 'pc:3');
    expect(pc.asked).toEqual(['https://weibo.com/ajax/statuses/mymblog?uid=6279793937&page=3&feature=0']);
    await expect(items.posts.page(pc.ctx, { query: '6279793937' }, 'pc:x')).rejects.toThrow(InvalidInput);
  });

  it('posts: when neither site can be replayed, the first miss (m.weibo.cn) is reported', async () => {
    const { ctx, asked } = ctxWith([]);
    const err = await items.posts.page(ctx, { query: '6279793937' }).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(ReplayMiss);
    expect((err as ReplayMiss).url).toMatch(/^https:\/\/m\.weibo\.cn\//);
    expect(asked).toHaveLength(2);
  });

  it("posts: weibo.com's visitor wall after an m.weibo.cn failure is session_expired", async () => {
    const { ctx } = ctxWith([
      [M, () => ({ status: 502, body: '' })],
      [PC, (u) => ({ status: 302, body: '', headers: { location: `https://passport.weibo.com/visitor/visitor?entry=miniblog&a=enter&url=${encodeURIComponent(u.toString())}` } })],
    ]);
    await expect(items.posts.page(ctx, { query: '6279793937' })).rejects.toThrow(SessionExpired);
  });

  it.each(nonTerminal)('user: weibo.com profile/info after %s', async (_why, answer) => {
    const { ctx, asked } = ctxWith([[M, answer], [/profile\/info/, () => ({ body: pcProfile })]]);
    expect((await user.run(ctx, { query: '6279793937' }))?.followers).toBe(1_455_000);
    expect(onWeibo(asked)).toEqual(['https://weibo.com/ajax/profile/info?uid=6279793937']);
  });

  it.each(terminal)('user: %s on m.weibo.cn is the answer', async (_why, answer, code) => {
    const { ctx, asked } = ctxWith([[M, answer], [PC, () => ({ body: pcProfile })]]);
    expect(((await user.run(ctx, { query: '6279793937' }).catch((e: unknown) => e)) as CrawlError).code).toBe(code);
    expect(onWeibo(asked)).toEqual([]);
  });

  it('user: an honest empty profile is null, weibo.com not asked', async () => {
    const { ctx, asked } = ctxWith([[M, () => ({ body: EMPTY })], [PC, () => ({ body: pcProfile })]]);
    expect(await user.run(ctx, { query: '000' })).toBeNull();
    expect(onWeibo(asked)).toEqual([]);
  });

  it("user: a screen name resolves through weibo.com's profile/info?screen_name when the user search fails, exact name only", async () => {
    const { ctx, asked } = ctxWith([
      [/100103type%3D3/, () => ({ status: 502, body: '' })],
      [/profile\/info\?screen_name=/, () => ({ body: pcProfile })],
      [/containerid=1005056279793937/, () => ({ body: recorded(resolve(FIXTURES, 'user-arknights-profile.har')) })],
    ]);
    expect((await user.run(ctx, { query: '@明日方舟arknights' }))?.id).toBe('6279793937');
    expect(asked[1]).toBe(`https://weibo.com/ajax/profile/info?screen_name=${encodeURIComponent('明日方舟arknights')}`);
    const other = ctxWith([[/100103type%3D3/, () => ({ status: 502, body: '' })], [/profile\/info/, () => ({ body: pcProfile })]]);
    await expect(user.run(other.ctx, { query: '@明日方舟' })).rejects.toThrow(InvalidInput);
  });

  it.each(nonTerminal)('comments: weibo.com buildComments after %s on hotflow', async (_why, answer) => {
    const { ctx, asked } = ctxWith([[M, answer], [/buildComments/, () => ({ body: pcComments })]]);
    const page = await comments.page(ctx, { query: '4651022958219023' });
    expect(onWeibo(asked)).toEqual(['https://weibo.com/ajax/statuses/buildComments?is_reload=1&id=4651022958219023&is_show_bulletin=2&is_mix=0&count=20&flow=0']);
    expect(page).toMatchObject({ total: 517, next_cursor: 'pc:139013405861129' });
    expect(page.items.filter((c) => c.parent_id)).toHaveLength(3);
  });

  it.each(terminal)('comments: %s on hotflow is the answer', async (_why, answer, code) => {
    const { ctx, asked } = ctxWith([[M, answer], [PC, () => ({ body: pcComments })]]);
    expect(((await comments.page(ctx, { query: '4651022958219023' }).catch((e: unknown) => e)) as CrawlError).code).toBe(code);
    expect(onWeibo(asked)).toEqual([]);
  });

  it('comments: an honest empty hotflow stays empty; cursors keep to the site that made them', async () => {
    const empty = ctxWith([[M, () => ({ body: EMPTY })], [PC, () => ({ body: pcComments })]]);
    expect(await comments.page(empty.ctx, { query: '4651022958219023' })).toEqual({ items: [] });
    expect(onWeibo(empty.asked)).toEqual([]);
    const down = ctxWith([[M, () => ({ status: 502, body: '' })], [PC, () => ({ body: pcComments })]]);
    await expect(comments.page(down.ctx, { query: '4651022958219023' }, '138893602117834:0')).rejects.toThrow(/502/);
    expect(onWeibo(down.asked)).toEqual([]);
    const pc = ctxWith([[PC, () => ({ body: pcComments })]]);
    await comments.page(pc.ctx, { query: '4651022958219023' }, 'pc:139013405861129');
    expect(pc.asked).toEqual(['https://weibo.com/ajax/statuses/buildComments?is_reload=1&id=4651022958219023&is_show_bulletin=2&is_mix=0&count=20&flow=0&max_id=139013405861129']);
  });

  it('detail: statuses/show, then the detail page, then weibo.com statuses/show', async () => {
    const { ctx, asked } = ctxWith([
      [/m\.weibo\.cn\/statuses\/show/, () => ({ status: 502, body: '' })],
      [/m\.weibo\.cn\/detail\//, () => html],
      [/weibo\.com\/ajax\/statuses\/show/, () => ({ body: pcShow })],
    ]);
    const page = await items.detail.page(ctx, { query: 'Kjc77D1jz' });
    expect(asked).toEqual(['https://m.weibo.cn/statuses/show?id=Kjc77D1jz', 'https://m.weibo.cn/detail/Kjc77D1jz', 'https://weibo.com/ajax/statuses/show?id=Kjc77D1jz']);
    expect(page.items[0]).toMatchObject({ native_id: '4645748019299849', type: 'video' });
  });

  it('detail: not_found on either m.weibo.cn route is final', async () => {
    const gone = '{"ok":0,"errno":"20101","msg":"target weibo does not exist!"}';
    const a = ctxWith([[/statuses\/show/, () => ({ body: gone })], [PC, () => ({ body: pcShow })]]);
    await expect(items.detail.page(a.ctx, { query: 'Kjc77D1jz' })).rejects.toThrow(NotFound);
    expect(onWeibo(a.asked)).toEqual([]);
    const b = ctxWith([
      [/m\.weibo\.cn\/statuses\/show/, () => ({ status: 502, body: '' })],
      [/\/detail\//, () => ({ body: '<html><body><p class="h5-4con">微博不存在或暂无查看权限!</p></body></html>' })],
      [PC, () => ({ body: pcShow })],
    ]);
    await expect(items.detail.page(b.ctx, { query: 'Kjc77D1jz' })).rejects.toThrow(NotFound);
    expect(onWeibo(b.asked)).toEqual([]);
  });

  it('detail: a failing weibo.com longtext keeps the preview with a warning', async () => {
    const notice = recorded(resolve(SANDBOX, 'pc-detail-statuses-show-Klpl5yu8T.har'));
    const { ctx, warnings } = ctxWith([[M, () => ({ status: 502, body: '' })], [/ajax\/statuses\/show/, () => ({ body: notice })], [/longtext/, () => ({ status: 500, body: '' })]]);
    const page = await items.detail.page(ctx, { query: 'Klpl5yu8T' });
    expect(page.items[0].text).toMatch(/请在本次闪断更新时$/);
    expect(warnings[0]).toMatch(/full text of 4651022958219023.*upstream_error/);
  });

  it('trending realtimehot: the container, then side/hotSearch, then s.weibo.com', async () => {
    const a = ctxWith([[M, () => ({ status: 502, body: '' })], [/hotSearch/, () => ({ body: pcHot })]]);
    expect(await trending.run(a.ctx, {})).toHaveLength(8);
    expect(a.asked.map((u) => new URL(u).host)).toEqual(['m.weibo.cn', 'weibo.com']);
    const b = ctxWith([[M, () => ({ status: 502, body: '' })], [/hotSearch/, () => ({ body: '{"ok":1,"data":{"realtime":[]}}' })], [/s\.weibo\.com/, () => ({ body: '<ul class="list_a"></ul>' })]]);
    expect(await trending.run(b.ctx, {})).toEqual([]);
    expect(b.asked.map((u) => new URL(u).host)).toEqual(['m.weibo.cn', 'weibo.com', 's.weibo.com']);
  });

  it('trending realtimehot: side/hotSearch after a failing container; an ok:-100 container is final; hot refuses the words', async () => {
    const a = ctxWith([[M, () => html], [/hotSearch/, () => ({ body: pcHot })]]);
    expect((await trending.run(a.ctx, { board: 'realtimehot' })).length).toBeGreaterThan(0);
    await expect(items.hot.page(a.ctx, { category: 'realtimehot' })).rejects.toThrow(/weibo\.trending with board=realtimehot/);
    const b = ctxWith([[M, () => ({ body: '{"ok":-100}' })], [/hotSearch/, () => ({ body: pcHot })]]);
    await expect(trending.run(b.ctx, { board: 'realtimehot' })).rejects.toThrow(SessionExpired);
    expect(onWeibo(b.asked)).toEqual([]);
  });
});

describe('other spellings of the same request, and bare cursors from outside callers', () => {
  const mblog = (id: string) => ({ card_type: 9, mblog: { id, mid: id, created_at: 'Tue Jun 08 09:35:04 +0800 2021', text: `text ${id}`, user: { id: 42, screen_name: 'n' } } });
  const board = JSON.stringify({ ok: 1, data: { cards: [{ card_type: 11, card_group: [{ card_type: 4, desc: '词一', desc_extr: '1200', actionlog: { ext: 'pos:1_0|realpos:1' }, scheme: 'https://m.weibo.cn/search?containerid=100103type%3D1%26q%3D%E8%AF%8D' }, { card_type: 4, desc: '词二', desc_extr: 900, pic: 'https://simg.s.weibo.com/20170303_img_search_2.png' }] }] } });

  it('trending reads the realtimehot board recorded under its once-escaped containerid', async () => {
    // The URL as a client that escapes the containerid once sends it.
    const plain = /containerid=106003type%3D25%26t%3D3%26disable_hot%3D1%26filter_type%3Drealtimehot(&|$)/;
    const tr = ctxWith([[plain, () => ({ body: board })]]);
    expect((await trending.run(tr.ctx, {})).map((t) => [t.word, t.rank, t.hot_value])).toEqual([
      ['词一', 1, 1200],
      ['词二', 2, 900],
    ]);
  });

  it('a real failure of the board is not retried under another spelling', async () => {
    const { ctx, asked } = ctxWith([[/m\.weibo\.cn/, () => ({ body: '{"ok":-100}' })]]);
    await expect(trending.run(ctx, { board: 'realtimehot' })).rejects.toThrow(SessionExpired);
    expect(asked).toHaveLength(1);
  });

  it('search reads a result page recorded under the "&t=0" spelling of the search container', async () => {
    const body = JSON.stringify({ ok: 1, data: { cardlistInfo: { page: 2 }, cards: [{ card_type: 11, card_group: [mblog('4645748019299849')] }] } });
    const { ctx, asked } = ctxWith([[/containerid=100103type%3D1%26q%3Dcats%26t%3D0/, () => ({ body })]]);
    const page = await items.search.page(ctx, { query: 'cats' });
    expect(page.items.map((i) => i.native_id)).toEqual(['4645748019299849']);
    expect(page.next_cursor).toBe('2');
    expect(asked[0]).toContain('containerid=100103type%3D1%26q%3Dcats&');
  });

  it('comments: a bare max_id pages hotflow, or buildComments when hotflow fails; "<max_id>:<type>" stays on hotflow', async () => {
    const pcPage = JSON.stringify({ ok: 1, data: [{ id: 5101466727221344, idstr: '5101466727221344', created_at: 'Sat Nov 16 22:38:31 +0800 2024', text: '第二页', like_counts: 3, user: { id: 7, screen_name: 'u' }, comments: [] }], max_id: 0, total_number: 21 });
    const a = ctxWith([[/weibo\.com\/ajax\/statuses\/buildComments/, () => ({ body: pcPage })]]);
    const page = await comments.page(a.ctx, { query: '5101466549487239' }, '139013405861129');
    expect(page.items.map((c) => [c.cid, c.text, c.likes])).toEqual([['5101466727221344', '第二页', 3]]);
    expect(page.next_cursor).toBeUndefined();
    expect(a.asked).toEqual([
      'https://m.weibo.cn/comments/hotflow?id=5101466549487239&mid=5101466549487239&max_id=139013405861129&max_id_type=0',
      'https://weibo.com/ajax/statuses/buildComments?is_reload=1&id=5101466549487239&is_show_bulletin=2&is_mix=0&count=20&flow=0&max_id=139013405861129',
    ]);
    const b = ctxWith([[/weibo\.com\/ajax\/statuses\/buildComments/, () => ({ body: pcPage })]]);
    await expect(comments.page(b.ctx, { query: '5101466549487239' }, '139013405861129:1')).rejects.toThrow(ReplayMiss);
    expect(b.asked).toHaveLength(1);
  });

  it('posts: a small bare number is a page number (the container page, then mymblog), never a since_id', async () => {
    const mPage = JSON.stringify({ ok: 1, data: { cardlistInfo: { page: 3 }, cards: [mblog('4645748019299850')] } });
    const a = ctxWith([[/containerid=10760342&page=2$/, () => ({ body: mPage })]]);
    const first = await items.posts.page(a.ctx, { query: '42' }, '2');
    expect(first.items.map((i) => i.native_id)).toEqual(['4645748019299850']);
    expect(first.next_cursor).toBe('page:3');
    const pc = JSON.stringify({ ok: 1, data: { list: [{ id: 4645748019299851, idstr: '4645748019299851', mblogid: 'KkB1c2d3e', created_at: 'Tue Jun 08 09:35:04 +0800 2021', text_raw: 'pc text', user: { id: 42, idstr: '42', screen_name: 'n' } }], since_id: '' } });
    const b = ctxWith([[/ajax\/statuses\/mymblog\?uid=42&page=2&/, () => ({ body: pc })]]);
    const second = await items.posts.page(b.ctx, { query: '42' }, '2');
    expect(second.items.map((i) => i.native_id)).toEqual(['4645748019299851']);
    expect(b.asked[0]).toBe('https://m.weibo.cn/api/container/getIndex?containerid=10760342&page=2');
    // A since_id (a status id) still goes to m.weibo.cn alone.
    const c = ctxWith([]);
    await expect(items.posts.page(c.ctx, { query: '42' }, '4645748019299800')).rejects.toThrow(ReplayMiss);
    expect(c.asked).toEqual(['https://m.weibo.cn/api/container/getIndex?containerid=10760342&since_id=4645748019299800']);
  });
});
