import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import pino from 'pino';
import { describe, expect, it } from 'vitest';
import { Blocked, CrawlError, NotFound, ParseError, ReplayMiss, UpstreamError } from '../../src/crawl/errors.js';
import type { HttpRequest, HttpResponse } from '../../src/crawl/http.js';
import {
  ApiCodeError,
  ENDPOINTS,
  checkStatus,
  errorForCode,
  firstOf,
  getJson,
  interpret,
  mergeCookies,
  readJson,
  wbiKeys,
} from '../../src/platforms/bilibili/api.js';
import { commentsAction } from '../../src/platforms/bilibili/comments.js';
import { postsAction, recommendedAction, searchAction } from '../../src/platforms/bilibili/feeds.js';
import { followShortLink, resolveMid } from '../../src/platforms/bilibili/resolve.js';
import type { CrawlContext } from '../../src/platforms/types.js';
import { MemoryMemo } from '../../src/tasks/context.js';

const FIXTURES = resolve(process.cwd(), '../shared/fixtures/bilibili');
const recorded = (file: string): { text: string; status: number; headers: Record<string, string> } => {
  const e = JSON.parse(readFileSync(resolve(FIXTURES, file), 'utf8')).log.entries[0].response;
  return { text: e.content.text ?? '', status: e.status, headers: Object.fromEntries(e.headers.map((h: { name: string; value: string }) => [h.name.toLowerCase(), h.value])) };
};

function response(status: number, body: string, url = 'https://api.bilibili.com/x/web-interface/view', headers: Record<string, string> = {}): HttpResponse {
  const buf = Buffer.from(body, 'utf8');
  return { status, url, redirects: [], headers, body: buf, text: () => buf.toString('utf8'), json: () => JSON.parse(buf.toString('utf8')) };
}

type Answer = (req: HttpRequest) => HttpResponse | Promise<HttpResponse>;

/** A context whose http answers by URL prefix (first match wins, each answer reusable) and records what was asked. */
function fakeCtx(routes: Array<[string, Answer]>, session: CrawlContext['session'] = {}) {
  const asked: HttpRequest[] = [];
  const warnings: string[] = [];
  const http = {
    request: async (req: HttpRequest) => {
      asked.push(req);
      const route = routes.find(([prefix]) => req.url.startsWith(prefix));
      if (!route) throw new ReplayMiss(req.method ?? 'GET', req.url);
      return route[1](req);
    },
  };
  const ctx = { platform: 'bilibili', profile: 'default', http, session, memo: new MemoryMemo(), guest: Object.assign(new MemoryMemo(), { userAgent: 'test-agent' }), signal: new AbortController().signal, log: pino({ level: 'silent' }), warn: (m: string) => warnings.push(m) } as unknown as CrawlContext;
  return { ctx, asked, warnings };
}

const json = (o: unknown): Answer => (req) => response(200, JSON.stringify(o), req.url);
const NAV = recorded('error-101-nav-not-logged-in.har').text;
const SPI = json({ code: 0, data: { b_3: 'B3-VALUE', b_4: 'B4%3D' }, message: 'ok' });

const codeOf = (fn: () => unknown): string => {
  try {
    fn();
  } catch (e) {
    return e instanceof CrawlError ? e.code : `not a crawl error: ${String(e)}`;
  }
  return 'no error';
};

