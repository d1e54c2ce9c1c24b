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