describe('bilibili outcome codes (interpret)', () => {
  it('code 0 hands back data', () => {
    const a = interpret(JSON.parse(recorded('user-card-mid2.har').text), 'card');
    expect(a.code).toBe(0);
    expect((a.data.card as { mid: string }).mid).toBe('2');
  });

  it('the recorded -352 risk-control answer is blocked', () => {
    expect(() => interpret(JSON.parse(recorded('error-352-risk-control.har').text), 'search')).toThrow(Blocked);
  });

  it('the recorded nav -101 is a login demand, unless the caller accepts it (WBI keys)', () => {
    expect(codeOf(() => interpret(JSON.parse(NAV), 'nav'))).toBe('session_expired');
    expect(interpret(JSON.parse(NAV), 'nav', [-101]).data.isLogin).toBe(false);
  });

  it.each([
    [-352, 'blocked'],
    [-412, 'blocked'],
    [-401, 'blocked'],
    [-101, 'session_expired'],
    [-102, 'session_expired'],
    [-404, 'not_found'],
    [-626, 'not_found'],
    [62002, 'not_found'],
    [62004, 'not_found'],
    [62012, 'not_found'],
    [-799, 'rate_limited'],
    [-509, 'rate_limited'],
    [-504, 'timeout'],
    [-400, 'upstream_error'],
    [-403, 'upstream_error'],
    [-500, 'upstream_error'],
    [12002, 'upstream_error'],
  ])('code %d → %s', (code, expected) => {
    expect(codeOf(() => interpret({ code, message: 'm', ttl: 1 }, 'x'))).toBe(expected);
    expect(errorForCode(code, 'm', 'x').code).toBe(expected);
  });

  it('an unmapped code keeps its number for callers that treat it specially (comments closed)', () => {
    const e = errorForCode(12002, '评论区已关闭', 'comments');
    expect(e).toBeInstanceOf(ApiCodeError);
    expect((e as ApiCodeError).apiCode).toBe(12002);
  });

  it('code 0 with only a v_voucher (search under risk control) is blocked, not empty', () => {
    expect(() => interpret({ code: 0, message: '0', data: { v_voucher: 'voucher_x' } }, 'search')).toThrow(Blocked);
    expect(interpret({ code: 0, data: { v_voucher: 'voucher_x', result: [] } }, 'search').data.result).toEqual([]);
  });

  it('bodies that are not bilibili envelopes are parse errors', () => {
    expect(() => interpret([], 'x')).toThrow(ParseError);
    expect(() => interpret({ data: {} }, 'x')).toThrow(ParseError);
    expect(() => interpret({ code: 'x' }, 'x')).toThrow(ParseError);
  });
});

describe('bilibili HTTP outcomes', () => {
  it.each([
    [412, 'blocked'],
    [403, 'blocked'],
    [404, 'not_found'],
    [429, 'rate_limited'],
    [500, 'upstream_error'],
    [400, 'upstream_error'],
  ])('HTTP %d → %s', (status, code) => {
    expect(codeOf(() => checkStatus(response(status, ''), 'x'))).toBe(code);
  });

  it('a captcha page where JSON is expected is blocked; other non-JSON is an upstream error', () => {
    expect(() => readJson(response(200, '<html><title>验证码</title></html>'), 'x')).toThrow(Blocked);
    expect(codeOf(() => readJson(response(200, '<html>hello</html>', undefined, { 'content-type': 'text/html' }), 'x'))).toBe('upstream_error');
  });

  it('the recorded -352 answer passes the HTTP check (status 200) and is then blocked by its code', async () => {
    const r = recorded('error-352-risk-control.har');
    const { ctx } = fakeCtx([
      [ENDPOINTS.spi, SPI],
      [ENDPOINTS.search, (req) => response(r.status, r.text, req.url, r.headers)],
    ]);
    await expect(getJson(ctx, ENDPOINTS.search, { what: 'search', query: { keyword: 'k' } })).rejects.toThrow(Blocked);
  });
});

describe('guest cookies', () => {
  it('are minted once from finger/spi, kept in memo and sent on every request', async () => {
    const { ctx, asked } = fakeCtx([
      [ENDPOINTS.spi, SPI],
      [ENDPOINTS.card, json({ code: 0, data: {} })],
    ]);
    await getJson(ctx, ENDPOINTS.card, { what: 'card', query: { mid: 2 } });
    await getJson(ctx, ENDPOINTS.card, { what: 'card', query: { mid: 3 } });
    expect(asked.map((r) => r.url)).toEqual([ENDPOINTS.spi, `${ENDPOINTS.card}?mid=2`, `${ENDPOINTS.card}?mid=3`]);
    expect(asked[1].headers?.Cookie).toBe('buvid3=B3-VALUE; buvid4=B4%3D');
    expect(asked[2].headers?.Cookie).toBe('buvid3=B3-VALUE; buvid4=B4%3D');
  });

  it('merge with the profile cookies; a profile that has buvid3 needs none', async () => {
    expect(mergeCookies('SESSDATA=s; bili_jct=j;', 'buvid3=b')).toBe('SESSDATA=s; bili_jct=j; buvid3=b');
    expect(mergeCookies(undefined, undefined)).toBeUndefined();
    const { ctx, asked } = fakeCtx([[ENDPOINTS.card, json({ code: 0, data: {} })]], { cookies: 'SESSDATA=s; buvid3=mine' });
    await getJson(ctx, ENDPOINTS.card, { what: 'card', query: { mid: 2 } });
    expect(asked.map((r) => r.url)).toEqual([`${ENDPOINTS.card}?mid=2`]);
    expect(asked[0].headers?.Cookie).toBe('SESSDATA=s; buvid3=mine');
  });

  it('a failed mint never fails the crawl: the request goes out without them and the mint is not retried at once', async () => {
    const { ctx, asked, warnings } = fakeCtx([
      [ENDPOINTS.spi, (req) => response(500, '', req.url)],
      [ENDPOINTS.card, json({ code: 0, data: {} })],
    ]);
    await getJson(ctx, ENDPOINTS.card, { what: 'card', query: { mid: 2 } });
    await getJson(ctx, ENDPOINTS.card, { what: 'card', query: { mid: 3 } });
    expect(asked.filter((r) => r.url === ENDPOINTS.spi)).toHaveLength(1);
    expect(asked[1].headers?.Cookie).toBeUndefined();
    expect(warnings[0]).toMatch(/guest cookies/);
  });
});

describe('WBI keys', () => {
  it('come from nav even when it answers -101, once per memo lifetime, and sign the request', async () => {
    const { ctx, asked } = fakeCtx([
      [ENDPOINTS.spi, SPI],
      [ENDPOINTS.nav, (req) => response(200, NAV, req.url)],
      [ENDPOINTS.search, json({ code: 0, data: { result: [] } })],
    ]);
    await getJson(ctx, ENDPOINTS.search, { what: 'search', sign: true, query: { keyword: 'a b', page: 1 } });
    await getJson(ctx, ENDPOINTS.search, { what: 'search', sign: true, query: { keyword: 'c', page: 1 } });
    expect(asked.filter((r) => r.url === ENDPOINTS.nav)).toHaveLength(1);
    const url = new URL(asked[asked.length - 2].url);
    expect(url.search).toMatch(/^\?keyword=a%20b&page=1&wts=\d+&w_rid=[0-9a-f]{32}$/);
    expect(await wbiKeys(ctx)).toEqual({ img: '7cd084941338484aae1ad9425b84077c', sub: '4932caff0ff746eab6f01bf08b70ac45' });
  });

  it('a profile whose SESSDATA no longer logs in is told so (nav -101), and the crawl goes on anonymously', async () => {
    const { ctx, warnings } = fakeCtx([[ENDPOINTS.nav, (req) => response(200, NAV, req.url)]], { cookies: 'SESSDATA=expired; buvid3=x' });
    await wbiKeys(ctx);
    expect(warnings).toEqual([expect.stringMatching(/login has lapsed/)]);
  });

  it('without nav the request goes out unsigned, with a warning, and nav is not asked again per page', async () => {
    const { ctx, asked, warnings } = fakeCtx([
      [ENDPOINTS.spi, SPI],
      [ENDPOINTS.search, json({ code: 0, data: { result: [] } })],
    ]);
    await getJson(ctx, ENDPOINTS.search, { what: 'search', sign: true, query: { keyword: 'k', page: 1 } });
    await getJson(ctx, ENDPOINTS.search, { what: 'search', sign: true, query: { keyword: 'k', page: 2 } });
    expect(asked.filter((r) => r.url === ENDPOINTS.nav)).toHaveLength(1);
    expect(asked[2].url).toBe(`${ENDPOINTS.search}?keyword=k&page=1`);
    expect(warnings[0]).toMatch(/WBI keys unavailable/);
  });

  it('a nav that is risk-controlled stops the crawl as blocked', async () => {
    const { ctx } = fakeCtx([
      [ENDPOINTS.spi, SPI],
      [ENDPOINTS.nav, (req) => response(200, recorded('error-352-risk-control.har').text, req.url)],
    ]);
    await expect(getJson(ctx, ENDPOINTS.search, { what: 'search', sign: true, query: { keyword: 'k' } })).rejects.toThrow(Blocked);
  });
});

describe('firstOf (equivalent endpoints)', () => {
  const miss1 = new ReplayMiss('GET', 'https://api.bilibili.com/x/v2/reply/wbi/main?oid=2');
  const miss2 = new ReplayMiss('GET', 'https://api.bilibili.com/x/v2/reply?oid=2');

  it('falls through on upstream errors and replay misses, in order', async () => {
    expect(await firstOf([async () => { throw new UpstreamError('x'); }, async () => { throw miss1; }, async () => 'third'])).toBe('third');
  });

  it('stops at a terminal outcome', async () => {
    await expect(firstOf([async () => { throw new NotFound(); }, async () => 'never'])).rejects.toThrow(NotFound);
    await expect(firstOf([async () => { throw new Blocked(); }, async () => 'never'])).rejects.toThrow(Blocked);
  });

  it('reports the first replay miss when nothing can be replayed, else the last real failure', async () => {
    await expect(firstOf([async () => { throw miss1; }, async () => { throw miss2; }])).rejects.toBe(miss1);
    const up = new UpstreamError('down');
    await expect(firstOf([async () => { throw miss1; }, async () => { throw up; }])).rejects.toBe(up);
  });
});

describe('short links and names', () => {
  it('follows b23.tv with HEAD, without following into bilibili itself, and remembers it', async () => {
    const { ctx, asked } = fakeCtx([['https://b23.tv/', (req) => response(302, '', req.url, { location: 'https://www.bilibili.com/video/BV1JxC6Y8EP5' })]]);
    expect((await followShortLink(ctx, 'https://b23.tv/BV1JxC6Y8EP5')).toString()).toBe('https://www.bilibili.com/video/BV1JxC6Y8EP5');
    await followShortLink(ctx, 'https://b23.tv/BV1JxC6Y8EP5');
    expect(asked).toEqual([{ method: 'HEAD', url: 'https://b23.tv/BV1JxC6Y8EP5', followRedirects: false }]);
  });

  it('a dead short link is not found; one that leaves bilibili is refused', async () => {
    const dead = fakeCtx([['https://b23.tv/', (req) => response(404, '', req.url)]]);
    await expect(followShortLink(dead.ctx, 'https://b23.tv/nope')).rejects.toThrow(NotFound);
    const away = fakeCtx([['https://b23.tv/', (req) => response(302, '', req.url, { location: 'https://example.com/x' })]]);
    await expect(followShortLink(away.ctx, 'https://b23.tv/x')).rejects.toThrow(UpstreamError);
  });

  it('an @name takes only an exact user-search match', async () => {
    const search = (result: unknown[]) => json({ code: 0, data: { result } });
    const hit = fakeCtx([
      [ENDPOINTS.spi, SPI],
      [ENDPOINTS.nav, (req) => response(200, NAV, req.url)],
      [ENDPOINTS.search, search([{ mid: 1, uname: '洛天依的粉丝' }, { mid: 36081646, uname: '<em class="keyword">洛天依</em>' }])],
    ]);
    expect(await resolveMid(hit.ctx, '@洛天依')).toBe('36081646');
    expect(new URL(hit.asked[hit.asked.length - 1].url).searchParams.get('search_type')).toBe('bili_user');
    const miss = fakeCtx([
      [ENDPOINTS.spi, SPI],
      [ENDPOINTS.nav, (req) => response(200, NAV, req.url)],
      [ENDPOINTS.search, search([{ mid: 1, uname: '洛天依的粉丝' }])],
    ]);
    await expect(resolveMid(miss.ctx, '@洛天依')).rejects.toMatchObject({ code: 'invalid_request' });
  });
});

describe('older routes and odd answers', () => {
  const base = (): Array<[string, Answer]> => [
    [ENDPOINTS.spi, SPI],
    [ENDPOINTS.nav, (req) => response(200, NAV, req.url)],
  ];
  const path = (req: HttpRequest): string => req.url.replace(/\?.*$/, '');
  const param = (req: HttpRequest, name: string): string | null => new URL(req.url).searchParams.get(name);

  it('an answer prefixed by a -509 envelope is read from the envelope that follows, with a warning', () => {
    const warned: string[] = [];
    const body = '{"code":-509,"message":"too often","ttl":1}{"code":0,"message":"0","data":{"mid":7,"name":"n {x}"}}';
    expect(readJson(response(200, body), 'profile', (m) => warned.push(m))).toEqual({ code: 0, message: '0', data: { mid: 7, name: 'n {x}' } });
    expect(warned).toEqual([expect.stringContaining('-509')]);
    // Anything else that is not one JSON document is still refused.
    expect(() => readJson(response(200, '{"code":0}trailing'), 'x')).toThrow(ParseError);
    expect(() => readJson(response(200, '{"a":1}{"b":2}'), 'x')).toThrow(ParseError);
  });

  it('search falls back to the unsigned search/type path when the signed one is not answered', async () => {
    const hit = { type: 'video', bvid: 'BV1xx411c7mD', title: '<em class="keyword">k</em> one', author: 'a', mid: 5, duration: '1:05', pubdate: 1600000000, play: 10 };
    const { ctx, asked } = fakeCtx([...base(), [`${ENDPOINTS.searchType}?`, json({ code: 0, data: { numPages: 1, numResults: 1, result: [hit] } })]]);
    const page = await searchAction.page(ctx, { query: 'k' });
    expect(page.items.map((i) => [i.native_id, i.title, i.duration_s])).toEqual([['BV1xx411c7mD', 'k one', 65]]);
    expect(page.next_cursor).toBeUndefined();
    expect(asked.map(path).slice(-2)).toEqual([ENDPOINTS.search, ENDPOINTS.searchType]);
  });

  it('search reads the video group of search/all/v2 as the last resort (relevance order only)', async () => {
    const video = { type: 'video', bvid: 'BV1Hk4y1B7Cx', title: 'v', author: 'a', mid: 9, duration: '58:06', pubdate: 1594559234 };
    const answer = json({ code: 0, data: { numPages: 50, pageinfo: { video: { pages: 2 } }, result: [{ result_type: 'bili_user', data: [{ mid: 1 }] }, { result_type: 'video', data: [video] }] } });
    const { ctx, asked } = fakeCtx([...base(), [`${ENDPOINTS.searchAll}?`, answer]]);
    const page = await searchAction.page(ctx, { query: 'k' });
    expect(page.items.map((i) => i.native_id)).toEqual(['BV1Hk4y1B7Cx']);
    expect(page.next_cursor).toBe('2');
    expect(asked.map(path).filter((u) => u !== ENDPOINTS.spi && u !== ENDPOINTS.nav)).toEqual([ENDPOINTS.search, ENDPOINTS.searchType, ENDPOINTS.searchAllWbi, ENDPOINTS.searchAll]);
    const sorted = fakeCtx([...base(), [`${ENDPOINTS.searchAll}?`, answer]]);
    await expect(searchAction.page(sorted.ctx, { query: 'k', order: 'pubdate' })).rejects.toThrow(ReplayMiss);
  });

  it('comments fall back to the pre-WBI cursor list (x/v2/reply/main): next=0 opens it, cursor.next pages it', async () => {
    const reply = (rpid: number, extra: Record<string, unknown> = {}) => ({ rpid, mid: rpid * 10, member: { uname: `u${rpid}` }, content: { message: `m${rpid}` }, ctime: 1600000000 + rpid, like: rpid, rcount: 0, ...extra });
    const answer = json({ code: 0, data: { cursor: { is_end: false, next: 2, all_count: 9, mode: 3 }, top_replies: null, upper: { mid: 2 }, replies: [reply(11, { rcount: 1, replies: [reply(12, { parent: 11, root: 11 })] })] } });
    const { ctx, asked } = fakeCtx([...base(), [`${ENDPOINTS.replyMain}?`, answer]]);
    const page = await commentsAction.page(ctx, { query: 'av2' });
    expect(page.items.map((c) => [c.cid, c.parent_id])).toEqual([
      ['11', undefined],
      ['12', '11'],
    ]);
    expect(page.total).toBe(9);
    expect(page.next_cursor).toBe('n:2');
    const first = asked.find((r) => path(r) === ENDPOINTS.replyMain)!;
    expect([param(first, 'oid'), param(first, 'mode'), param(first, 'next')]).toEqual(['2', '3', '0']);
    expect(asked.map(path).indexOf(ENDPOINTS.replyMainWbi)).toBeLessThan(asked.map(path).indexOf(ENDPOINTS.replyMain));
    await commentsAction.page(ctx, { query: 'av2' }, 'n:2');
    expect(param(asked[asked.length - 1], 'next')).toBe('2');
  });

  it('recommended falls back to the unsigned feed, then the older index/top/rcmd home feed (data.item, or data as the list)', async () => {
    const card = (bvid: string, extra: Record<string, unknown> = {}) => ({ bvid, goto: 'av', title: `t ${bvid}`, owner: { mid: 3, name: 'o' }, stat: { view: 5, like: 2 }, pubdate: 1650000000, duration: 61, ...extra });
    const legacy = fakeCtx([...base(), [`${ENDPOINTS.rcmdLegacy}?`, json({ code: 0, message: '0', data: { item: [card('BV1Cu411z7mG'), card('', { goto: 'live', id: 9 })] } })]]);
    const page = await recommendedAction.page(legacy.ctx, {});
    expect(page.items.map((i) => [i.native_id, i.author, i.duration_s])).toEqual([['BV1Cu411z7mG', 'o', 61]]);
    expect(page.next_cursor).toBe('2');
    const tried = legacy.asked.map(path).filter((u) => u !== ENDPOINTS.spi && u !== ENDPOINTS.nav);
    expect(tried).toEqual([ENDPOINTS.rcmd, ENDPOINTS.rcmdUnsigned, ENDPOINTS.rcmdLegacy]);
    const old = legacy.asked[legacy.asked.length - 1];
    expect([param(old, 'fresh_idx'), param(old, 'ps'), param(old, 'version')]).toEqual(['1', '10', '1']);
    await recommendedAction.page(legacy.ctx, {}, '3');
    expect(param(legacy.asked[legacy.asked.length - 1], 'fresh_idx')).toBe('3');
    // An answer whose data is the list itself.
    const bare = fakeCtx([...base(), [`${ENDPOINTS.rcmdUnsigned}?`, json({ code: 0, data: [card('BV1xx411c7mD')] })]]);
    expect((await recommendedAction.page(bare.ctx, {})).items.map((i) => i.native_id)).toEqual(['BV1xx411c7mD']);
    // Nothing answers: the signed feed's miss is the one reported.
    await expect(recommendedAction.page(fakeCtx(base()).ctx, {})).rejects.toThrow(/wbi\/index\/top\/feed\/rcmd/);
  });

  it("posts: a bare feed offset as cursor pages the dynamics feed; a small number still pages the uploads", async () => {
    const { ctx, asked } = fakeCtx([
      ...base(),
      [`${ENDPOINTS.dynamicsSpace}?`, json({ code: 0, data: { has_more: false, items: [], offset: '' } })],
      [`${ENDPOINTS.arcSearchWbi}?`, json({ code: 0, data: { list: { vlist: [] }, page: { pn: 2, ps: 30, count: 31 } } })],
    ]);
    await postsAction.page(ctx, { query: '5' }, '915793667264872453');
    expect(path(asked[asked.length - 1])).toBe(ENDPOINTS.dynamicsSpace);
    expect(param(asked[asked.length - 1], 'offset')).toBe('915793667264872453');
    await postsAction.page(ctx, { query: '5' }, '2');
    expect(path(asked[asked.length - 1])).toBe(ENDPOINTS.arcSearchWbi);
    expect(param(asked[asked.length - 1], 'pn')).toBe('2');
  });
});
